"""The JSON API's request bodies as pydantic models: a new game, an imported log, an action.

Each model checks its body by the API's own rules before its fields are validated (a
``before`` validator that raises :class:`~.service.ServiceError`, which pydantic lets
through): a bad body is refused with the API's error JSON (``{"error", "rule", ...}``,
mostly 422) exactly as before there were models, never with FastAPI's validation shape.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    model_validator,
)

from ..bots.registry import BOT_NAMES
from ..clock import ClockSettingsError, parse_settings
from ..core.errors import LogFormatError
from ..core.log import check_log
from ..titles import TITLES
from .jsonbody import MAX_ACTION_BODY, MAX_IMPORT_BODY
from .service import Illegal, player_names


def _unknown_title(title: Any) -> Illegal:
    return Illegal(f"unknown title {title!r}; titles: {', '.join(sorted(TITLES))}", "unknown-title")


class JsonBody(BaseModel):
    """A JSON request body: read within ``MAX_BYTES`` (:class:`~.jsonbody.JsonBodyRoute`),
    then :meth:`first_check`, then :meth:`check`, then the fields."""

    MAX_BYTES: ClassVar[int] = MAX_ACTION_BODY
    _checked: dict[str, Any] = PrivateAttr(default_factory=dict)

    @classmethod
    def first_check(cls, data: Any) -> None:
        """What is refused as soon as the body is read, before the route's dependencies."""

    @classmethod
    def check(cls, data: Any) -> dict[str, Any]:
        """The body checked by the API's rules (raising :class:`~.service.ServiceError`), as
        the fields' values."""
        raise NotImplementedError

    @model_validator(mode="wrap")
    @classmethod
    def _api_rules(cls, data: Any, fields: ModelWrapValidatorHandler[Self]) -> Self:
        if isinstance(data, (bytes, bytearray)):  # sent without a JSON Content-Type: JSON all the same
            data = json.loads(data)               # (the route has read and checked it already)
        checked = cls.check(data)
        model = fields(checked)
        model._checked = checked
        return model

    def as_dict(self) -> dict[str, Any]:
        """The body as checked, keys in the order sent (a shallow copy)."""
        return dict(self._checked)


class CreateGame(JsonBody):
    """A new game (``POST /api/games``)."""

    title: str = Field(description="a title key, as /api/titles lists them")
    players: list[str] = Field(description="the players' names, in seat order (tidied: NFC, single spaces)")
    options: list[str] = Field(default_factory=list, description="optional rules")
    seed: int | None = Field(default=None, ge=0, lt=2**62, description="the RNG seed (default: from the clock)")
    hotseat: bool | None = Field(default=None, description="one token for every seat (default: only for one "
                                                           "player)")
    clock: dict[str, Any] | None = Field(default=None, description="a chess clock: {preset: blitz|2h|async, "
                                         "budget_s, sr_turn_s, operation_s, penalty: {mode: show|deduct, "
                                         "points_per_minute}, pauses: [[start, end], ...]}")
    webhooks: list[str] = Field(default_factory=list, description="the game's webhooks: URLs told by a JSON POST "
                                "whenever the players to act change (http(s), public addresses)")
    bots: dict[str, str] = Field(default_factory=dict, description="seats played by the server's bots: "
                                 "{seat number (1-based, the player's id) or player name: random|rule|search}")

    @classmethod
    def check(cls, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise Illegal("the body must be a JSON object {title, players, options, seed}", "bad-body")
        title = data.get("title")
        if not isinstance(title, str) or title not in TITLES:
            raise _unknown_title(title)
        names = player_names(data.get("players"))
        options = data.get("options") or []
        if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
            raise Illegal("options must be a list of option names", "bad-options")
        seed = data.get("seed", None)
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**62):
            raise Illegal("seed must be a non-negative integer", "bad-seed")
        out: dict[str, Any] = {"title": title, "players": names, "options": options, "seed": seed}
        if "hotseat" in data:
            out["hotseat"] = bool(data["hotseat"])
        if data.get("clock") is not None:
            try:
                out["clock"] = parse_settings(data["clock"]).as_json()
            except ClockSettingsError as e:
                raise Illegal(str(e), "bad-clock") from None
        out["webhooks"] = webhook_urls(data.get("webhooks") or [])
        out["bots"] = bot_seats(data.get("bots") or {}, names)
        return out


def bot_seats(raw: Any, names: list[str]) -> dict[str, str]:
    """A new game's bot seats as ``{player id: level}`` (the ids are the seat numbers, from
    1): each key a seat number or a player's name, each value a bot level (422 ``bad-bots``)."""
    if not isinstance(raw, dict):
        raise Illegal("bots must be an object {seat number or player name: level}", "bad-bots")
    out: dict[str, str] = {}
    for key, level in raw.items():
        seat = str(key).strip()
        if seat in names:
            seat = str(names.index(seat) + 1)
        if not seat.isdigit() or not 1 <= int(seat) <= len(names):
            raise Illegal(f"bots: {key!r} is neither a seat number (1..{len(names)}) nor a player's name",
                          "bad-bots")
        if level not in BOT_NAMES:
            raise Illegal(f"bots: seat {seat}'s level {level!r} is not one of {', '.join(BOT_NAMES)}", "bad-bots")
        out[str(int(seat))] = level
    return out


def webhook_urls(raw: Any) -> list[str]:
    """A body's webhook URLs: a list of strings (their rules are the service's, with the
    operator's settings)."""
    if not isinstance(raw, list) or not all(isinstance(u, str) for u in raw):
        raise Illegal("webhooks must be a list of URLs", "webhook-url")
    return raw


class AddWebhook(JsonBody):
    """A seat's webhook (``POST /api/games/{gid}/webhooks``)."""

    url: str = Field(description="an http(s) URL on a public address, told when the seat's player is to act")

    @classmethod
    def check(cls, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict) or not isinstance(data.get("url"), str):
            raise Illegal("the body must be a JSON object {url}", "webhook-url")
        return {"url": data["url"]}


class ImportLog(JsonBody):
    """An 18xx.games game log to import (``POST /api/games/import``)."""

    model_config = ConfigDict(extra="allow")
    MAX_BYTES: ClassVar[int] = MAX_IMPORT_BODY

    id: Any = Field(default=None, description="the game's id on 18xx.games (seeds the RNG)")
    title: str
    players: list[dict[str, Any]] = Field(description="{id, name} objects")
    actions: list[dict[str, Any]] = Field(description="the actions, each with a type")
    settings: dict[str, Any] = Field(default_factory=dict, description="optional_rules, seed")

    @classmethod
    def check(cls, data: Any) -> dict[str, Any]:
        try:
            data = check_log(data, "the log")
        except LogFormatError as e:
            raise Illegal(str(e), "bad-log") from None
        title = data["title"]
        if str(title) not in TITLES:
            raise _unknown_title(title)
        settings = data.get("settings") or {}
        if not isinstance(settings, dict):
            raise Illegal("the log: 'settings' must be an object", "bad-log")
        return {**data, "title": str(title), "settings": settings}


class Action(JsonBody):
    """An action (``POST /api/games/{gid}/actions``): an 18xx.games action object, whose
    ``id`` is the game's action count + 1."""

    model_config = ConfigDict(extra="allow")

    id: int = Field(description="the game's action_count + 1")
    type: str = Field(description="the action type (pass, par, lay_tile, ..., undo, redo)")

    @classmethod
    def first_check(cls, data: Any) -> None:
        if not isinstance(data, dict):
            raise Illegal("an action is a JSON object", "bad-body")

    @classmethod
    def check(cls, data: Any) -> dict[str, Any]:
        cls.first_check(data)
        aid = data.get("id")
        if not isinstance(aid, int) or isinstance(aid, bool):
            raise Illegal("the action needs an integer id = action_count + 1", "missing-id")
        if not isinstance(data.get("type"), str):
            raise Illegal("the action needs a string type", "malformed-action")
        return data


#: at most this many routes in a check, and this many stops or connections in a route
MAX_CHECK_ROUTES = 20
MAX_CHECK_STOPS = 60


class RouteCheck(JsonBody):
    """Routes proposed by hand (``POST /api/games/{gid}/routes/check``): ``{"routes":
    [{"train", "stops": [node or hex ids]} or {"train", "connections": [[hex ids]]}]}``."""

    routes: list[dict[str, Any]] = Field(description="per train: its id and its stops (or connections)")

    @classmethod
    def first_check(cls, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("routes"), list):
            raise Illegal("a route check is a JSON object with a list of routes", "bad-body")

    @classmethod
    def check(cls, data: Any) -> dict[str, Any]:
        cls.first_check(data)
        routes = data["routes"]
        if len(routes) > MAX_CHECK_ROUTES:
            raise Illegal(f"at most {MAX_CHECK_ROUTES} routes in a check", "bad-body")
        for r in routes:
            if not isinstance(r, dict) or not isinstance(r.get("train"), str):
                raise Illegal("each route names its train (a string)", "bad-route")
            stops, conns = r.get("stops"), r.get("connections")
            if conns is not None:
                if not isinstance(conns, list) or len(conns) > MAX_CHECK_STOPS or not all(
                        isinstance(c, list) and len(c) <= MAX_CHECK_STOPS and all(isinstance(h, str) for h in c)
                        for c in conns):
                    raise Illegal("a route's connections are lists of hex ids", "bad-route")
            elif not isinstance(stops, list) or len(stops) > MAX_CHECK_STOPS or not all(
                    isinstance(s, str) for s in stops):
                raise Illegal("a route's stops are a list of node or hex ids", "bad-route")
        return {"routes": [{"train": r["train"], **({"connections": r["connections"]} if r.get("connections")
                                                   is not None else {"stops": r["stops"]})} for r in routes]}
