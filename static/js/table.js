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
  // Sound starts from the account's preference (base.html's body class pref-sound-on/off).
  // The switch on this page changes it for this browser only, and is stored with the
  // preference it was changed against ("on/off": on here, off on the account), so a later
  // change of the account's preference wins again. A bare "on"/"off" is from before the
  // preference existed, when sound started off.
  const soundPreference = document.body.classList.contains("pref-sound-on") ? "on" : "off";

  function startingSound() {
    const [choice, against = "off"] = store.get("rummy.sound", "").split("/");
    if ((choice === "on" || choice === "off") && against === soundPreference) {
      return choice === "on";
    }
    return soundPreference === "on";
  }

  let soundOn = startingSound();
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

  // The hand is one Tab stop (its label says the arrow keys move within it): the card last
  // focused holds it, else the first card. Thirteen stops on the way from Draw to Meld
  // were thirteen presses of Tab for a keyboard player every turn.
  let handStop = null;
  function rovingHand() {
    const buttons = handButtons();
    const focused = buttons.find((b) => b === document.activeElement);
    const stop = focused || buttons.find((b) => b.dataset.card === handStop) || buttons[0];
    for (const button of buttons) {
      button.tabIndex = button === stop ? 0 : -1;
    }
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

  // Your own order of the hand (drag, or Shift+arrow keys on a card), kept in the browser
  // for this hand, so a reload restores it; "by suit" or "by rank" goes back to a sort.
  function handKey() {
    const state = tableState();
    return state && state.dataset.hand ? `rummy.order.${root.dataset.tableId}.${state.dataset.hand}` : null;
  }

  function ownOrder() {
    const key = handKey();
    if (!key) {
      return null;
    }
    try {
      const order = JSON.parse(store.get(key, "null"));
      return Array.isArray(order) ? order : null;
    } catch (_error) {
      return null;
    }
  }

  function saveOwnOrder() {
    const key = handKey();
    if (key) {
      store.set(key, JSON.stringify(handButtons().map((button) => button.dataset.card)));
    }
  }

  function applySort() {
    const holder = document.querySelector("#my-hand .hand-cards");
    const order = ownOrder();
    if (holder) {
      const key = sortMode === "rank" ? "rankOrder" : "suitOrder";
      const sorted = handButtons().sort((a, b) => Number(a.dataset[key]) - Number(b.dataset[key]));
      if (order) {
        // Cards not in the saved order (just drawn or taken) go to the right end.
        const left = [...order];
        const place = new Map();
        sorted.forEach((button) => {
          const at = left.indexOf(button.dataset.card);
          place.set(button, at >= 0 ? at : order.length + sorted.indexOf(button));
          if (at >= 0) {
            left[at] = null;
          }
        });
        sorted.sort((a, b) => place.get(a) - place.get(b));
      }
      sorted.forEach((button) => {
        button.draggable = true;
        holder.appendChild(button);
      });
    }
    document.querySelectorAll("[data-sort]").forEach((button) => {
      button.setAttribute("aria-pressed", String(!order && button.dataset.sort === sortMode));
    });
  }

  function moveCard(button, step) {
    const buttons = handButtons();
    const at = buttons.indexOf(button);
    const to = at + step;
    if (at < 0 || to < 0 || to >= buttons.length) {
      return;
    }
    const holder = button.parentElement;
    holder.insertBefore(button, step < 0 ? buttons[to] : buttons[to].nextSibling);
    saveOwnOrder();
    button.focus();
    const box = byId("announcer");
    if (box) {
      box.textContent = `${button.getAttribute("aria-label")}: place ${to + 1} of ${buttons.length}.`;
    }
  }

  // A push may replace the hand while a card is being dragged: the drag goes on with that
  // card's element in the new hand (moving the old one into it put a second copy there).
  function liveCard(card) {
    if (!card || card.isConnected) {
      return card;
    }
    return handButtons().find((button) => button.dataset.card === card.dataset.card) || null;
  }

  let dragged = null;
  root.addEventListener("dragstart", (event) => {
    const card = event.target.closest && event.target.closest(".hand-card");
    if (card) {
      dragged = card;
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", card.dataset.card);
    }
  });
  root.addEventListener("dragover", (event) => {
    if (dragged && event.target.closest && event.target.closest("#my-hand .hand-cards")) {
      event.preventDefault();
    }
  });
  root.addEventListener("drop", (event) => {
    const over = event.target.closest && event.target.closest(".hand-card");
    dragged = liveCard(dragged);
    if (dragged && over && over !== dragged) {
      event.preventDefault();
      const buttons = handButtons();
      const after = buttons.indexOf(over) > buttons.indexOf(dragged);
      over.parentElement.insertBefore(dragged, after ? over.nextSibling : over);
      saveOwnOrder();
      applySort();
    }
    dragged = null;
  });
  root.addEventListener("dragend", () => {
    dragged = null;
  });

  // A finger or a pen: the browser's drag and drop above is the mouse's, so a touch drags a
  // card along the hand with pointer events. A hand card has touch-action: pan-y, so a
  // sideways move is the page's to handle while an upward one still scrolls; a tap that does
  // not move stays a click (it selects the card).
  const DRAG_START_PX = 10;
  let pointerDrag = null;
  let swallowClick = false;

  function endPointerDrag() {
    const card = pointerDrag && liveCard(pointerDrag.card);
    if (card && pointerDrag.moving) {
      card.classList.remove("dragging");
      saveOwnOrder();
      applySort();
      const buttons = handButtons();
      const box = byId("announcer");
      if (box) {
        const place = buttons.indexOf(card) + 1;
        box.textContent = `${card.getAttribute("aria-label")}: place ${place} of ${buttons.length}.`;
      }
      swallowClick = true;
      window.setTimeout(() => {
        swallowClick = false;
      }, 400);
    }
    pointerDrag = null;
  }

  root.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse" || !event.isPrimary) {
      return;
    }
    const card = event.target.closest && event.target.closest("#my-hand .hand-card");
    if (card) {
      pointerDrag = { card, id: event.pointerId, x: event.clientX, moving: false };
    }
  });
  root.addEventListener("pointermove", (event) => {
    if (!pointerDrag || event.pointerId !== pointerDrag.id) {
      return;
    }
    const card = liveCard(pointerDrag.card);
    if (!card) {
      pointerDrag = null; // the card left the hand (played from another tab)
      return;
    }
    if (card !== pointerDrag.card && pointerDrag.moving) {
      card.classList.add("dragging");
    }
    pointerDrag.card = card;
    if (!pointerDrag.moving) {
      if (Math.abs(event.clientX - pointerDrag.x) < DRAG_START_PX) {
        return;
      }
      pointerDrag.moving = true;
      card.classList.add("dragging");
      try {
        card.setPointerCapture(event.pointerId);
      } catch (_error) {
        // the pointer is already gone; pointerup ends the drag
      }
    }
    event.preventDefault();
    // The card whose visible strip is under the finger (the cards overlap: each shows from
    // its left edge to the next card's); the dragged card takes its place.
    const buttons = handButtons();
    const lefts = buttons.map((button) => button.getBoundingClientRect().left);
    const over = buttons.find((button, at) => {
      const right = at + 1 < buttons.length ? lefts[at + 1] : button.getBoundingClientRect().right;
      return button !== card && event.clientX >= lefts[at] && event.clientX < right;
    });
    if (over) {
      const after = buttons.indexOf(over) > buttons.indexOf(card);
      over.parentElement.insertBefore(card, after ? over.nextSibling : over);
    }
  });
  root.addEventListener("pointerup", endPointerDrag);
  root.addEventListener("pointercancel", endPointerDrag);
  root.addEventListener(
    "click",
    (event) => {
      if (swallowClick && event.target.closest && event.target.closest("#my-hand .hand-card")) {
        swallowClick = false;
        event.preventDefault();
        event.stopPropagation();
      }
    },
    true,
  );

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

  function layOffChoice(action, bothEnds) {
    const label = cardLabel(action.reading || action.card);
    if (!bothEnds) {
      return label;
    }
    const suit = SUIT_SIGNS[(action.reading || action.card)[1]] || "";
    return action.ace_end === "low"
      ? `${label} low, before the 2${suit}`
      : `${label} high, after the K${suit}`;
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
      // An ace on a 2..K run fits both ends: the low end carries ace_end, the high end not.
      const bothEnds = matches.some((a) => a.ace_end === "low");
      offerReadings(
        bothEnds
          ? `The ${cardLabel(card)} fits both ends of meld ${meldId}. Lay it off:`
          : `The ${cardLabel(card)} fits meld ${meldId} more than one way. Lay it off as:`,
        matches.map((a) => ({ action: a, text: layOffChoice(a, bothEnds) })),
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
    const claim = button.dataset.kind === "claim_rummy";
    const take = { type: button.dataset.kind, depth: Number(button.dataset.depth) };
    // A single card (nothing comes with it) needs no second question; a deeper take, a
    // whole pile or a Rummy call says what comes along before it is sent.
    if (!claim && button.dataset.brings === "0") {
      send(take);
      return;
    }
    if (!box || !text) {
      return;
    }
    pendingTake = take;
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

  // The hint marks the cards of your hand that some legal meld or lay-off uses now: it reads
  // the server's legal moves, so it is never wrong and never shows more than they do.
  let hintOn = store.get("rummy.hint", "off") === "on";

  function applyHint() {
    const usable = new Set();
    if (hintOn) {
      legalActions().forEach((action) => {
        if (action.type === "meld") {
          action.cards.forEach((code) => usable.add(code));
        } else if (action.type === "lay_off" || action.type === "play_natural") {
          usable.add(action.card);
        }
      });
    }
    handButtons().forEach((button) => {
      const on = usable.has(button.dataset.card);
      button.classList.toggle("hint-card", on);
      const described = (button.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && id !== "hint-note");
      if (on) {
        described.push("hint-note");
      }
      if (described.length) {
        button.setAttribute("aria-describedby", described.join(" "));
      } else {
        button.removeAttribute("aria-describedby");
      }
    });
    const toggle = byId("hint-button");
    if (toggle) {
      toggle.setAttribute("aria-pressed", String(hintOn));
    }
  }

  function clearSelection() {
    handButtons().forEach((button) => button.setAttribute("aria-pressed", "false"));
    clearError();
  }

  // A pile card that cannot be taken is no button; a click on it says why instead of
  // doing nothing (the server words the reason from the legal moves: #pile[data-refusal]).
  root.addEventListener("click", (event) => {
    const face = event.target.closest && event.target.closest(".pile-fan .pcard");
    if (face && !face.classList.contains("pile-pick")) {
      const pile = byId("pile");
      showError((pile && pile.dataset.refusal) || "That card cannot be taken now.");
    }
  });

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
    } else if (target.dataset.command === "clear") {
      clearSelection();
    } else if (target.dataset.command === "hint") {
      hintOn = !hintOn;
      store.set("rummy.hint", hintOn ? "on" : "off");
      applyHint();
      // Turned on with nothing to mark, the hint would look broken: say so.
      if (hintOn && !document.querySelector("#my-hand .hint-card")) {
        showError("Nothing in your hand can be melded or laid off now.");
      } else {
        clearError();
      }
    } else if (target.classList.contains("panel-toggle")) {
      togglePanel(target);
    } else if (target.dataset.close === "hand-end") {
      closeSummary();
    } else if (target.id === "take-confirm-yes") {
      confirmTake(true);
    } else if (target.id === "take-confirm-no") {
      confirmTake(false);
    } else if (target.dataset.send) {
      send(JSON.parse(target.dataset.send));
    } else if (target.dataset.sort) {
      sortMode = target.dataset.sort;
      store.set("rummy.sort", sortMode);
      const key = handKey();
      if (key) {
        try {
          window.localStorage.removeItem(key);
        } catch (_error) {
          // nothing stored
        }
      }
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
    if (card && event.shiftKey && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      moveCard(card, event.key === "ArrowLeft" ? -1 : 1);
      event.preventDefault();
      return;
    }
    const steps = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (card && event.key in steps) {
      const buttons = handButtons();
      const at = Math.min(Math.max(buttons.indexOf(card) + steps[event.key], 0), buttons.length - 1);
      buttons[at].focus();
      event.preventDefault();
    }
  });

  root.addEventListener("focusin", (event) => {
    const card = event.target.closest && event.target.closest(".hand-card");
    if (card) {
      handStop = card.dataset.card;
      rovingHand();
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
      const box = byId("take-confirm");
      const asking = Boolean(box) && !box.hidden;
      const summary = byId("hand-end");
      if (summaryOpen() && (summary.contains(event.target) || (!asking && !root.dataset.open))) {
        closeSummary();
        return;
      }
      confirmTake(false);
      closePanels();
    }
  });

  // --- panels: history, scores, chat, table facts -------------------------------------------
  // Disclosure buttons (aria-expanded, aria-controls). The open panel is kept on #table-root,
  // which is never swapped, so a push that replaces #log or #score-sheet keeps it open.

  function panelButtons() {
    return Array.from(document.querySelectorAll(".panel-toggle"));
  }

  function openPanel(id) {
    if (id) {
      root.dataset.open = id;
    } else {
      delete root.dataset.open;
    }
    panelButtons().forEach((button) => {
      button.setAttribute("aria-expanded", String(button.getAttribute("aria-controls") === id));
    });
    if (id === "log") {
      scrollLogToNewest();
    }
    if (id === "chat-panel") {
      const unread = byId("chat-unread");
      if (unread) {
        unread.hidden = true;
      }
    }
  }

  function togglePanel(button) {
    const id = button.getAttribute("aria-controls");
    openPanel(root.dataset.open === id ? null : id);
  }

  function closePanels() {
    if (root.dataset.open) {
      const button = panelButtons().find((b) => b.getAttribute("aria-controls") === root.dataset.open);
      openPanel(null);
      if (button) {
        button.focus();
      }
    }
  }

  // A long pile scrolls inside its area; the top card (the newest, on the right) stays in view.
  function showPileTop() {
    const discards = document.querySelector("#pile .discards");
    if (discards) {
      discards.scrollLeft = discards.scrollWidth;
    }
    const scattered = document.querySelector("#pile .pile-fan-scattered");
    if (scattered) {
      scattered.scrollTop = scattered.scrollHeight;
    }
  }

  function scrollLogToNewest() {
    const lines = document.querySelector("#log .log-lines");
    if (lines) {
      lines.scrollTop = lines.scrollHeight;
    }
    const log = byId("log");
    if (log) {
      log.scrollTop = log.scrollHeight;
    }
  }

  // --- the hand-end summary: stays until its player closes it -------------------------------
  // The server renders the latest finished hand's summary through the next hand too; the
  // page remembers which one this player closed (per table, game and hand).

  function summaryKey() {
    const box = byId("hand-end");
    return box && box.dataset.handKey ? `rummy.closed.${box.dataset.handKey}` : null;
  }

  function applySummary() {
    const box = byId("hand-end");
    const key = summaryKey();
    if (box && key && store.get(key, "") === "1") {
      box.hidden = true;
    }
  }

  // When a hand's summary appears, focus goes to its heading, so a keyboard or screen-reader
  // user lands on it; never while they type (chat, a form field): that focus is theirs.
  // Closing it (its button or Escape) gives focus back where it was, or to the hand.
  let summaryFocused = "";
  let focusBeforeSummary = null;

  function typing() {
    const active = document.activeElement;
    if (!active || active === document.body) {
      return false;
    }
    const tag = active.tagName.toLowerCase();
    if (tag === "input") {
      return !["checkbox", "radio", "button", "submit", "reset", "range"].includes(active.type);
    }
    return ["textarea", "select"].includes(tag) || active.isContentEditable;
  }

  function focusSummary() {
    const box = byId("hand-end");
    const heading = byId("hand-end-heading");
    if (!box || !heading || box.hidden || box.dataset.current !== "true") {
      return;
    }
    const key = box.dataset.handKey || "";
    if (key === summaryFocused || typing()) {
      return;
    }
    summaryFocused = key;
    focusBeforeSummary = box.contains(document.activeElement) ? null : document.activeElement;
    heading.setAttribute("tabindex", "-1");
    heading.focus();
  }

  function summaryOpen() {
    const box = byId("hand-end");
    return Boolean(box) && !box.hidden && Boolean(summaryKey());
  }

  function closeSummary() {
    const key = summaryKey();
    if (key) {
      store.set(key, "1");
    }
    applySummary();
    const back = focusBeforeSummary;
    focusBeforeSummary = null;
    if (back && back !== document.body && document.contains(back) && !back.disabled) {
      back.focus();
      return;
    }
    const hand = document.querySelector("#my-hand .hand-card") || byId("ready-button");
    if (hand) {
      hand.focus();
    }
  }

  document.body.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt;
    if (form && form.classList && form.classList.contains("ready-form") && event.detail.successful) {
      const button = form.querySelector("button");
      if (button) {
        button.disabled = true;
        button.textContent = "Ready: waiting for the others";
      }
    }
  });

  // --- moves you can see ---------------------------------------------------------------------
  // Before each push the page notes where every card is; after it, what is new: a card new in
  // your hand (marked "just drawn"), new cards in a meld, a new top of the pile. Each new card
  // is highlighted and slides in from where it came from (your hand, the stock, the pile or
  // the seat of the player who moved). prefers-reduced-motion keeps the marks and drops the
  // movement. Nothing here decides anything: the cards are the server's.

  const MOTION_MS = 450;
  const reducedMotion = window.matchMedia
    ? window.matchMedia("(prefers-reduced-motion: reduce)")
    : { matches: false };
  let before = null;

  function rectOf(element) {
    return element ? element.getBoundingClientRect() : null;
  }

  function faceKey(element) {
    return element.dataset.card || element.getAttribute("aria-label") || "";
  }

  function cardsIn(selector) {
    return Array.from(document.querySelectorAll(selector));
  }

  function noteTable() {
    // [code, rect] per card: with two packs a hand may hold the same card twice.
    const hand = cardsIn("#my-hand .hand-card").map((button) => [button.dataset.card, rectOf(button)]);
    const melds = new Map();
    cardsIn("#melds .meld").forEach((meld) => {
      melds.set(meld.dataset.meld, cardsIn(`#melds .meld[data-meld="${meld.dataset.meld}"] .pcard`).map(faceKey));
    });
    const pile = cardsIn("#pile .pile-card .pcard");
    const actor = document.querySelector("#players .player-to-act");
    before = {
      hand,
      melds,
      pileCount: pile.length,
      pileTop: pile.length ? faceKey(pile[pile.length - 1]) : null,
      pileRect: rectOf(pile[pile.length - 1] || document.querySelector("#pile .discards")),
      stockRect: rectOf(document.querySelector("#pile .stock-back")),
      actorRect: rectOf(actor),
    };
  }

  function slideFrom(element, from) {
    element.classList.add("just-moved");
    if (!from || reducedMotion.matches || typeof element.animate !== "function") {
      return;
    }
    const to = element.getBoundingClientRect();
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) {
      return;
    }
    element.animate(
      [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: MOTION_MS, easing: "cubic-bezier(.2, .7, .3, 1)" },
    );
  }

  function without(list, items) {
    const left = [...list];
    return items.filter((item) => {
      const at = left.indexOf(item);
      if (at >= 0) {
        left.splice(at, 1);
        return false;
      }
      return true;
    });
  }

  function showMoves() {
    const was = before;
    before = null;
    if (!was) {
      keepDrawnMarks([]); // the page's first draw, or a swap that moved no card
      return;
    }
    document.querySelectorAll(".just-moved").forEach((element) => element.classList.remove("just-moved"));
    const pile = cardsIn("#pile .pile-card .pcard");
    // The new top of the pile: a discard, from the hand or the seat that made it.
    const top = pile[pile.length - 1];
    if (top && pile.length > was.pileCount && faceKey(top) !== was.pileTop) {
      slideFrom(top, handRectByLabel(was, top) || was.actorRect);
    }
    // New cards in the melds: from your hand (your own play) or the mover's seat.
    cardsIn("#melds .meld").forEach((meld) => {
      const faces = cardsIn(`#melds .meld[data-meld="${meld.dataset.meld}"] .pcard`);
      const old = was.melds.get(meld.dataset.meld) || [];
      const added = without(old, faces.map(faceKey));
      faces
        .filter((face) => added.includes(faceKey(face)))
        .forEach((face) => slideFrom(face, handRectByLabel(was, face) || was.actorRect));
    });
    // A card new in your hand: from the pile when the pile shrank, else from the stock.
    const handNow = handButtons();
    const fresh = [];
    if (was.hand.length > 0) {
      const codes = without(was.hand.map(([code]) => code), handNow.map((button) => button.dataset.card));
      const fromPile = pile.length < was.pileCount;
      // One card from the stock, or what a take brought from the pile; a whole new hand
      // (the next deal) slides in from the stock without the "just drawn" mark. Each new
      // code marks one card: a drawn second K♦ is new, the K♦ already held is not (the
      // copy further right, where a drawn card lands, is taken as the new one).
      const drawn = fromPile || codes.length === 1;
      const left = [...codes];
      handNow
        .slice()
        .reverse()
        .filter((button) => {
          const at = left.indexOf(button.dataset.card);
          if (at < 0) {
            return false;
          }
          left.splice(at, 1);
          return true;
        })
        .reverse()
        .forEach((button) => {
          slideFrom(button, fromPile ? was.pileRect : was.stockRect);
          if (drawn) {
            fresh.push(button.dataset.card);
          }
        });
    }
    keepDrawnMarks(fresh);
  }

  // A meld's faces carry the spoken name ("nine of clubs, scored by Ana"); the hand's
  // buttons carry the code and the name: match by the name's first words.
  function handRectByLabel(was, face) {
    const label = face.getAttribute("aria-label") || "";
    for (const [code, rect] of was.hand) {
      const name = cardName(code);
      if (name && label.startsWith(name)) {
        return rect;
      }
    }
    return null;
  }

  function cardName(code) {
    const ranks = { A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king" };
    const suits = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
    if (code === "JK") {
      return "joker";
    }
    return ranks[code[0]] && suits[code[1]] ? `${ranks[code[0]]} of ${suits[code[1]]}` : "";
  }

  // The drawn cards keep their mark for the rest of the turn (melding re-renders the hand).
  let drawnCodes = [];

  function markDrawn(button) {
    button.classList.add("just-drawn");
    const described = (button.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
    if (!described.includes("just-drawn-note")) {
      button.setAttribute("aria-describedby", ["just-drawn-note", ...described].join(" "));
    }
  }

  // Kept in this tab's session storage for the turn, so a reload mid-turn shows the mark
  // again (the server does not say which card came from the stock: nobody else may know).
  function drawnKey() {
    return `rummy.drawn.${root.dataset.tableId}`;
  }

  function savedDrawn(state) {
    try {
      const saved = JSON.parse(window.sessionStorage.getItem(drawnKey()) || "null");
      if (saved && saved.hand === state.dataset.hand && Array.isArray(saved.codes)) {
        return saved.codes.filter((code) => typeof code === "string");
      }
    } catch (_error) {
      // no storage (private mode) or a damaged entry: no mark after a reload
    }
    return [];
  }

  function storeDrawn(value) {
    try {
      if (value) {
        window.sessionStorage.setItem(drawnKey(), JSON.stringify(value));
      } else {
        window.sessionStorage.removeItem(drawnKey());
      }
    } catch (_error) {
      // no storage: the mark lasts while the page does
    }
  }

  function keepDrawnMarks(fresh) {
    const state = tableState();
    // A turn ends (or a new one has not drawn yet): no card is "just drawn" any more.
    if (!state || state.dataset.myTurn !== "true" || state.dataset.phase !== "play") {
      if (state) {
        storeDrawn(null);
      }
      drawnCodes = [];
      return;
    }
    if (fresh.length) {
      drawnCodes = fresh;
      storeDrawn({ hand: state.dataset.hand, codes: fresh });
    } else if (!drawnCodes.length) {
      drawnCodes = savedDrawn(state);
    }
    const left = [...drawnCodes];
    // From the right, as showMoves picks which copy of a card held twice is the new one.
    handButtons().reverse().forEach((button) => {
      const at = left.indexOf(button.dataset.card);
      if (at >= 0) {
        left.splice(at, 1);
        markDrawn(button);
      }
    });
  }

  root.addEventListener("htmx:wsBeforeMessage", (event) => {
    const message = event.detail.message;
    if (typeof message === "string" && !message.startsWith("{") && message.includes('id="table-state"')) {
      noteTable();
    }
  });

  // --- chat --------------------------------------------------------------------------------

  let unsent = ""; // the last line sent, put back in the box if the server refuses it

  document.addEventListener("submit", (event) => {
    if (event.target.id !== "chat-form") {
      return;
    }
    event.preventDefault();
    const input = byId("chat-input");
    const text = input.value.trim();
    if (text) {
      const error = byId("chat-error");
      if (error) {
        error.textContent = "";
      }
      sendChat(text);
      unsent = text;
      input.value = "";
    }
  });

  // A refused line (too fast, too long) comes back in #chat-error: the words go back into
  // the box, so the player can send them again instead of typing them anew.
  document.addEventListener("htmx:oobAfterSwap", (event) => {
    const target = event.detail.target;
    const error = byId("chat-error");
    const input = byId("chat-input");
    if (target && target.id === "chat-error" && error && error.textContent.trim() && input && !input.value) {
      input.value = unsent;
    }
  });

  document.addEventListener("htmx:oobAfterSwap", (event) => {
    const unread = byId("chat-unread");
    const target = event.detail.target;
    if (unread && target && target.id === "chat-log" && root.dataset.open !== "chat-panel") {
      unread.hidden = false;
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
      // The server's word stays ("to move", or "may call Rummy" in a call window); the time
      // is kept with its dot, so a narrow seat breaks the line before it, not inside it.
      if (!clock.dataset.doing) {
        clock.dataset.doing = clock.textContent.trim() || "to move";
      }
      clock.textContent = `${clock.dataset.doing} ·\u00a0${minutes}:${seconds}`;
      clock.classList.toggle("clock-warning", left <= 10);
    });
    withdrawReady();
  }

  // At a tournament table "Ready" is worth pressing only while the pause between hands runs:
  // the next round may never come (the event ended), so no new state would take it away.
  // (At a table of ours a late press still deals at once, so it stays.)
  // The server says how many seconds of the pause are left; they count from when this
  // rendering of the form arrived (a push replaces it with a fresh count).
  function withdrawReady() {
    const form = document.querySelector(".ready-form[data-pause-left]");
    if (!form || form.hidden) {
      return;
    }
    if (!form.dataset.hideAt) {
      form.dataset.hideAt = String(Date.now() + Number(form.dataset.pauseLeft) * 1000);
    }
    if (Number(form.dataset.hideAt) <= Date.now()) {
      form.hidden = true;
    }
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
    rovingHand();
    showMoves();
    turnAlert();
    tickClocks();
    applySummary();
    focusSummary();
    scrollLogToNewest();
    showPileTop();
    applyHint();
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
  // A seat's presence comes alone (games/partials/presence.html) to every page at the table,
  // but a player's page draws no presence for their own seat while they play (their hand
  // takes its place): one with nowhere to go is dropped here, not reported by htmx as an
  // error in the console.
  root.addEventListener("htmx:wsBeforeMessage", (event) => {
    const message = event.detail.message;
    const lone = typeof message === "string" && /^\s*<span id="(presence-\d+-now)"/.exec(message);
    if (lone && !byId(lone[1])) {
      event.preventDefault();
    }
  });
  // A push replaces whole regions; focus on an element with an id there (the summary's
  // heading, a button) would fall to the page's body: put it back on the new element.
  let focusedId = "";
  root.addEventListener("htmx:wsBeforeMessage", () => {
    focusedId = (document.activeElement && document.activeElement.id) || "";
  });
  root.addEventListener("htmx:wsAfterMessage", () => {
    const active = document.activeElement;
    const again = focusedId && byId(focusedId);
    if (again && (!active || active === document.body) && !again.disabled) {
      if (focusedId === "hand-end-heading") {
        again.setAttribute("tabindex", "-1");
      }
      again.focus({ preventScroll: true });
    }
    refresh();
  });

  // Cards and the buttons on melds and the pile have no id: focus on one died with the region
  // every push replaces (a bot's move too), and a keyboard player was sent back to the top of
  // the page. It goes back to the same card, or the card now at its place in the hand; from
  // the stock or the pile, to the card just drawn; from a meld's button, to that meld's.
  let focusedPlace = null;
  root.addEventListener("htmx:wsBeforeMessage", () => {
    const active = document.activeElement;
    const card = active && active.closest && active.closest("#my-hand .hand-card");
    if (card) {
      focusedPlace = { card: card.dataset.card, at: handButtons().indexOf(card) };
    } else if (active && active.classList && active.classList.contains("lay-off-button")) {
      focusedPlace = { meld: active.dataset.meld };
    } else if (active && (active.id === "draw-button" || (active.classList && active.classList.contains("pile-pick")))) {
      focusedPlace = { drawn: true };
    } else {
      focusedPlace = null;
    }
  });
  root.addEventListener("htmx:wsAfterMessage", () => {
    const place = focusedPlace;
    focusedPlace = null;
    const active = document.activeElement;
    if (!place || (active && active !== document.body)) {
      return;
    }
    const buttons = handButtons();
    let target = null;
    if (place.meld) {
      target = document.querySelector(`#melds .lay-off-button[data-meld="${place.meld}"]`);
    } else if (place.card) {
      target = buttons.find((button) => button.dataset.card === place.card);
    }
    if (!target && place.drawn) {
      target = buttons.find((button) => button.classList.contains("just-drawn"));
    }
    if (!target && buttons.length) {
      target = buttons[Math.min(Math.max(place.at || 0, 0), buttons.length - 1)];
    }
    if (target) {
      target.focus({ preventScroll: true });
    }
  });

  const sound = byId("sound-toggle");
  if (sound) {
    sound.checked = soundOn;
    sound.addEventListener("change", () => {
      soundOn = sound.checked;
      store.set("rummy.sound", `${soundOn ? "on" : "off"}/${soundPreference}`);
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
