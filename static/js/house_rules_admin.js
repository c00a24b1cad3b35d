// The tournament admin form's house rules behave as in the lobby's form (house_rules.js).
"use strict";

// The admin loads form media in the page's head: wait for the form.
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("tournament_form");
  const preset = form && form.querySelector("select[name=preset]");
  if (!preset) {
    return;
  }
  const rules = window.houseRules(form, preset, ".form-row");
  preset.addEventListener("change", rules.resetToPreset);
});
