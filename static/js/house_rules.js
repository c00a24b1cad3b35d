// House rules in a form (the lobby's create-a-table form and the tournament admin form share
// the fields of games.forms.HouseRulesMixin): when the preset changes, each rule goes back to
// that preset's default, and a rule is hidden where it cannot apply — the preset settles it
// itself, it belongs to other presets (partners by draw), or it needs a switch that is off (the
// seconds to call Rummy without Rummy calls). Hidden rules keep their defaults, which is what
// the server accepts; the server draws the same on a page loaded without script.
"use strict";

window.houseRules = (form, preset, rowSelector) => {
  function defaultFor(input, name) {
    for (const pair of (input.dataset.defaults || "").split(" ")) {
      const [key, value] = pair.split("=");
      if (key === name) {
        return value;
      }
    }
    return null;
  }

  function applyVisibility() {
    const name = preset.value;
    form.querySelectorAll("[data-option]").forEach((input) => {
      const row = input.closest(rowSelector);
      if (!row) {
        return;
      }
      const fixed = (input.dataset.fixed || "").split(" ").includes(name);
      const onlyFor = input.dataset.onlyFor;
      const elsewhere = onlyFor ? !onlyFor.split(" ").includes(name) : false;
      const switchBox = input.dataset.needs ? form.querySelector(`[name=${input.dataset.needs}]`) : null;
      const switchedOff = switchBox ? !switchBox.checked : false;
      row.hidden = fixed || elsewhere || switchedOff;
    });
  }

  function resetToPreset() {
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
    const shownFor = form.querySelector("[name=options_for]");
    if (shownFor) {
      shownFor.value = name;
    }
    applyVisibility();
  }

  form.querySelectorAll("[data-needs]").forEach((input) => {
    const switchBox = form.querySelector(`[name=${input.dataset.needs}]`);
    if (switchBox) {
      switchBox.addEventListener("change", applyVisibility);
    }
  });
  applyVisibility();
  return { applyVisibility, resetToPreset };
};
