"""trackage's web app: a FastAPI server, its storage (SQLAlchemy + Alembic), the SVG map
renderer, charts and pages. Built on the engine's public API only."""
