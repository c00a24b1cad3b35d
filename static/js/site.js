// Site-wide behaviour. Kept out of the HTML so a strict Content-Security-Policy can
// forbid inline scripts.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  // Ask before irreversible actions marked with data-confirm="question".
  document.body.addEventListener("submit", (event) => {
    const form = event.target;
    const question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
    }
  });
});
