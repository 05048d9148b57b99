"""Typed errors raised by the engine."""

from __future__ import annotations

from typing import Any


class TrackageError(Exception):
    """Base of every error the engine raises on purpose."""


class GameError(TrackageError):
    """An action breaks a rule of the game.

    ``rule`` is a short machine-friendly name of the rule that was broken and
    ``action`` the offending action (as a dict) when known.
    """

    def __init__(self, message: str, rule: str = "illegal", action: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.action = action

    def with_action(self, action: dict[str, Any]) -> GameError:
        if self.action is None:
            self.action = action
        return self

    def __str__(self) -> str:
        if self.action is None:
            return self.message
        aid = self.action.get("id")
        return f"action {aid} ({self.action.get('type')}): {self.message} [{self.rule}]"


class ActionFormatError(GameError):
    """The action is malformed: unknown type, missing field, unknown entity."""

    def __init__(self, message: str, action: dict[str, Any] | None = None):
        super().__init__(message, rule="malformed-action", action=action)


class OutOfTurnError(GameError):
    def __init__(self, message: str, action: dict[str, Any] | None = None):
        super().__init__(message, rule="out-of-turn", action=action)


class GameOverError(GameError):
    def __init__(self, message: str = "the game is over", action: dict[str, Any] | None = None):
        super().__init__(message, rule="game-over", action=action)


class LogFormatError(TrackageError):
    """A game log file cannot be read."""
