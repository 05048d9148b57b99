"""A private company's ability used by its owner beside the step in charge: one step base."""

from __future__ import annotations

from typing import Any, ClassVar

from ..errors import GameError
from ..round import Step


class CompanyAbility(Step):
    """A company's ability (a special tile lay, a token...) used in its owner's operating
    turn: offered as :attr:`ABILITY_ACTION` while :meth:`ability` finds one usable and the
    step in charge takes that action type (the track step for a lay, the token step for a
    token). The handler reads the ability with :meth:`ability_for`, checks the action
    against it and uses it up."""

    BLOCKS = False
    #: the action type the ability is used with
    ABILITY_ACTION: ClassVar[str] = ""

    def ability(self, company: Any) -> Any:
        """Title hook: ``company``'s ability usable now (anything false: none). Asked only for
        an open company whose owner operates. Default: none."""
        return None

    def usable_ability(self, entity: Any) -> Any:
        """``entity``'s usable ability, when it is an open company whose owner operates."""
        if not entity.is_company or entity.closed:
            return None
        owner = entity.owner
        if owner is None or owner is not self.round.current_entity_of_round():
            return None
        return self.ability(entity) or None

    def actions(self, entity: Any) -> list[str]:
        if self.usable_ability(entity) is None:
            return []
        act = self.round.active_step()
        return [self.ABILITY_ACTION] if act is not None and self.ABILITY_ACTION in act.HANDLERS else []

    def ability_for(self, entity: Any) -> Any:
        """The ability ``entity`` uses with the action (refused when it has none usable now)."""
        ab = self.usable_ability(entity)
        if ab is None:
            raise GameError(f"{self.ABILITY_ACTION}: {entity.name} has no ability to use now",
                            rule="no-ability")
        return ab
