// The scoreboard page: swap in each view the server pushes. The server
// renders everything; this only applies it and records when (for the
// latency measurement: window.zbApplied holds {seq, at} in epoch ms).
(() => {
  "use strict";
  const view = document.getElementById("view");
  const conn = document.getElementById("conn");
  const url = document.body.dataset.events;
  window.zbApplied = [];

  function apply(m) {
    view.innerHTML = m.html;
    view.dataset.seq = m.seq;
    const at = performance.timeOrigin + performance.now();
    view.dataset.appliedAt = at.toFixed(3);
    window.zbApplied.push({ seq: m.seq, at: at });
    if (window.zbApplied.length > 2000) window.zbApplied.shift();
    const ol = view.querySelector(".moves ol");
    if (ol) ol.scrollTop = ol.scrollHeight;
  }

  let retry = 500;
  function connect() {
    const es = new EventSource(url);
    es.addEventListener("view", (e) => apply(JSON.parse(e.data)));
    es.onopen = () => {
      retry = 500;
      conn.hidden = true;
      document.body.classList.remove("lost");
    };
    es.onerror = () => {
      conn.hidden = false;
      document.body.classList.add("lost");
      if (es.readyState === EventSource.CLOSED) {
        // Refused (e.g. the server restarting): try again, backing off.
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 10000);
      }
    };
  }
  const ol = view.querySelector(".moves ol");
  if (ol) ol.scrollTop = ol.scrollHeight;
  connect();
})();
