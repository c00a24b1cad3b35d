// Notices for a signed-in player, on every page: one socket per page (ws/notices/), opened
// here because the base layout loads this file for signed-in players only.
//
// A notice appears in the #notices region (an aria-live region, so screen readers read it
// out), with a "Take me there" link when it has one and a Dismiss button (Escape on a
// focused notice dismisses it too). A dismissed notice is marked read on the server.
// On a player's own tournament lobby or table page, a "seated" or "moved" notice of that
// tournament takes the page to the new table by itself (it used to be the tournament
// socket's job). The browser's own notifications are opt-in: a button asks for permission,
// nothing asks on load; once allowed, a notice that arrives while the tab is hidden also
// shows as a system notification (one per notice, whatever the number of tabs: the tag).
(function () {
  "use strict";
  const region = document.getElementById("notices");
  if (!region || !window.WebSocket) return;
  const list = region.querySelector(".notice-list");
  const LAST = "rummy-notices-last";
  const SHOWN_AT_MOST = 3; // a stack that never covers a table's whole hand
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  let socket = null;
  let delay = 1000;

  function lastSeen() {
    try {
      return parseInt(window.localStorage.getItem(LAST) || "0", 10) || 0;
    } catch (e) {
      return 0;
    }
  }

  function remember(id) {
    try {
      if (id > lastSeen()) window.localStorage.setItem(LAST, String(id));
    } catch (e) {
      /* private mode: the page still shows live notices */
    }
  }

  function send(frame) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }

  function dismiss(item) {
    const id = parseInt(item.dataset.noticeId, 10);
    const next = item.nextElementSibling || item.previousElementSibling;
    item.remove();
    if (id) send({ type: "dismiss", id: id });
    if (!list.children.length) {
      region.classList.remove("has-notices");
    } else if (next) {
      const button = next.querySelector("button");
      if (button) button.focus();
    }
  }

  function followsHere(notice) {
    const live = document.getElementById("tourney-live");
    return (
      notice.follow &&
      notice.url &&
      live &&
      live.dataset.followSeat &&
      String(live.dataset.tournament) === String(notice.tournament)
    );
  }

  function show(notice) {
    if (list.querySelector(`[data-notice-id="${notice.id}"]`)) return;
    remember(notice.id);
    if (followsHere(notice)) {
      window.location.assign(notice.url);
      return;
    }
    const item = document.createElement("li");
    item.className = `notice notice-${notice.kind}`;
    item.dataset.noticeId = String(notice.id);
    const text = document.createElement("p");
    text.className = "notice-text";
    text.textContent = notice.text;
    item.appendChild(text);
    if (notice.url) {
      const link = document.createElement("a");
      link.href = notice.url;
      link.className = "notice-link";
      link.textContent = "Take me there";
      item.appendChild(link);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "link-button notice-dismiss";
    close.textContent = "Dismiss";
    close.setAttribute("aria-label", `Dismiss: ${notice.text}`);
    close.addEventListener("click", () => dismiss(item));
    item.appendChild(close);
    list.appendChild(item);
    while (list.children.length > SHOWN_AT_MOST) list.firstElementChild.remove(); // still listed in the lobby
    region.classList.add("has-notices");
    offerPermission();
    toSystem(notice);
  }

  function toSystem(notice) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    if (!document.hidden) return; // the page shows it already
    const shown = new Notification(notice.title || "Rummy 500", {
      body: notice.text,
      tag: `notice-${notice.id}`,
    });
    shown.addEventListener("click", () => {
      window.focus();
      if (notice.url) window.location.assign(notice.url);
    });
  }

  function offerPermission() {
    const allowed = "Notification" in window && Notification.permission === "default";
    document.querySelectorAll("[data-notice-permission]").forEach((button) => {
      button.hidden = !allowed;
    });
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-notice-permission]");
    if (!button || !("Notification" in window)) return;
    Notification.requestPermission().then(offerPermission);
  });

  list.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const item = event.target.closest && event.target.closest(".notice");
    if (item) {
      event.preventDefault();
      dismiss(item);
    }
  });

  function connect() {
    socket = new WebSocket(`${scheme}://${window.location.host}${region.dataset.socket}`);
    socket.addEventListener("open", () => {
      delay = 1000;
      region.dataset.connected = "1"; // for the browser tests: notices reach this page now
      send({ type: "since", after: lastSeen() }); // what came while no page was open
    });
    socket.addEventListener("message", (event) => {
      const data = JSON.parse(event.data);
      if (data.type === "notice") show(data);
    });
    socket.addEventListener("close", (event) => {
      delete region.dataset.connected;
      if (event.code === 4401 || event.code === 4403) return; // logged out: nothing to hear
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }

  offerPermission();
  connect();
})();
