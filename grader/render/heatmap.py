"""Draw a :class:`~grader.results.Figure`: block heatmaps for a terminal, inline SVG for HTML.

The terminal picture is two grids side by side (yours, expected), two characters per cell, shaded
by value: ``░▒▓█`` from small to large (relative to the largest value of the figure), ``·`` for
exactly 0 (a masked key must be exactly 0, and tiny is not the same), ``??`` for NaN; a mask is
``█`` (may attend) or ``·`` (blocked). Rows where yours differs are marked at the right (and its
cells coloured, in colour terminals). Under ``NO_COLOR`` or in a terminal that cannot show UTF-8
the same picture is drawn in ASCII (``:+*#``, ``.``). ``-v`` adds the numbers.

The SVG is one self-contained ``<svg>`` (no script, no external font; every cell has a
``<title>`` with its value), for report.html and notebooks (``Figure._repr_html_``).
"""

from __future__ import annotations

import math
import os
import unicodedata
from html import escape

from grader.i18n import current
from grader.messages import t
from grader.results import Figure, Panel

#: Glyphs of the two alphabets: shades from small to large, exactly zero, not a number,
#: negative, mask on, row marker.
UNICODE = {"shades": ("░░", "▒▒", "▓▓", "██"), "zero": " ·", "nan": "??", "negative": "<0", "on": "██", "mark": "≠"}
ASCII = {"shades": ("::", "++", "**", "##"), "zero": " .", "nan": "??", "negative": "<0", "on": "##", "mark": "!="}

#: A learner value within this of the reference's counts as the same (the checks are stricter).
RTOL, ATOL = 1e-5, 1e-7
GAP = "    "

Segment = tuple[str, str]  # (text, rich style or "")


def use_unicode(encoding: str | None, environ: dict[str, str] | None = None) -> bool:
    """Unicode shading unless ``NO_COLOR`` is set or the output cannot encode it."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR", "") != "":
        return False
    try:
        "░▒▓█·≠".encode(encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


# --------------------------------------------------------------------------- values


def _finite(panels: tuple[Panel, ...]) -> list[float]:
    return [v for p in panels for row in p.values for v in row if v is not None]


def _scale(figure: Figure) -> float:
    """The value drawn darkest: the largest magnitude of the figure (both panels), 1 for a mask."""
    if figure.kind == "mask":
        return 1.0
    return max((abs(v) for v in _finite(figure.panels)), default=0.0) or 1.0


def _same(a: float | None, b: float | None, kind: str) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if kind == "mask":
        return (a != 0) == (b != 0)
    return abs(a - b) <= ATOL + RTOL * abs(b)


def differing(figure: Figure) -> list[list[bool]] | None:
    """Per cell of the learner's panel, whether it differs from the reference's (None: not comparable)."""
    if len(figure.panels) != 2:
        return None
    mine, expected = figure.panels[0].values, figure.panels[1].values
    if len(mine) != len(expected) or any(len(a) != len(b) for a, b in zip(mine, expected)):
        return None
    return [[not _same(a, b, figure.kind) for a, b in zip(r1, r2)] for r1, r2 in zip(mine, expected)]


def _glyph(value: float | None, figure: Figure, scale: float, glyphs: dict) -> str:
    if value is None:
        return glyphs["nan"]
    if figure.kind == "mask":
        return glyphs["on"] if value != 0 else glyphs["zero"]
    if value == 0:
        return glyphs["zero"]
    if value < 0:
        return glyphs["negative"]
    level = min(int(math.ceil(4 * value / scale)) - 1, 3)
    return glyphs["shades"][max(level, 0)]


def _shape(panel: Panel) -> tuple[int, int]:
    return len(panel.values), max((len(r) for r in panel.values), default=0)


# --------------------------------------------------------------------------- terminal


def text_lines(
    figure: Figure, *, checks: list[str] | None = None, unicode: bool = True, colour: bool = True,
    verbose: bool = False, width: int = 80, lang: str | None = None, heading: str | None = None,
) -> list[list[Segment]]:
    """The figure as lines of (text, style) segments: heading, the grids, the legend, with
    ``verbose`` the numbers. Styles are rich style names, empty when ``colour`` is False.
    ``heading`` replaces the first line (default: the title and the checks it was drawn for)."""
    lang = lang or current()
    glyphs = UNICODE if unicode else ASCII
    scale = _scale(figure)
    diff = differing(figure)
    lines: list[list[Segment]] = []
    if heading is None:
        heading = t("figure.heading", lang, title=figure.title, checks=t("sep.items", lang).join(checks or []))
    lines.append([(heading, "bold" if colour else "")])
    lines.append([(t("figure.axes", lang, rows=figure.rows, cols=figure.cols), "dim" if colour else "")])
    blocks = [_grid(figure, i, scale, glyphs, diff if i == 0 else None, colour, lang) for i in range(len(figure.panels))]
    marks = [any(row) for row in diff] if diff is not None else None
    side_by_side = sum(_block_width(b) for b in blocks) + len(GAP) * (len(blocks) - 1) + 3 <= width
    if side_by_side:
        height = max(len(b) for b in blocks)
        for r in range(height):
            line: list[Segment] = []
            for i, block in enumerate(blocks):
                if i:
                    line.append((GAP, ""))
                cells = block[r] if r < len(block) else [(" " * _block_width(block), "")]
                line.extend(_padded(cells, _block_width(block)))
            if marks is not None and 2 <= r and r - 2 < len(marks) and marks[r - 2]:
                line.append((" " + glyphs["mark"], "bold red" if colour else ""))
            lines.append(line)
    else:  # too narrow: one grid under the other
        for i, block in enumerate(blocks):
            for r, cells in enumerate(block):
                row = list(cells)
                if i == 0 and marks is not None and 2 <= r and r - 2 < len(marks) and marks[r - 2]:
                    row.append((" " + glyphs["mark"], "bold red" if colour else ""))
                lines.append(row)
    lines.extend([[(s, "dim" if colour else "")] for s in _legend(figure, scale, glyphs, diff, lang)])
    if verbose:
        for panel in figure.panels:
            lines.append([(t("figure.numbers", lang, label=panel.label), "")])
            for row in panel.values:
                lines.append([(" ".join(_number(v, figure.kind) for v in row), "")])
    return lines


def plain_lines(figure: Figure, **options) -> list[str]:
    """:func:`text_lines` without styles (ASCII unless ``unicode=True``): for plain-text outputs and tests."""
    options.setdefault("unicode", False)
    return ["".join(text for text, _ in line).rstrip() for line in text_lines(figure, colour=False, **options)]


def _number(value: float | None, kind: str) -> str:
    if value is None:
        return "  nan"
    if kind == "mask":
        return "    1" if value != 0 else "    0"
    return f"{value:5.2f}"


def _cells(text: str) -> int:
    """Columns ``text`` takes in a terminal (a Chinese character takes two)."""
    from rich.cells import cell_len

    return cell_len(text)


def _block_width(block: list[list[Segment]]) -> int:
    return max(sum(_cells(s) for s, _ in row) for row in block)


def _padded(cells: list[Segment], width: int) -> list[Segment]:
    used = sum(_cells(s) for s, _ in cells)
    return cells + ([(" " * (width - used), "")] if used < width else [])


def _grid(
    figure: Figure, index: int, scale: float, glyphs: dict, diff, colour: bool, lang: str
) -> list[list[Segment]]:
    """One panel: its label, the column numbers, then one line per row."""
    panel = figure.panels[index]
    n_rows, n_cols = _shape(panel)
    label_w = len(str(max(n_rows - 1, 0)))
    block: list[list[Segment]] = []
    block.append([(" " * (label_w + 1) + panel.label.get(lang), "bold" if colour else "")])
    block.append([(" " * (label_w + 1) + "".join(f"{j:>2}" for j in range(n_cols)), "dim" if colour else "")])
    for i, row in enumerate(panel.values):
        cells: list[Segment] = [(f"{i:>{label_w}} ", "dim" if colour else "")]
        for j, value in enumerate(row):
            wrong = diff is not None and diff[i][j]
            cells.append((_glyph(value, figure, scale, glyphs), ("red" if wrong else "") if colour else ""))
        block.append(cells)
    return block


def _legend(figure: Figure, scale: float, glyphs: dict, diff, lang: str) -> list[str]:
    zero, nan = glyphs["zero"].strip(), glyphs["nan"]
    if figure.kind == "mask":
        # A True/False mask cannot hold NaN; a float mask the learner returned can (−inf added to −inf).
        key = "figure.legend_mask_nan" if _holds_nan(figure) else "figure.legend_mask"
        lines = [t(key, lang, on=glyphs["on"][0], off=zero, nan=nan)]
    else:
        shades = "".join(s[0] for s in glyphs["shades"])
        lines = [t("figure.legend_shades", lang, shades=shades, top=f"{scale:.2g}", zero=zero, nan=nan)]
    if diff is not None and any(any(row) for row in diff):
        lines.append(t("figure.legend_differ", lang, mark=glyphs["mark"]))
    elif diff is None and len(figure.panels) == 2:
        shapes = [_shape(p) for p in figure.panels]
        lines.append(t("figure.shapes_differ", lang, yours=shapes[0], expected=shapes[1]))
    return lines


# --------------------------------------------------------------------------- SVG

_FONT = 'font-family="system-ui, sans-serif" font-size="11"'
_CELL = 16


def _fill(value: float | None, figure: Figure, scale: float) -> str:
    if value is None:
        return "#e15759"
    if figure.kind == "mask":
        return "#2b5d9b" if value != 0 else "#f4f4f4"
    if value == 0:
        return "#ffffff"
    if value < 0:
        return "#f28e2b"
    level = min(max(value / scale, 0.0), 1.0)
    light, dark = (0xEA, 0xF2, 0xFB), (0x08, 0x30, 0x6B)  # blues: light to dark
    r, g, b = (round(lo + (hi - lo) * level) for lo, hi in zip(light, dark))
    return f"#{r:02x}{g:02x}{b:02x}"


def _holds_nan(figure: Figure) -> bool:
    """Whether a cell of the figure is not a number (a float mask can hold NaN; a bool one cannot)."""
    return any(value is None for panel in figure.panels for row in panel.values for value in row)


def _text_px(text: str) -> float:
    """About how wide ``text`` is in the SVG's 11 px font (a Chinese character is about twice a letter)."""
    return sum(11.0 if unicodedata.east_asian_width(ch) in "WF" else 6.2 for ch in text)


def _wrap(text: str, width_px: float) -> list[str]:
    """``text`` in lines of at most ``width_px``: broken at spaces, or anywhere in a run without one."""
    lines, line = [], ""
    for ch in text:
        if _text_px(line + ch) > width_px and line:
            cut = line.rfind(" ")
            if ch != " " and cut > 0:
                lines.append(line[:cut])
                line = line[cut + 1 :]
            else:
                lines.append(line.rstrip())
                line = ""
            if ch == " ":
                continue
        line += ch
    return [*lines, line] if line else lines


def figure_svg(figure: Figure, lang: str | None = None) -> str:
    """The figure as one inline ``<svg>``: the panels side by side, cells that differ outlined in red,
    the title above and the legend below, wrapped to the picture's width."""
    lang = lang or current()
    scale = _scale(figure)
    diff = differing(figure)
    shapes = [_shape(p) for p in figure.panels]
    left, gap, line_h = 28, 30, 14
    widths = [cols * _CELL for _, cols in shapes]
    grids_w = left + sum(widths) + gap * max(len(widths) - 1, 0) + 10
    title, rows_name, cols_name = figure.title.get(lang), figure.rows.get(lang), figure.cols.get(lang)
    if figure.kind == "mask":  # a True/False mask has no NaN: say red only where a cell is one
        legend = t("figure.legend_mask_nan_svg" if _holds_nan(figure) else "figure.legend_mask_svg", lang)
    else:
        legend = t("figure.legend_svg", lang, top=f"{scale:.2g}")
    if diff is not None and any(any(row) for row in diff):
        legend += " " + t("figure.legend_differ_svg", lang)
    legend = f"{rows_name} ↓ · {legend}"
    width = round(max(grids_w, min(max(_text_px(title), _text_px(legend)) + 4, 420)))
    title_lines, legend_lines = _wrap(title, width - 4), _wrap(legend, width - 4)
    top = 12 + line_h * len(title_lines) + 30  # the grids start below the title, the labels and the axis name
    grid_h = max((rows for rows, _ in shapes), default=0) * _CELL
    height = top + grid_h + 8 + line_h * len(legend_lines)
    parts = [
        f'<svg class="heatmap" role="img" aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
    ]
    for i, line in enumerate(title_lines):
        parts.append(f'<text x="0" y="{12 + i * line_h}" {_FONT} font-weight="600">{escape(line)}</text>')
    x0 = left
    for index, panel in enumerate(figure.panels):
        parts.append(f'<text x="{x0}" y="{top - 18}" {_FONT} font-weight="600">{escape(panel.label.get(lang))}</text>')
        parts.append(f'<text x="{x0}" y="{top - 5}" {_FONT} fill="#666">{escape(cols_name)} →</text>')
        for i, row in enumerate(panel.values):
            y = top + i * _CELL
            parts.append(f'<text x="{x0 - 4}" y="{y + 12}" {_FONT} fill="#666" text-anchor="end">{i}</text>')
            for j, value in enumerate(row):
                x = x0 + j * _CELL
                wrong = index == 0 and diff is not None and diff[i][j]
                stroke = 'stroke="#d62728" stroke-width="2"' if wrong else 'stroke="#d8d8d8" stroke-width="0.5"'
                shown = "NaN" if value is None else f"{value:.4g}"
                tip = f"{rows_name} {i}, {cols_name} {j}: {shown}"
                parts.append(
                    f'<rect class="cell" x="{x + 1}" y="{y + 1}" width="{_CELL - 2}" height="{_CELL - 2}" '
                    f'fill="{_fill(value, figure, scale)}" {stroke}><title>{escape(tip)}</title></rect>'
                )
        x0 += widths[index] + gap
    for i, line in enumerate(legend_lines):
        parts.append(f'<text x="0" y="{top + grid_h + 16 + i * line_h}" {_FONT} fill="#444">{escape(line)}</text>')
    parts.append("</svg>")
    return "".join(parts)
