// The table page: what htmx cannot do by itself. htmx's WebSocket extension keeps the
// socket and swaps the server's fragments; this script selects cards, turns clicks and keys
// into the JSON move frames of docs/protocol.md ({id, version, action}), keeps the hand
// sorted the way the player likes, and raises the your-turn alert. No inline scripts (CSP).
"use strict";

(() => {
  const root = document.getElementById("table-root");
  if (!root) {
    return;
  }

  // Refusals from the waiting-room buttons come back as 400 with an error fragment: show it.
  if (window.htmx) {
    htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "4..", swap: true, error: false },
      { code: "...", swap: false, error: true },
    ];
  }

  const store = {
    get(key, fallback) {
      try {
        return window.localStorage.getItem(key) ?? fallback;
      } catch (_error) {
        return fallback;
      }
    },
    set(key, value) {
      try {
        window.localStorage.setItem(key, value);
      } catch (_error) {
        // private mode: the preference lasts for this page only
      }
    },
  };

  let socket = null;
  let carried = null; // the selection across a push that replaces the hand (codes, a multiset)
  let moved = false; // our move was acknowledged: the next hand we get starts unselected
  let sortMode = store.get("rummy.sort", "suit");
  let soundOn = store.get("rummy.sound", "off") === "on";
  let wasMyTurn = false;
  let frameNumber = 0;
  let pendingTake = null;
  const baseTitle = document.title;

  const byId = (id) => document.getElementById(id);
  const tableState = () => byId("table-state");

  // --- talking to the server ---------------------------------------------------------------

  function frameId() {
    frameNumber += 1;
    return `m${Date.now().toString(36)}-${frameNumber}`;
  }

  function send(action) {
    const state = tableState();
    if (!socket || !state) {
      showError("Not connected to the table yet; try again in a moment.");
      return;
    }
    clearError();
    const frame = { id: frameId(), version: Number(state.dataset.version), action };
    socket.send(JSON.stringify(frame));
  }

  function sendChat(text) {
    if (!socket) {
      return;
    }
    socket.send(JSON.stringify({ type: "chat", text }));
  }

  function legalActions() {
    const controls = byId("controls");
    if (!controls || !controls.dataset.legal) {
      return [];
    }
    try {
      return JSON.parse(controls.dataset.legal);
    } catch (_error) {
      return [];
    }
  }

  function sameCards(a, b) {
    if (a.length !== b.length) {
      return false;
    }
    const left = [...a].sort();
    const right = [...b].sort();
    return left.every((card, i) => card === right[i]);
  }

  // --- errors next to the controls -----------------------------------------------------------

  function showError(message) {
    const box = byId("move-error");
    if (box) {
      box.textContent = message;
    }
  }

  function clearError() {
    const box = byId("move-error");
    if (box) {
      box.textContent = "";
    }
  }

  // --- the hand: selection and order --------------------------------------------------------

  function handButtons() {
    return Array.from(document.querySelectorAll("#my-hand .hand-card"));
  }

  // The pressed buttons are the selection; a push that replaces the hand re-presses what
  // is still in it.
  function selectedCards() {
    return handButtons()
      .filter((button) => button.getAttribute("aria-pressed") === "true")
      .map((button) => button.dataset.card);
  }

  function toggle(button) {
    const pressed = button.getAttribute("aria-pressed") === "true";
    button.setAttribute("aria-pressed", String(!pressed));
  }

  function reapplySelection() {
    if (carried === null) {
      return;
    }
    const buttons = handButtons();
    for (const card of carried) {
      const free = buttons.find(
        (b) => b.dataset.card === card && b.getAttribute("aria-pressed") !== "true",
      );
      if (free) {
        free.setAttribute("aria-pressed", "true");
      }
    }
    carried = null;
  }

  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    if (event.detail.target && event.detail.target.id === "my-hand") {
      carried = moved ? [] : selectedCards();
      moved = false;
    }
  });

  function applySort() {
    const holder = document.querySelector("#my-hand .hand-cards");
    if (holder) {
      const key = sortMode === "rank" ? "rankOrder" : "suitOrder";
      handButtons()
        .sort((a, b) => Number(a.dataset[key]) - Number(b.dataset[key]))
        .forEach((button) => holder.appendChild(button));
    }
    document.querySelectorAll("[data-sort]").forEach((button) => {
      button.setAttribute("aria-pressed", String(button.dataset.sort === sortMode));
    });
  }

  // --- commands ----------------------------------------------------------------------------

  function meld() {
    const selected = selectedCards();
    if (selected.length === 0) {
      showError("Select the cards you want to meld first.");
      return;
    }
    const matches = legalActions().filter((a) => a.type === "meld" && sameCards(a.cards, selected));
    if (matches.length > 1) {
      offerReadings(
        "These cards can be melded more than one way. Meld them as:",
        matches.map((a) => ({ action: a, text: labelList(a.reading || a.cards) })),
      );
      return;
    }
    send(matches[0] || { type: "meld", cards: [...selected] });
  }

  // --- declaring wild cards: when a selection can be read several ways, the player picks ------

  const SUIT_SIGNS = { C: "♣", D: "♦", H: "♥", S: "♠" };

  function cardLabel(code) {
    if (code === "JK") {
      return "Joker";
    }
    const rank = code[0] === "T" ? "10" : code[0];
    return code[1] === "*" ? `any ${rank}` : rank + SUIT_SIGNS[code[1]];
  }

  function labelList(codes) {
    return codes.map(cardLabel).join(" ");
  }

  function offerReadings(question, choices) {
    const box = byId("reading-choice");
    if (!box) {
      send(choices[0].action);
      return;
    }
    box.replaceChildren();
    const prompt = document.createElement("p");
    prompt.textContent = question;
    box.appendChild(prompt);
    choices.forEach((choice) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button button-secondary";
      button.dataset.send = JSON.stringify(choice.action);
      button.textContent = choice.text;
      box.appendChild(button);
    });
    box.hidden = false;
    box.querySelector("button").focus();
  }

  function discard() {
    const selected = selectedCards();
    if (selected.length !== 1) {
      showError("Select exactly one card to discard.");
      return;
    }
    send({ type: "discard", card: selected[0] });
  }

  function layOff(meldId) {
    const selected = selectedCards();
    if (selected.length !== 1) {
      showError("Select exactly one card to lay off.");
      return;
    }
    const card = selected[0];
    const matches = legalActions().filter(
      (a) => a.type === "lay_off" && a.card === card && a.meld === meldId,
    );
    if (matches.length > 1) {
      offerReadings(
        `The ${cardLabel(card)} fits meld ${meldId} more than one way. Lay it off as:`,
        matches.map((a) => ({ action: a, text: cardLabel(a.reading || a.card) })),
      );
      return;
    }
    // 5000: the natural card of a wild card in that meld goes in front of the player instead.
    const natural = legalActions().find(
      (a) => a.type === "play_natural" && a.card === card && a.meld === meldId,
    );
    send(matches[0] || natural || { type: "lay_off", card, meld: meldId });
  }

  function askTake(button) {
    const box = byId("take-confirm");
    const text = byId("take-confirm-text");
    if (!box || !text) {
      return;
    }
    const claim = button.dataset.kind === "claim_rummy";
    pendingTake = { type: button.dataset.kind, depth: Number(button.dataset.depth) };
    const call = byId("pile")?.dataset.claimWord || "Rummy";
    text.textContent = `${claim ? `Call ${call} and take` : "Take"} ${button.dataset.takeText}?`;
    box.hidden = false;
    byId("take-confirm-yes").focus();
  }

  function confirmTake(yes) {
    const box = byId("take-confirm");
    if (box) {
      box.hidden = true;
    }
    if (yes && pendingTake) {
      send(pendingTake);
    }
    pendingTake = null;
  }

  root.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target || !root.contains(target)) {
      return;
    }
    if (target.classList.contains("hand-card")) {
      toggle(target);
    } else if (target.dataset.command === "meld") {
      meld();
    } else if (target.dataset.command === "discard") {
      discard();
    } else if (target.classList.contains("lay-off-button")) {
      layOff(Number(target.dataset.meld));
    } else if (target.classList.contains("pile-pick")) {
      askTake(target);
    } else if (target.id === "take-confirm-yes") {
      confirmTake(true);
    } else if (target.id === "take-confirm-no") {
      confirmTake(false);
    } else if (target.dataset.send) {
      send(JSON.parse(target.dataset.send));
    } else if (target.dataset.sort) {
      sortMode = target.dataset.sort;
      store.set("rummy.sort", sortMode);
      applySort();
    } else if (target.dataset.copy) {
      const field = document.querySelector(target.dataset.copy);
      if (field && navigator.clipboard) {
        navigator.clipboard.writeText(field.value);
        target.textContent = "Copied";
      }
    }
  });

  // --- keyboard ----------------------------------------------------------------------------

  root.addEventListener("keydown", (event) => {
    const card = event.target.closest && event.target.closest(".hand-card");
    if (card && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      const buttons = handButtons();
      const at = buttons.indexOf(card);
      const next = buttons[at + (event.key === "ArrowLeft" ? -1 : 1)];
      if (next) {
        next.focus();
      }
      event.preventDefault();
    }
  });

  document.addEventListener("keydown", (event) => {
    const tag = (event.target.tagName || "").toLowerCase();
    if (["input", "textarea", "select"].includes(tag) || event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    const shortcuts = { d: "draw-button", m: "meld-button", x: "discard-button" };
    const id = shortcuts[event.key.toLowerCase()];
    const button = id && byId(id);
    if (button && !button.disabled) {
      button.click();
      event.preventDefault();
    } else if (event.key === "Escape") {
      confirmTake(false);
    }
  });

  // --- chat --------------------------------------------------------------------------------

  document.addEventListener("submit", (event) => {
    if (event.target.id !== "chat-form") {
      return;
    }
    event.preventDefault();
    const input = byId("chat-input");
    const text = input.value.trim();
    if (text) {
      sendChat(text);
      input.value = "";
    }
  });

  document.body.addEventListener("chatMuted", (event) => {
    const user = String(event.detail.user);
    document.querySelectorAll(`#chat-log [data-user-id="${user}"]`).forEach((line) => line.remove());
  });

  // --- your turn, the clock, the connection ------------------------------------------------

  function beep() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) {
      return;
    }
    const audio = new Context();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.18);
    tone.onended = () => audio.close();
  }

  function turnAlert() {
    const state = tableState();
    const mine = Boolean(state) && state.dataset.myTurn === "true";
    if (mine && !wasMyTurn) {
      document.title = `● Your turn · ${baseTitle}`;
      if (soundOn) {
        beep();
      }
    } else if (!mine) {
      document.title = baseTitle;
    }
    wasMyTurn = mine;
  }

  function tickClocks() {
    document.querySelectorAll(".player-clock[data-deadline]").forEach((clock) => {
      if (!clock.dataset.deadline) {
        return;
      }
      const left = Math.max(0, Math.round((Date.parse(clock.dataset.deadline) - Date.now()) / 1000));
      const minutes = Math.floor(left / 60);
      const seconds = String(left % 60).padStart(2, "0");
      clock.textContent = `to move · ${minutes}:${seconds}`;
      clock.classList.toggle("clock-warning", left <= 10);
    });
  }

  function setConnection(text) {
    const box = byId("connection");
    if (box) {
      box.textContent = text;
    }
  }

  let announced = "";

  function announce() {
    const state = tableState();
    const box = byId("announcer");
    const text = state ? state.textContent.replace(/\s+/g, " ").trim() : "";
    if (box && text && text !== announced) {
      announced = text;
      box.textContent = text;
    }
  }

  function refresh() {
    announce();
    reapplySelection();
    applySort();
    turnAlert();
    tickClocks();
  }

  root.addEventListener("htmx:wsOpen", (event) => {
    socket = event.detail.socketWrapper;
    setConnection("live");
  });
  root.addEventListener("htmx:wsClose", (event) => {
    // 4403/4404: the server refused this page's socket (no access); it will not come back.
    const code = event.detail.event ? event.detail.event.code : 0;
    setConnection(code >= 4000 ? "not live: refused" : "reconnecting…");
    // htmx retries abnormal closes (1006, 1011-1013) by itself; a clean close from a server
    // that is shutting down (1000, 1001) should come back too: the state is in the database.
    if ((code === 1000 || code === 1001) && event.detail.socketWrapper) {
      window.setTimeout(() => event.detail.socketWrapper.reconnect(), 1000 + Math.random() * 2000);
    }
  });
  root.addEventListener("htmx:wsBeforeMessage", (event) => {
    socket = event.detail.socketWrapper;
    const message = event.detail.message;
    if (typeof message === "string" && message.startsWith("{")) {
      // JSON frames (ack, pong) carry nothing to swap.
      event.preventDefault();
      try {
        moved = moved || JSON.parse(message).type === "ack";
      } catch (_error) {
        // not ours to read
      }
    }
  });
  root.addEventListener("htmx:wsAfterMessage", refresh);

  const sound = byId("sound-toggle");
  if (sound) {
    sound.checked = soundOn;
    sound.addEventListener("change", () => {
      soundOn = sound.checked;
      store.set("rummy.sound", soundOn ? "on" : "off");
    });
  }

  // Now and then the page tells the server which version it shows, and a server that has
  // moved on sends the current state: group messages reach a socket at most once (a Redis
  // restart drops those in flight), so a missed one heals within one interval. The same
  // ping is the seat's heartbeat (presence expires after two intervals without one), so a
  // hidden tab still pings, without a version: it needs no catching up until it is seen.
  function catchUp() {
    if (!socket) {
      return;
    }
    const state = tableState();
    if (state && document.visibilityState !== "hidden") {
      const version = Number(state.dataset.version);
      socket.send(JSON.stringify({ type: "ping", id: "catch-up", version }));
    } else {
      socket.send(JSON.stringify({ type: "ping", id: "heartbeat" }));
    }
  }
  document.addEventListener("visibilitychange", catchUp);
  window.setInterval(catchUp, 20000 + Math.random() * 5000);

  window.setInterval(tickClocks, 1000);
  refresh();
})();
