"""One ``pass`` handler for the steps that take a pass: :class:`Passing`.

A pass is the same walk in every step: :meth:`~Passing.check_pass` refuses a pass the rules
do not allow now, then :meth:`~Passing.passing` does what passing means in that step. The
default is the step's ``pass_`` (the entity is done with the step); a title's step says what
else a pass does there by overriding :meth:`~Passing.passing` (leaving an auction, declining a
private, closing a company whose ability goes unused...), not by writing ``process_pass``.
"""

from __future__ import annotations

from typing import Any

from ..round import Step


class Passing(Step):
    """A step whose ``pass`` goes through :meth:`check_pass` and :meth:`passing` (the hooks
    its subclasses override); it names no action type itself."""

    def process_pass(self, action: dict[str, Any], entity: Any) -> None:
        """``entity`` passes: :meth:`check_pass`, then :meth:`passing`."""
        self.check_pass(entity)
        self.passing(entity)

    def check_pass(self, entity: Any) -> None:
        """Refuse a pass the rules do not allow now (a :class:`GameError` naming the rule).
        Default: a pass is always allowed."""

    def passing(self, entity: Any) -> None:
        """What ``entity``'s pass does. Default: the step's ``pass_``."""
        self.pass_()
