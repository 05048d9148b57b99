"""Bot seats: the server plays the seats a game gave to its bots (``games.bots``, ``{player
id: level}``).

After every stored action (and a new game's creation) the service ``kick``s the game: a
worker thread the runner owns (started on the first kick) takes the game, and when a bot is
to act asks it for its move and posts it through :meth:`~.service.GameService.act`, the path
a human's action takes (stored, journaled, published to the live updates, told to the
webhooks). That action kicks the game again, so the bots keep moving until a human is to act
or the game ends. A bot's seed comes from the game's seed, its id and the action id: the same
game plays the same way. Two processes playing the same turn cannot both store it (the action
id is a key): the loser's :class:`~.service.Conflict` is dropped. A bot's failure is logged
and kept (``error``) for the game's page and API; it never reaches a human's request.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import TYPE_CHECKING, Any

from ..bots.base import acting_seat
from ..bots.play import derive_seed
from ..bots.registry import make_bot

if TYPE_CHECKING:
    from .service import GameService, Live

log = logging.getLogger("trackage.web.bots")
BOT_BUDGET = 0.25  # seconds a bot may think per move (random and rule bots answer at once)


def bot_levels(meta: dict[str, Any]) -> dict[str, str]:
    """A stored game's bot seats: ``{player id: level}`` (empty: no bots)."""
    raw = meta.get("bots") or {}
    return {str(k): str(v) for k, v in raw.items()}


def bot_to_act(game: Any, legal: list[dict[str, Any]], bots: dict[str, str]) -> tuple[int, str] | None:
    """(seat, level) of the bot to move now: the seat in charge (``acting_seat``, as in the
    bots' own games) when a bot plays it; None when a human is to move (a bot's optional
    moves beside the seat in charge, such as 1893's private sales, wait for its turn)."""
    if not bots or game.finished or not legal:
        return None
    seat = acting_seat(game, legal)
    level = bots.get(str(game.seats[seat].id))
    return None if level is None else (seat, level)


class BotRunner:
    """The service's bot player: ``kick(gid)`` queues a game, one worker thread plays its bots'
    turns (one move per kick; each stored move kicks again)."""

    def __init__(self, service: GameService, budget: float | None = BOT_BUDGET) -> None:
        self.service = service
        self.budget = budget
        self._queue: deque[tuple[int, str]] = deque()
        self._queued: set[int] = set()
        self._errors: dict[int, str] = {}
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._busy = 0

    def kick(self, gid: int, base_url: str = "") -> None:
        """Look at the game soon (in the worker): a bot to act moves."""
        with self._cond:
            if self._stopping or gid in self._queued:
                return
            self._queued.add(gid)
            self._queue.append((gid, base_url))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="trackage-bots", daemon=True)
                self._thread.start()
            self._cond.notify()

    def error(self, gid: int) -> str | None:
        """The last failure of the game's bots (None: their last move went well)."""
        with self._cond:
            return self._errors.get(gid)

    def idle(self) -> bool:
        """Whether no game waits for its bots here (nothing queued, nothing being played)."""
        with self._cond:
            return not self._queue and not self._busy

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the worker (queued games are dropped; their next action kicks them again)."""
        with self._cond:
            self._stopping = True
            self._queue.clear()
            self._queued.clear()
            self._cond.notify()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._stopping:
                    self._cond.wait()
                if self._stopping:
                    return
                gid, base_url = self._queue.popleft()
                self._queued.discard(gid)
                self._busy += 1
            try:
                self.play_turn(gid, base_url)
            finally:
                with self._cond:
                    self._busy -= 1

    def play_turn(self, gid: int, base_url: str = "") -> bool:
        """One bot move of the game, when a bot is to act; whether one was stored."""
        from .models import Action
        from .service import Conflict

        service = self.service
        with service.locked(gid):
            try:
                lv = service.live(gid)
                turn = bot_to_act(lv.game, service.legal(lv), bot_levels(lv.meta))
                if turn is None:
                    return False
                seat, level = turn
                player = lv.game.seats[seat]
                aid = lv.last_id + 1
                action = self.choose(lv, seat, level, aid)
                service.act(gid, {"player_id": str(player.id), "bot": level}, Action.model_validate(action),
                            base_url=base_url)
            except Conflict:
                log.info("game %s: another worker stored this bot turn first", gid)
                return False
            except Exception as e:  # a bot's failure is shown on the game, never raised
                log.exception("game %s: the bot to act failed", gid)
                with self._cond:
                    self._errors[gid] = f"{type(e).__name__}: {getattr(e, 'message', e)}"
                return False
        with self._cond:
            self._errors.pop(gid, None)
        return True

    def choose(self, lv: Live, seat: int, level: str, aid: int) -> dict[str, Any]:
        """The bot's move as the action stored next (id ``aid``); its seed from the game's
        seed, its id and ``aid``."""
        bot = make_bot(level, derive_seed(lv.meta.get("seed"), lv.gid, aid, seat), self.budget)
        action = dict(bot.choose(lv.game, seat))
        action["id"] = aid
        return action
