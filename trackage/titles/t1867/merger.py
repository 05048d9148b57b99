"""The 1867 merger round: converting a minor into a major, merging connected minors into
a major, the share purchases that follow, and token reduction."""

from __future__ import annotations

import functools
from collections import Counter
from typing import ClassVar

from ...core.entities import ShareBundle, hand_over_companies, hand_over_trains
from ...core.errors import GameError
from ...core.money import pay
from ...core.round import Step
from ...core.tokens import Token

LIMIT_OWNED_BY_ONE_ENTITY = 6
LIMIT_MERGE = 10


def _give_back(sm, holder, target):
    """``holder``'s 10% share of ``target`` goes back to its treasury (to be taken again as part
    of the director's certificate), as a transfer the journal tells."""
    sm.transfer(ShareBundle([holder.shares_of(target)[0]]), target, allow_president_change=False)


def _treasury(corp) -> list:
    return corp.shares_of(corp)


def _used_hexes(corp) -> list:
    return [t.city.hex for t in corp.tokens if t.used and t.city is not None]


def tokens_above_limits(game, surviving, others) -> bool:
    hexes = _used_hexes(surviving)
    if len(set(hexes)) != len(hexes):
        return True
    other_hexes = {t.city.hex for o in others for t in o.tokens if t.used and t.city is not None}
    if set(hexes) & other_hexes:
        return True
    used = sum(1 for t in surviving.tokens if t.used) + sum(1 for o in others for t in o.tokens if t.used)
    return used > game.LIMIT_TOKENS_AFTER_MERGER


class Merge(Step):
    HANDLERS: ClassVar[dict] = {"merge": "process_merge", "convert": "process_convert", "pass": "process_pass"}

    def __init__(self, game, round_, **opts):
        super().__init__(game, round_, **opts)
        self.converting = None
        self.merge_major = False
        self.merging: list | None = None  # the corporations of the merge under way

    def round_state(self):
        return {"converted": None, "merge_type": None, "converts": [], "share_dealing_players": [],
                "share_dealing_multiple": []}

    def description(self):
        return "Convert or Merge Minor Corporation"

    def actions(self, entity):
        if not entity.is_corporation or entity is not self.current_entity() or self.round.converted is not None:
            return []
        if self.converting is not None or self.merge_major:
            return ["merge"]
        out = ["merge"]
        if self.merging is None and self.can_convert(entity):
            out.append("convert")
        out.append("pass")
        return out

    def can_convert(self, entity) -> bool:
        return entity.type == "minor" and entity.share_price is not None and "convert_range" in entity.share_price.types

    # ------------------------------------------------------------ candidates
    def mergeable_candidates(self, corp) -> list:
        return self.candidates_of(self.merging if self.merging is not None else [corp])

    def neighbours(self, corp) -> list:
        """Corporations with a token in a city that ``corp``'s track reaches."""
        board = self.game.board
        return list(dict.fromkeys(t.corporation for n in self.game.graph.connected_nodes(corp)
                                  if getattr(n, "is_city", False) for t in board.tokens(n) if t is not None))

    def candidates_of(self, mergeable: list, neighbours=None) -> list:
        """Minors that may join a merge of ``mergeable``: connected by track, at most ten
        companies, at most six of one owner."""
        if len(mergeable) >= LIMIT_MERGE:
            return []
        counts = Counter(id(c.owner) for c in mergeable)
        at_limit = {k for k, v in counts.items() if v >= LIMIT_OWNED_BY_ONE_ENTITY}
        near = neighbours or self.neighbours
        available = dict.fromkeys(oc for c in mergeable for oc in near(c) if oc not in mergeable)
        return [c for c in available if getattr(c, "type", None) == "minor" and id(c.owner) not in at_limit
                and not c.closed]

    def mergeable(self, corp) -> list:
        return self.majors() if self.converting is not None or self.merge_major else self.mergeable_candidates(corp)

    def merged_par(self, merging):
        prices = [c.share_price.price for c in merging]
        return self.new_par(min(200, max(100, max(prices) + min(prices))))

    def viable(self, merging) -> bool:
        """Will the major these minors form have a president? An owner of two of them gets
        the president's certificate at once; otherwise an owner must be able to buy a second
        10% share afterwards (its price in cash, room under the certificate limit once the
        minor's certificate became a 10% share), or the reference calls the merge failed and
        stops until it is undone."""
        owners = [c.owner for c in merging]
        if any(owners.count(p) >= 2 for p in owners):
            return True
        par = self.merged_par(merging).price
        game = self.game
        for minor in merging:
            p = minor.owner
            certs = game.num_certs(p) - sum(1 for s in p.shares_of(minor) if s.counts_for_limit) + 1
            if p.cash >= par and certs < game.cert_limit(p):
                return True
        return False

    def reachable_viable(self, merging) -> bool:
        """Can this merge still end with a president, adding more connected minors if needed?"""
        neighbours = functools.cache(self.neighbours)
        seen = set()

        def search(group) -> bool:
            key = frozenset(id(c) for c in group)
            if key in seen:
                return False
            seen.add(key)
            if self.viable(group):
                return True
            return any(search(group + [c]) for c in self.candidates_of(group, neighbours))

        return search(list(merging))

    def new_par(self, price_limit):
        return next(sp for sp in self.game.share_prices_with_types(("par", "par_2")) if sp.price <= price_limit)

    # ------------------------------------------------------------ processing
    def majors(self) -> list:
        """The majors not yet started, for a conversion or a merge to form."""
        return [c for c in self.game.corporations if c.type == "major" and not c.floated() and not c.ipoed]

    def process_convert(self, action, entity):
        if self.merging is not None or not self.can_convert(entity):
            raise GameError(f"{entity.name} cannot convert", rule="cannot-convert")
        if not self.game.loading and not self.majors():
            raise GameError("no major corporation is available", rule="no-major-available")
        self.converting = entity

    def process_pass(self, action, entity):
        if self.merging is not None:
            if not self.game.loading and not self.viable(self.merging):
                raise GameError("no player could become president of this merge; add more minors",
                                rule="illegal-merge")
            self.merge_major = True
        else:
            self.pass_()

    def process_merge(self, action, entity):
        if self.converting is not None:
            return self.finish_convert(action, entity)
        if self.merge_major:
            return self.finish_merge_to_major(action, entity)
        other = self.game.corporation_by_id(action.get("corporation"))
        if other is None:
            raise GameError(f"unknown corporation {action.get('corporation')!r}", rule="unknown-entity")
        if not self.game.loading and other not in self.mergeable_candidates(entity):
            raise GameError(f"{entity.name} cannot merge with {other.name}", rule="illegal-merge")
        merging = (self.merging or [entity]) + [other]
        if not self.game.loading and not self.majors():
            raise GameError("no major corporation is available", rule="no-major-available")
        if not self.game.loading and not self.reachable_viable(merging):
            raise GameError("this merge could not end with a president", rule="illegal-merge")
        if self.merging is None:
            self.merging = [entity]
        self.merging.append(other)
        if not self.mergeable_candidates(entity):
            self.merge_major = True

    def target_from(self, action, corp):
        target = self.game.corporation_by_id(action.get("corporation"))
        if target is None or target not in self.mergeable(corp):
            raise GameError(f"choose a major corporation to merge {corp.name} into", rule="illegal-merge")
        return target

    def absorb(self, frm, to):
        """``to`` takes over the tokens, cash, privates, loans and trains of ``frm``, which closes."""
        self.move_tokens(frm, to)
        if frm.cash > 0:
            pay(self.game, frm, to, frm.cash, "closure")
        hand_over_companies(frm, to)
        to.loans += frm.loans
        frm.loans = 0
        hand_over_trains(frm, to)
        self.game.close_corporation(frm)

    def deal_shares(self, target, kind: str, players: list, multiple: list) -> None:
        """The major formed by a ``kind`` ("convert" or "merge") offers its shares to ``players``."""
        self.round.converted = target
        self.round.converts.append(target)
        self.round.merge_type = kind
        self.round.share_dealing_players = players
        self.round.share_dealing_multiple = multiple
        self.game.graph_changed()

    def move_tokens(self, frm, to):
        board = self.game.board
        for token in [t for t in frm.tokens if t.city is not None]:
            city = token.city
            new_token = next((t for t in to.tokens if not t.used), None)
            if new_token is None:
                new_token = Token(to)
                to.tokens.append(new_token)
            board.remove_token(token)
            board.place_city_token(city, to, new_token, check_tokenable=False)

    def finish_convert(self, action, corp):
        target = self.target_from(action, corp)
        game = self.game
        new_price = self.new_par(corp.share_price.price)
        game.stock_market.set_par(target, new_price)
        owner = corp.owner
        self.converting = None
        game.share_market.buy_shares(owner, ShareBundle([_treasury(target)[0]]), exchange=True)
        self.absorb(corp, target)
        self.round.entities[self.round.entity_index] = target
        i = game.players.index(target.owner)
        self.deal_shares(target, "convert", game.players[i:] + game.players[:i], [owner])

    def finish_merge_to_major(self, action, corp):
        game = self.game
        target = self.target_from(action, corp)
        assert self.merging is not None  # only called while a merge is under way
        merging = sorted(self.merging, key=game.stock_market.operating_key)
        par = self.merged_par(merging)
        owners = [c.owner for c in merging]
        players = [p for p in game.players if p in owners]
        i = players.index(owners[0])
        players = players[i:] + players[:i]
        if not any(p.cash >= par.price or owners.count(p) >= 2 for p in players):
            raise GameError("merge impossible, no player can become president", rule="illegal-merge")
        game.stock_market.set_par(target, par)
        self.round.entities[self.round.entity_index] = target
        self.merge_major = False
        target.ipoed = True
        sm = game.share_market
        for minor in merging:
            owner = minor.owner
            treasury = _treasury(target)
            if treasury and treasury[0].president and owner.percent_of(target) == 10:
                presidency = treasury[0]
                _give_back(sm, owner, target)
                sm.buy_shares(owner, ShareBundle([presidency]), exchange=True)
            else:
                sm.buy_shares(owner, ShareBundle([treasury[-1]]), exchange=True)
            self.remove_duplicate_tokens(target, self.merging)
            self.absorb(minor, target)
            if minor in self.round.entities:
                self.round.entities.remove(minor)
        if tokens_above_limits(game, target, self.merging):
            self.round.corporations_removing_tokens = [target] + self.merging
        else:
            game.fix_token_count(target)
        if self.round.entities:
            self.round.goto_entity(target)
        self.merging = None
        self.deal_shares(target, "merge", list(players), list(players))

    def remove_duplicate_tokens(self, surviving, others):
        cities = [t.city for o in others for t in o.tokens if t.city is not None]
        for token in surviving.tokens:
            if token.city is not None and token.city in cities:
                self.game.board.remove_token(token)

    def legal_actions(self, entity):
        acts = self.actions(entity)
        out = []
        if "merge" in acts:
            for c in self.mergeable(entity):
                if (self.converting is None and not self.merge_major
                        and (not self.majors()
                             or not self.reachable_viable((self.merging or [entity]) + [c]))):
                    continue
                out.append({"type": "merge", "corporation": c.id})
        if "convert" in acts and self.majors():
            out.append({"type": "convert"})
        if "pass" in acts and (self.merging is None or self.viable(self.merging)):
            out.append({"type": "pass"})
        return out


class PostMergerShares(Step):
    HANDLERS: ClassVar[dict] = {"buy_shares": "process_buy_shares", "pass": "process_pass"}

    def description(self):
        return "Buy Shares Post Merge"

    def corporation(self):
        return self.round.converted

    def active(self):
        return self.corporation() is not None

    def skip(self):
        pass

    def can_buy(self, entity, share) -> bool:
        corp, game = self.corporation(), self.game
        return (share.corporation is corp and share.percent == 10 and share.owner is not game.pool
                and entity.cash >= ShareBundle([share]).price() and corp.holding_ok(entity, share.percent)
                and game.num_certs(entity) < game.cert_limit(entity))

    def can_buy_any(self, entity) -> bool:
        return any(self.can_buy(entity, s) for s in _treasury(self.corporation())[:2])

    def eligible_players(self) -> list:
        return [p for p in self.round.share_dealing_players if not p.passed and self.can_buy_any(p)]

    def check_merge(self):
        if self.eligible_players():
            return
        corp = self.corporation()
        t = _treasury(corp)
        if t and t[0].president:
            self.broken = True
        elif self.round.merge_type == "merge" and self.round.share_dealing_multiple:
            for p in self.round.share_dealing_players:
                p.passed = False
            players = self.game.players
            i = players.index(corp.owner)
            self.round.share_dealing_players = players[i:] + players[:i]
            self.round.share_dealing_multiple = []

    def current_entity(self):
        if self.corporation() is None:
            return None
        if getattr(self, "broken", False):
            return self.game.players[0]
        players = self.eligible_players()
        if not players:
            self.check_merge()
            players = self.eligible_players()
        return players[0] if players else None

    def actions(self, entity):
        if not entity.is_player or self.corporation() is None or not self.can_buy_any(entity):
            return []
        return ["buy_shares", "pass"]

    def process_buy_shares(self, action, entity):
        from ...core.shares import action_bundle

        bundle = action_bundle(self.game, action)
        target = bundle.corporation
        self.check_turn(entity)
        if target is not self.corporation() or len(bundle.shares) != 1 or not self.can_buy(entity, bundle.shares[0]):
            raise GameError(f"{entity.name} cannot buy {bundle.shares[0].id}", rule="illegal-buy")
        sm = self.game.share_market
        t = _treasury(target)
        if t and t[0].president and entity.percent_of(target) == 10:
            presidency = t[0]
            _give_back(sm, entity, target)
            sm.buy_shares(entity, bundle)
            _give_back(sm, entity, target)
            sm.buy_shares(entity, ShareBundle([presidency]), exchange=True)
        else:
            sm.buy_shares(entity, bundle)
        if entity not in self.round.share_dealing_multiple or not self.can_buy_any(entity):
            entity.passed = True
        self.check_merge()

    def check_turn(self, entity):
        # The reference lets any player who may still buy act out of turn; logs may hold that,
        # live play keeps to the turn order.
        if not self.game.loading and entity is not self.current_entity():
            raise GameError(f"it is not {entity.name}'s turn to buy", rule="out-of-turn")

    def pass_breaks_merge(self, entity) -> bool:
        """Would this pass leave the major without a president (nobody else may still buy)?
        The reference then calls the merge failed and stops until it is undone."""
        t = _treasury(self.corporation())
        if not t or not t[0].president:
            return False
        return not any(p is not entity for p in self.eligible_players())

    def process_pass(self, action, entity):
        self.check_turn(entity)
        if self.pass_breaks_merge(entity):
            raise GameError(f"{entity.name} must buy: the merged major would have no president",
                            rule="merge-needs-president")
        entity.passed = True
        self.check_merge()
        if self.current_entity() is entity and entity in self.round.share_dealing_players:
            self.round.share_dealing_players.remove(entity)

    def legal_actions(self, entity):
        if "buy_shares" not in self.actions(entity):
            return []
        s = next(s for s in _treasury(self.corporation())[:2] if self.can_buy(entity, s))
        out = [{"type": "buy_shares", "shares": [s.id], "percent": 10}]
        if not self.pass_breaks_merge(entity):
            out.append({"type": "pass"})
        return out


class ReduceTokens(Step):
    HANDLERS: ClassVar[dict] = {"remove_token": "process_remove_token"}

    def round_state(self):
        return {"corporations_removing_tokens": None}

    def active(self):
        return bool(self.round.corporations_removing_tokens)

    def skip(self):
        pass

    def current_entity(self):
        crt = self.round.corporations_removing_tokens
        return crt[0] if crt else None

    surviving = current_entity

    def acquired(self):
        return (self.round.corporations_removing_tokens or [])[1:]

    def actions(self, entity):
        return ["remove_token"] if entity is self.surviving() and entity is not None else []

    def available_hex(self, entity, hex_) -> bool:
        if entity is not self.surviving():
            return False
        own = _used_hexes(entity).count(hex_)
        others = [h for o in self.acquired() for h in _used_hexes(o)]
        if own > 1:
            return True
        if set(_used_hexes(entity)) & set(others):
            return bool(own) and hex_ in others
        return bool(own) or hex_ in others

    def process_remove_token(self, action, entity):
        game = self.game
        city = game.board.city_by_id(action.get("city"))
        slot = action.get("slot")
        if city is None or not isinstance(slot, int):
            raise GameError("remove_token needs a city and a slot", rule="malformed-action")
        board = game.board
        tokens = list(board.tokens(city)) + list(board.extra_tokens(city))
        token = tokens[slot] if 0 <= slot < len(tokens) else None
        if token is None:
            raise GameError(f"no token in slot {slot} of {city.id}", rule="no-token")
        if not self.available_hex(entity, city.hex):
            raise GameError(f"cannot remove the {token.corporation.name} token", rule="illegal-token-removal")
        if self.leaves_one_hex(entity, token):
            raise GameError(f"{entity.id} must have two tokens in different hexes", rule="token-hexes")
        board.remove_token(token)
        if tokens_above_limits(game, entity, self.acquired()):
            return
        self.move_tokens_to_surviving(entity, self.acquired())
        self.round.corporations_removing_tokens = None

    def leaves_one_hex(self, entity, token) -> bool:
        """Would removing ``token`` leave all of the major's tokens in one hex when they were
        in several (possible with a multi-city hex)?"""
        hexes = _used_hexes(entity)
        if len(set(hexes)) == 1:
            return False
        rest = list(hexes)
        if token.corporation is entity and token.city is not None:
            rest.remove(token.city.hex)
        return len(set(rest)) <= 1

    def move_tokens_to_surviving(self, surviving, others):
        for o in others:
            o.tokens = [t for t in o.tokens if t.city is not None]
        used = [t for t in surviving.tokens if t.used]
        unused = [t for t in surviving.tokens if not t.used]
        for o in others:
            for tok in o.tokens:
                new = Token(surviving, price=0)
                if tok.city is not None:
                    used.append(new)
                    self.game.board.swap_token(tok, new, check_tokenable=True)
                else:
                    unused.append(new)
        if len(used) > self.game.LIMIT_TOKENS_AFTER_MERGER:
            raise GameError("used tokens above the limit", rule="token-limit")
        unused.sort(key=lambda t: t.price)
        surviving.tokens = (used + unused)[:self.game.LIMIT_TOKENS_AFTER_MERGER]
        self.game.fix_token_count(surviving)
        self.game.clear_graph()

    def legal_actions(self, entity):
        if entity is not self.surviving():
            return []
        return [{"type": "remove_token", "city": t.city.id, "slot": self.game.board.tokens(t.city).index(t)}
                for t in entity.tokens if t.used and t.city is not None
                and self.available_hex(entity, t.city.hex) and not self.leaves_one_hex(entity, t)]
