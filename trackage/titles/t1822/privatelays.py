"""1822's private companies' tile-lay abilities: which lays they offer, checking and making
them (alone or combined with other companies of the same owner)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trackage.core.actions import asks_hex, asks_tile

from ...core.errors import GameError
from ...core.money import pay
from . import layeffects, trackrights

if TYPE_CHECKING:
    from .game import Game1822
    from .steps import Track1822


def _track_cls() -> type[Track1822]:
    """The 1822 track step (imported late: the steps import the game)."""
    from .steps import Track1822

    return Track1822


def teleport_ability(game: Game1822, company):
    """P5's teleport: upgrade the English Channel to make room for an exchange token."""
    if company.sym != "P5" or company.closed or company.owner is None or not company.owner.is_corporation:
        return None
    ab = next((a for a in company.abilities if a.get("type") == "teleport" and not a.get("used")), None)
    if ab is None or company.owner.exchange_tokens <= 0:
        return None
    tile = game.board.tile(game.board.hex_by_id("P43"))
    city = tile.cities[0]
    if game.board.get_slot(city, company.owner) is not None:
        return None
    last = game.phase.tiles[-1]
    if (tile.color == "green" and last not in ("brown", "gray")) or (tile.color == "brown" and last != "gray"):
        return None
    return ab


def track_ability(game: Game1822, company, time):
    """``company``'s tile-lay ability usable at ``time`` (None: none)."""
    if company.closed or company.owner is None or not company.owner.is_corporation:
        return None
    if time == "special_track" and company.sym == "P5":
        return teleport_ability(game, company)
    for a in company.abilities:
        if a.get("type") != "tile_lay":
            continue
        if time not in (a.get("when") or []):
            continue
        cnt = a.get("count")
        if cnt is not None and cnt <= 0:
            continue
        if company.sym == "P21":
            owner = company.owner
            if not any(t.used and t.city is not None and t.city.hex.id in ("N21", "N23") for t in owner.tokens):
                continue
            from .steps import SpecialTrack

            special = next((st for st in getattr(game.round, "steps", []) if isinstance(st, SpecialTrack)), None)
            if getattr(game.round, "num_laid_track", 0) > 0 and getattr(special, "company", None) is not company:
                continue  # the bridge is built before any other track this turn
        return a
    return None


def check_company_lay(game: Game1822, company, corp, hex_, old_tile, tile) -> None:
    """Where each private company may lay (live play; the reference's hex filters)."""
    sym = company.sym
    if sym == "P2" and len(old_tile.towns) != 1:
        raise GameError("P2 lays on a hex with one small station", rule="ability-hex")
    if sym == "P11":
        if old_tile.name not in game.TRACK_PLAIN + game.TRACK_TOWN:
            raise GameError("P11 upgrades plain track or small stations", rule="ability-hex")
        if old_tile.color != game.phase.tiles[-1]:
            raise GameError("P11 upgrades tiles of the phase's latest colour", rule="ability-hex")
        if corp.type == "minor" and old_tile.color != "yellow":
            raise GameError("a minor uses P11 on yellow tiles only", rule="ability-hex")
    if sym == "P8" and not any(t in ("mountain", "hill") for u in old_tile.upgrades for t in u.terrains):
        raise GameError("P8 lays on hills and mountains", rule="ability-hex")
    if sym == "P10" and not any(getattr(b, "type", None) == "water" for b in game.board.borders(hex_)):
        raise GameError("P10 lays over an estuary", rule="ability-hex")


def own_ability(company, ab) -> dict:
    """A fresh copy of ``company``'s ability ``ab``, put in its place: copies of a game share
    a company's abilities, so an ability is replaced, never changed in place, once set up."""
    mine = dict(ab)
    company.abilities = [mine if a is ab else a for a in company.abilities]
    return mine


def use_tile_ability(game: Game1822, ab, upgrade) -> None:
    """Count one use of a tile-lay ability (P12: a lay or an upgrade)."""
    if ab.get("count") is not None and ab["count"] <= 0:
        return
    if ab.get("count") is not None:
        ab["count"] -= 1
    if ab.get("upgrade_count") is None or ab.get("lay_count") is None:
        return
    # a use of one kind (lay or upgrade) spends that kind and forfeits the other
    used, other, verb = ("upgrade_count", "lay_count", "upgrade") if upgrade else ("lay_count", "upgrade_count", "lay")
    if ab[used] <= 0:
        raise GameError(f"Cannot use this ability to {verb} a tile now", rule="ability")
    ab[other] = 0
    ab[used] -= 1
    if ab[used] <= 0:
        ab["count"] = 0


def special_lay_tile(game: Game1822, step, action, company, ab) -> None:
    """Lay a tile with ``company``'s ability ``ab`` (combined with the companies the action
    names), paying what the lay costs and using up the abilities."""
    corp = company.owner
    round_ = game.round
    hex_ = game.board.hex_by_id(action.get("hex"))
    tile = game.board.tile_by_id(action.get("tile"))
    if hex_ is None or tile is None:
        raise GameError("unknown hex or tile", rule="unknown-hex")
    rotation = action.get("rotation", 0)
    if corp.type == "minor" and tile.color in ("brown", "gray"):
        raise GameError("Minor cannot upgrade past green", rule="tile-colour")
    combo = []
    for cid in action.get("combo_entities") or []:
        c = game.index.company(cid)
        cab = track_ability(game, c, "track") if c is not None else None
        if c is None or c.owner is not corp or cab is None:
            raise GameError(f"{cid!r} cannot join this tile lay", rule="bad-combo")
        combo.append((c, cab))
    chain = [company] + [c for c, _ in combo]
    for i, c in enumerate(chain):
        allowed = next((a.get("combo_entities") or [] for a in c.abilities if a.get("type") == "tile_lay"), [])
        if any(o.sym not in allowed for o in chain[i + 1:]):
            raise GameError(f"Cannot combine {'+'.join(x.sym for x in chain)}", rule="bad-combo")
    syms = {c.sym for c in chain}
    matched = matching_abilities([(company, ab)] + combo, hex_, tile)
    if not matched:
        raise GameError(f"{'+'.join(c.sym for c in chain)} cannot lay tile {tile.name} on {hex_.id}",
                        rule="ability-tile")
    old_tile = game.board.tile(hex_)
    upgrade = old_tile.color != "white"
    extra = "P12" in syms
    if not game.loading:
        for c in chain:
            check_company_lay(game, c, corp, hex_, old_tile, tile)
    if not extra:
        track = next((s for s in round_.steps if isinstance(s, _track_cls())), None)
        lay = track.tile_lay(company if company.sym == "P21" else corp) if track is not None else None
        if lay is not None and lay.get("cannot_reuse_same_hex") and hex_ in round_.laid_hexes:
            raise GameError(f"{hex_.id} was already laid this turn", rule="same-hex")
        if lay is None or (upgrade and not lay["upgrade"]) or (tile.color == "yellow" and not lay["lay"]):
            raise GameError("no tile lay left for this company's ability", rule="tile-lay-limit")
    free = any(a.get("free") for _, a in matched)
    gswr = "P10" in syms
    hsbc = company.sym == "P21"

    def pay_for(cost):
        # the estuary checks hold for free lays too
        border = game.board._last_border_cost
        if gswr and border == 0:
            raise GameError("Must lay tile with one path over an estuary crossing", rule="ability")
        if hsbc and border == 0:
            raise GameError("Must lay tile with one path over the Hull / Grimsby estuary", rule="ability")
        if free:
            return
        if gswr:
            cost -= game.GSWR_DISCOUNT
        cost = game.tile_cost_with_discount(hex_, company, cost)
        if cost > 0:
            pay(game, corp, game.bank, cost, "terrain")
    teleport = ab.get("type") == "teleport"
    game._special_lay = True
    game._teleport_lay = teleport
    # P11 lays the next colour; combined with another company either colour will do
    game._advanced_lay = ("next" if syms == {"P11"} else "either") if "P11" in syms else False
    game._lay_syms = syms
    try:
        game.board.lay_tile(company, hex_, tile, rotation, pay=pay_for)
    finally:
        game._special_lay = False
        game._teleport_lay = False
        game._advanced_lay = False
        game._lay_syms = ()
    # the abilities about to be used up become the companies' own (copies of a game share them)
    owned: dict[int, dict] = {}
    for c, a in [(company, ab), *combo]:
        if id(a) not in owned:
            owned[id(a)] = own_ability(c, a)
    ab = owned[id(ab)]
    combo = [(c, owned[id(a)]) for c, a in combo]
    if teleport:
        ab["used"] = True
        round_.teleported = company
    if extra:
        round_.laid_hexes.append(hex_)
        minor_single = corp.type == "minor"
    else:
        if upgrade:
            round_.upgraded_track = True
        round_.num_laid_track += 1
        round_.laid_hexes.append(hex_)
        minor_single = False
    layeffects.after_lay(game, corp, hex_, old_tile, game.board.tile(hex_))
    up = tile.color in ("green", "brown", "gray")
    for c, a in [(company, ab)] + combo:
        use_tile_ability(game, a, up)
        if minor_single:
            use_tile_ability(game, a, up)
        if a.get("closed_when_used_up") and (a.get("count") or 0) <= 0:
            c.close()
        if a.get("must_lay_together") and c is not company:
            step.company = c if (a.get("count") or 0) > 0 and not c.closed else None
    if ab.get("must_lay_together"):
        if round_.num_laid_track == 1 and not ab.get("consume_tile_lay"):
            round_.num_laid_track += 1
        step.company = company if (ab.get("count") or 0) > 0 and not company.closed else None


def matching_abilities(pairs, hex_, tile) -> list:
    """The (company, ability) pairs of a lay that apply to this hex and tile."""
    return [(c, a) for c, a in pairs
            if (not a.get("hexes") or hex_.id in a["hexes"]) and (not a.get("tiles") or tile.name in a["tiles"])]


def combo_companies(game: Game1822, company) -> tuple:
    """Companies of the same owner whose tile lays may join ``company``'s, as the reference
    offers them, and a function giving a company's combination list."""
    def combos(c):
        return next((a.get("combo_entities") or [] for a in c.abilities if a.get("type") == "tile_lay"), [])
    return [game.index.company(sym) for sym in combos(company)
            if game.index.company(sym) is not None and game.index.company(sym).owner is company.owner
            and track_ability(game, game.index.company(sym), "track") is not None], combos


def special_lay_options(game: Game1822, company, ab) -> list:
    """``company``'s lays alone and combined with each valid set of its owner's companies."""
    from itertools import combinations

    out = special_lay_candidates(game, company, ab)
    others, combos = combo_companies(game, company)
    for n in range(1, len(others) + 1):
        for group in combinations(others, n):
            if any(b.sym not in combos(a) for a in group for b in group if a is not b):
                continue
            pairs = [(c, track_ability(game, c, "track")) for c in group]
            syms = [c.sym for c in group]
            out += [{**a, "combo_entities": syms} for a in special_lay_candidates(game, company, ab, pairs)]
    return out


def special_lay_candidates(game: Game1822, company, ab, combo=()) -> list:
    """A private company's tile lays (alone or with ``combo``, (company, ability) pairs), as
    the reference offers them: the hexes the abilities may reach now and, for abilities
    naming their tiles, those tiles (compared as special lays), otherwise the phase's tiles
    that upgrade the hex normally."""
    if ab is None:
        return []
    corp = company.owner
    pairs = [(company, ab)] + list(combo)
    syms = {c.sym for c, _ in pairs}
    track_cls = _track_cls()
    track = next((s for s in game.round.steps if isinstance(s, track_cls)), None)
    lay = track.tile_lay(company if company.sym == "P21" else corp) if track is not None else None
    if lay is not None and not (lay["lay"] or lay["upgrade"]):
        lay = None
    if lay is None and "P12" not in syms:
        return []
    game._teleport_lay = ab.get("type") == "teleport"
    game._lay_syms = syms
    game._special_lay = False
    out: list[dict] = []
    try:
        # (what reads the tile alone asked once, before the hexes: the tiles asked about and
        # those the abilities allow)
        options = [o for o in _lay_tile_options(game, pairs, corp)
                   if asks_tile(game, o[0].id) and all(ability_allows(a, o[0]) for _, a in pairs)]
        if not options:
            return out
        hexes = ([game.board.hex_by_id(h) for h in ab["hexes"]] if game._teleport_lay
                 else list(game.layable_hexes(corp)))
        for hex_ in hexes:
            if ab.get("hexes") and hex_.id not in ab["hexes"]:
                continue
            if not asks_hex(game, hex_.id):
                continue
            old = game.board.tile(hex_)
            if lay is not None and ((old.color != "white" and not lay["upgrade"])
                                    or (old.color == "white" and not lay["lay"])
                                    or (lay.get("cannot_reuse_same_hex") and old.color != "white"
                                        and hex_ in game.round.laid_hexes)):
                continue
            try:
                for c, _ in pairs:
                    check_company_lay(game, c, corp, hex_, old, None)
            except (GameError, AttributeError):
                continue
            # the hex's part of the upgrade key and its rotation check, once for all the tiles
            memo_key = game.upgrade_memo_keys(hex_, old)
            rotation_ok = trackrights.company_rotation_check(game, company, hex_)
            # the shared answers of the old tile's spec, for a special lay and for a normal one
            spec_memo = old.spec.upgrade_memos.setdefault(("special-upgrades", type(game)), {})
            for t, special, advanced, tiled_by in options:
                if tiled_by is not None and corp.type == "minor" and old.color in ("green", "brown", "gray"):
                    continue
                if advanced and corp.type == "minor" and old.color != "yellow":
                    continue
                if game._special_lay != special:  # (written when it changes)
                    game._special_lay = special
                # (:func:`_upgrade_rotations`' kept answer looked up here first)
                rots = spec_memo.get((memo_key(t), old.rotation, bool(special)))
                if rots is None:
                    rots = _upgrade_rotations(game, old, t, memo_key(t), spec_memo)
                if rots:
                    out += _company_lay_rotations(game, pairs, syms, corp, hex_, old, t, rots, rotation_ok)
    finally:
        game._special_lay = False
        game._advanced_lay = False
        game._teleport_lay = False
        game._lay_syms = ()
    return out


def _lay_tile_options(game: Game1822, pairs, corp) -> list:
    """(tile, special, advanced, tiled_by) for each tile the reference offers these abilities:
    the phase's tiles when no ability names tiles, else the tiles named from the first
    ability that names some on (P11's of the next colour)."""
    memo = game.listing_memo()
    supply = memo.get(("supply by name",)) if memo is not None else None
    if supply is None:  # (the first copy of each name: the same for the listing's companies)
        supply = {}
        for t in game.board.supply_tiles():
            supply.setdefault(t.name, t)
        if memo is not None:
            memo[("supply by name",)] = supply
    named: list | None = None
    for c, a in pairs:
        if named is None and a.get("tiles"):
            named = []
        if named is not None:
            named += [(n, a.get("special", True), c.sym == "P11", c.sym) for n in a.get("tiles") or []]
    out = []
    colors = game.phase.tiles
    if named is None:
        for t in supply.values():
            if t.color in colors and not (corp.type == "minor" and t.color in ("brown", "gray")):
                out.append((t, False, False, None))
        return out
    seen = set()
    for name, special, advanced, owner in named:
        t = supply.get(name)
        if t is None or name in seen:
            continue
        if (t.color in colors) == advanced:
            continue
        if corp.type == "minor" and t.color in ("brown", "gray"):
            continue
        seen.add(name)
        out.append((t, special, advanced, owner))
    return out


def ability_allows(ab, tile) -> bool:
    """P12 lays yellow tiles or upgrades, not both: what is left of each."""
    if ab.get("upgrade_count") is None or ab.get("lay_count") is None:
        return True
    up = tile.color in ("green", "brown", "gray")
    return (ab["upgrade_count"] if up else ab["lay_count"]) > 0


def _company_lay_rotations(game: Game1822, pairs, syms, corp, hex_, old, tile, rots, rotation_ok) -> list[dict]:
    """The lay actions of ``tile`` on ``hex_`` among the rotations ``rots`` that upgrade the
    hex (:func:`_upgrade_rotations`): each one the abilities allow and the corporation can pay;
    ``syms``: the lay's companies' symbols, ``rotation_ok``: the hex's rotation check
    (:func:`trackrights.company_rotation_check`)."""
    company = pairs[0][0]
    matched = matching_abilities(pairs, hex_, tile)
    if not matched:
        return []
    free = any(a.get("free") for _, a in matched)
    out = []
    view = game.board.supply.shape(tile.name)
    base = None  # the hex's upgrade cost, asked once a rotation needs it (it reads no rotation)
    priced: dict[int, int] = {}  # a cost before the hexes' discounts -> after them (a pure answer)
    for r in rots:
        # the tile as seen off the map (its name's first copy, as the generic listing sees it:
        # one placement per name and rotation) answers for the tile on any hex: the rules
        # read the hex from ``hex_`` and the tile's shape
        placed = game.board.placed_tile(view, r, None)
        if not rotation_ok(placed):
            continue
        border = game.board.border_cost_preview(hex_, placed)
        if ("P10" in syms or company.sym == "P21") and border <= 0:
            continue  # these lays must cross an estuary
        if free:
            cost = 0
        else:
            if base is None:
                base = game.upgrade_cost(old, hex_, corp)
            cost = base + border
            if "P10" in syms:
                cost -= game.GSWR_DISCOUNT
            paid = priced.get(cost)
            if paid is None:
                paid = priced[cost] = game.tile_cost_with_discount(hex_, corp, cost)
            cost = paid
        if cost <= corp.cash:
            out.append({"type": "lay_tile", "hex": hex_.id, "tile": tile.id, "rotation": r})
    return out


def _upgrade_rotations(game: Game1822, old, tile, upgrade_key, memo) -> tuple[int, ...]:
    """The rotations of ``tile`` that upgrade ``old`` on its hex (as a special lay or not, as
    the lay in progress says): a pure function of the upgrade's memo key (``upgrade_key``,
    the game's ``upgrade_memo_key`` of the hex, ``old`` and ``tile``), the old tile's
    rotation and the kind of lay, so it is worked out once and kept in ``memo``, the old
    tile's spec's memo of these answers (its ``upgrade_memos`` entry for 1822's special
    lays), shared by every 1822 game as the generic listing's answers are
    (``UPGRADE_ANSWERS_SHARED``)."""
    special = bool(game._special_lay)
    key = (upgrade_key, old.rotation, special)
    rots = memo.get(key)
    if rots is None:
        view = game.board.supply.shape(tile.name)
        placed_tile = game.board.placed_tile
        # (the rules that read no rotation asked once, before the six rotations)
        rots = memo[key] = () if game.upgrade_ruled_out(old, placed_tile(view, 0, None)) else \
            tuple(r for r in range(6) if game.upgrades_to(old, placed_tile(view, r, None)))
    return rots
