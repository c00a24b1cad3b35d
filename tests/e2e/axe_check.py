"""axe-core as the browser tests run it: on a page at rest, failing on serious or critical.

A notice that arrives over its socket fades in for 0.2 s (`static/css/site.css`); axe run in
that moment reads its half-transparent text as low contrast. The page is checked once its
running animations have finished, as a person would see it.
"""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

FAILING_IMPACTS = ("serious", "critical")

_SETTLE = """async () => {
  const running = document.getAnimations().filter((a) => a.playState === "running");
  await Promise.all(running.map((a) => a.finished.catch(() => null)));
}"""


def describe(violation: dict[str, Any]) -> str:
    targets = ", ".join(str(node["target"]) for node in violation["nodes"][:5])
    return f"{violation['impact']}: {violation['id']} ({violation['help']}) at {targets}"


def violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page once no animation is running."""
    page.evaluate(_SETTLE)
    return Axe().run(page).response["violations"]


def serious_violations(page: Any) -> list[str]:
    """The serious and critical violations, described one per line."""
    return [describe(v) for v in violations(page) if v["impact"] in FAILING_IMPACTS]
