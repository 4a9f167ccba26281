"""Inline SVG charts for the batch report: a histogram and a horizontal bar chart.

Plain strings, no JavaScript, no external fonts: the report must render offline in any browser.
Every label is escaped; each bar carries a ``<title>`` so hovering shows the exact number.
"""

from __future__ import annotations

from html import escape

_FONT = 'font-family="system-ui, sans-serif" font-size="11"'


def histogram(counts: list[int], labels: list[str], *, title: str, width: int = 360, height: int = 160) -> str:
    """Vertical bars, one per bin; ``labels[i]`` names bin i (e.g. "90-100%")."""
    left, bottom, top = 30, 28, 18
    plot_w, plot_h = width - left - 6, height - bottom - top
    peak = max(counts, default=0) or 1
    n = max(len(counts), 1)
    bar_w = plot_w / n
    parts = [
        f'<svg class="chart" role="img" aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        f'<text x="{left}" y="12" {_FONT} font-weight="600">{escape(title)}</text>',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#888"/>',
        f'<text x="{left - 4}" y="{top + 8}" {_FONT} text-anchor="end">{peak}</text>',
        f'<text x="{left - 4}" y="{top + plot_h}" {_FONT} text-anchor="end">0</text>',
    ]
    for i, (count, label) in enumerate(zip(counts, labels)):
        h = plot_h * count / peak
        x = left + i * bar_w
        parts.append(
            f'<rect class="bar" x="{x + 1:.1f}" y="{top + plot_h - h:.1f}" width="{max(bar_w - 2, 1):.1f}" '
            f'height="{h:.1f}" fill="#4e79a7"><title>{escape(label)}: {count}</title></rect>'
        )
    step = max(1, n // 5)
    for i in range(0, n, step):
        x = left + i * bar_w
        parts.append(f'<text x="{x + 1:.1f}" y="{top + plot_h + 14}" {_FONT}>{escape(labels[i])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def bars(rows: list[tuple[str, float]], *, title: str, width: int = 560, unit: str = "%") -> str:
    """Horizontal bars for values in 0..100, one row per label, in the order given."""
    row_h, top, label_w = 18, 20, 260
    height = top + row_h * max(len(rows), 1) + 6
    plot_w = width - label_w - 50
    parts = [
        f'<svg class="chart" role="img" aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        f'<text x="0" y="12" {_FONT} font-weight="600">{escape(title)}</text>',
    ]
    for i, (label, value) in enumerate(rows):
        y = top + i * row_h
        w = plot_w * max(0.0, min(value, 100.0)) / 100.0
        colour = "#59a14f" if value >= 80 else "#edc948" if value >= 50 else "#e15759"
        short = label if len(label) <= 40 else label[:39] + "…"
        parts.append(f'<text x="{label_w - 6}" y="{y + 12}" {_FONT} text-anchor="end">{escape(short)}</text>')
        parts.append(
            f'<rect class="bar" x="{label_w}" y="{y + 2}" width="{max(w, 1):.1f}" height="{row_h - 5}" '
            f'fill="{colour}"><title>{escape(label)}: {value:.1f}{unit}</title></rect>'
        )
        parts.append(f'<text x="{label_w + w + 4:.1f}" y="{y + 12}" {_FONT}>{value:.0f}{unit}</text>')
    parts.append("</svg>")
    return "".join(parts)
