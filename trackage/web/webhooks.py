"""Webhook delivery: a worker thread owned by the app, fed by a queue, so an action's
request never waits for a hook. Each delivery is a JSON POST to the URL's checked address
(resolved again and checked by :mod:`.hookurl` before every attempt), with a short timeout,
redirects not followed and at most ``max_response_bytes`` of the answer read; a failed
attempt is retried after each delay of ``backoff``. Every attempt's outcome is stored with
the hook (``Storage.record_delivery``), so it shows on the game's page and API."""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from . import hookurl
from .storage import Storage

log = logging.getLogger("trackage.web.webhooks")
USER_AGENT = "trackage-webhook/1"


@dataclass(frozen=True)
class WebhookSettings:
    """The operator's webhook settings (``trackage serve`` options; tests shorten ``backoff``)."""
    allow_private: bool = False            # allow loopback, private, link-local, ... addresses
    backoff: tuple[float, ...] = (1.0, 4.0, 16.0)  # the delays before each retry
    timeout: float = 5.0                   # seconds, per attempt (connect, write, read)
    max_response_bytes: int = 16 * 1024    # of a hook's answer, read and dropped
    public_url: str | None = None          # the server's address in links (default: the request's)
    max_per_game: int = 10                 # hooks of one game (its own and its players')


@dataclass(order=True)
class Delivery:
    """One payload for one hook, due at ``due`` (its ``attempt``-th try, from 0)."""
    due: float
    seq: int
    hook_id: int = field(compare=False)
    url: str = field(compare=False)
    body: dict[str, Any] = field(compare=False)
    attempt: int = field(default=0, compare=False)


class Deliverer:
    """The app's webhook worker: ``submit`` queues, a thread (started on the first submit,
    stopped by ``stop``) sends and retries."""

    def __init__(self, storage: Storage, settings: WebhookSettings) -> None:
        self.storage = storage
        self.settings = settings
        self._queue: list[Delivery] = []
        self._seq = itertools.count()
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False

    def submit(self, hook_id: int, url: str, body: dict[str, Any]) -> None:
        with self._cond:
            if self._stopping:
                return
            heapq.heappush(self._queue, Delivery(time.monotonic(), next(self._seq), hook_id, url, body))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="trackage-webhooks", daemon=True)
                self._thread.start()
            self._cond.notify()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the worker (pending deliveries are dropped)."""
        with self._cond:
            self._stopping = True
            self._cond.notify()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _next(self) -> Delivery | None:
        with self._cond:
            while not self._stopping:
                if self._queue:
                    wait = self._queue[0].due - time.monotonic()
                    if wait <= 0:
                        return heapq.heappop(self._queue)
                    self._cond.wait(wait)
                else:
                    self._cond.wait()
            return None

    def _run(self) -> None:
        timeout = httpx.Timeout(self.settings.timeout)
        with httpx.Client(follow_redirects=False, timeout=timeout, trust_env=False) as client:
            while (job := self._next()) is not None:
                try:
                    status, error = self.send(client, job.url, job.body)
                except Exception as e:  # the worker outlives any one delivery
                    log.exception("webhook %s: delivery raised", job.hook_id)
                    status, error = None, f"{type(e).__name__}: {e}"
                try:
                    self.storage.record_delivery(job.hook_id, status, error)
                except Exception:  # e.g. the database is closing
                    log.exception("webhook %s: the outcome could not be stored", job.hook_id)
                if error is not None and job.attempt < len(self.settings.backoff):
                    delay = self.settings.backoff[job.attempt]
                    with self._cond:
                        heapq.heappush(self._queue, Delivery(time.monotonic() + delay, next(self._seq), job.hook_id,
                                                             job.url, job.body, job.attempt + 1))

    def send(self, client: httpx.Client, url: str, body: dict[str, Any]) -> tuple[int | None, str | None]:
        """One attempt: (the answer's status or None, an error or None when delivered)."""
        try:
            target = hookurl.check(url, allow_private=self.settings.allow_private)
        except hookurl.WebhookUrlError as e:
            return None, f"refused (webhook-url): {e}"
        # connect to an address just checked (not a second lookup): the Host header and TLS
        # name stay the URL's; the next address when one refuses the connection
        default_port = hookurl.SCHEMES[target.parts.scheme.lower()]
        host_header = target.parts.hostname or target.host
        if ":" in host_header:
            host_header = f"[{host_header}]"
        if target.port != default_port:
            host_header += f":{target.port}"
        extensions = {"sni_hostname": target.host} if target.parts.scheme.lower() == "https" else {}
        headers = {"Host": host_header, "User-Agent": USER_AGENT}
        error = "no address"
        for ip in target.addresses:
            netloc_ip = f"[{ip}]" if ":" in ip else ip
            pinned = target.parts._replace(netloc=f"{netloc_ip}:{target.port}").geturl()
            try:
                status = self._post(client, pinned, body, headers, extensions)
            except httpx.ConnectError as e:
                error = f"ConnectError: {e}"
                continue
            except httpx.TimeoutException:
                return None, f"timed out after {self.settings.timeout:g} s"
            except httpx.HTTPError as e:
                return None, f"{type(e).__name__}: {e}"
            if 200 <= status < 300:
                return status, None
            if 300 <= status < 400:
                return status, f"HTTP {status}: redirects are not followed"
            return status, f"HTTP {status}"
        return None, error

    def _post(self, client: httpx.Client, url: str, body: dict[str, Any], headers: dict[str, str],
              extensions: dict[str, Any]) -> int:
        """The answer's status; at most ``max_response_bytes`` of it read, within ``timeout``
        in all."""
        deadline = time.monotonic() + self.settings.timeout
        with client.stream("POST", url, json=body, headers=headers, extensions=extensions) as resp:
            read = 0
            for chunk in resp.iter_bytes():
                read += len(chunk)
                if read >= self.settings.max_response_bytes or time.monotonic() > deadline:
                    break
            return resp.status_code
