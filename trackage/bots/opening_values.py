"""What an opening position is worth, learned from rule bot games (issue 31).

A player's position at the start of the second stock round is described by a few features
(``features``: cash, the market value of its shares, each private company held, its stake in
and presidency of each corporation or minor, whether it has the priority deal, its seat); a
linear model fitted on rule bot games (``scripts/opening-values``) maps them to the player's
expected share of the final scores, in percent (25 is the fair share of four players). The
model of each title is data: ``opening/<title>.json`` beside this module, with how it was made
(games, seeds, commit). The search bot judges its opening decisions (before the second stock
round) by ``opening_standing``: the seat's learned value less the best other seat's."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.entities import certificate_price
from .base import controller

MODEL_DIR = Path(__file__).with_name("opening")
# the stock round the model is fitted at (its number in the game's ``turn``)
FIT_STOCK_ROUND = 2


def features(game: Any, player: Any, seat: int) -> dict[str, float]:
    """The player's position as named numbers (money in hundreds)."""
    out: dict[str, float] = {"cash": float(player.cash) / 100.0}
    stock = 0.0
    for cid, shares in player.holdings().items():
        if not shares:
            continue
        corp = game.index.corporations[cid]
        if getattr(corp, "ipoed", True):
            stock += sum(float(certificate_price(corp, s)) for s in shares)
        out[f"stake:{corp.id}"] = player.percent_of(corp) / 100.0
        if getattr(corp, "owner", None) is player:
            out[f"pres:{corp.id}"] = 1.0
    out["stock"] = stock / 100.0
    for company in player.companies:
        if not getattr(company, "closed", False):
            key = f"company:{company.sym}"
            out[key] = out.get(key, 0.0) + 1.0
    for minor in getattr(game, "minors", []):
        if not getattr(minor, "closed", False) and controller(minor) is player:
            out[f"minor:{minor.id}"] = 1.0
    if game.players and game.players[0] is player:
        out["priority"] = 1.0
    out[f"seat:{seat}"] = 1.0
    return canonical(out)


def canonical(feats: dict[str, float]) -> dict[str, float]:
    """Numbered certificates of one kind counted under one name (1893's AdSK-1 to AdSK-10 are
    alike: ``company:AdSK`` counts them)."""
    out: dict[str, float] = {}
    for key, value in feats.items():
        kind, _, name = key.partition(":")
        if kind == "company":
            base = name.rstrip("0123456789")
            name = base.rstrip("-") if base != name and base.endswith("-") else name
        merged = f"{kind}:{name}" if name else kind
        out[merged] = out.get(merged, 0.0) + value
    return out


@dataclass(frozen=True)
class OpeningModel:
    """A linear model of a player's final score share (percent) from ``features``."""

    title: str
    intercept: float
    weights: dict[str, float]
    meta: dict[str, Any]

    def value(self, feats: dict[str, float]) -> float:
        return self.intercept + sum(self.weights.get(k, 0.0) * v for k, v in feats.items())

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "target": "final score share, percent", "intercept": self.intercept,
                "weights": dict(sorted(self.weights.items())), "meta": self.meta}


def model_path(title: str) -> Path:
    return MODEL_DIR / f"{title}.json"


def load_model(title: str) -> OpeningModel | None:
    """The title's learned opening model (None when none was fitted for it)."""
    path = model_path(title)
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    return OpeningModel(str(data["title"]), float(data["intercept"]),
                        {str(k): float(v) for k, v in data["weights"].items()}, dict(data.get("meta", {})))


def in_opening(game: Any) -> bool:
    """Whether the game is before the stock round the model was fitted at."""
    return not game.finished and int(getattr(game, "turn", FIT_STOCK_ROUND)) < FIT_STOCK_ROUND


def opening_standing(game: Any, seat: int, model: OpeningModel) -> float:
    """The seat's learned value less the best other seat's (percent of the final scores)."""
    values = [model.value(features(game, p, i)) for i, p in enumerate(game.seats)]
    others = [v for i, v in enumerate(values) if i != seat]
    return values[seat] - max(others) if others else values[seat]
