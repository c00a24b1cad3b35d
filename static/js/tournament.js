// Tournament pages: refetch the live fragment when the tournament's socket says it changed;
// on a player's lobby, go to the table when the socket says they were seated or moved.
(function () {
  "use strict";
  const live = document.getElementById("tourney-live");
  if (!live || !window.WebSocket) return;
  const id = live.dataset.tournament;
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  let delay = 1000;

  function connect() {
    const socket = new WebSocket(`${scheme}://${window.location.host}/ws/tournaments/${id}/`);
    socket.addEventListener("open", () => {
      delay = 1000;
      live.dataset.connected = "1"; // for people's tools and the browser tests: moves reach us now
    });
    socket.addEventListener("message", (event) => {
      const data = JSON.parse(event.data);
      if (data.type === "seated" && live.dataset.followSeat && data.url) {
        window.location.assign(data.url);
        return;
      }
      if (window.htmx) window.htmx.trigger(live, "tournament-changed");
    });
    socket.addEventListener("close", () => {
      delete live.dataset.connected;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }
  connect();
})();
