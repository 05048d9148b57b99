"""The shape of every action: a schema per action type (pydantic), checked before an action
reaches the rules.

In live play an action that does not fit its type's schema is refused with an error naming
the field (integers are integers: no strings, floats, booleans or infinities; unknown fields
are refused). Importing an 18xx.games log is lenient, as real logs carry fields of other
versions: a misfit there is reported as a warning and the action is applied.

The 18xx.games bookkeeping fields of the envelope (``id``, ``created_at``, ``user``,
``original_id``, ``skip``, ``auto_actions``) are named here and never read by the rules.

The check itself runs on validators made from the models' core schemas that build no model
instance (a log's actions at once, one validation per type: :func:`suspects`); the model is
asked only about a misfit, for its words (the field, pydantic's message, the input).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError
from pydantic_core import SchemaValidator, core_schema

from .errors import ActionFormatError

EntityId = StrictInt | StrictStr
Id = Annotated[StrictStr, Field(min_length=1, max_length=64)]
Ids = Annotated[list[Id], Field(min_length=1, max_length=30)]
Amount = Annotated[StrictInt, Field(ge=-10**9, le=10**9)]
Choice = StrictStr | StrictInt | dict[StrictStr, Any]


class Envelope(BaseModel):
    """Every action: its type, the acting entity, and the site's bookkeeping."""

    model_config = ConfigDict(extra="forbid", strict=True)

    type: StrictStr
    entity: EntityId
    entity_type: Literal["player", "corporation", "minor", "company"] | None = None
    id: StrictInt | None = None
    created_at: StrictInt | float | None = None
    user: StrictInt | StrictStr | None = None
    original_id: StrictInt | None = None
    skip: StrictBool | None = None
    auto_actions: list[dict[str, Any]] | None = None


class Route(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    train: Id
    connections: list[list[StrictStr]] = Field(max_length=60)
    hexes: list[StrictStr] | None = None
    revenue: Amount | None = None
    revenue_str: StrictStr | None = None
    nodes: list[StrictStr] | None = None
    halts: StrictInt | None = None
    subsidy: Amount | None = None
    abilities: list[StrictStr] | None = None


def _model(name: str, **fields: tuple[Any, Any]) -> type[Envelope]:
    annotations = {k: v[0] for k, v in fields.items()}
    namespace = {"__annotations__": annotations, **{k: v[1] for k, v in fields.items() if v[1] is not ...}}
    return type(name, (Envelope,), namespace)


REQUIRED = ...
SCHEMAS: dict[str, type[Envelope]] = {
    "pass": _model("Pass"),
    "end_game": _model("EndGame"),
    "convert": _model("Convert"),
    "bankrupt": _model("Bankrupt"),
    "message": _model("Message", message=(Annotated[StrictStr, Field(max_length=2000)], REQUIRED)),
    "bid": _model("Bid", price=(Amount, REQUIRED), company=(Id | None, None), corporation=(Id | None, None),
                  minor=(Id | None, None)),
    "par": _model("Par", corporation=(Id, REQUIRED), share_price=(Id, REQUIRED)),
    "buy_shares": _model("BuyShares", shares=(Ids, REQUIRED), percent=(Amount, REQUIRED),
                         share_price=(Amount | None, None), swap=(Id | None, None),
                         purchase_for=(Id | None, None), purchase_for_type=(StrictStr | None, None),
                         borrow_from=(EntityId | None, None), borrow_from_type=(StrictStr | None, None),
                         total_price=(Amount | None, None), discounter=(Id | None, None)),
    "sell_shares": _model("SellShares", shares=(Ids, REQUIRED), percent=(Amount, REQUIRED),
                          share_price=(Amount | None, None), swap=(Id | None, None)),
    "buy_company": _model("BuyCompany", company=(Id, REQUIRED), price=(Amount, REQUIRED)),
    "sell_company": _model("SellCompany", company=(Id, REQUIRED), price=(Amount, REQUIRED)),
    "merge": _model("Merge", corporation=(Id | None, None), minor=(Id | None, None)),
    "choose": _model("Choose", choice=(Choice, REQUIRED)),
    "choose_ability": _model("ChooseAbility", choice=(Choice, REQUIRED)),
    "special_buy": _model("SpecialBuy", description=(StrictStr, REQUIRED), cost=(Amount | None, None)),
    "acquire_company": _model("AcquireCompany", company=(Id, REQUIRED)),
    "assign": _model("Assign", target=(Id | None, None), target_type=(StrictStr | None, None)),
    "lay_tile": _model("LayTile", hex=(Id, REQUIRED), tile=(Id, REQUIRED),
                       rotation=(Annotated[StrictInt, Field(ge=0, le=5)], REQUIRED),
                       combo_entities=(list[Id] | None, None)),
    "place_token": _model("PlaceToken", city=(Id, REQUIRED), slot=(StrictInt | None, None),
                          tokener=(Id | None, None), cost=(Amount | None, None), token_type=(StrictStr | None, None)),
    "remove_token": _model("RemoveToken", city=(Id, REQUIRED), slot=(StrictInt, REQUIRED)),
    "hex_token": _model("HexToken", hex=(Id, REQUIRED), token_type=(StrictStr | None, None),
                        cost=(Amount | None, None)),
    "remove_hex_token": _model("RemoveHexToken", hex=(Id, REQUIRED)),
    "run_routes": _model("RunRoutes", routes=(Annotated[list[Route], Field(max_length=30)], REQUIRED),
                         extra_revenue=(Amount | None, None), subsidy=(Amount | None, None)),
    "dividend": _model("Dividend", kind=(Literal["payout", "withhold", "half"], REQUIRED), amount=(Amount | None,
                                                                                                   None)),
    "buy_train": _model("BuyTrain", train=(Id, REQUIRED), price=(Amount, REQUIRED), variant=(Id | None, None),
                        exchange=(Id | None, None), shell=(StrictStr | None, None), slots=(list[StrictInt] | None,
                                                                                           None),
                        extra_due=(StrictBool | None, None), warranties=(StrictInt | None, None)),
    "discard_train": _model("DiscardTrain", train=(Id, REQUIRED)),
    "scrap_train": _model("ScrapTrain", train=(Id, REQUIRED)),
    "payoff_player_debt": _model("PayoffPlayerDebt"),
    "payoff_player_debt_partial": _model("PayoffPlayerDebtPartial", amount=(Amount | None, None)),
}

# the site's programmed actions: no effect on a game, kept in logs as they are
LENIENT_TYPES = frozenset({"program_share_pass", "program_buy_shares", "program_merger_pass", "program_disable",
                           "program_auction_bid", "program_independent_mines", "program_harzbahn_draft_pass"})


def _fields_only(schema: Any) -> Any:
    """``schema`` (a pydantic core schema) with each model in it made a typed dict of the same
    fields, field types, constraints, strictness and refusal of unknown fields: what it
    accepts is the same, and validating builds no model instance."""
    if isinstance(schema, list):
        return [_fields_only(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    if schema.get("type") == "model":
        fields = schema["schema"]["fields"]
        return core_schema.typed_dict_schema(
            {name: core_schema.typed_dict_field(_fields_only(f["schema"]), required=f["schema"]["type"] != "default")
             for name, f in fields.items()},
            extra_behavior="forbid", strict=True, config=schema.get("config"))
    return {k: _fields_only(v) for k, v in schema.items()}


# each type's validator of one action, and of a list of actions of that type (built from the
# models' own core schemas)
_FIELDS_ONLY = {t: _fields_only(m.__pydantic_core_schema__) for t, m in SCHEMAS.items()}
_ONE: dict[str, SchemaValidator] = {t: SchemaValidator(s) for t, s in _FIELDS_ONLY.items()}
_MANY: dict[str, SchemaValidator] = {t: SchemaValidator(core_schema.list_schema(s)) for t, s in _FIELDS_ONLY.items()}


def _describe(err: ValidationError) -> str:
    e = err.errors()[0]
    where = ".".join(str(x) for x in e.get("loc", ())) or "action"
    got = e.get("input")
    shown = repr(got) if not isinstance(got, (dict, list)) else type(got).__name__
    return f"field {where!r}: {e.get('msg', 'invalid')} (got {shown[:60]})"


def _model_problem(action: dict[str, Any], model: type[Envelope]) -> str | None:
    try:
        model.model_validate(action)
    except ValidationError as e:
        return _describe(e)
    return None


def problem(action: Any) -> str | None:
    """What is wrong with the shape of ``action`` (None when it fits its type's schema)."""
    if not isinstance(action, dict):
        return "an action is a JSON object"
    atype = action.get("type")
    if not isinstance(atype, str):
        return "field 'type': a string is required"
    if atype in LENIENT_TYPES:
        return None
    fast = _ONE.get(atype)
    if fast is None:
        return f"unknown action type {atype!r}"
    try:
        fast.validate_python(action)
    except ValidationError:
        # the message is the model's (the field, pydantic's words, the input)
        p = _model_problem(action, SCHEMAS[atype])
        if p is not None:
            return p
    subs = action.get("auto_actions")
    if subs:
        for sub in subs:
            p = problem(sub)
            if p is not None:
                return f"auto action {sub.get('type') if isinstance(sub, dict) else sub!r}: {p}"
    return None


def suspects(actions: list[Any]) -> set[int]:
    """Where in ``actions`` (a log's, in order) :func:`problem` may find something wrong: the
    others fit their schemas (auto actions included). One validation per action type for the
    whole list, without model instances; :func:`problem` then says what is wrong with each
    suspect, in the very words of an action checked alone."""
    found: set[int] = set()
    groups: dict[str, tuple[list[dict[str, Any]], list[int]]] = {}
    lenient = LENIENT_TYPES
    for i, action in enumerate(actions):
        if type(action) is not dict:
            found.add(i)
            continue
        atype = action.get("type")
        if type(atype) is not str or atype not in _MANY:
            if type(atype) is not str or atype not in lenient:
                found.add(i)
            continue
        group = groups.get(atype)
        if group is None:
            group = groups[atype] = ([], [])
        group[0].append(action)
        group[1].append(i)
        subs = action.get("auto_actions")
        if subs and type(subs) is list:
            for sub in subs:
                stype = sub.get("type") if type(sub) is dict else None
                if type(stype) is not str or stype not in _MANY or sub.get("auto_actions"):
                    if type(stype) is not str or stype not in lenient:
                        found.add(i)
                        break
                    continue
                group = groups.get(stype)
                if group is None:
                    group = groups[stype] = ([], [])
                group[0].append(sub)
                group[1].append(i)
    for atype, (members, owners) in groups.items():
        try:
            _MANY[atype].validate_python(members)
        except ValidationError as e:
            found.update(owners[err["loc"][0]] for err in  # type: ignore[index]
                         e.errors(include_url=False, include_context=False, include_input=False))
    return found


# each type's fields (an action naming any other is refused by its model)
FIELDS: dict[str, frozenset[str]] = {t: frozenset(m.model_fields) for t, m in SCHEMAS.items()}
# the values an action equal to a listed one may hold for it to fit as the listed one does
_PLAIN = frozenset({int, str, bool, type(None)})
# the site's stamps a live action may carry beside a listed action's fields (whole numbers of
# exactly ``int``: what their fields accept)
_STAMPS = ("id", "created_at")


def listed_index(action: Any, listing: list[dict[str, Any]]) -> int | None:
    """Where ``action`` is in ``listing`` field by field and type by type (the site's ``id``
    and ``created_at`` stamps aside, each a plain ``int``), its values plain (numbers,
    strings, booleans, None, lists of them: no list naming one value twice) and its fields
    those of its type's schema; None when it is not. The engine's listed actions fit their
    schema (``tests/test_schema_listed.py``): such an action fits it as the listed one does,
    and checking it again can be left out."""
    if type(action) is not dict:
        return None
    atype = action.get("type")
    fields = FIELDS.get(atype) if type(atype) is str else None
    if fields is None or not action.keys() <= fields:
        return None
    plain = action
    if "id" in action or "created_at" in action:
        if any(k in action and type(action[k]) is not int for k in _STAMPS):
            return None
        plain = {k: v for k, v in action.items() if k not in _STAMPS}
    try:
        i = listing.index(plain)
    except (ValueError, TypeError):
        return None
    listed = listing[i]
    for k, v in plain.items():
        t = type(v)
        if t is not type(listed[k]):
            return None
        if t is list:
            if any(type(x) is not str and type(x) is not int for x in v) \
                    or list(map(type, v)) != list(map(type, listed[k])) or len(set(map(str, v))) != len(v):
                return None
        elif t not in _PLAIN:
            return None
    return i


def check(action: Any, *, loading: bool, warnings: list[str] | None = None) -> str | None:
    """Refuse (live play) or report (log import) an action that does not fit its schema: the
    report is returned (and added to ``warnings`` when given). Whatever the mode, an action
    must be an object with a string type."""
    p = problem(action)
    if p is None:
        return None
    if loading and isinstance(action, dict) and isinstance(action.get("type"), str):
        note = f"action {action.get('id')}: {p} (accepted from a log)"
        if warnings is not None:
            warnings.append(note)
        return note
    raise ActionFormatError(p, action if isinstance(action, dict) else None)
