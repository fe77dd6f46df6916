// The scoreboard page: apply each view the server pushes, whole ("view")
// or as a patch on the view shown ("patch": the root's attributes and the
// parts, keyed by data-k, that changed), and count the running clock down.
// The server renders everything. For the latency measurement,
// window.zbApplied holds {seq, at} (epoch ms) of every view applied.
(() => {
  "use strict";
  const view = document.getElementById("view");
  const conn = document.getElementById("conn");
  const url = document.body.dataset.events;
  window.zbApplied = [];
  // ?scale= (an overlay's text size): the style sheet multiplies by --s.
  if (document.body.dataset.scale) document.body.style.setProperty("--s", document.body.dataset.scale);

  // A clock shows h:mm:ss, m:ss, or under ten seconds 0:ss.t, rounded down
  // (as the server renders it: clockview.go fmtClock).
  function fmtClock(ms) {
    const s = Math.floor(ms / 1000);
    const two = (n) => String(n).padStart(2, "0");
    if (ms >= 3600000) return Math.floor(s / 3600) + ":" + two(Math.floor(s / 60) % 60) + ":" + two(s % 60);
    if (ms >= 10000) return Math.floor(s / 60) + ":" + two(s % 60);
    return "0:" + two(s) + "." + Math.floor((ms % 1000) / 100);
  }

  // Every clock element new in the view gets the moment its time was
  // true: now, less the view's age when the server sent it.
  function stamp(age) {
    const base = performance.now() - (Number(age) || 0);
    view.querySelectorAll(".clock[data-ms]").forEach((el) => {
      if (el.zbBase === undefined) el.zbBase = base;
    });
    tick();
  }
  function tick() {
    const now = performance.now();
    view.querySelectorAll(".clock[data-running]").forEach((el) => {
      const left = Math.max(0, Number(el.dataset.ms) - (now - el.zbBase));
      const text = fmtClock(left);
      if (el.textContent !== text) el.textContent = text;
      if (left === 0) el.classList.add("flag");
    });
  }
  setInterval(tick, 100);

  function applied(m) {
    view.dataset.seq = m.seq;
    view.dataset.ver = m.ver;
    stamp(m.age);
    const at = performance.timeOrigin + performance.now();
    view.dataset.appliedAt = at.toFixed(3);
    window.zbApplied.push({ seq: m.seq, at: at });
    if (window.zbApplied.length > 2000) window.zbApplied.shift();
    const ol = view.querySelector(".moves ol");
    if (ol) ol.scrollTop = ol.scrollHeight;
  }

  function apply(m) {
    view.innerHTML = m.html;
    applied(m);
  }

  // patch applies m to the view it was made from (see patch.go): sets
  // attributes, appends content and replaces elements, each found by its
  // data-k ("" is the root); false if the page shows another view (then
  // the stream starts again, with the whole view).
  function patch(m) {
    const root = view.firstElementChild;
    if (!root || view.dataset.ver !== String(m.base)) return false;
    const find = (k) => (k === "" ? root : root.querySelector('[data-k="' + CSS.escape(k) + '"]'));
    const ops = [];
    for (const [k, attrs] of m.attrs || []) ops.push([find(k), "attrs", attrs]);
    for (const [k, html] of m.appends || []) ops.push([find(k), "append", html]);
    for (const [k, html] of m.parts || []) ops.push([find(k), "part", html]);
    if (ops.some(([el]) => !el)) return false;
    for (const [el, op, arg] of ops) {
      if (op === "attrs") {
        // A clock given a new time counts from now (stamp, below).
        if (el.getAttribute("data-ms") !== null) el.zbBase = undefined;
        const keep = new Set();
        for (let i = 0; i + 1 < arg.length; i += 2) {
          keep.add(arg[i]);
          if (el.getAttribute(arg[i]) !== arg[i + 1]) el.setAttribute(arg[i], arg[i + 1]);
        }
        for (const a of Array.from(el.attributes)) if (!keep.has(a.name)) el.removeAttribute(a.name);
      } else if (op === "append") {
        el.insertAdjacentHTML("beforeend", arg);
      } else {
        el.outerHTML = arg;
      }
    }
    window.zbPatched = (window.zbPatched || 0) + 1;
    applied(m);
    return true;
  }

  let retry = 500;
  let es = null;
  function connect() {
    es = new EventSource(url);
    const mine = es;
    es.addEventListener("view", (e) => apply(JSON.parse(e.data)));
    es.addEventListener("patch", (e) => {
      if (!patch(JSON.parse(e.data))) {
        mine.close();
        connect();
      }
    });
    es.onopen = () => {
      retry = 500;
      conn.hidden = true;
      document.body.classList.remove("lost");
    };
    es.onerror = () => {
      conn.hidden = false;
      document.body.classList.add("lost");
      if (mine.readyState === EventSource.CLOSED) {
        // Refused (e.g. the server restarting): try again, backing off.
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 10000);
      }
    };
  }
  // A board page can look back through the game under way: ← steps back
  // (→ forward, Home to the start), L, Esc or End return to live. The past
  // position is the server's rendering of the board's record at that turn
  // (viewer.go), shown in place of the live view, which stays up to date
  // underneath: hidden by body.past (style.css), never display: none, so
  // that the marbles' gradients, defined in its SVG first, still paint the
  // past board's. window.zbPast is the turn shown, or null when live.
  const board = document.body.dataset.board;
  window.zbPast = null;
  if (board && !document.body.classList.contains("overlay")) {
    const past = document.createElement("div");
    past.id = "past";
    past.hidden = true;
    view.after(past);
    const note = document.createElement("div");
    note.className = "pastnote";
    note.hidden = true;
    note.setAttribute("role", "status");
    document.body.append(note);
    const fmt = (f, ...a) => { let i = 0; return f.replace(/%[ds]/g, () => String(a[i++])); };
    const liveTurn = () => { const sb = view.querySelector(".sb[data-turn]"); return sb ? Number(sb.dataset.turn) : -1; };
    let want = null;
    const live = () => {
      want = null;
      window.zbPast = null;
      past.hidden = true;
      note.hidden = true;
      document.body.classList.remove("past");
    };
    const show = async (k) => {
      const total = liveTurn();
      if (total < 0) return;
      if (k >= total) return live();
      k = Math.max(0, k);
      want = k;
      const lang = document.documentElement.lang || "en";
      let html;
      try {
        const r = await fetch("/board/" + encodeURIComponent(board) + "/pos/" + k + "?lang=" + encodeURIComponent(lang));
        if (!r.ok) return;
        html = await r.text();
      } catch (e) {
        return;
      }
      if (want !== k) return; // a later step came first
      past.innerHTML = html;
      past.hidden = false;
      const cur = past.querySelector(".moves li.cur");
      if (cur) cur.scrollIntoView({ block: "nearest" });
      note.textContent = fmt(document.body.dataset.pastFmt || "%d / %d", k, total);
      note.hidden = false;
      document.body.classList.add("past");
      window.zbPast = k;
    };
    past.addEventListener("click", (e) => {
      const li = e.target.closest(".moves li[data-n]");
      if (li) show(Number(li.dataset.n));
    });
    document.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const at = want === null ? liveTurn() : want;
      switch (e.key) {
        case "ArrowLeft": show(at - 1); break;
        case "ArrowRight": if (want !== null) show(at + 1); break;
        case "Home": show(0); break;
        case "Escape": case "End": case "l": case "L": live(); break;
        default: return;
      }
      e.preventDefault();
    });
  }

  const ol = view.querySelector(".moves ol");
  if (ol) ol.scrollTop = ol.scrollHeight;
  stamp(view.dataset.age);
  document.body.dataset.live = "1"; // the script runs: clocks count
  connect();
})();
