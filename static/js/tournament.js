// Tournament pages: refetch the live fragment when the tournament's socket says it changed;
// on a tournament table's page, refetch the banner (level, PCR, chips, result). Following a
// player's seat when they are seated or moved is notices.js's (the notice socket).
(function () {
  "use strict";
  const live = document.getElementById("tourney-live");
  if (!live || !window.WebSocket) return;
  const id = live.dataset.tournament;
  const banner = live.dataset.banner ? document.getElementById(live.dataset.banner) : null;
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  let delay = 1000;
  let fetching = null;
  let again = false; // a change came in while fetching: fetch once more after

  function refreshBanner() {
    const url = banner && banner.dataset.bannerUrl;
    if (!url) return;
    if (fetching) {
      again = true;
      return;
    }
    fetching = fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then((response) => (response.ok ? response.text() : null))
      .then((html) => {
        if (html !== null) banner.innerHTML = html;
      })
      .catch(() => {})
      .finally(() => {
        fetching = null;
        if (again) {
          again = false;
          refreshBanner();
        }
      });
  }

  function connect() {
    const socket = new WebSocket(`${scheme}://${window.location.host}/ws/tournaments/${id}/`);
    socket.addEventListener("open", () => {
      delay = 1000;
      live.dataset.connected = "1"; // for people's tools and the browser tests: moves reach us now
      refreshBanner(); // what changed while the socket was down
    });
    socket.addEventListener("message", (event) => {
      const data = JSON.parse(event.data);
      if (banner) {
        refreshBanner();
      } else if (window.htmx) {
        window.htmx.trigger(live, "tournament-changed");
      }
    });
    socket.addEventListener("close", (event) => {
      delete live.dataset.connected;
      // 4401/4403/4404: the server refused this socket (logged out, no access, no such
      // event); asking again would be refused again, every 30 s for as long as the page is open.
      if (event.code >= 4400 && event.code < 4500) {
        return;
      }
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }
  connect();
})();
