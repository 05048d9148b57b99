"""Tournament games as Ray tasks, one task per game, on a Ray cluster (``--ray ADDRESS``).

Ray is optional (``pip install 'trackage[cluster]'``): it is imported only here, when asked
for. ``ADDRESS`` is ``local`` (start a Ray on this machine, or join the one ``RAY_ADDRESS``
names), ``auto`` (join the Ray running on this machine, else start one) or a cluster's address
(``host:6379``, ``ray://host:10001``). A Ray already initialised in this process is used as it
is and left running. Each task is :func:`~.tournament.play_one`, so a game's record is the
same whatever runs it; records come back in the order games end."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tournament import Setup

CLUSTER_EXTRA = "pip install 'trackage[cluster]'"


def require_ray() -> Any:
    """The ``ray`` module, or a clear error saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ValueError(f"tournament --ray: Ray is not installed ({CLUSTER_EXTRA}, or pip install 'ray>=2.9'); "
                         "without --ray games run in a process pool") from None
    return ray


def _connect(ray: Any, address: str) -> None:
    if address == "local":
        ray.init(include_dashboard=False)
    elif address == "auto":
        try:
            ray.init(address="auto")
        except ConnectionError:
            ray.init(include_dashboard=False)
    else:
        try:
            ray.init(address=address)
        except ConnectionError as e:
            raise ValueError(f"tournament --ray: no Ray cluster at {address!r} ({e})") from None


def ray_results(setup: Setup, todo: list[int], address: str) -> Iterator[dict[str, Any]]:
    """The records of games ``todo`` of ``setup``, each played as a Ray task on the cluster at
    ``address``, as each ends."""
    from .tournament import play_one

    ray = require_ray()
    started = not ray.is_initialized()
    if started:
        _connect(ray, address)
    try:
        task = ray.remote(play_one)
        pending = [task.remote(setup, g) for g in todo]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                rec: dict[str, Any] = ray.get(ref)
                yield rec
    finally:
        if started:
            ray.shutdown()
