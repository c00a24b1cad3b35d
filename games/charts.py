"""Server-rendered SVG charts: no script, no inline style, so the page keeps its strict CSP.

Colours and strokes come from classes styled in ``static/css/leaderboards.css``.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT, PAD = 600, 200, 32


def rating_chart(values: Sequence[float], *, label: str) -> SafeString:
    """A line of ratings, oldest first, scaled to fit, with the lowest and highest marked.

    Evenly spaced by game rather than by date: a long break should not flatten the line.
    """
    if not values:
        return mark_safe("")
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / max(len(values) - 1, 1)

    def y(value: float) -> float:
        return HEIGHT - PAD - (value - low) / span * (HEIGHT - 2 * PAD)

    points = " ".join(f"{PAD + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
    last_x, last_y = PAD + (len(values) - 1) * step, y(values[-1])
    ticks = format_html_join(
        "",
        '<text class="chart-tick" x="4" y="{}">{}</text>',
        ((f"{y(v) + 4:.1f}", f"{v:g}") for v in sorted({low, high})),
    )
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {} {}" role="img" aria-label="{}">'
        "<title>{}</title>"
        '<line class="chart-axis" x1="{}" y1="{}" x2="{}" y2="{}"></line>'
        "{}"
        '<polyline class="chart-line" points="{}"></polyline>'
        '<circle class="chart-last" cx="{}" cy="{}" r="4"></circle>'
        "</svg>",
        WIDTH,
        HEIGHT,
        label,
        label,
        PAD,
        HEIGHT - PAD,
        WIDTH - PAD,
        HEIGHT - PAD,
        ticks,
        points,
        f"{last_x:.1f}",
        f"{last_y:.1f}",
    )
