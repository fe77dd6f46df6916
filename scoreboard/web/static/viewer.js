// The game viewer (/results/GAME): step through a finished game with the
// buttons, the arrow keys (Home, End, Page Up/Down by ten), the slider or
// a click on a move. Each position is the server's rendering of the
// game after that many turns (viewer.go), fetched once and kept; with
// "analysis" checked, with the forced-win search of that position.
// window.zbViewer.shown is the position shown, for the tests.
(() => {
  "use strict";
  const body = document.body;
  const view = document.getElementById("view");
  const slider = document.getElementById("slider");
  const pos = document.getElementById("pos");
  const ana = document.getElementById("analysis");
  const missedBtn = document.getElementById("missed");
  const missedOut = document.getElementById("missed-out");
  const base = body.dataset.base;
  const total = Number(body.dataset.turns);
  const lang = body.dataset.lang || "en";
  const cache = new Map();
  let missed = new Set();
  let want = Number(view.dataset.n);
  window.zbViewer = { shown: want, loads: 0 };

  // fmt fills the %d and %s of a message in order.
  const fmt = (f, ...args) => { let i = 0; return f.replace(/%[ds]/g, () => String(args[i++])); };

  function load(k) {
    const key = k + (ana.checked ? "a" : "");
    if (!cache.has(key)) {
      const url = base + "/pos/" + k + "?lang=" + encodeURIComponent(lang) + (ana.checked ? "&analysis=1" : "");
      const p = fetch(url).then((r) => (r.ok ? r.text() : r.text().then((t) => Promise.reject(new Error(t)))));
      p.catch(() => cache.delete(key));
      cache.set(key, p);
      window.zbViewer.loads++;
    }
    return cache.get(key);
  }

  function mark() {
    view.querySelectorAll(".moves li[data-n]").forEach((li) => li.classList.toggle("missed", missed.has(Number(li.dataset.n))));
  }

  async function go(k) {
    k = Math.max(0, Math.min(total, k));
    want = k;
    slider.value = String(k);
    pos.textContent = fmt(body.dataset.posFmt, k, total);
    let html;
    try {
      html = await load(k);
    } catch (e) {
      pos.textContent = e.message;
      return;
    }
    if (want !== k) return; // a later step came first
    view.innerHTML = html;
    view.dataset.n = String(k);
    mark();
    const cur = view.querySelector(".moves li.cur");
    if (cur) cur.scrollIntoView({ block: "nearest" });
    window.zbViewer.shown = k;
    if (k < total) load(k + 1).catch(() => {}); // the next step is likely
  }

  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(want - 1));
  document.getElementById("next").addEventListener("click", () => go(want + 1));
  document.getElementById("last").addEventListener("click", () => go(total));
  slider.addEventListener("input", () => go(Number(slider.value)));
  ana.addEventListener("change", () => go(want));
  view.addEventListener("click", (e) => {
    const li = e.target.closest(".moves li[data-n]");
    if (li) go(Number(li.dataset.n));
  });
  document.addEventListener("keydown", (e) => {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return; // the slider steps itself
    const to = { ArrowLeft: want - 1, ArrowRight: want + 1, Home: 0, End: total, PageUp: want - 10, PageDown: want + 10 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
  missedBtn.addEventListener("click", async () => {
    missedBtn.disabled = true;
    missedOut.textContent = body.dataset.searching;
    try {
      const r = await fetch(base + "/missed.json");
      if (!r.ok) throw new Error(await r.text());
      const m = await r.json();
      missed = new Set(m.missed);
      missedOut.textContent = m.missed.length ? fmt(body.dataset.missedFmt, m.missed.join(", ")) : fmt(body.dataset.noneFmt, m.max_turns);
      mark();
      window.zbViewer.missed = m.missed;
    } catch (e) {
      missedOut.textContent = e.message;
    } finally {
      missedBtn.disabled = false;
    }
  });
  const cur = view.querySelector(".moves li.cur");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  body.dataset.live = "1";
})();
