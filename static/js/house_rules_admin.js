// The tournament admin form's house rules (the create-a-table form's fields): when the preset
// changes, reset each house rule to that preset's default and hide the ones it settles itself
// or that mean nothing in it, as the lobby's form does. The server checks everything again;
// without this script the form resets the rules itself and asks to check them.
"use strict";

// The admin loads form media in the page's head: wait for the form.
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("tournament_form");
  const preset = form && form.querySelector("select[name=preset]");
  if (!preset) {
    return;
  }
  const shownFor = form.querySelector("[name=options_for]");

  function defaultFor(input, name) {
    for (const pair of (input.dataset.defaults || "").split(" ")) {
      const [key, value] = pair.split("=");
      if (key === name) {
        return value;
      }
    }
    return null;
  }

  function applyVisibility(name) {
    form.querySelectorAll("[data-option]").forEach((input) => {
      const row = input.closest(".form-row");
      if (!row) {
        return;
      }
      const fixed = (input.dataset.fixed || "").split(" ").includes(name);
      const onlyFor = input.dataset.onlyFor;
      const elsewhere = onlyFor !== undefined && !onlyFor.split(" ").includes(name);
      row.hidden = fixed || elsewhere;
    });
  }

  preset.addEventListener("change", () => {
    const name = preset.value;
    form.querySelectorAll("[data-option]").forEach((input) => {
      const value = defaultFor(input, name);
      if (value === null) {
        return;
      }
      if (input.type === "checkbox") {
        input.checked = value === "on";
      } else {
        input.value = value;
      }
    });
    if (shownFor) {
      shownFor.value = name;
    }
    applyVisibility(name);
  });
  applyVisibility(preset.value);
});
