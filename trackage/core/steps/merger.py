"""Mergers: a corporation taking over others (:class:`MergerMixin`) and the step in which
the survivor gives up the tokens over its limit (:class:`ReduceTokens`).

The survivor's tokens are bounded by :meth:`~MergerMixin.token_limit` (the game's
``LIMIT_TOKENS_AFTER_MERGER``) and may not share a hex; while they break that rule the round
lists ``corporations_removing_tokens`` (the survivor first, then the companies it took over)
and :class:`ReduceTokens` asks the survivor to remove tokens until they keep it; then the
others' tokens become the survivor's.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..entities import ShareBundle, hand_over_companies, hand_over_trains
from ..errors import GameError
from ..money import pay
from ..round import Step
from ..tokens import Token


def placed_hexes(corp: Any) -> list[Any]:
    """The hexes of ``corp``'s tokens on the board, one per token."""
    return [t.city.hex for t in corp.tokens if t.used and t.city is not None]


def connected_corporations(game: Any, corp: Any) -> list[Any]:
    """The companies with a token in a city ``corp``'s track reaches (``corp`` among them
    when it has one there), each once, in the order found: the partners it may merge with."""
    board = game.board
    owners: dict[tuple[str, str], Any] = {}
    for n in game.graph.connected_nodes(corp):
        if n.is_city:
            for t in board.tokens(n):
                if t is not None and t.owner_key() not in owners:
                    owners[t.owner_key()] = game.token_owner(t)
    return list(owners.values())


class MergerMixin:
    """What a merger does to the companies in it: tokens, assets, the president's certificate."""

    game: Any

    def token_limit(self) -> int:
        """The most tokens a survivor keeps (the game's ``LIMIT_TOKENS_AFTER_MERGER``)."""
        limit: int = self.game.LIMIT_TOKENS_AFTER_MERGER
        return limit

    def tokens_above_limits(self, surviving: Any, others: list[Any]) -> bool:
        """Must ``surviving`` give up tokens: two in one hex, one in a hex of the others', or
        more used tokens among them all than :meth:`token_limit`?"""
        hexes = placed_hexes(surviving)
        other_hexes = {h for o in others for h in placed_hexes(o)}
        if len(set(hexes)) != len(hexes) or set(hexes) & other_hexes:
            return True
        used = sum(1 for c in [surviving, *others] for t in c.tokens if t.used)
        return used > self.token_limit()

    def remove_duplicate_tokens(self, surviving: Any, others: list[Any]) -> None:
        """``surviving``'s tokens in a city where one of ``others`` has one leave the board."""
        cities = [t.city for o in others for t in o.tokens if t.city is not None]
        for token in surviving.tokens:
            if token.city is not None and token.city in cities:
                self.game.board.remove_token(token)

    def move_tokens_to_surviving(self, surviving: Any, others: list[Any]) -> None:
        """Each token of ``others`` becomes a free token of ``surviving`` (in its place on the
        board); ``surviving`` keeps its placed tokens, then the unplaced ones, cheapest first,
        up to :meth:`token_limit`."""
        limit = self.token_limit()
        used = [t for t in surviving.tokens if t.used]
        unused = [t for t in surviving.tokens if not t.used]
        for o in others:
            for tok in o.tokens:
                new = Token(surviving, price=0)
                if tok.city is not None:
                    placed = self.game.board.swap_token(tok, new, check_tokenable=True)
                    used.append(new if placed is None else placed)
                else:
                    unused.append(new)
        if len(used) > limit:
            raise GameError("used tokens above the limit", rule="token-limit")
        unused.sort(key=lambda t: t.price)
        surviving.tokens = (*used, *unused)[:limit]
        self.game.board.changed()

    def take_over(self, frm: Any, to: Any) -> None:
        """``to`` takes over ``frm``'s placed tokens (its own unplaced ones first, then new
        ones), cash, private companies, loans and trains; ``frm`` closes."""
        board = self.game.board
        for token in [t for t in frm.tokens if t.city is not None]:
            city = token.city
            new_token = next((t for t in to.tokens if not t.used), None)
            if new_token is None:
                new_token = Token(to)
                to.tokens = (*to.tokens, new_token)
            board.remove_token(token)
            board.place_city_token(city, to, new_token, check_tokenable=False)
        if frm.cash > 0:
            pay(self.game, frm, to, frm.cash, "closure")
        hand_over_companies(frm, to)
        to.loans += frm.loans
        frm.loans = 0
        hand_over_trains(frm, to)
        self.game.close_corporation(frm)

    def absorb(self, surviving: Any, others: list[Any]) -> bool:
        """``surviving`` takes over each of ``others`` in turn (:meth:`take_over`; first its
        tokens in a city where one of theirs still is leave the board). True when it is then
        above its token limits, for :class:`ReduceTokens` (the title lists the round's
        ``corporations_removing_tokens``: their order is its rule)."""
        for other in others:
            self.remove_duplicate_tokens(surviving, others)
            self.take_over(other, surviving)
        return self.tokens_above_limits(surviving, others)

    def give_back_share(self, holder: Any, corp: Any) -> None:
        """``holder``'s first share of ``corp`` goes back to its treasury (the journal tells it)."""
        share = holder.shares_of(corp)[0]
        self.game.share_market.transfer(ShareBundle([share], corporation=corp), corp, allow_president_change=False)

    def take_presidency(self, holder: Any, corp: Any) -> None:
        """``holder``'s 10% share of ``corp`` goes back to its treasury and ``holder`` takes the
        president's certificate from there in exchange."""
        presidency = corp.shares_of(corp)[0]
        self.give_back_share(holder, corp)
        self.game.share_market.buy_shares(holder, ShareBundle([presidency], corporation=corp), exchange=True)

    def receive_share(self, holder: Any, corp: Any, bought: ShareBundle | None = None) -> None:
        """``holder`` gets a 10% share of ``corp``: ``bought`` (paid for), or without it the last
        one of the treasury in exchange. While the president's certificate is still in the
        treasury, a holder of 10% takes it for that share (and the one bought) instead."""
        swap = self.presidency_in_treasury(corp) and holder.percent_of(corp) == 10
        if swap and bought is None:
            self.take_presidency(holder, corp)
            return
        if swap:
            self.give_back_share(holder, corp)
        bundle = bought if bought is not None else ShareBundle([corp.shares_of(corp)[-1]], corporation=corp)
        self.game.share_market.buy_shares(holder, bundle, exchange=bought is None)
        if swap:
            self.take_presidency(holder, corp)

    def presidency_in_treasury(self, corp: Any) -> bool:
        """Is ``corp``'s president's certificate still in its treasury?"""
        treasury = corp.shares_of(corp)
        return bool(treasury) and bool(treasury[0].president)


class ReduceTokens(MergerMixin, Step):
    """The survivor of a merger (first of the round's ``corporations_removing_tokens``)
    removes tokens, one ``remove_token`` at a time, until :meth:`tokens_above_limits` no
    longer holds; then it takes the others' tokens. Titles add rules through
    :meth:`available_hex` and :meth:`removal_refusal`."""

    HANDLERS: ClassVar[dict[str, Any]] = {"remove_token": "process_remove_token"}

    def round_state(self) -> dict[str, Any]:
        return {"corporations_removing_tokens": None}

    def active(self) -> bool:
        return bool(self.round.corporations_removing_tokens)

    def skip(self) -> None:
        pass

    def current_entity(self) -> Any:
        crt = self.round.corporations_removing_tokens
        return crt[0] if crt else None

    def surviving(self) -> Any:
        return self.current_entity()

    def acquired(self) -> list[Any]:
        return list((self.round.corporations_removing_tokens or [])[1:])

    def actions(self, entity: Any) -> list[str]:
        return ["remove_token"] if entity is not None and entity is self.surviving() else []

    def available_hex(self, entity: Any, hex_: Any) -> bool:
        """May ``entity`` remove a token in ``hex_``? While the survivor and the others share
        a hex, only there; else wherever the survivor or the others have one."""
        if entity is not self.surviving():
            return False
        own, others = placed_hexes(entity), [h for o in self.acquired() for h in placed_hexes(o)]
        if set(own) & set(others):
            return hex_ in own and hex_ in others
        return hex_ in own or hex_ in others

    def removal_refusal(self, entity: Any, token: Any) -> GameError | None:
        """Why ``entity`` may not remove ``token`` (an error naming the rule), None when it
        may. Default: None."""
        return None

    def process_remove_token(self, action: dict[str, Any], entity: Any) -> None:
        board = self.game.board
        city = board.city_by_id(action.get("city"))
        slot = action.get("slot")
        if city is None or not isinstance(slot, int):
            raise GameError("remove_token needs a city and a slot", rule="malformed-action")
        tokens = list(board.tokens(city)) + list(board.extra_tokens(city))
        token = tokens[slot] if 0 <= slot < len(tokens) else None
        if token is None:
            raise GameError(f"remove_token: no token in slot {slot} of {city.id}", rule="no-token")
        if not self.available_hex(entity, city.hex):
            owner = getattr(self.game.token_owner(token), "name", token.owner)
            raise GameError(f"remove_token: {entity.name} cannot remove the {owner} token",
                            rule="illegal-token-removal")
        if (refusal := self.removal_refusal(entity, token)) is not None:
            raise refusal
        board.remove_token(token)
        if self.tokens_above_limits(entity, self.acquired()):
            return
        self.move_tokens_to_surviving(entity, self.acquired())
        self.round.corporations_removing_tokens = None

    def legal_actions(self, entity: Any) -> list[dict[str, Any]]:
        if not self.actions(entity):
            return []
        board, out = self.game.board, []
        for corp in [entity, *self.acquired()]:
            for t in corp.tokens:
                if (t.used and t.city is not None and self.available_hex(entity, t.city.hex)
                        and self.removal_refusal(entity, t) is None):
                    out.append({"type": "remove_token", "city": t.city.id, "slot": board.tokens(t.city).index(t)})
        return out
