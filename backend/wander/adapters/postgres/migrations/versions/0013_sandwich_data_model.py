"""004's data model whole: the structural_types table seeded from the 10-type taxonomy (with
parent types and canonical examples, wander.core.sandwich.taxonomy), embeddings on breads
(sandwiches.bread_top_embedding, bread_bottom_embedding) and on ingredients, the ingredients'
broader concepts (sandwiches.lineage, for the generalization relation), and 8.2's human
judgments (sandwich_judgments).

Migration 0008 creates the sandwich tables from their current definitions, so a fresh
database already has the new columns: they are added only where missing.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

from wander.adapters.postgres.columns import vector_dim
from wander.adapters.postgres.sandwich_corpus_tables import JUDGMENTS, STRUCTURAL_TYPES
from wander.core.sandwich.taxonomy import TYPES

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

COLUMNS = (
    ("sandwiches", "bread_top_embedding", f"vector({vector_dim()})"),
    ("sandwiches", "bread_bottom_embedding", f"vector({vector_dim()})"),
    ("sandwiches", "lineage", "jsonb NOT NULL DEFAULT '{}'::jsonb"),
    ("sandwich_ingredient_catalog", "embedding", f"vector({vector_dim()})"),
)


def upgrade() -> None:
    bind = op.get_bind()
    for table, column, kind in COLUMNS:
        op.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")
    # The fillings' embeddings are known for every stored sandwich.
    op.execute("""
        UPDATE sandwich_ingredient_catalog i SET embedding = s.filling_embedding
        FROM sandwich_ingredients si JOIN sandwiches s ON s.id = si.sandwich_id
        WHERE si.ingredient_id = i.id AND si.role = 'filling' AND i.embedding IS NULL""")
    STRUCTURAL_TYPES.create(bind, checkfirst=True)
    JUDGMENTS.create(bind, checkfirst=True)
    for t in TYPES:
        bind.execute(
            sa.text("""
                INSERT INTO structural_types (name, description, bread_relation, filling_role, canonical_example)
                VALUES (:name, :description, :bread_relation, :filling_role, :canonical_example)
                ON CONFLICT (name) DO NOTHING"""),
            {
                "name": t.name,
                "description": t.description,
                "bread_relation": t.bread_relation,
                "filling_role": t.filling_role,
                "canonical_example": t.canonical_example,
            },
        )
    for t in TYPES:
        if t.parent:
            bind.execute(
                sa.text("""
                    UPDATE structural_types SET parent_type_id = (SELECT type_id FROM structural_types WHERE name = :p)
                    WHERE name = :name"""),
                {"name": t.name, "p": t.parent},
            )


def downgrade() -> None:
    bind = op.get_bind()
    JUDGMENTS.drop(bind, checkfirst=True)
    STRUCTURAL_TYPES.drop(bind, checkfirst=True)
    for table, column, _ in COLUMNS:
        op.execute(f"ALTER TABLE {table} DROP COLUMN IF EXISTS {column}")
