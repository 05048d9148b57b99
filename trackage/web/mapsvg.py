"""The map as SVG, drawn from the game's board: a pure function of the game state.

``render_map(game)`` draws every hex in its layout (flat or pointy): the tile colour,
terrain and its cost, track (edge to edge as curves, edge to city/town/offboard, lanes side
by side, narrow gauge dashed), cities with their token slots, tokens and reservations,
towns, offboards with their revenue per phase, revenues, labels, borders (water,
mountain, impassable) with their costs, icons, stubs and location names. Hexes and cities
carry ``data-hex`` / ``data-city`` attributes so the page can make them clickable, and the
caller may mark hexes (legal tile lays), cities (legal tokens) and draw routes.

Geometry: hex radius ``R`` (centre to corner). Doubled coordinates ``(x, y)`` map to the
centre ``(1.5 R x, sqrt3/2 R y)`` in the flat layout and ``(sqrt3/2 R x, 1.5 R y)`` in the
pointy one. Edge ``k`` faces the direction ``90 + 60 k`` degrees (screen coordinates, y
down) in the flat layout, ``120 + 60 k`` in the pointy one (the reference's numbering).
"""

from __future__ import annotations

import hashlib
import math
from html import escape

from .hexinfo import hex_info

R = 50.0
S3 = math.sqrt(3)

HEX_FILL = {
    "white": "#eae0c8", "yellow": "#fde900", "green": "#71bf44", "brown": "#cb7745",
    "gray": "#bcbdc0", "grey": "#bcbdc0", "blue": "#35a7ff", "red": "#ec232a", "sepia": "#d7b98c",
    "greenbrown": "#9a9a44", "browngray": "#c49a80", "brownsepia": "#d19a68", "purple": "#b17cc6",
    "orange": "#f48221", "pink": "#ff90c0", "salmon": "#fa8072", "navy": "#3050a0",
    "gray60": "#999999", "gray50": "#808080", "gray40": "#666666", "none": "#eae0c8",
}
PHASE_FILL = {"yellow": "#fde900", "green": "#71bf44", "brown": "#cb7745", "gray": "#bcbdc0",
              "diesel": "#888888", "white": "#ffffff", "red": "#ec232a", "blue": "#35a7ff",
              "sepia": "#d7b98c", "purple": "#b17cc6"}
BORDER_COLOR = {"water": "#1f6fd1", "mountain": "#8b5a2b", "impassable": "#d01010", "province": "#222222"}


def _f(v: float) -> str:
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def stable_color(key: str) -> str:
    """A colour for an entity without one in the title's data (same id, same colour)."""
    h = int(hashlib.md5(str(key).encode()).hexdigest()[:6], 16)
    return f"hsl({h % 360},{55 + (h >> 9) % 30}%,{35 + (h >> 17) % 25}%)"


def entity_colors(entity) -> tuple[str, str]:
    """(fill, text) colours of a corporation or minor: the title's data, else stable ones."""
    data = getattr(entity, "data", None) or {}
    color = data.get("color")
    text = data.get("text_color")
    if not color:
        color = stable_color(getattr(entity, "id", entity))
        text = text or "#ffffff"
    if not text:
        text = "#000000" if _light(color) else "#ffffff"
    return color, text


def _light(color: str) -> bool:
    c = str(color).strip().lower()
    if c in ("white", "yellow", "lightblue", "lightgreen", "pink", "orange", "gold", "khaki", "beige",
             "lightgray", "lightgrey", "cyan", "lime", "salmon", "wheat", "tan"):
        return True
    if c.startswith("#") and len(c) in (4, 7):
        if len(c) == 4:
            c = "#" + "".join(ch * 2 for ch in c[1:])
        r, g, b = int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)
        return 0.299 * r + 0.587 * g + 0.114 * b > 150
    return False


class Geometry:
    """Hex centres, edge directions and corners for one layout."""

    def __init__(self, layout: str, r: float = R):
        self.layout = layout
        self.r = r
        self.base = 90.0 if layout == "flat" else 120.0

    def center(self, x: int, y: int) -> tuple[float, float]:
        r = self.r
        if self.layout == "flat":
            return 1.5 * r * x, S3 / 2 * r * y
        return S3 / 2 * r * x, 1.5 * r * y

    def angle(self, edge: float) -> float:
        """Direction (radians) of edge ``edge`` (fractions: towards a corner)."""
        return math.radians(self.base + 60.0 * edge)

    def point(self, cx, cy, edge: float, dist: float) -> tuple[float, float]:
        a = self.angle(edge)
        return cx + dist * math.cos(a), cy + dist * math.sin(a)

    def edge_mid(self, cx, cy, edge: int, lane_offset: float = 0.0) -> tuple[float, float]:
        px, py = self.point(cx, cy, edge, self.r * S3 / 2)
        if lane_offset:
            a = self.angle(edge) + math.pi / 2
            px += lane_offset * math.cos(a)
            py += lane_offset * math.sin(a)
        return px, py

    def corners(self, cx, cy) -> list[tuple[float, float]]:
        return [self.point(cx, cy, k + 0.5, self.r) for k in range(6)]

    def edge_corners(self, cx, cy, edge: int):
        """The two corners of edge ``edge``."""
        return self.point(cx, cy, edge - 0.5, self.r), self.point(cx, cy, edge + 0.5, self.r)


class BoardView:
    """What the renderer asks of the board (tokens, reservations, borders ...); a
    tile preview uses :class:`EmptyView`."""

    def __init__(self, game):
        self.game = game
        self.board = game.board

    def tokens(self, city):
        return self.board.tokens(city)

    def extra_tokens(self, city):
        return self.board.extra_tokens(city)

    def reservations(self, city):
        return self.board.city_reservations(city)

    def borders(self, hex_):
        return self.board.borders(hex_)

    def icons(self, hex_):
        return self.board.icons(hex_)

    def labels(self, hex_):
        return self.board.labels(hex_)

    def stubs(self, hex_):
        return self.board.stubs(hex_)

    def hex_tokens(self, hex_):
        return self.board.hex_tokens(hex_)

    def tile_reservations(self, hex_):
        return self.board.tile_reservations(hex_)

    def phase_colors(self):
        try:
            return list(self.game.phase.tiles)
        except Exception:  # noqa: BLE001
            return ["yellow"]


class EmptyView(BoardView):
    def __init__(self, game=None, hex_=None):
        self.game = game
        self.board = game.board if game is not None else None
        self.hex = hex_

    def tokens(self, city):
        return (None,) * city.normal_slots

    def extra_tokens(self, city):
        return ()

    def reservations(self, city):
        return ()

    def borders(self, hex_):
        return self.board.borders(hex_) if self.board is not None and hex_ is not None else ()

    def icons(self, hex_):
        return ()

    def labels(self, hex_):
        return ()

    def stubs(self, hex_):
        return ()

    def hex_tokens(self, hex_):
        return ()

    def tile_reservations(self, hex_):
        return ()


# ---------------------------------------------------------------------------- nodes
def node_positions(tile, geo: Geometry, cx: float, cy: float) -> dict:
    """Where each node of ``tile`` is drawn: ordinal -> (x, y)."""
    r = geo.r
    nodes = tile.all_nodes
    stops = [n for n in nodes if not n.is_junction]
    out = {}
    rot = tile.rotation
    for n in nodes:
        if n.is_junction:
            out[n.ordinal] = (cx, cy)
    if len(stops) == 1 and getattr(stops[0], "loc", None) in (None, "center"):
        out[stops[0].ordinal] = (cx, cy)
        return out
    free = []
    for n in stops:
        loc = getattr(n, "loc", None)
        if loc is not None and loc != "center":
            try:
                edge = float(loc) + rot
            except (TypeError, ValueError):
                edge = None
            if edge is not None:
                dist = 0.58 * r if float(loc) != int(float(loc)) else 0.5 * r
                out[n.ordinal] = geo.point(cx, cy, edge, dist)
                continue
        if loc == "center":
            out[n.ordinal] = (cx, cy)
            continue
        exits = list(n.exits)
        if exits:
            vx = sum(math.cos(geo.angle(e)) for e in exits)
            vy = sum(math.sin(geo.angle(e)) for e in exits)
            norm = math.hypot(vx, vy)
            if norm < 1e-6:
                a = geo.angle(exits[0])
                out[n.ordinal] = (cx + 0.25 * r * math.cos(a), cy + 0.25 * r * math.sin(a))
            else:
                out[n.ordinal] = (cx + 0.48 * r * vx / norm, cy + 0.48 * r * vy / norm)
        else:
            free.append(n)
    if free:
        if len(free) == 1 and len(stops) == 1:
            out[free[0].ordinal] = (cx, cy)
        else:
            taken = [math.atan2(y - cy, x - cx) for o, (x, y) in out.items()
                     if o in {s.ordinal for s in stops}]
            k = len(free)
            for i, n in enumerate(free):
                a = geo.angle(0) + math.pi + 2 * math.pi * i / max(k, 1)
                if taken and k == 1:
                    a = taken[0] + math.pi
                out[n.ordinal] = (cx + 0.45 * r * math.cos(a), cy + 0.45 * r * math.sin(a))
    return out


def _slot_offsets(n: int, tr: float) -> list[tuple[float, float]]:
    if n <= 1:
        return [(0.0, 0.0)]
    if n == 2:
        return [(-tr, 0.0), (tr, 0.0)]
    if n == 3:
        return [(0.0, -tr * 1.1), (-tr, tr * 0.7), (tr, tr * 0.7)]
    if n == 4:
        return [(-tr, -tr), (tr, -tr), (-tr, tr), (tr, tr)]
    per_row = math.ceil(n / 2)
    out = []
    for i in range(n):
        row, col = divmod(i, per_row)
        out.append(((col - (per_row - 1) / 2) * 2 * tr, (row - 0.5) * 2 * tr))
    return out


def _revenue_text(rev: dict, colors) -> tuple[str, bool]:
    """(text, varies): the revenue now, and whether it differs between phases."""
    vals = list(dict.fromkeys(rev.values()))
    if not vals:
        return "", False
    if len(vals) == 1:
        return str(vals[0]), False
    cur = None
    for c in reversed(list(colors)):
        if c in rev:
            cur = rev[c]
            break
    return str(cur if cur is not None else vals[0]), True


# ---------------------------------------------------------------------------- drawing
class _Out:
    def __init__(self):
        self.parts: list[str] = []

    def add(self, s: str) -> None:
        self.parts.append(s)

    def text(self, x, y, s, size=10, anchor="middle", weight="normal", fill="#000", cls="", extra=""):
        c = f' class="{cls}"' if cls else ""
        self.parts.append(
            f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" text-anchor="{anchor}" '
            f'dominant-baseline="central" font-weight="{weight}" fill="{fill}"{c}{extra}>{escape(str(s))}</text>')


def hex_token_spot(geo: Geometry, cx: float, cy: float) -> tuple[float, float]:
    """Where a hex's token (1822's destination token ...) is drawn on the hex centred at (cx, cy)."""
    return geo.point(cx, cy, 5.3, geo.r * 0.55)


def draw_tile(out: _Out, geo: Geometry, cx: float, cy: float, hex_, tile, view: BoardView, *,
              coord: bool = True, name: bool = True, classes: str = "", city_classes: dict | None = None,
              preview: bool = False, attrs: str = "") -> None:
    """One hex with its tile and everything on it (``attrs``: more attributes of its group)."""
    r = geo.r
    color = tile.color
    fill = HEX_FILL.get(color, "#eae0c8")
    hid = hex_.id if hex_ is not None else ""
    cls = "hex" + (" " + classes if classes else "")
    out.add(f'<g class="{cls}" data-hex="{escape(hid)}" data-color="{escape(color)}"{attrs}>')
    pts = " ".join(f"{_f(x)},{_f(y)}" for x, y in geo.corners(cx, cy))
    out.add(f'<polygon class="hex-bg" points="{pts}" fill="{fill}" stroke="#555" stroke-width="1"/>')
    if getattr(tile, "stripes", None) is not None and tile.stripes.color:
        sc = HEX_FILL.get(tile.stripes.color, tile.stripes.color)
        out.add(f'<polygon points="{pts}" fill="none" stroke="{sc}" stroke-width="6" stroke-dasharray="6,6" '
                f'opacity="0.8"/>')
    if getattr(tile, "frame", None) is not None and tile.frame.color:
        fc = HEX_FILL.get(tile.frame.color, tile.frame.color)
        inner = " ".join(f"{_f(x)},{_f(y)}" for x, y in
                         [geo.point(cx, cy, k + 0.5, r * 0.9) for k in range(6)])
        out.add(f'<polygon points="{inner}" fill="none" stroke="{fc}" stroke-width="{_f(r * 0.12)}"/>')

    positions = node_positions(tile, geo, cx, cy)
    phase_colors = view.phase_colors() if view is not None else ["yellow"]

    # terrain and its cost
    ups = [u for u in tile.upgrades if u.cost or u.terrains]
    for i, u in enumerate(ups):
        px, py = geo.point(cx, cy, 4.6 - i * 0.7, r * 0.55)
        if "mountain" in u.terrains or "hill" in u.terrains:
            out.add(f'<polygon class="terrain mountain" points="{_f(px - 7)},{_f(py + 5)} {_f(px + 7)},{_f(py + 5)} '
                    f'{_f(px)},{_f(py - 7)}" fill="#8b5a2b" stroke="#3b2a1b" stroke-width="0.8"/>')
            out.text(px, py + 11, u.cost, size=9, weight="bold")
        elif "water" in u.terrains or "river" in u.terrains:
            out.add(f'<path class="terrain water" d="M{_f(px - 8)},{_f(py)} q4,-5 8,0 t8,0" fill="none" '
                    f'stroke="#1f6fd1" stroke-width="2.5"/>')
            out.text(px, py + 9, u.cost, size=9, weight="bold")
        else:  # a word: whole inside the hex, above or below its stops
            t = ",".join(u.terrains)
            txt = f"{t}{' ' if t else ''}{u.cost}"
            size = 8 if len(txt) <= 9 else max(5.0, 8 * 9 / len(txt))
            px, py = _word_spot(geo, cx, cy, i, [positions[n.ordinal] for n in tile.all_nodes
                                                 if not n.is_junction and n.ordinal in positions],
                                len(txt) * size * 0.3)
            out.text(px, py, txt, size=size, weight="bold", cls="terrain")

    # track: casing first, then the rails
    tracks = []
    for p in tile.paths:
        a, b = p.a, p.b
        pa = _end_point(a, p, 0, geo, cx, cy, positions)
        pb = _end_point(b, p, 1, geo, cx, cy, positions)
        if pa is None or pb is None:
            continue
        if a.is_edge and b.is_edge:
            c1 = (cx + (pa[0] - cx) * 0.35, cy + (pa[1] - cy) * 0.35)
            c2 = (cx + (pb[0] - cx) * 0.35, cy + (pb[1] - cy) * 0.35)
            d = (f"M{_f(pa[0])},{_f(pa[1])} C{_f(c1[0])},{_f(c1[1])} {_f(c2[0])},{_f(c2[1])} "
                 f"{_f(pb[0])},{_f(pb[1])}")
        else:
            d = f"M{_f(pa[0])},{_f(pa[1])} L{_f(pb[0])},{_f(pb[1])}"
        tracks.append((d, p.track, p.is_terminal))
    for d, _track, _terminal in tracks:
        out.add(f'<path d="{d}" fill="none" stroke="#fff" stroke-width="{_f(r * 0.2)}" stroke-linecap="butt"/>')
    for d, track, terminal in tracks:
        if track == "narrow":
            out.add(f'<path class="track narrow" d="{d}" fill="none" stroke="#000" stroke-width="{_f(r * 0.07)}" '
                    f'stroke-dasharray="{_f(r * 0.1)},{_f(r * 0.06)}"/>')
        elif track == "dual":
            out.add(f'<path class="track dual" d="{d}" fill="none" stroke="#000" stroke-width="{_f(r * 0.14)}"/>')
            out.add(f'<path d="{d}" fill="none" stroke="#fff" stroke-width="{_f(r * 0.04)}" '
                    f'stroke-dasharray="{_f(r * 0.08)},{_f(r * 0.08)}"/>')
        else:
            op = ' stroke-opacity="0.75"' if terminal else ""
            out.add(f'<path class="track" d="{d}" fill="none" stroke="#000" stroke-width="{_f(r * 0.12)}"{op}/>')
    for st in view.stubs(hex_) if hex_ is not None else ():
        e = (st.edge + 0) % 6
        pa = geo.edge_mid(cx, cy, e)
        pb = (cx + (pa[0] - cx) * 0.6, cy + (pa[1] - cy) * 0.6)
        out.add(f'<path class="stub" d="M{_f(pa[0])},{_f(pa[1])} L{_f(pb[0])},{_f(pb[1])}" stroke="#000" '
                f'stroke-width="{_f(r * 0.12)}"/>')

    # revenue: once per tile when every stop pays the same
    stops = [n for n in tile.all_nodes if not n.is_junction and not getattr(n, "hide", False)]
    revs = {}
    for n in stops:
        if n.is_offboard:
            continue
        revs[n.ordinal] = _revenue_text(n.revenue, phase_colors)
    shared = len(set(revs.values())) == 1 and len(revs) >= 1

    # offboards: revenue per phase boxes
    offs = [n for n in tile.offboards if not getattr(n, "hide", False)]
    if offs:
        rev = offs[0].revenue
        items = [(c, v) for c, v in rev.items()]
        uniq = list(dict.fromkeys(rev.values()))
        if len(uniq) == 1:
            items = [(None, uniq[0])]
        w = 15.0
        total = w * len(items)
        x0 = cx - total / 2
        y0 = cy - r * 0.62
        out.add('<g class="offboard-revenue">')
        for i, (c, v) in enumerate(items):
            fc = PHASE_FILL.get(c, "#ffffff") if c else "#ffffff"
            out.add(f'<rect x="{_f(x0 + i * w)}" y="{_f(y0)}" width="{_f(w)}" height="12" fill="{fc}" '
                    f'stroke="#000" stroke-width="0.6"/>')
            out.text(x0 + i * w + w / 2, y0 + 6, v, size=8, weight="bold")
        out.add('</g>')

    # towns (revenue bubbles are drawn after every city, outside its slots: never under a token)
    bubbles: list[tuple[tuple[float, float], str]] = []
    for n in tile.towns:
        if getattr(n, "hidden", False) or n.hide:
            continue
        x, y = positions.get(n.ordinal, (cx, cy))
        if n.is_halt:
            out.add(f'<rect class="halt" data-node="{escape(n.signature)}" x="{_f(x - 4)}" y="{_f(y - 4)}" '
                    'width="8" height="8" fill="#000"/>')
        else:
            out.add(f'<circle class="town" data-node="{escape(n.signature)}" cx="{_f(x)}" cy="{_f(y)}" '
                    f'r="{_f(r * 0.11)}" fill="#000" '
                    f'stroke="#fff" stroke-width="1.2"/>')
        if not shared and revs.get(n.ordinal, ("", False))[0] not in ("", "0"):
            bubbles.append((_outward(cx, cy, x, y, r * 0.11 + 9, r), revs[n.ordinal][0]))

    # cities (``taken``: the discs the stops cover, kept free of the shared revenue and the label)
    taken: list[tuple[float, float, float]] = [(x, y, r * 0.14) for x, y in (
        positions.get(n.ordinal, (cx, cy)) for n in tile.towns)]
    city_classes = city_classes or {}
    for n in tile.cities:
        x, y = positions.get(n.ordinal, (cx, cy))
        slots = view.tokens(n)
        ns = max(1, len(slots))
        tr = r * (0.2 if ns <= 2 else 0.17 if ns <= 4 else 0.13)
        offs_xy = _slot_offsets(ns, tr)
        extra_cls = city_classes.get(n.id, "")
        out.add(f'<g class="city{(" " + extra_cls) if extra_cls else ""}" data-city="{escape(n.id)}" '
                f'data-node="{escape(n.signature)}">')
        if ns == 1:
            out.add(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(tr + 1.5)}" fill="#fff" stroke="#000" '
                    'stroke-width="1.5"/>')
        else:
            xs = [x + dx for dx, _ in offs_xy]
            ys = [y + dy for _, dy in offs_xy]
            out.add(f'<rect x="{_f(min(xs) - tr - 1.5)}" y="{_f(min(ys) - tr - 1.5)}" '
                    f'width="{_f(max(xs) - min(xs) + 2 * tr + 3)}" height="{_f(max(ys) - min(ys) + 2 * tr + 3)}" '
                    f'rx="{_f(tr)}" fill="#fff" stroke="#000" stroke-width="1.5"/>')
        res = view.reservations(n)
        for i, (dx, dy) in enumerate(offs_xy):
            tok = slots[i] if i < len(slots) else None
            sx, sy = x + dx, y + dy
            if tok is not None:
                corp = view.game.token_owner(tok) if view.game is not None else None
                fc, tc = entity_colors(corp) if corp is not None else ("#999", "#fff")
                label = tok.owner
                out.add(f'<g class="token" data-corp="{escape(str(label))}">'
                        f'<circle cx="{_f(sx)}" cy="{_f(sy)}" r="{_f(tr)}" fill="{escape(fc)}" stroke="#000" '
                        f'stroke-width="0.8"/>')
                out.text(sx, sy, str(label)[:4], size=min(tr * 0.85, 9) if len(str(label)) > 2 else tr * 0.9,
                         weight="bold", fill=tc)
                out.add('</g>')
            else:
                out.add(f'<circle class="slot" data-slot="{i}" cx="{_f(sx)}" cy="{_f(sy)}" r="{_f(tr)}" '
                        f'fill="#fff" stroke="#000" stroke-width="0.6"/>')
                rv = res[i] if i < len(res) else None
                if rv is not None:
                    label = getattr(rv, "id", None) or getattr(rv, "sym", None) or str(rv)
                    out.text(sx, sy, str(label)[:4], size=min(tr * 0.8, 8), fill="#777", cls="reservation")
        out.add('</g>')
        half = max(max(abs(dx), abs(dy)) for dx, dy in offs_xy) + tr + 1.5
        taken.append((x, y, half))
        if not shared and revs.get(n.ordinal, ("", False))[0] not in ("", "0"):
            bubbles.append((_outward(cx, cy, x, y, half + 8.5, r), revs[n.ordinal][0]))
    for (bx, by), txt in bubbles:
        _rev_bubble(out, bx, by, txt)
    if shared and stops and not all(n.is_offboard for n in stops):
        txt = next(iter(revs.values()))[0]
        if txt not in ("", "0"):
            px, py = _free_spot(geo, cx, cy, 2.0, taken, 9.0)
            taken.append((px, py, 9.0))
            _rev_bubble(out, px, py, txt)

    # labels, icons, names, coordinates
    labels = view.labels(hex_) if hex_ is not None else tile.labels
    if preview:
        labels = tile.labels
    for lab in labels[-1:] if labels else ():
        px, py = _free_spot(geo, cx, cy, 1.4, taken, 7.0)
        out.text(px, py, lab, size=13, weight="bold", cls="label")
    if hex_ is not None:
        for i, ic in enumerate(view.icons(hex_)):
            px, py = geo.point(cx, cy, 3.3 + i * 0.6, r * 0.6)
            nm = (ic.name or ic.image.split("/")[-1] or "?")[:3]
            out.add(f'<circle class="icon" cx="{_f(px)}" cy="{_f(py)}" r="7" fill="#fff" stroke="#333" '
                    f'stroke-width="0.8"><title>{escape(ic.name or ic.image)}</title></circle>')
            out.text(px, py, nm, size=6)
        for t in view.hex_tokens(hex_):
            corp = view.game.token_owner(t) if view.game is not None else None
            fc, tc = entity_colors(corp) if corp is not None else ("#999", "#fff")
            px, py = hex_token_spot(geo, cx, cy)
            out.add(f'<circle class="hex-token" cx="{_f(px)}" cy="{_f(py)}" r="7" fill="{escape(fc)}" stroke="#000"/>')
        for _res_ent in view.tile_reservations(hex_):
            if not tile.cities:
                continue
        if name and hex_.location_name and not getattr(hex_, "hide_location_name", False):
            _location_name(out, geo, cx, cy, hex_.location_name, tile)
        if coord:
            px, py = geo.point(cx, cy, 3.0, r * 0.8)
            out.text(px, py, hex_.id, size=6.5, fill="#666", cls="coord")
    if name and not tile.preprinted:
        px, py = geo.point(cx, cy, 5.55, r * 0.74)
        out.text(px, py, tile.name, size=6.5, fill="#333", cls="tilename")

    # borders belong to the hex (unrotated)
    for b in (view.borders(hex_) if hex_ is not None else ()):
        (x1, y1), (x2, y2) = geo.edge_corners(cx, cy, b.edge)
        col = BORDER_COLOR.get(b.type, b.color or "#444")
        width = r * (0.12 if b.type else 0.06)
        sx = x1 + (x2 - x1) * 0.05
        sy = y1 + (y2 - y1) * 0.05
        ex = x2 - (x2 - x1) * 0.05
        ey = y2 - (y2 - y1) * 0.05
        out.add(f'<line class="border {escape(str(b.type))}" x1="{_f(sx)}" y1="{_f(sy)}" x2="{_f(ex)}" '
                f'y2="{_f(ey)}" stroke="{col}" stroke-width="{_f(width)}" stroke-linecap="round"/>')
        if b.cost:
            px, py = geo.point(cx, cy, b.edge, r * 0.64)
            out.text(px, py, b.cost, size=8, weight="bold", fill=col)
    out.add('</g>')


def _word_spot(geo: Geometry, cx: float, cy: float, i: int, stops: list[tuple[float, float]],
               half: float) -> tuple[float, float]:
    """Where the ``i``-th terrain word (``half`` its half width) goes: near the centre on a
    hex without stops, else above them (or below) where no stop is."""
    if not stops:
        return geo.point(cx, cy, 4.6 - i * 0.7, geo.r * 0.4)
    r = geo.r
    for dy in (-0.6 * r - 10 * i, 0.6 * r + 10 * i):
        if all(abs(y - (cy + dy)) > r * 0.3 + 5 or abs(x - cx) > half + r * 0.3 for x, y in stops):
            return cx, cy + dy
    return cx, cy - 0.6 * r - 10 * i


def _free_spot(geo: Geometry, cx: float, cy: float, edge: float, taken: list[tuple[float, float, float]],
               size: float) -> tuple[float, float]:
    """A point 0.62 R from the centre, towards ``edge`` when that is free of the discs
    ``taken`` (x, y, radius), else the nearest direction that is, else the freest."""
    best, best_gap = geo.point(cx, cy, edge, geo.r * 0.62), -1e9
    for k in range(24):
        step = (k % 12 + 1) // 2 * (1 if k % 2 else -1) * 0.5
        px, py = geo.point(cx, cy, edge + step, geo.r * (0.62 if k < 12 else 0.8))
        gap = min((math.hypot(px - x, py - y) - rad - size for x, y, rad in taken), default=1e9)
        if gap >= 0:
            return px, py
        if gap > best_gap:
            best, best_gap = (px, py), gap
    return best


def _outward(cx: float, cy: float, x: float, y: float, dist: float, r: float) -> tuple[float, float]:
    """A point ``dist`` from a stop at (x, y), away from the hex's centre (up-right for a stop
    at the centre), kept inside the hex."""
    vx, vy = x - cx, y - cy
    norm = math.hypot(vx, vy)
    if norm < 1e-6:
        vx, vy, norm = 1.0, -1.0, math.sqrt(2)
    px, py = x + dist * vx / norm, y + dist * vy / norm
    out = math.hypot(px - cx, py - cy)
    lim = r * 0.78
    if out > lim:  # pulled back in along the same line, then sideways off the stop
        px, py = cx + (px - cx) * lim / out, cy + (py - cy) * lim / out
        if math.hypot(px - x, py - y) < dist:
            px, py = x - dist * vy / norm, y + dist * vx / norm
    return px, py


def _name_lines(name: str, width: int = 16) -> list[str]:
    """A place name in at most two lines, cut at spaces when it is long (never cut short)."""
    if len(name) <= width:
        return [name]
    words = name.split(" ")
    best = [name]
    best_w = len(name)
    for i in range(1, len(words)):
        a, b = " ".join(words[:i]), " ".join(words[i:])
        w = max(len(a), len(b))
        if w < best_w:
            best, best_w = [a, b], w
    return best


def _location_name(out: _Out, geo: Geometry, cx: float, cy: float, name: str, tile) -> None:
    """The hex's place name, whole: two lines when long, smaller when a line is still long,
    on the side of the hex away from its cities' token slots, with a halo."""
    lines = _name_lines(name)
    longest = max(len(x) for x in lines)
    size = 7.5 if longest <= 16 else max(4.5, 7.5 * 16 / longest)
    r = geo.r
    up = any(c.normal_slots >= 3 for c in tile.cities) or len(tile.cities) >= 2
    # straight below the centre (above it for big cities), where the hex is widest: clear of
    # its edges and of the borders drawn on them
    px, py = cx, cy + (-1 if up else 1) * r * (0.62 if len(lines) == 1 else 0.58)
    for i, line in enumerate(lines):
        out.text(px, py + (i - (len(lines) - 1) / 2) * size * 1.05, line, size=size, cls="locname",
                 extra=' stroke="#fff" stroke-width="2" stroke-opacity="0.7" paint-order="stroke"')


def _rev_bubble(out: _Out, x, y, txt) -> None:
    out.add(f'<g class="revenue"><circle cx="{_f(x)}" cy="{_f(y)}" r="8" fill="#fff" stroke="#000" '
            'stroke-width="0.6"/>')
    out.text(x, y, txt, size=8 if len(str(txt)) < 3 else 6.5, weight="bold")
    out.add('</g>')


def _end_point(end, path, which, geo, cx, cy, positions):
    if end.is_edge:
        width, idx = end.lanes
        off = 0.0
        if width > 1:
            off = (idx - (width - 1) / 2) * geo.r * 0.22
        return geo.edge_mid(cx, cy, end.num, off)
    pos = positions.get(end.ordinal)
    return pos if pos is not None else (cx, cy)


# ---------------------------------------------------------------------------- the map
def map_bounds(game, geo: Geometry) -> tuple[float, float, float, float]:
    xs, ys = [], []
    for h in game.board.hexes:
        x, y = geo.center(h.x, h.y)
        xs.append(x)
        ys.append(y)
    pad = geo.r * 1.05
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def render_map(game, *, layable=None, tokenable=None, hex_tokenable=None, routes=None, scale: float = 1.0,
               element_id: str = "map") -> str:
    """The whole map of ``game`` as an SVG document (a string).

    ``layable``: hex ids to mark as legal tile lays; ``tokenable``: city ids to mark as
    legal token places; ``hex_tokenable``: hex ids to mark as legal hex tokens (with the
    spot a hex token is drawn at, ``data-tx``/``data-ty``); ``routes``: logged-route dicts
    (``connections`` of hex ids) to draw (the game page's script draws the router's run the
    same way, in a ``g.routes`` of its own, from the hexes' ``data-cx``/``data-cy`` and the
    map's hex radius ``data-r``).
    """
    board = game.board
    if board is None:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'
    geo = Geometry(board.hexmap.layout)
    view = BoardView(game)
    x0, y0, x1, y1 = map_bounds(game, geo)
    out = _Out()
    w, h = (x1 - x0), (y1 - y0)
    out.add(f'<svg xmlns="http://www.w3.org/2000/svg" id="{element_id}" class="map" '
            f'viewBox="{_f(x0)} {_f(y0)} {_f(w)} {_f(h)}" width="{_f(w * scale)}" height="{_f(h * scale)}" '
            f'font-family="Helvetica, Arial, sans-serif" data-layout="{geo.layout}" data-r="{_f(geo.r)}">')
    layable = set(layable or ())
    tokenable = set(tokenable or ())
    hex_tokenable = set(hex_tokenable or ())
    city_classes = dict.fromkeys(tokenable, "tokenable")
    phases = view.phase_colors()
    for hx, tile in board.tiles():
        if getattr(hx, "empty", False):
            continue
        cx, cy = geo.center(hx.x, hx.y)
        toks = [str(t.owner) for c in tile.cities for t in view.tokens(c) if t is not None]
        info = hex_info(hx, tile, toks, phases)
        classes = " ".join(c for c, on in (("layable", hx.id in layable), ("hex-tokenable", hx.id in hex_tokenable))
                           if on)
        attrs = f' data-cx="{_f(cx)}" data-cy="{_f(cy)}" data-info="{escape(info)}"'
        if hx.id in hex_tokenable:
            tx, ty = hex_token_spot(geo, cx, cy)
            attrs += f' data-tx="{_f(tx)}" data-ty="{_f(ty)}"'
        draw_tile(out, geo, cx, cy, hx, tile, view, classes=classes, city_classes=city_classes, attrs=attrs)
    if routes:
        out.add('<g class="routes" pointer-events="none">')
        palette = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324"]
        for i, rt in enumerate(routes):
            col = palette[i % len(palette)]
            for conn in rt.get("connections") or []:
                pts = []
                for hid in conn:
                    hx = board.hex_by_id(hid) if isinstance(hid, str) else None
                    if hx is None:
                        continue
                    pts.append(geo.center(hx.x, hx.y))
                if len(pts) >= 2:
                    d = " ".join(f"{_f(x)},{_f(y)}" for x, y in pts)
                    out.add(f'<polyline class="route" points="{d}" fill="none" stroke="{col}" '
                            f'stroke-width="{_f(geo.r * 0.22)}" stroke-opacity="0.7" stroke-linecap="round" '
                            f'stroke-linejoin="round"/>')
            for hid in rt.get("hexes") or []:
                hx = board.hex_by_id(hid) if isinstance(hid, str) else None
                if hx is not None and len(rt.get("hexes")) == 1:
                    x, y = geo.center(hx.x, hx.y)
                    out.add(f'<circle class="route" cx="{_f(x)}" cy="{_f(y)}" r="{_f(geo.r * 0.35)}" fill="none" '
                            f'stroke="{col}" stroke-width="{_f(geo.r * 0.15)}" stroke-opacity="0.7"/>')
        out.add('</g>')
    out.add('</svg>')
    return "\n".join(out.parts)


def render_tile(game, hex_, placed, *, size: float = 90.0) -> str:
    """A tile preview (a tile in a rotation on a hex) as a small SVG."""
    layout = game.board.hexmap.layout if game is not None and game.board is not None else "flat"
    geo = Geometry(layout)
    out = _Out()
    r = geo.r
    out.add(f'<svg xmlns="http://www.w3.org/2000/svg" class="tile-preview" viewBox="{_f(-r * 1.02)} {_f(-r * 1.02)} '
            f'{_f(2.04 * r)} {_f(2.04 * r)}" width="{_f(size)}" height="{_f(size)}" '
            f'font-family="Helvetica, Arial, sans-serif">')
    draw_tile(out, geo, 0.0, 0.0, hex_, placed, EmptyView(game, hex_), coord=False, name=True, preview=True)
    out.add('</svg>')
    return "\n".join(out.parts)
