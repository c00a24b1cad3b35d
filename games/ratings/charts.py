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
    # One game is one point: in the middle, not on top of its own label at the left edge.
    first = PAD if len(values) > 1 else WIDTH / 2

    def y(value: float) -> float:
        return HEIGHT - PAD - (value - low) / span * (HEIGHT - 2 * PAD)

    points = " ".join(f"{first + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
    last_x, last_y = first + (len(values) - 1) * step, y(values[-1])
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


def review_chart(
    series: Sequence[tuple[str, Sequence[tuple[int, float]]]], *, moves: int, label: str
) -> SafeString:
    """Expected hand score over a hand, one line per reviewed player (games.review).

    ``series``: (name, [(move number, expected score difference after that move)]). The x axis
    is the move number over the whole hand, so the players' lines line up; a dashed line marks
    zero (level with the others).
    """
    points_of = [(name, list(values)) for name, values in series if values]
    if not points_of or moves < 1:
        return mark_safe("")
    every = [value for _name, values in points_of for _move, value in values]
    low, high = min(0.0, *every), max(0.0, *every)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / max(moves, 1)

    def y(value: float) -> float:
        return HEIGHT - PAD - (value - low) / span * (HEIGHT - 2 * PAD)

    lines = format_html_join(
        "",
        '<polyline class="chart-line review-line-{}" points="{}"><title>{}</title></polyline>',
        (
            (
                index % 4 + 1,
                " ".join(f"{PAD + move * step:.1f},{y(value):.1f}" for move, value in values),
                name,
            )
            for index, (name, values) in enumerate(points_of)
        ),
    )
    legend = format_html_join(
        "",
        '<text class="chart-tick review-legend-{}" x="{}" y="14">{}</text>',
        ((index % 4 + 1, PAD + index * 140, name) for index, (name, _v) in enumerate(points_of)),
    )
    ticks = format_html_join(
        "",
        '<text class="chart-tick" x="2" y="{}">{}</text>',
        ((f"{y(v) + 4:.1f}", f"{v:+.0f}") for v in sorted({low, high})),
    )
    return format_html(
        '<svg class="rating-chart review-chart" viewBox="0 0 {} {}" role="img" aria-label="{}">'
        "<title>{}</title>"
        '<line class="chart-axis" x1="{}" y1="{}" x2="{}" y2="{}"></line>'
        '<line class="chart-zero" x1="{}" y1="{}" x2="{}" y2="{}"></line>'
        "{}{}{}"
        "</svg>",
        WIDTH,
        HEIGHT,
        label,
        label,
        PAD,
        HEIGHT - PAD,
        WIDTH - PAD,
        HEIGHT - PAD,
        PAD,
        f"{y(0):.1f}",
        WIDTH - PAD,
        f"{y(0):.1f}",
        ticks,
        lines,
        legend,
    )
