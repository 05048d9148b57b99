"""Storage: games as their action lists (18xx.games JSON), seats and their tokens.

SQLAlchemy Core on SQLite (a file, the default) or PostgreSQL (by URL); the schema is
created and upgraded by Alembic migrations shipped in the package (``migrations/``).
Games are never deleted. ``actions`` has the primary key (game_id, action_id): two posts
of the same action id cannot both land, whichever process they come from. On PostgreSQL a
stored action is NOTIFYed on the app's channel (``notify.py`` wakes the live updates).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

metadata = sa.MetaData()

games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("title", sa.String(40), nullable=False),
    sa.Column("players", sa.JSON, nullable=False),       # [{id, name}] in seat order
    sa.Column("options", sa.JSON, nullable=False),       # optional rules
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("log_id", sa.String(80), nullable=True),   # the id of an imported log
    sa.Column("source", sa.String(16), nullable=False),  # "new" or "import"
    sa.Column("hotseat", sa.Boolean, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # "active" / "finished"
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("to_act", sa.JSON, nullable=True),         # [{id, name}]: the players to act now
    sa.Column("clock", sa.JSON, nullable=True),          # the chess clock's settings (trackage.clock)
    sa.Column("bots", sa.JSON, nullable=True),           # {player id: bot level}: the seats bots play
)

seats = sa.Table(
    "seats", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False, index=True),
    sa.Column("player_id", sa.String(40), nullable=True),  # None: a hotseat token (every seat)
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
)

actions = sa.Table(
    "actions", metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("action_id", sa.Integer, primary_key=True),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("actor", sa.String(40), nullable=True),  # the seat's player id, "*" hotseat, None import
    sa.Column("created_at", sa.Float, nullable=False),
)

webhooks = sa.Table(
    "webhooks", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False, index=True),
    sa.Column("player_id", sa.String(40), nullable=True),   # None: the game's hook (every turn change)
    sa.Column("url", sa.String(2000), nullable=False),      # as given
    sa.Column("seat_token", sa.String(80), nullable=True),  # a player's hook: its seat link's token
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("last_status", sa.Integer, nullable=True),    # the last attempt's HTTP status (None: no answer)
    sa.Column("last_error", sa.String(500), nullable=True),  # the last attempt's error (None: delivered)
    sa.Column("failures", sa.Integer, nullable=False, server_default="0"),  # failed attempts since a success
    sa.Column("delivered", sa.Integer, nullable=False, server_default="0"),  # deliveries that succeeded
    sa.Column("last_attempt_at", sa.Float, nullable=True),
)

DEFAULT_DB = "sqlite:///trackage.db"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


class ActionConflict(Exception):
    """Another request stored this action id first."""


def make_engine(url: str) -> sa.Engine:
    if url.startswith("sqlite"):
        eng = sa.create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @sa.event.listens_for(eng, "connect")
        def _pragmas(dbapi_conn, _record):
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            # in WAL mode NORMAL syncs at checkpoints, not at every commit (an action stored
            # waited ~5 ms for the disk): a crash of the server loses nothing, one of the
            # machine may lose the last commits, never the database's consistency
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
        return eng
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return sa.create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


def migrate(url: str) -> None:
    """Create or upgrade the schema to the newest migration (Alembic)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["quiet"] = True
    command.upgrade(cfg, "head")


class Storage:
    """All database access of the server."""

    def __init__(self, url: str = DEFAULT_DB, *, run_migrations: bool = True,
                 channel: str | None = None):
        self.url = url
        if run_migrations:
            migrate(url)
        self.engine = make_engine(url)
        # PostgreSQL: each stored action is NOTIFYed on this channel (its game id)
        self.channel = channel if self.is_postgresql else None

    @property
    def is_postgresql(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ games
    def create_game(self, title: str, players: list[dict], options: list[str], seed: int, *,
                    hotseat: bool, source: str = "new", log_id=None, initial_actions=(),
                    status: str = "active", result=None, to_act=None, clock=None,
                    bots: dict[str, str] | None = None) -> tuple[int, list[dict]]:
        """Store a new game (and an imported log's actions); returns (id, seats with tokens)."""
        now = time.time()
        out_seats = []
        with self.engine.begin() as conn:
            key = conn.execute(games.insert().values(
                title=title, players=players, options=list(options), seed=int(seed),
                log_id=None if log_id is None else str(log_id)[:80], source=source, hotseat=hotseat,
                status=status, result=result, created_at=now, updated_at=now, to_act=to_act,
                clock=clock, bots=bots or None)).inserted_primary_key
            assert key is not None  # an insert into a table with a primary key names it
            gid = key[0]
            seat_rows = [(None, None)] if hotseat else [(str(p["id"]), p["name"]) for p in players]
            for pid, name in seat_rows:
                tok = new_token()
                conn.execute(seats.insert().values(game_id=gid, player_id=pid, token_hash=token_hash(tok)))
                out_seats.append({"player": name if pid is not None else "*", "player_id": pid, "token": tok})
            if initial_actions:
                conn.execute(actions.insert(), [
                    {"game_id": gid, "action_id": a["id"], "data": a, "actor": None, "created_at": now}
                    for a in initial_actions])
        return gid, out_seats

    def game(self, gid: int) -> dict | None:
        with self.engine.connect() as conn:
            row = conn.execute(games.select().where(games.c.id == gid)).mappings().first()
        return dict(row) if row else None

    def list_games(self, limit: int = 100) -> list[dict]:
        with self.engine.connect() as conn:
            rows = conn.execute(games.select().order_by(games.c.id.desc()).limit(limit)).mappings().all()
        return [dict(r) for r in rows]

    def seat_for_token(self, gid: int, token: str) -> dict | None:
        with self.engine.connect() as conn:
            row = conn.execute(seats.select().where(seats.c.game_id == gid,
                                                    seats.c.token_hash == token_hash(token))).mappings().first()
        return dict(row) if row else None

    def seats_for_tokens(self, tokens: dict[int, str]) -> dict[int, dict]:
        """The seats some tokens hold, by game id (one query; a token of another game is not
        its game's seat)."""
        if not tokens:
            return {}
        hashes = {token_hash(t): gid for gid, t in tokens.items()}
        with self.engine.connect() as conn:
            rows = conn.execute(seats.select().where(seats.c.token_hash.in_(list(hashes)))).mappings().all()
        return {r["game_id"]: dict(r) for r in rows if hashes.get(r["token_hash"]) == r["game_id"]}

    def set_status(self, gid: int, status: str, result) -> None:
        with self.engine.begin() as conn:
            conn.execute(games.update().where(games.c.id == gid).values(
                status=status, result=result, updated_at=time.time()))

    # ------------------------------------------------------------------ actions
    def last_action_id(self, gid: int) -> int:
        with self.engine.connect() as conn:
            v = conn.execute(sa.select(sa.func.max(actions.c.action_id)).where(actions.c.game_id == gid)).scalar()
        return int(v or 0)

    def actions(self, gid: int, after: int = 0) -> list[dict]:
        """Stored actions (with their actor) in id order, after the id ``after``."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(actions.c.action_id, actions.c.data, actions.c.actor)
                                .where(actions.c.game_id == gid, actions.c.action_id > after)
                                .order_by(actions.c.action_id)).all()
        return [{"id": r[0], "data": r[1], "actor": r[2]} for r in rows]

    def append_action(self, gid: int, action: dict, actor: str | None, to_act=None) -> None:
        """Store one action (and who is to act after it, a list); :class:`ActionConflict`
        when its id is taken."""
        try:
            with self.engine.begin() as conn:
                conn.execute(actions.insert().values(game_id=gid, action_id=int(action["id"]), data=action,
                                                     actor=actor, created_at=time.time()))
                changes: dict = {"updated_at": time.time()}
                if to_act is not None:
                    changes["to_act"] = to_act
                conn.execute(games.update().where(games.c.id == gid).values(**changes))
                if self.channel is not None:  # sent at commit, to every listening process
                    conn.execute(sa.select(sa.func.pg_notify(self.channel, str(gid))))
        except IntegrityError as e:
            raise ActionConflict(str(e.orig)) from e

    # ------------------------------------------------------------------ webhooks
    def add_webhook(self, gid: int, url: str, player_id: str | None = None, seat_token: str | None = None) -> int:
        with self.engine.begin() as conn:
            key = conn.execute(webhooks.insert().values(game_id=gid, url=url, player_id=player_id,
                                                        seat_token=seat_token, created_at=time.time(),
                                                        failures=0, delivered=0)).inserted_primary_key
        assert key is not None
        return int(key[0])

    def webhooks(self, gid: int) -> list[dict]:
        """A game's hooks in the order they were added."""
        with self.engine.connect() as conn:
            rows = conn.execute(webhooks.select().where(webhooks.c.game_id == gid)
                                .order_by(webhooks.c.id)).mappings().all()
        return [dict(r) for r in rows]

    def delete_webhook(self, gid: int, hook_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(webhooks.delete().where(webhooks.c.game_id == gid, webhooks.c.id == hook_id))

    def record_delivery(self, hook_id: int, status: int | None, error: str | None) -> None:
        """One attempt's outcome: an error counts a failure, a success resets the count."""
        changes: dict = {"last_status": status, "last_error": None if error is None else error[:500],
                         "last_attempt_at": time.time()}
        if error is None:
            changes.update(failures=0, delivered=webhooks.c.delivered + 1)
        else:
            changes["failures"] = webhooks.c.failures + 1
        with self.engine.begin() as conn:
            conn.execute(webhooks.update().where(webhooks.c.id == hook_id).values(**changes))


def dumps(o) -> str:
    return json.dumps(o, separators=(",", ":"))
