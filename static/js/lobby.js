// The lobby: a live/reconnecting note for the table list's socket, and the create-a-table
// form: when the preset changes, show its description, keep the
// seat count within its limits and reset each house rule to that preset's default. The
// server checks everything again; without this script it resets the rules itself.
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
  const shownFor = form.querySelector("[name=options_for]");
  const privateBox = form.querySelector("[name=is_private]");
  const turn = form.querySelector("[name=turn_seconds]");

  function defaultsFor(input, name) {
    for (const pair of (input.dataset.defaults || "").split(" ")) {
      const [key, value] = pair.split("=");
      if (key === name) {
        return value;
      }
    }
    return null;
  }

  // A house rule is hidden where it cannot apply: the chosen preset settles it itself, it
  // belongs to other presets (partners by draw), or it needs a switch that is off (the
  // seconds to call Rummy without Rummy calls). Hidden rules keep their defaults, which is
  // what the server accepts; the server draws the same on a page loaded without script.
  function applyVisibility() {
    const name = preset.value;
    form.querySelectorAll("[data-option]").forEach((input) => {
      const field = input.closest(".field");
      if (!field) {
        return;
      }
      const fixed = (input.dataset.fixed || "").split(" ").includes(name);
      const elsewhere = input.dataset.onlyFor
        ? !input.dataset.onlyFor.split(" ").includes(name)
        : false;
      const switchBox = input.dataset.needs ? form.querySelector(`[name=${input.dataset.needs}]`) : null;
      const switchedOff = switchBox ? !switchBox.checked : false;
      field.hidden = fixed || elsewhere || switchedOff;
    });
  }

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
    form.querySelectorAll("[data-option]").forEach((input) => {
      const value = defaultsFor(input, name);
      if (value === null) {
        return;
      }
      if (input.type === "checkbox") {
        input.checked = value === "on";
      } else {
        input.value = value;
      }
    });
    form.querySelectorAll("[data-preset-text]").forEach((text) => {
      text.hidden = text.dataset.presetText !== name;
    });
    shownFor.value = name;
    applyVisibility();
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
  form.querySelectorAll("[data-needs]").forEach((input) => {
    const switchBox = form.querySelector(`[name=${input.dataset.needs}]`);
    if (switchBox) {
      switchBox.addEventListener("change", applyVisibility);
    }
  });
  applyPrivacy();
  applyVisibility();
})();
