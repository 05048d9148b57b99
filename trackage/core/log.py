"""Reading and writing 18xx.games game logs (JSON) and the undo/redo filter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import LogFormatError

META_TYPES = {"undo", "redo"}


def load_log(path: str | Path) -> dict[str, Any]:
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise LogFormatError(f"cannot read {path}: {e.strerror}") from e
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise LogFormatError(f"{path} is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from e
    return check_log(data, str(path))


def check_log(data: object, where: str = "log") -> dict[str, Any]:
    if not isinstance(data, dict):
        raise LogFormatError(f"{where}: a game log is a JSON object")
    for key in ("title", "players", "actions"):
        if key not in data:
            raise LogFormatError(f"{where}: missing field '{key}'")
    if not isinstance(data["players"], list) or not all(
        isinstance(p, dict) and "id" in p and "name" in p for p in data["players"]
    ):
        raise LogFormatError(f"{where}: 'players' must be a list of {{id, name}} objects")
    if not isinstance(data["actions"], list) or not all(isinstance(a, dict) for a in data["actions"]):
        raise LogFormatError(f"{where}: 'actions' must be a list of objects")
    for i, a in enumerate(data["actions"]):
        if "type" not in a:
            raise LogFormatError(f"{where}: action #{i} has no 'type'")
    return data


def filter_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Apply undo/redo: return the actions that stay live, in file order.

    ``undo`` without ``action_id`` removes the latest live non-message action;
    with ``action_id`` it removes every live non-message action after that id
    (0 = all). ``redo`` restores the latest undone batch unless another action
    came in between. Messages are never undone.
    """
    kept: list[dict[str, Any] | None] = [None] * len(actions)
    batches: list[list[int]] = []
    index_of_id: dict[object, int] = {}
    for i, a in enumerate(actions):
        t = a.get("type")
        if t == "undo":
            aid = a.get("action_id")
            if aid is None:
                j = 0
                for k in range(i - 1, -1, -1):
                    if (kk := kept[k]) is not None and kk.get("type") != "message":
                        j = k
                        break
            elif aid == 0:
                j = 0
            else:
                if aid not in index_of_id:
                    raise LogFormatError(f"undo at action {a.get('id')} names unknown action {aid}")
                j = index_of_id[aid] + 1
            batch = []
            for k in range(j, i):
                if (kk := kept[k]) is not None and kk.get("type") != "message":
                    batch.append(k)
                    kept[k] = None
            batches.append(batch)
        elif t == "redo":
            if batches:
                for k in batches.pop():
                    kept[k] = actions[k]
        else:
            if t != "message":
                batches.clear()
            kept[i] = a
        if "id" in a:
            index_of_id.setdefault(a["id"], i)
    return [a for a in kept if a is not None]
