// Live countdowns to a tournament's start: every element with data-countdown-to (an ISO
// time) shows how long is left ("in 2 h 05 min", "in 0:42", "starting now"). The exact time
// is always in the page next to it, so nothing is lost without scripts. Text changes only:
// no motion. Elements are looked up on each tick, so fragments htmx swaps in count down too.
(function () {
  "use strict";

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  function words(seconds) {
    if (seconds <= 0) return "starting now";
    const days = Math.floor(seconds / 86400);
    const hours = Math.floor((seconds % 86400) / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    const secs = seconds % 60;
    if (days > 0) return "in " + days + " d " + hours + " h";
    if (hours > 0) return "in " + hours + " h " + pad(minutes) + " min";
    return "in " + minutes + ":" + pad(secs);
  }

  function tick() {
    const now = Date.now();
    document.querySelectorAll("[data-countdown-to]").forEach(function (el) {
      const at = Date.parse(el.dataset.countdownTo);
      if (Number.isNaN(at)) return;
      const text = words(Math.ceil((at - now) / 1000));
      if (el.textContent !== "(" + text + ")") el.textContent = "(" + text + ")";
    });
  }

  tick();
  window.setInterval(tick, 1000);
})();
