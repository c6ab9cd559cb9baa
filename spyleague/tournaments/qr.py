"""The check-in QR code the event's screen shows, drawn by segno as inline SVG.

Inline SVG needs no script and no style attribute, so the site's Content-Security-Policy lets
it be (the colours are SVG presentation attributes). The code only holds the check-in address.
"""

from __future__ import annotations

from functools import lru_cache

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


@lru_cache(maxsize=64)
def qr_svg(text: str, *, title: str) -> SafeString:
    """``text`` as a QR code in an ``<svg>`` element that scales to its box (no width or
    height of its own), with ``title`` for screen readers."""
    code = segno.make(text, error="m", micro=False)
    svg = code.svg_inline(
        scale=1, border=2, omitsize=True, svgclass="qr", lineclass=None, dark="#000", light="#fff"
    )
    labelled = svg.replace("<svg ", f'<svg role="img" aria-label="{escape(title)}" ', 1)
    return mark_safe(labelled)  # segno's own markup; the title is escaped
