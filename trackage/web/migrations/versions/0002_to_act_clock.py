"""games: who is to act (kept with the game for the lobby) and the chess clock's settings

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("to_act", sa.JSON, nullable=True))
        batch.add_column(sa.Column("clock", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("clock")
        batch.drop_column("to_act")
