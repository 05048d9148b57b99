"""Line charts as server-rendered SVG: players' values, share prices, revenue per OR."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from .mapsvg import stable_color

PALETTE = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324",
           "#808000", "#000075", "#469990", "#800000", "#aaaa00", "#ff69b4"]


def _nice_max(v: float) -> float:
    if v <= 0:
        return 10
    import math

    exp = 10 ** math.floor(math.log10(v))
    for m in (1, 2, 2.5, 5, 10):
        if v <= m * exp:
            return m * exp
    return 10 * exp


def line_chart(title: str, labels: list[str], series: dict[str, list], *, colors: dict | None = None,
               width: int = 720, height: int = 300, cursor: int | None = None, chart_id: str = "") -> str:
    """An SVG line chart: one line per series over ``labels`` (None values are gaps)."""
    left, right, top, bottom = 52, 120, 28, 46
    pw, ph = width - left - right, height - top - bottom
    vals = [v for s in series.values() for v in s if isinstance(v, (int, float))]
    vmax = _nice_max(max(vals) if vals else 10)
    vmin = min(0, min(vals) if vals else 0)
    n = max(1, len(labels) - 1)

    def X(i):
        return left + pw * i / n

    def Y(v):
        return top + ph * (1 - (v - vmin) / (vmax - vmin or 1))

    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{escape(chart_id)}" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            'font-family="Helvetica, Arial, sans-serif" font-size="10">'),
           f'<text x="{left}" y="16" font-size="13" font-weight="bold">{escape(title)}</text>']
    for k in range(5):
        v = vmin + (vmax - vmin) * k / 4
        y = Y(v)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 4}" y="{y + 3:.1f}" text-anchor="end">{int(v)}</text>')
    step = max(1, len(labels) // 12)
    for i, lab in enumerate(labels):
        if i % step and i != len(labels) - 1:
            continue
        x = X(i)
        out.append(f'<text x="{x:.1f}" y="{top + ph + 14}" text-anchor="end" '
                   f'transform="rotate(-35 {x:.1f} {top + ph + 14})">{escape(lab)}</text>')
    out.append(f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="#888"/>')
    if cursor is not None and 0 <= cursor < len(labels):
        out.append(f'<line class="cursor" x1="{X(cursor):.1f}" y1="{top}" x2="{X(cursor):.1f}" y2="{top + ph}" '
                   f'stroke="#000" stroke-dasharray="3,3"/>')
    for j, (name, s) in enumerate(series.items()):
        col = (colors or {}).get(name) or (PALETTE[j] if j < len(PALETTE) else stable_color(name))
        segs, cur = [], []
        for i, v in enumerate(s):
            if isinstance(v, (int, float)):
                cur.append(f"{X(i):.1f},{Y(v):.1f}")
            elif cur:
                segs.append(cur)
                cur = []
        if cur:
            segs.append(cur)
        for seg in segs:
            if len(seg) == 1:
                x, y = seg[0].split(",")
                out.append(f'<circle cx="{x}" cy="{y}" r="2.5" fill="{escape(col)}"/>')
            else:
                out.append(f'<polyline points="{" ".join(seg)}" fill="none" stroke="{escape(col)}" stroke-width="2">'
                           f'<title>{escape(name)}</title></polyline>')
        ly = top + 4 + j * 14
        if ly < height - 6:
            out.append(f'<rect x="{left + pw + 10}" y="{ly - 5}" width="10" height="10" fill="{escape(col)}"/>')
            last = next((v for v in reversed(s) if isinstance(v, (int, float))), None)
            out.append(f'<text x="{left + pw + 24}" y="{ly + 4}">{escape(str(name))[:14]}'
                       f'{"" if last is None else " " + str(last)}</text>')
    out.append('</svg>')
    return "".join(out)


# the money's flow: where each class of holder paid and received, as arrows
FLOW_NODES = {"bank": ("Bank", 300, 52), "players": ("Players", 90, 180), "companies": ("Companies", 510, 180),
              "minors": ("Minors", 300, 292), "pool": ("Pool", 510, 292), "other": ("Other", 90, 292)}


def flow_chart(rows: list[dict[str, Any]], money: Callable[[int], str], *, width: int = 600, height: int = 340,
               chart_id: str = "") -> str:
    """An SVG picture of the money's flows: one arrow per (from, to) pair of holder classes
    (rows of the ledger's table: ``from``, ``to``, ``amount``), as thick as its sum is large,
    labelled with it (``money(n)`` writes an amount)."""
    import math

    sums: dict[tuple[str, str], int] = {}
    for r in rows:
        if r["from"] != r["to"]:
            key = (r["from"], r["to"])
            sums[key] = sums.get(key, 0) + r["amount"]
    used = {k for pair in sums for k in pair}
    top = max(sums.values(), default=1)
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" class="flow-chart" id="{escape(chart_id)}" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
            f'aria-label="Where the money went">'),
           ('<defs><marker id="flow-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="12" markerHeight="12" '
            'markerUnits="userSpaceOnUse" '
            'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#4363d8"/></marker></defs>')]
    for (a, b), total in sorted(sums.items(), key=lambda kv: -kv[1]):
        if a not in FLOW_NODES or b not in FLOW_NODES:
            continue
        _, x1, y1 = FLOW_NODES[a]
        _, x2, y2 = FLOW_NODES[b]
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1
        nx, ny = -dy / length, dx / length  # the left of the way from a to b: each direction its own side
        cx, cy = (x1 + x2) / 2 + nx * 38, (y1 + y2) / 2 + ny * 38
        # start and end short of the nodes' boxes
        sx, sy = x1 + dx / length * 34 + nx * 8, y1 + dy / length * 22 + ny * 8
        ex, ey = x2 - dx / length * 34 + nx * 8, y2 - dy / length * 22 + ny * 8
        w = 1.5 + 14 * total / top
        label = escape(money(total))
        out.append(f'<g class="flow" data-from="{escape(a)}" data-to="{escape(b)}">'
                   f'<path d="M{sx:.0f},{sy:.0f} Q{cx:.0f},{cy:.0f} {ex:.0f},{ey:.0f}" fill="none" '
                   f'stroke="#4363d8" stroke-opacity="0.55" stroke-width="{w:.1f}" marker-end="url(#flow-head)"/>'
                   f'<text x="{(sx + 2 * cx + ex) / 4:.0f}" y="{(sy + 2 * cy + ey) / 4:.0f}" font-size="12" '
                   f'text-anchor="middle" fill="#222" paint-order="stroke" stroke="#fff" stroke-width="3">'
                   f'{label}</text></g>')
    for node, (name, x, y) in FLOW_NODES.items():
        if node not in used:
            continue
        out.append(f'<g class="flow-node" data-node="{node}"><rect x="{x - 44}" y="{y - 16}" width="88" height="32" '
                   f'rx="6" fill="#f4f4f4" stroke="#555"/><text x="{x}" y="{y + 5}" font-size="13" '
                   f'text-anchor="middle" font-weight="600">{name}</text></g>')
    out.append("</svg>")
    return "".join(out)
