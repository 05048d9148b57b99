"""1822's minor acquisitions: a major takes over a minor from the bank or from a player, with
its token replaced or exchanged."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.entities import hand_over_companies, hand_over_trains
from ...core.money import pay
from ...core.tokens import Token
from . import choices
from .config import LONDON, MINOR_14

if TYPE_CHECKING:
    from .game import Game1822


def remove_exchange_token(game: Game1822, corp) -> None:
    """A major spends one of its exchange tokens."""
    corp.exchange_tokens -= 1


def min_city_slots(game: Game1822, city) -> int:
    """The slots a city keeps when a token leaves it (London keeps minor 14's extra one)."""
    if city.hex is None or city.hex.id != LONDON:
        return city.normal_slots
    path = next((p for p in game.board.tile(city.hex).paths if p.city is city and p.edges), None)
    if path is not None and path.edges[0].num == game.minor_14_city_exit:
        return city.normal_slots + 1
    return city.normal_slots


def remove_minor_token(game: Game1822, minor) -> None:
    """A minor's token leaves its city (and the extra slot it may have had)."""
    tok = minor.tokens[0]
    city = tok.city
    if city is None:
        return
    game.board.delete_token(city, tok, remove_slot=game.board.slots(city) > min_city_slots(game, city))
    game.board.replace_token(tok, tok.but(used=False, city=None, hex=None))


def move_tokens_to_surviving(game: Game1822, surviving, minor) -> None:
    """The acquiring major takes over the minor's tokens (placed ones where they stand)."""
    used = [t for t in surviving.tokens if t.used]
    unused = [t for t in surviving.tokens if not t.used]
    for tok in minor.tokens:
        new = Token(surviving, price=0)
        if tok.hex is not None and tok.city is not None:
            city = tok.city
            board = game.board
            placed = board._mark_placed(new, city)
            used.append(placed)
            board.set_tokens(city, [placed if t is tok else t for t in board.tokens(city)])
            board.replace_token(tok, tok.but(used=False, city=None, hex=None))
        else:
            unused.append(new)
    unused.sort(key=lambda t: t.price)
    surviving.tokens = (*used, *unused)[:9]
    game.graph_changed()


def acquire_bank_minor(game: Game1822, entity, minor, token_choice, round_) -> None:
    """``entity`` buys ``minor`` from the bank box, its token replaced or exchanged as chosen."""
    pay(game, entity, game.bank, game.MINOR_BIDBOX_PRICE, "acquisition")
    if token_choice == "replace":
        if minor.id == MINOR_14:
            remove_exchange_token(game, entity)
            tok = Token(entity, price=0)
            entity.tokens = (*entity.tokens, tok)
            game.m14_token_ability = entity
            round_.pending_tokens.append({"entity": entity, "hexes": [game.board.hex_by_id(LONDON)], "token": tok})
        else:
            board = game.board
            city = next(c for c in board.tile(game.board.hex_by_id(minor.coordinates)).cities
                        if board.reserved_by(c, minor))
            board.remove_reservation(city, minor)
            if board.tokened_by(city, entity):
                choices.move_exchange_token(game, entity)
            else:
                remove_exchange_token(game, entity)
                tok = Token(entity, price=0)
                entity.tokens = (*entity.tokens, tok)
                board.place_city_token(city, entity, tok, check_tokenable=False, free=True)
                game.graph_changed()
    elif token_choice == "exchange":
        choices.move_exchange_token(game, entity)
    company = next((c for c in game.companies if c.sym == f"M{minor.id}"), None)
    if company is not None:
        game.companies.remove(company)
    game.close_corporation(minor)


def acquire_player_minor(game: Game1822, entity, minor, shares, token_choice) -> None:
    """``entity`` acquires a player's ``minor`` for ``shares`` of its own (and cash either way)."""
    owner = minor.owner
    diff = minor.share_price.price * 2 - entity.share_price.price * shares
    if diff < 0:
        pay(game, owner, entity, -diff, "acquisition")
    elif diff > 0:
        pay(game, entity, owner, diff, "acquisition")
    for _ in range(shares):
        share = entity.shares_of(entity)[0]
        game.share_market._move_share(share, owner)
    if minor.cash > 0:
        pay(game, minor, entity, minor.cash, "acquisition")
    hand_over_companies(minor, entity)
    hand_over_trains(minor, entity)
    if token_choice == "replace":
        city = minor.tokens[0].city
        if game.board.tokened_by(city, entity):
            choices.move_exchange_token(game, entity)
            remove_minor_token(game, minor)
        else:
            remove_exchange_token(game, entity)
            move_tokens_to_surviving(game, entity, minor)
    elif token_choice == "exchange":
        choices.move_exchange_token(game, entity)
        remove_minor_token(game, minor)
    game.close_corporation(minor)
