"""Laying track and placing station tokens (separately or in one combined step)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import asks
from ..errors import GameError
from ..money import pay
from ..round import Step

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..hexmap import Hex
    from ..tiles import City, Placed
    from ..tokens import Token


def tokenable_cities(game: Any, entity: Any) -> list[City]:
    """The cities ``entity`` reaches and may place a token in: a free slot and no token of
    its own on that tile yet."""
    out: list[City] = []
    board = game.board
    for node in game.graph.connected_nodes(entity):
        if getattr(node, "is_city", False) and board.tokenable(node, entity) and not any(
                board.tokened_by(c, entity) for c in node.tile.cities):
            out.append(node)
    return out


class TrackAndTokenStep(Step):
    """Tile lays per ``game.TILE_LAYS`` plus at most one token, in any order.

    Titles hook in through ``check_lay`` / ``after_lay`` / ``pay`` (``payer``,
    ``cover_shortfall``, ``PRESIDENT_TOPS_UP``) for tiles and
    ``available_tokens`` / ``prepare_token`` / ``token_connected`` / ``check_token_room`` /
    ``pay`` for tokens (``token_cities`` / ``token_offer`` list them); a token-only step
    answers ``can_lay_tile`` with False.
    """

    HANDLERS: ClassVar[dict[str, Any]] = {"lay_tile": "process_lay_tile", "place_token": "process_place_token",
                                "pass": "process_pass"}
    WITH_TOKEN: ClassVar[bool] = True
    #: is a tile on a preprinted yellow hex a lay rather than an upgrade?
    PREPRINTED_YELLOW_IS_LAY: ClassVar[bool] = True
    #: Whether the listing's checks of a candidate lay (:meth:`is_upgrade`, :meth:`check_lay`,
    #: :meth:`legal_lay_ok`, the board's ``lay_cost_preview``) read nothing of the new tile but
    #: its colour and exits, so that the tile as seen off the map in that rotation
    #: (``TileSupply.shape``) answers for it on the hex, and no placement is made per hex and
    #: rotation. Default: no, the candidate placed on its hex.
    LISTING_CHECKS_SHAPE: ClassVar[bool] = False
    #: does a player president give his corporation what it lacks for a lay (1858)?
    PRESIDENT_TOPS_UP: ClassVar[bool] = False

    def round_state(self) -> dict[str, Any]:
        return {"num_laid_track": 0, "upgraded_track": False, "laid_hexes": [], "tokened": False}

    def setup(self) -> None:
        self.round.num_laid_track = 0
        self.round.upgraded_track = False
        self.round.laid_hexes = []
        self.round.tokened = False

    def description(self) -> str:
        return "Place a Token or Lay Track" if self.WITH_TOKEN else "Lay Track"

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity():
            return []
        out: list[str] = []
        if self.can_lay_tile(entity):
            out.append("lay_tile")
        if self.WITH_TOKEN and self.can_place_token(entity):
            out.append("place_token")
        if out:
            out.append("pass")
        return out

    def has_actions(self, entity: Any) -> bool:
        """:meth:`actions`' truth: a tile lay, else a token, without the other asked."""
        return entity is self.current_entity() and (
            self.can_lay_tile(entity) or (self.WITH_TOKEN and bool(self.can_place_token(entity))))

    def accepts(self, entity: Any, atype: str) -> bool:
        """:meth:`actions` lists ``atype``, its "anything?" known true (``entity`` is the step's,
        and the list ends with a pass): the one kind asked, not the other."""
        if atype == "pass":
            return True
        if atype == "lay_tile":
            return bool(self.can_lay_tile(entity))
        if atype == "place_token":
            return self.WITH_TOKEN and bool(self.can_place_token(entity))
        return False

    # ------------------------------------------------------------ tile lays
    def lay_entry(self, entity: Any) -> Mapping[str, Any] | None:
        """This turn's next lay as the title lists it (``game.tile_lays``, not completed:
        read it, never change it), or None when no lay is left. :meth:`tile_lay` is it
        completed; the questions read it in place."""
        lays = self.game.tile_lays(entity)
        i = self.round.num_laid_track
        return lays[i] if i < len(lays) else None

    def tile_lay(self, entity: Any) -> dict[str, Any] | None:
        entry = self.lay_entry(entity)
        if entry is None:
            return None
        lay: dict[str, Any] = dict(entry)
        for k in ("lay", "upgrade"):
            if lay.get(k) == "not_if_upgraded":
                lay[k] = not self.round.upgraded_track
        lay.setdefault("cost", 0)
        lay.setdefault("upgrade_cost", lay["cost"])
        lay.setdefault("cannot_reuse_same_hex", False)
        return lay

    def payer(self, entity: Any) -> Any:
        """Title hook: who pays ``entity``'s tile lays and tokens (default: ``entity``)."""
        return entity

    def president_tops_up(self, payer: Any) -> bool:
        """Does the president give ``payer`` what it lacks for a lay (``PRESIDENT_TOPS_UP``,
        for a corporation a player presides)?"""
        return self.PRESIDENT_TOPS_UP and payer.is_corporation and payer.owner is not None \
            and payer.owner.is_player

    def buying_power(self, entity: Any) -> int:
        """What ``entity`` may spend on a lay: its payer's cash, and its president's when he tops up."""
        payer = self.payer(entity)
        cash: int = payer.cash + (payer.owner.cash if self.president_tops_up(payer) else 0)
        return cash

    def can_lay_tile(self, entity: Any) -> bool:
        # (:meth:`tile_lay`'s answer read from the title's entry in place, no dict built: a lay
        # or an upgrade allowed, "not_if_upgraded" meaning nothing upgraded yet this turn, and
        # the lay's cost, 0 when unlisted, within what the payer may spend)
        # (:meth:`lay_entry` inline)
        lays = self.game.tile_lays(entity)
        i = self.round.num_laid_track
        if i >= len(lays) or not entity.tokens:
            return False
        entry = lays[i]
        lay, upgrade = entry["lay"], entry["upgrade"]
        if lay == "not_if_upgraded" or upgrade == "not_if_upgraded":
            fresh = not self.round.upgraded_track
            if lay == "not_if_upgraded":
                lay = fresh
            if upgrade == "not_if_upgraded":
                upgrade = fresh
        return bool(lay or upgrade) and self.buying_power(entity) >= entry.get("cost", 0)

    def is_upgrade(self, old_tile: Placed, new_tile: Placed) -> bool:
        return old_tile.color != "white" and not (self.PREPRINTED_YELLOW_IS_LAY and old_tile.color == "yellow"
                                                  and old_tile.preprinted)

    def pay(self, entity: Any, cost: int, why: str = "terrain") -> None:
        """Title hook: ``entity``'s ``payer`` pays ``cost`` for a tile lay (``why`` "terrain")
        or a token ("token") to the bank, after ``cover_shortfall`` when it has less."""
        if cost <= 0:
            return
        payer = self.payer(entity)
        if cost > payer.cash:
            self.cover_shortfall(payer, cost)
        pay(self.game, payer, self.game.bank, cost, why)

    def cover_shortfall(self, payer: Any, cost: int) -> None:
        """Title hook: find what ``payer`` lacks to pay ``cost`` (a loan, say). Default: the
        president gives it when he tops up (refused when he cannot), else nothing."""
        if not self.president_tops_up(payer):
            return
        president, short = payer.owner, cost - payer.cash
        if short > president.cash:
            raise GameError(f"lay_tile: the tile lay costs {cost}; {payer.name} and its president cannot pay it",
                            rule="insufficient-cash")
        pay(self.game, president, payer, short, "transfer")

    def check_lay(self, entity: Any, hex_: Hex, old_tile: Placed, tile: Placed, rotation: int) -> None:
        """Title hook: extra legality checks before a lay."""

    def legal_lay_ok(self, entity: Any, hex_: Hex, old_tile: Placed, tile: Placed) -> bool:
        """Title hook for enumeration: reject a candidate lay before trying it."""
        return True

    def after_lay(self, entity: Any, hex_: Hex, old_tile: Placed, tile: Placed) -> None:
        """Title hook: bookkeeping after a lay."""

    def process_lay_tile(self, action: dict[str, Any], entity: Any) -> None:
        game = self.game
        hex_ = game.board.hex_by_id(action.get("hex"))
        if hex_ is None:
            raise GameError(f"unknown hex {action.get('hex')!r}", rule="unknown-hex")
        tile = game.board.tile_by_id(action.get("tile"))
        if tile is None:
            raise GameError(f"unknown or unavailable tile {action.get('tile')!r}", rule="tile-not-available")
        rotation = action.get("rotation", 0)
        if not isinstance(rotation, int) or not 0 <= rotation <= 5:
            raise GameError(f"rotation must be 0-5, not {rotation!r}", rule="bad-rotation")
        old_tile = game.board.state.tile_at[hex_.id]
        if not hasattr(tile, "at"):
            raise GameError(f"tile {tile.id} is already on {tile.hex.id if tile.hex else 'the map'}",
                            rule="tile-not-available")
        tile = tile.at(rotation, hex_)  # (``Board.placed_tile``)
        # (:meth:`tile_lay`'s answer read from the title's entry in place, no dict built)
        lays = game.tile_lays(entity)
        i = self.round.num_laid_track
        if i >= len(lays):
            raise GameError("no more tile lays this turn", rule="tile-lay-limit")
        entry = lays[i]
        upgrade = self.is_upgrade(old_tile, tile)
        if upgrade:
            may = entry["upgrade"]
            if may == "not_if_upgraded":
                may = not self.round.upgraded_track
            if not may:
                raise GameError("cannot upgrade now", rule="tile-lay-limit")
        else:
            may = entry["lay"]
            if may == "not_if_upgraded":
                may = not self.round.upgraded_track
            if not may:
                raise GameError("cannot lay a tile now", rule="tile-lay-limit")
        if entry.get("cannot_reuse_same_hex", False) and hex_ in self.round.laid_hexes:
            raise GameError(f"{hex_.id} was already laid this turn", rule="same-hex")
        self.check_lay(entity, hex_, old_tile, tile, rotation)
        cost = entry.get("cost", 0)
        extra = cost if tile.color == "yellow" else entry.get("upgrade_cost", cost)
        game.board.lay_tile(entity, hex_, tile.tile, rotation, extra_cost=extra, pay=lambda c: self.pay(entity, c))
        if upgrade:
            self.round.upgraded_track = True
        self.round.num_laid_track += 1
        self.round.laid_hexes.append(hex_)
        self.after_lay(entity, hex_, old_tile, tile)
        if not self.can_lay_tile(entity) and (self.round.tokened or not self.WITH_TOKEN):
            self.pass_()

    # ------------------------------------------------------------ tokens
    def available_tokens(self, entity: Any) -> list[Token]:
        return [t for t in entity.tokens if not t.used]

    def can_place_token(self, entity: Any) -> bool:
        if self.round.tokened:
            return False
        if type(self).available_tokens is TrackAndTokenStep.available_tokens:
            # (the default's unused tokens and their cheapest price in one pass, no list)
            cheapest = None
            for t in entity.tokens:
                if not t.used and (cheapest is None or t.price < cheapest):
                    cheapest = t.price
            if cheapest is None or cheapest > self.buying_power(entity):
                return False
        else:
            toks = self.available_tokens(entity)
            if not toks or min(t.price for t in toks) > self.buying_power(entity):
                return False
        can: bool = self.game.graph.can_token(entity)
        return can

    def process_place_token(self, action: dict[str, Any], entity: Any) -> None:
        game, board = self.game, self.game.board
        if self.round.tokened:
            raise GameError("a token was already placed this turn", rule="one-token-per-turn")
        city = board.city_by_id(action.get("city"))
        if city is None or city.hex is None or city.tile is not board.tile(city.hex):
            raise GameError(f"unknown city {action.get('city')!r}", rule="unknown-city")
        toks = self.available_tokens(entity)
        if not toks:
            raise GameError(f"{entity.name} has no tokens left", rule="no-tokens")
        token, free = toks[0], self.free_token(entity, city)
        token = self.prepare_token(entity, city, token, action)
        if not game.loading and not self.token_connected(entity, city):
            raise GameError(f"{city.id} is not connected to {entity.name}'s network", rule="token-not-connected")
        self.check_token_room(entity, city, token, free)
        board.unsettled_graph_goes()  # (changed() follows)
        board.place_city_token(city, entity, token, free=free, check_tokenable=False)
        if token.price > 0 and not free:
            self.pay(entity, token.price, "token")
        board.changed()
        self.round.tokened = True
        if not self.can_lay_tile(entity):
            self.pass_()

    def prepare_token(self, entity: Any, city: City, token: Token, action: dict[str, Any]) -> Token:
        """Title hook: check (raise a ``GameError``) and price ``token`` before ``entity``
        places it in ``city``, and return it (a new price is a new value:
        ``Board.set_token_price``); the step then checks connection and room and charges
        ``token.price`` through ``pay`` unless ``free_token``. Default: ``token`` as it is."""
        return token

    def free_token(self, entity: Any, city: City) -> bool:
        """Title hook: is ``entity``'s token in ``city`` free (a company's ability)? Default: no."""
        return False

    def token_connected(self, entity: Any, city: City) -> bool:
        """Title hook: does ``entity`` reach ``city`` (not asked while replaying)? Default:
        the city is on its track graph."""
        return city in self.game.graph.connected_nodes(entity)

    def check_token_room(self, entity: Any, city: City, token: Token, free: bool) -> None:
        """Title hook: refuse (a ``GameError``) a token in ``city`` without room for it.
        Default: no token of its own on the tile, and a slot it may take (and pay for)."""
        board = self.game.board
        if any(board.tokened_by(c, entity) for c in city.tile.cities):
            raise GameError(f"{entity.name} already has a token on {city.hex.id}", rule="token-same-hex")
        if not board.tokenable(city, entity, free=free, tokens=[token]):
            raise GameError(f"no free slot for {entity.name} in {city.id}", rule="city-full")

    def token_cities(self, entity: Any) -> list[City]:
        """Title hook for enumeration: the cities a token may be offered in (default: the
        connected cities without a token of ``entity`` on their tile)."""
        board = self.game.board
        return [n for n in self.game.graph.connected_nodes(entity) if getattr(n, "is_city", False)
                and not any(board.tokened_by(c, entity) for c in n.tile.cities)]

    def token_offer(self, entity: Any, city: City) -> dict[str, Any] | None:
        """Title hook for enumeration: the legal ``place_token`` action in ``city`` (its slot),
        or None when ``check_token_room`` refuses it."""
        try:
            self.check_token_room(entity, city, self.available_tokens(entity)[0], self.free_token(entity, city))
        except GameError:
            return None
        return {"type": "place_token", "city": city.id, "slot": self.game.board.get_slot(city, entity) or 0}

    # ------------------------------------------------------------ enumeration
    def listing_reads_exits(self, hex_: Hex) -> bool:
        """With ``LISTING_CHECKS_SHAPE``: do the listing's checks on ``hex_`` read the
        candidate's exits (else its colour only, and the listing asks them once per colour
        there)? Default: yes."""
        return True

    def listed_lay_ok(self, entity: Any, lay: dict[str, Any], power: int, hex_: Hex, old: Placed, tile: Placed,
                      rotation: int) -> bool:
        """The listing's checks of one candidate lay (``tile`` in ``rotation`` on ``hex_``,
        holding ``old``) under this turn's ``lay``, ``power`` what the payer may spend."""
        up = self.is_upgrade(old, tile)
        if (up and not lay["upgrade"]) or (not up and not lay["lay"]):
            return False
        if lay["cannot_reuse_same_hex"] and hex_ in self.round.laid_hexes:
            return False
        try:
            self.check_lay(entity, hex_, old, tile, rotation)
        except GameError:
            return False
        if not self.legal_lay_ok(entity, hex_, old, tile):
            return False
        extra = lay["cost"] if tile.color == "yellow" else lay["upgrade_cost"]
        return bool(self.game.board.lay_cost_preview(hex_, tile, entity) + extra <= power)

    def legal_actions(self, entity: Any) -> list[dict[str, Any]]:
        acts = self.actions(entity)
        out: list[dict[str, Any]] = []
        if "lay_tile" in acts and asks(self.game, "lay_tile"):
            lay = self.tile_lay(entity)
            assert lay is not None  # lay_tile is offered only while a lay is left
            board = self.game.board
            shape = board.supply.shape if self.LISTING_CHECKS_SHAPE else None
            placed_tile = board.placed_tile
            # (nothing the checks below read changes while the listing runs: what the
            # payer may spend is asked once, and the candidates, which come hex by hex,
            # look their hex and tile up once each)
            power = self.buying_power(entity)
            hex_id: str | None = None
            hex_: Any = None
            old: Any = None
            views: dict[str, Any] = {}  # candidate tile id -> the tile placed (supply tile or shape)
            # with LISTING_CHECKS_SHAPE, the checks' verdict on the hex by the candidate's
            # colour (and its exits where the hex's checks read them: listing_reads_exits)
            verdicts: dict[Any, bool] = {}
            reads_exits = True
            for cand in self.game.legal_tile_lays(entity):
                if cand["hex"] != hex_id:
                    hex_id = cand["hex"]
                    hex_ = board.hex_by_id(hex_id)
                    old = board.tile(hex_)
                    if shape is not None:
                        verdicts = {}
                        reads_exits = self.listing_reads_exits(hex_)
                tid = cand["tile"]
                view = views.get(tid)
                if view is None:
                    supply_tile = board.tile_by_id(tid)
                    view = views[tid] = supply_tile if shape is None else shape(supply_tile.name)
                rotation = cand["rotation"]
                if shape is None:
                    ok = self.listed_lay_ok(entity, lay, power, hex_, old, placed_tile(view, rotation, hex_), rotation)
                else:
                    tile = placed_tile(view, rotation, None)
                    key = (tile.color, tile.exits) if reads_exits else tile.color
                    found = verdicts.get(key)
                    if found is None:
                        found = verdicts[key] = self.listed_lay_ok(entity, lay, power, hex_, old, tile, rotation)
                    ok = found
                if ok:
                    out.append({"type": "lay_tile", **cand})
        if "place_token" in acts and asks(self.game, "place_token"):
            out += [a for city in self.token_cities(entity) if (a := self.token_offer(entity, city)) is not None]
        if "pass" in acts:
            out.append({"type": "pass"})
        return out


class TokenStep(TrackAndTokenStep):
    """A step that only places a token, at most one a turn (its tile lays are elsewhere)."""

    HANDLERS: ClassVar[dict[str, Any]] = {"place_token": "process_place_token", "pass": "process_pass"}

    def round_state(self) -> dict[str, Any]:
        return {"tokened": False}

    def setup(self) -> None:
        self.round.tokened = False

    def description(self) -> str:
        return "Place a Token"

    def can_lay_tile(self, entity: Any) -> bool:
        return False
