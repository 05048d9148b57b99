"""Choosing one of a few named options: one ``process_choose`` for the steps that offer it."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, ClassVar

from ..errors import GameError


class ChooseMixin:
    """``process_choose`` for a :class:`~trackage.core.round.Step` (mixed in before it): the
    action's choice must be one of ``choices(entity)``, then ``choose`` carries it out; the
    listing offers each choice while the choice's action type is among the entity's actions.

    The action is a ``choose`` naming its ``choice`` unless the step says otherwise
    (:attr:`CHOICE_ACTION`, :attr:`CHOICE_FIELD`, with the fields :attr:`CHOICE_FIXED` that
    must be as given): 1893's merger vote is a ``special_buy`` whose ``description`` is the
    vote, at a ``cost`` of 0.
    """

    actions: Callable[[Any], list[str]]  # the step's
    game: Any

    CHOICE_ACTION: ClassVar[str] = "choose"
    CHOICE_FIELD: ClassVar[str] = "choice"
    CHOICE_FIXED: ClassVar[dict[str, Any]] = {}
    #: The rule a choice not offered breaks.
    BAD_CHOICE_RULE: ClassVar[str] = "bad-choice"
    #: While a log loads, carry out a choice not listed all the same (``choose`` still
    #: refuses what cannot be done): the reference offered it where the listing differs.
    TRUST_LOGGED_CHOICES: ClassVar[bool] = False

    def choices(self, entity: Any) -> Collection[Any]:
        """Title hook: the choices ``entity`` may name now."""
        raise NotImplementedError

    def choose(self, entity: Any, choice: Any) -> None:
        """Title hook: carry out ``entity``'s ``choice`` (one of ``choices(entity)``); raise a
        ``GameError`` to refuse it after all."""
        raise NotImplementedError

    def choice_question(self, entity: Any) -> str:
        """Title hook: what ``entity`` is asked, for people (put before each choice's label);
        default: nothing (the choices' labels say it all)."""
        return ""

    def choice_label(self, entity: Any, choice: Any) -> str:
        """Title hook: ``choice`` in words, for people. Default: the label ``choices`` gives
        it (when it is a mapping of choices to labels), else the choice itself, spaced."""
        offered = self.choices(entity)
        if isinstance(offered, Mapping) and choice in offered:
            return str(offered[choice])
        return str(choice).replace("_", " ").capitalize()

    def action_label(self, entity: Any, action: dict[str, Any]) -> str | None:
        """A choice as its question and its label; other actions as the step words them."""
        if action.get("type") != self.CHOICE_ACTION:
            label: str | None = super().action_label(entity, action)  # type: ignore[misc]  # the Step's
            return label
        question = self.choice_question(entity)
        label = self.choice_label(entity, action.get(self.CHOICE_FIELD))
        return f"{question}: {label}" if question else label

    def process_choose(self, action: dict[str, Any], entity: Any) -> None:
        choice = action.get(self.CHOICE_FIELD)
        if not (self.TRUST_LOGGED_CHOICES and self.game.loading) and choice not in self.choices(entity):
            raise GameError(f"{self.CHOICE_ACTION}: {choice!r} is not a choice now", rule=self.BAD_CHOICE_RULE)
        for name, value in self.CHOICE_FIXED.items():
            if action.get(name, value) != value:
                raise GameError(f"{self.CHOICE_ACTION}: {name} must be {value!r}", rule=self.BAD_CHOICE_RULE)
        self.choose(entity, choice)

    def legal_actions(self, entity: Any) -> list[dict[str, Any]]:
        """An action per choice (while its type is offered), then the step's own actions."""
        own: list[dict[str, Any]] = super().legal_actions(entity)  # type: ignore[misc]  # the Step's
        if self.CHOICE_ACTION not in self.actions(entity):
            return own
        fixed = self.CHOICE_FIXED
        return [{"type": self.CHOICE_ACTION, self.CHOICE_FIELD: c, **fixed} for c in self.choices(entity)] + own
