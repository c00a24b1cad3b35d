// The finished-game replay: one position at a time, with buttons and the arrow keys.
// Without this script every position is listed, which reads well too.
"use strict";

(() => {
  const steps = Array.from(document.querySelectorAll(".replay-step"));
  const controls = document.querySelector(".replay-controls");
  if (!steps.length || !controls) {
    return;
  }
  const position = controls.querySelector(".replay-position");
  let current = 0;

  function show(index) {
    current = Math.max(0, Math.min(index, steps.length - 1));
    steps.forEach((step, i) => {
      step.hidden = i !== current;
    });
    position.textContent = `Position ${current + 1} of ${steps.length}`;
  }

  controls.addEventListener("click", (event) => {
    const button = event.target.closest("[data-replay]");
    if (!button) {
      return;
    }
    const moves = { first: 0, prev: current - 1, next: current + 1, last: steps.length - 1 };
    show(moves[button.dataset.replay]);
  });

  document.addEventListener("keydown", (event) => {
    const tag = (event.target.tagName || "").toLowerCase();
    if (["input", "textarea", "select"].includes(tag)) {
      return;
    }
    if (event.key === "ArrowLeft") {
      show(current - 1);
    } else if (event.key === "ArrowRight") {
      show(current + 1);
    }
  });

  controls.hidden = false;
  show(0);
})();
