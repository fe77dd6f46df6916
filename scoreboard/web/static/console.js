// The arbiter console: apply the board list the server pushes, count the
// running clock down, and send actions (POST /console/act with the
// session's CSRF token), showing each reply.
(() => {
  "use strict";
  const view = document.getElementById("view");
  const conn = document.getElementById("conn");
  const pick = document.getElementById("board");
  const log = document.getElementById("log");
  const csrf = document.body.dataset.csrf;
  const lang = document.body.dataset.lang || "en";
  let received = performance.now();
  window.zbConsole = { applied: 0, results: [] };

  function boards() {
    const ids = Array.from(view.querySelectorAll("tr[data-board]")).map((tr) => tr.dataset.board);
    const keep = pick.value;
    if (ids.join("\n") !== Array.from(pick.options).map((o) => o.value).join("\n")) {
      pick.replaceChildren(...ids.map((id) => { const o = document.createElement("option"); o.value = o.textContent = id; return o; }));
      if (ids.includes(keep)) pick.value = keep;
    }
  }
  // The forms' player choices carry the chosen board's names.
  const generic = new Map();
  document.querySelectorAll('form.act select[name=winner] option, form.act select[name=player] option, form.act select[name=first] option')
    .forEach((o) => generic.set(o, o.textContent));
  function names() {
    const tr = Array.from(view.querySelectorAll("tr[data-board]")).find((r) => r.dataset.board === pick.value);
    const p = tr ? [tr.querySelector(".p0"), tr.querySelector(".p1")].map((e) => e && e.textContent) : [null, null];
    generic.forEach((text, o) => {
      const n = o.value === "" ? null : p[Number(o.value)]; // "— choose —" names no one
      o.textContent = n ? text + " · " + n : text;
    });
  }
  pick.addEventListener("change", names);

  function apply(m) {
    view.innerHTML = m.html;
    view.dataset.seq = m.seq;
    received = performance.now();
    window.zbConsole.applied++;
    boards();
    names();
    tick();
  }
  function fmt(ms) {
    if (ms < 0) ms = 0;
    if (ms < 10000) return "0:" + String(Math.floor(ms / 1000)).padStart(2, "0") + "." + Math.floor(ms % 1000 / 100);
    const s = Math.floor(ms / 1000);
    if (s >= 3600) return Math.floor(s / 3600) + ":" + String(Math.floor(s % 3600 / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }
  function tick() {
    const gone = performance.now() - received;
    view.querySelectorAll('.clock[data-running="true"]').forEach((c) => { c.textContent = fmt(Number(c.dataset.ms) - gone); });
  }
  setInterval(tick, 200);

  async function act(board, action, fields) {
    const body = new URLSearchParams(fields);
    body.set("board", board);
    body.set("action", action);
    body.set("lang", lang);
    const li = document.createElement("li");
    li.textContent = board + ": " + action + " …";
    log.prepend(li);
    let r;
    try {
      const resp = await fetch("/console/act", { method: "POST", body, headers: { "X-CSRF-Token": csrf }, credentials: "same-origin" });
      r = await resp.json();
    } catch (e) {
      r = { outcome: "failed", reason: String(e) };
    }
    r.board = board; r.action = action;
    window.zbConsole.results.push(r);
    li.className = r.outcome.replace(" ", "-");
    li.textContent = (r.text || (board + ": " + action + " → " + r.outcome + (r.reason ? " (" + r.reason + ")" : ""))) + (r.id ? " [" + r.id + "]" : "");
    return r;
  }
  window.zbConsole.act = act;

  view.addEventListener("click", (e) => {
    const b = e.target.closest("button");
    const tr = e.target.closest("tr[data-board]");
    if (!b || !tr) return;
    if (b.dataset.pick) { pick.value = tr.dataset.board; pick.scrollIntoView({ behavior: "smooth" }); return; }
    if (b.dataset.act === "answer") { act(tr.dataset.board, "answer", { question: b.dataset.question, option: b.dataset.option }); return; }
    if (b.dataset.act) act(tr.dataset.board, b.dataset.act, {});
  });
  // Declaring a result and adding time are confirmed first, in a dialog
  // that names the board, the player and what happens; the winner and the
  // player are never preselected.
  const dlg = document.getElementById("confirm");
  const fill = (f, ...a) => { let i = 0; return f.replace(/%[ds]/g, () => String(a[i++])); };
  const optText = (f, name) => { const s = f.querySelector("select[name=" + name + "]"); return s.options[s.selectedIndex].textContent; };
  // One question at a time, answered by its buttons or Esc (not by the
  // dialog's close event, which comes later and could answer the next).
  let pending = null;
  function answer(ok) {
    const resolve = pending;
    pending = null;
    if (dlg.open) dlg.close();
    if (resolve) resolve(ok);
  }
  document.getElementById("confirm-yes").addEventListener("click", (e) => { e.preventDefault(); answer(true); });
  document.getElementById("confirm-no").addEventListener("click", (e) => { e.preventDefault(); answer(false); });
  dlg.addEventListener("cancel", (e) => { e.preventDefault(); answer(false); });
  function confirmed(text) {
    if (pending) answer(false);
    return new Promise((resolve) => {
      pending = resolve;
      document.getElementById("confirm-text").textContent = text;
      dlg.showModal();
      window.zbConsole.asking = text;
    });
  }
  function refuse(f, text) {
    const li = document.createElement("li");
    li.className = "invalid";
    li.textContent = text;
    log.prepend(li);
    window.zbConsole.results.push({ outcome: "invalid", action: f.dataset.action, text });
  }
  document.querySelectorAll("form.act").forEach((f) => f.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!pick.value) return;
    const board = pick.value;
    const fields = Object.fromEntries(new FormData(f));
    let ask = "";
    if (f.dataset.action === "declare-result") {
      const how = optText(f, "result");
      if (fields.result === "draw") {
        delete fields.winner;
        ask = fill(dlg.dataset.draw, board);
      } else if (fields.winner === "") {
        return refuse(f, dlg.dataset.needWinner);
      } else {
        ask = fill(dlg.dataset.declare, board, optText(f, "winner"), how);
      }
    } else if (f.dataset.action === "add-time") {
      if (fields.player === "") return refuse(f, dlg.dataset.needPlayer);
      ask = fill(dlg.dataset.add, board, fields.seconds, optText(f, "player"));
    }
    if (ask && !(await confirmed(ask))) return;
    act(board, f.dataset.action, fields);
  }));

  let retry = 500;
  function connect() {
    const es = new EventSource("/console/events?lang=" + encodeURIComponent(lang));
    es.addEventListener("view", (e) => apply(JSON.parse(e.data)));
    es.onopen = () => { retry = 500; conn.hidden = true; document.body.classList.remove("lost"); };
    es.onerror = () => {
      conn.hidden = false;
      document.body.classList.add("lost");
      if (es.readyState === EventSource.CLOSED) {
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 10000);
      }
    };
  }
  boards();
  names();
  connect();
})();
