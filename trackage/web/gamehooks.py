"""A game's webhooks: registering them (the game's, at creation; a seat's, by its token),
what the API and page show of them, and what is sent when the players to act change.

A game's hook (``player_id`` None) hears of every change of the players to act; a player's
hook hears of the changes that leave that player to act, and its body carries the seat link.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from . import hookurl
from .service import Forbidden, Illegal, NotFound
from .storage import Storage
from .webhooks import Deliverer, WebhookSettings


def hook_error(message: str) -> Illegal:
    return Illegal(message, "webhook-url")


def shown_url(url: str, full: bool) -> str:
    """A hook's URL as shown: as given to the game's seats; to spectators only its scheme
    and host (a chat's webhook URL is its secret)."""
    if full:
        return url
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname or ''}/…"


class GameHooks:
    """The service's webhooks: the URL rules with the operator's settings, the stored hooks,
    the deliverer they are handed to."""

    def __init__(self, storage: Storage, settings: WebhookSettings, deliverer: Deliverer | None = None) -> None:
        self.storage = storage
        self.settings = settings
        self.deliverer = deliverer or Deliverer(storage, settings)

    def check_urls(self, urls: list[str], already: int = 0) -> list[str]:
        """The URLs checked (422 ``webhook-url`` naming the URL and the rule broken)."""
        if already + len(urls) > self.settings.max_per_game:
            raise hook_error(f"a game has at most {self.settings.max_per_game} webhooks")
        for url in urls:
            try:
                hookurl.check(url, allow_private=self.settings.allow_private)
            except hookurl.WebhookUrlError as e:
                raise hook_error(f"webhook {url!r} refused: {e}") from None
        return urls

    def add_game_hooks(self, gid: int, urls: list[str]) -> None:
        for url in urls:
            self.storage.add_webhook(gid, url)

    def add(self, gid: int, seat: dict, token: str, url: str) -> dict[str, Any]:
        """A seat's hook: a player's seat adds a player's hook (with its seat link); the
        hotseat token adds a game's hook."""
        self.check_urls([url], already=len(self.storage.webhooks(gid)))
        pid = seat["player_id"]
        hook_id = self.storage.add_webhook(gid, url, player_id=pid, seat_token=token if pid is not None else None)
        return {"id": hook_id, "url": url, "player": pid}

    def visible(self, hook: dict, seat: dict | None) -> bool:
        """A game's hooks are shown to all, a player's to its seat (and the hotseat token)."""
        return hook["player_id"] is None or (seat is not None and seat["player_id"] in (None, hook["player_id"]))

    def remove(self, gid: int, seat: dict, hook_id: int) -> None:
        hook = next((h for h in self.storage.webhooks(gid) if h["id"] == hook_id), None)
        if hook is None or not self.visible(hook, seat):
            raise NotFound(f"no webhook {hook_id} in game {gid}", "unknown-webhook")
        if seat["player_id"] is not None and hook["player_id"] != seat["player_id"]:
            raise Forbidden("a seat removes only its own webhooks (the game's: with the hotseat token)",
                            "not-your-webhook")
        self.storage.delete_webhook(gid, hook_id)

    def status(self, gid: int, seat: dict | None) -> list[dict[str, Any]]:
        """The hooks the seat may see and how their deliveries went."""
        return [{"id": h["id"], "url": shown_url(h["url"], seat is not None), "player": h["player_id"],
                 "last_status": h["last_status"], "last_error": h["last_error"], "failures": h["failures"],
                 "delivered": h["delivered"]}
                for h in self.storage.webhooks(gid) if self.visible(h, seat)]

    def turn_changed(self, gid: int, title: str, to_act: list[dict], round_name: str, action_id: int,
                     base_url: str) -> None:
        """Queue a POST to each hook concerned by the players now to act (never waits)."""
        hooks = self.storage.webhooks(gid)
        if not hooks:
            return
        base = (self.settings.public_url or base_url).rstrip("/")
        body: dict[str, Any] = {"game": gid, "title": title, "to_act": to_act, "round": round_name,
                                "action_id": action_id, "link": f"{base}/games/{gid}"}
        acting = {str(p["id"]) for p in to_act}
        for h in hooks:
            if h["player_id"] is None:
                self.deliverer.submit(h["id"], h["url"], body)
            elif h["player_id"] in acting:
                self.deliverer.submit(h["id"], h["url"], {**body, "player": h["player_id"],
                                                          "seat_link": f"{body['link']}?token={h['seat_token']}"})
