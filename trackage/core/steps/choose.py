"""Choosing one of a few named options: one ``process_choose`` for the steps that offer it."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from ..errors import GameError


class ChooseMixin:
    """``process_choose`` for a :class:`~trackage.core.round.Step` (mixed in before it): the
    action's ``choice`` must be one of ``choices(entity)``, then ``choose`` carries it out; the
    listing offers each choice while ``choose`` is among the entity's actions."""

    actions: Callable[[Any], list[str]]  # the step's

    def choices(self, entity: Any) -> Collection[Any]:
        """Title hook: the choices ``entity`` may name now."""
        raise NotImplementedError

    def choose(self, entity: Any, choice: Any) -> None:
        """Title hook: carry out ``entity``'s ``choice`` (one of ``choices(entity)``); raise a
        ``GameError`` to refuse it after all."""
        raise NotImplementedError

    def process_choose(self, action: dict[str, Any], entity: Any) -> None:
        choice = action.get("choice")
        if choice not in self.choices(entity):
            raise GameError(f"{choice!r} is not a choice now", rule="bad-choice")
        self.choose(entity, choice)

    def legal_actions(self, entity: Any) -> list[dict[str, Any]]:
        """A ``choose`` per choice (while ``choose`` is offered), then the step's own actions."""
        own: list[dict[str, Any]] = super().legal_actions(entity)  # type: ignore[misc]  # the Step's
        if "choose" not in self.actions(entity):
            return own
        return [{"type": "choose", "choice": c} for c in self.choices(entity)] + own
