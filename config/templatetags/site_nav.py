"""Navigation links that appear once the page they point to exists.

Later issues add pages (leaderboards, tournaments); base.html already names them, and
each link shows as soon as its URL name can be reversed.
"""

from __future__ import annotations

from django import template
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html

register = template.Library()


@register.simple_tag(takes_context=True)
def nav_link(context: template.Context, url_name: str, label: str) -> str:
    try:
        url = reverse(url_name)
    except NoReverseMatch:
        return ""
    request = context.get("request")
    current = request is not None and (
        request.path == url or (url != "/" and request.path.startswith(url))
    )
    if current:
        return format_html('<a href="{}" aria-current="page">{}</a>', url, label)
    return format_html('<a href="{}">{}</a>', url, label)
