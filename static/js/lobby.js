// The lobby: a live/reconnecting note for the table list's socket, and the create-a-table
// form: when the preset changes, show its description, keep the seat count within its
// limits, and let house_rules.js reset and hide the house rules. The server checks
// everything again; without this script it resets the rules itself.
"use strict";

(() => {
  // "Join" refusals (already playing elsewhere, the table filled up) come back as 400 with an
  // error fragment for #lobby-error: show it rather than drop it.
  if (window.htmx) {
    htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "4..", swap: true, error: false },
      { code: "...", swap: false, error: true },
    ];
  }
  // The refusal shows above the list: a Join pressed further down would show nothing in
  // sight, so the message is brought into view (focus stays on the button pressed).
  document.addEventListener("htmx:oobAfterSwap", () => {
    const error = document.getElementById("lobby-error");
    if (error && error.textContent.trim()) {
      error.scrollIntoView({ block: "center" });
    }
  });
  const socket = document.getElementById("lobby-socket");
  const status = document.getElementById("connection-lobby");
  if (socket && status) {
    socket.addEventListener("htmx:wsOpen", () => {
      status.textContent = "live";
    });
    socket.addEventListener("htmx:wsClose", () => {
      status.textContent = "reconnecting…";
    });
  }
})();

(() => {
  const form = document.getElementById("create-form");
  if (!form) {
    return;
  }
  const presets = JSON.parse(form.dataset.presets || "{}");
  const preset = form.querySelector("[name=preset]");
  const seats = form.querySelector("[name=num_seats]");
  const privateBox = form.querySelector("[name=is_private]");
  const turn = form.querySelector("[name=turn_seconds]");
  const rules = window.houseRules(form, preset, ".field");

  function applyPreset() {
    const name = preset.value;
    const info = presets[name];
    if (!info) {
      return;
    }
    seats.min = info.min;
    seats.max = info.max;
    const count = Number(seats.value);
    if (count < info.min || count > info.max) {
      seats.value = Math.min(Math.max(count, info.min), info.max);
    }
    form.querySelectorAll("[data-preset-text]").forEach((text) => {
      text.hidden = text.dataset.presetText !== name;
    });
    rules.resetToPreset();
  }

  function applyPrivacy() {
    const untimed = turn.querySelector("option[value=untimed]");
    if (!untimed) {
      return;
    }
    untimed.disabled = !privateBox.checked;
    if (!privateBox.checked && turn.value === "untimed") {
      turn.value = "60";
    }
  }

  preset.addEventListener("change", applyPreset);
  privateBox.addEventListener("change", applyPrivacy);

  // A refused table comes back as the whole lobby, shown from its top: on a phone the reason
  // stood below the list of tables, out of sight, and the page looked as if nothing happened.
  // The first reason is brought into view, and focus goes to its field (or to the reason).
  const refusal = form.querySelector(".form-errors, .field-invalid");
  if (refusal) {
    refusal.scrollIntoView({ block: "center" });
    const field = refusal.querySelector("input, select");
    if (field) {
      field.focus({ preventScroll: true });
    } else {
      refusal.setAttribute("tabindex", "-1");
      refusal.focus({ preventScroll: true });
    }
  }
  applyPrivacy();
})();
