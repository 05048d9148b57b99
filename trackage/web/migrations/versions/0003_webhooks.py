"""webhooks: a game's and its players' hooks, and how their deliveries went

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False, index=True),
        sa.Column("player_id", sa.String(40), nullable=True),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("seat_token", sa.String(80), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_status", sa.Integer, nullable=True),
        sa.Column("last_error", sa.String(500), nullable=True),
        sa.Column("failures", sa.Integer, nullable=False, server_default="0"),
        sa.Column("delivered", sa.Integer, nullable=False, server_default="0"),
        sa.Column("last_attempt_at", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("webhooks")
