"""Alembic environment for trackage's web storage (run by trackage.web.storage.migrate)."""

from alembic import context

from trackage.web.storage import make_engine, metadata

config = context.config


def run() -> None:
    url = config.get_main_option("sqlalchemy.url")
    if url is None:
        raise RuntimeError("alembic's configuration names no sqlalchemy.url")
    engine = make_engine(url)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    run()
