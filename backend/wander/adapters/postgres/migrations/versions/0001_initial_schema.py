"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-21 13:41:33.701047
"""

import pgvector.sqlalchemy
import sqlalchemy as sa
import sqlmodel
from alembic import op
from sqlalchemy.dialects import postgresql

from wander.adapters.postgres.columns import vector_dim

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# The vector dimension follows the embedder (384 for all-MiniLM-L6-v2).
DIM: int = vector_dim()  # WANDER_EMBED_DIM, handed in by the composition root
DEFAULT_PROJECT_ID = "00000000-0000-0000-0000-000000000001"


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS vector")
    _create_knowledge_tables()
    _create_wander_tables()
    _create_loci_and_resonances()
    _create_memory_and_crystals()
    _create_traces_and_residues()
    op.execute(f"INSERT INTO projects (id, name) VALUES ('{DEFAULT_PROJECT_ID}', 'default') ON CONFLICT DO NOTHING")


def _create_knowledge_tables() -> None:
    op.create_table(
        "kb_concepts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("label", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("gloss", sa.Text(), server_default="", nullable=False),
        sa.Column("domains", postgresql.ARRAY(sa.Text()), server_default="{}", nullable=False),
        sa.Column("broader", postgresql.ARRAY(sa.Text()), server_default="{}", nullable=False),
        sa.Column("path", postgresql.ARRAY(sa.Text()), server_default="{}", nullable=False),
        sa.Column("opposites", postgresql.ARRAY(sa.Text()), server_default="{}", nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("embedding", pgvector.sqlalchemy.vector.VECTOR(dim=DIM), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    op.create_index(
        "idx_kb_embedding",
        "kb_concepts",
        ["embedding"],
        unique=False,
        postgresql_using="hnsw",
        postgresql_ops={"embedding": "vector_cosine_ops"},
    )
    op.create_index(op.f("ix_kb_concepts_source"), "kb_concepts", ["source"], unique=False)
    op.create_table(
        "kb_sources",
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("fingerprint", sa.Text(), nullable=False),
        sa.Column("concepts", sa.Integer(), nullable=False),
        sa.Column("embedder", sa.Text(), nullable=False),
        sa.Column("loaded_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=True),
        sa.PrimaryKeyConstraint("source"),
    )


def _create_wander_tables() -> None:
    op.create_table(
        "projects",
        sa.Column("id", sa.UUID(), server_default=sa.text("gen_random_uuid()"), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
    op.create_table(
        "wander_sessions",
        sa.Column("id", sa.UUID(), server_default=sa.text("gen_random_uuid()"), nullable=False),
        sa.Column("project_id", sa.UUID(), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=50), nullable=False),
        sa.Column("seed_concept", sa.Text(), nullable=False),
        sa.Column("seed_embedding", pgvector.sqlalchemy.vector.VECTOR(dim=DIM), nullable=True),
        sa.Column("attractor", sa.Text(), nullable=True),
        sa.Column("attractor_embedding", pgvector.sqlalchemy.vector.VECTOR(dim=DIM), nullable=True),
        sa.Column("allowed_domains", postgresql.ARRAY(sa.Text()), server_default="{}", nullable=True),
        sa.Column("forbidden_domains", postgresql.ARRAY(sa.Text()), server_default="{}", nullable=True),
        sa.Column("fence_embeddings", postgresql.ARRAY(pgvector.sqlalchemy.vector.VECTOR(dim=DIM)), nullable=True),
        sa.Column("max_drift_distance", sa.Float(), nullable=False),
        sa.Column("max_steps", sa.Integer(), nullable=False),
        sa.Column("cloud_budget_cents", sa.Integer(), nullable=False),
        sa.Column("cloud_spent_cents", sa.Integer(), nullable=False),
        sa.Column("local_calls", sa.Integer(), nullable=False),
        sa.Column("cloud_calls", sa.Integer(), nullable=False),
        sa.Column("temperature", sa.Float(), nullable=False),
        sa.Column("human_checkpoint_frequency", sa.Integer(), nullable=False),
        sa.Column("random_seed", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("step_count", sa.Integer(), nullable=False),
        sa.Column("event_seq", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("current_locus_id", sa.UUID(), nullable=True),
        sa.Column("stopped_reason", sa.Text(), nullable=True),
        sa.Column("parent_session_id", sa.UUID(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=True),
        sa.Column("last_step_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('active', 'paused', 'completed', 'abandoned')", name="valid_status"),
        sa.ForeignKeyConstraint(["parent_session_id"], ["wander_sessions.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_wander_sessions_project_id"), "wander_sessions", ["project_id"], unique=False)
    op.create_index(op.f("ix_wander_sessions_status"), "wander_sessions", ["status"], unique=False)
    op.create_table(
        "wander_events",
        sa.Column("session_id", sa.UUID(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("subject", sa.Text(), nullable=False),
        sa.Column("ts", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("payload", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["session_id"], ["wander_sessions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("session_id", "seq"),
    )


def _create_loci_and_resonances() -> None:
    op.create_table(
        "wander_loci",
        sa.Column("id", sa.UUID(), server_default=sa.text("gen_random_uuid()"), nullable=False),
        sa.Column("session_id", sa.UUID(), nullable=False),
        sa.Column("concept", sa.Text(), nullable=False),
        sa.Column("embedding", pgvector.sqlalchemy.vector.VECTOR(dim=DIM), nullable=False),
        sa.Column("source_type", sqlmodel.sql.sqltypes.AutoString(length=50), nullable=False),
        sa.Column("domains", postgresql.ARRAY(sa.Text()), server_default="{}", nullable=False),
        sa.Column("abstraction_level", sa.Float(), nullable=False),
        sa.Column("novelty_score", sa.Float(), nullable=False),
        sa.Column("interestingness", sa.Float(), nullable=False),
        sa.Column("actionability", sa.Float(), nullable=False),
        sa.Column("uncertainty", sa.Float(), nullable=False),
        sa.Column("visit_count", sa.Integer(), nullable=False),
        sa.Column("kb_key", sa.Text(), nullable=True),
        sa.Column("first_encountered", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=True),
        sa.Column("last_visited", sa.DateTime(timezone=True), nullable=True),
        sa.Column(
            "adjacent_to", postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'[]'"), nullable=False
        ),
        sa.Column(
            "bridges_to", postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'[]'"), nullable=False
        ),
        sa.Column(
            "contradicts", postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'[]'"), nullable=False
        ),
        sa.CheckConstraint("source_type IN ('SEED', 'ADJACENT', 'BRIDGED', 'SERENDIPITOUS')", name="valid_source_type"),
        sa.ForeignKeyConstraint(["session_id"], ["wander_sessions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "idx_loci_embedding",
        "wander_loci",
        ["embedding"],
        unique=False,
        postgresql_using="hnsw",
        postgresql_ops={"embedding": "vector_cosine_ops"},
    )
    op.create_index(op.f("ix_wander_loci_session_id"), "wander_loci", ["session_id"], unique=False)
    op.create_table(
        "wander_resonances",
        sa.Column("id", sa.UUID(), server_default=sa.text("gen_random_uuid()"), nullable=False),
        sa.Column("session_id", sa.UUID(), nullable=True),
        sa.Column("project_id", sa.UUID(), nullable=False),
        sa.Column("themes", postgresql.ARRAY(sa.Text()), server_default="{}", nullable=False),
        sa.Column("embedding", pgvector.sqlalchemy.vector.VECTOR(dim=DIM), nullable=False),
        sa.Column("occurrences", sa.Integer(), nullable=False),
        sa.Column("strength", sa.Float(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=50), nullable=False),
        sa.Column("supporting_residue_ids", postgresql.ARRAY(sa.UUID()), server_default="{}", nullable=True),
        sa.Column("last_reinforced_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=True),
        sa.Column("decay_rate", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=True),
        sa.CheckConstraint("status IN ('candidate', 'confirmed', 'invalidated')", name="valid_resonance_status"),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
        ),
        sa.ForeignKeyConstraint(["session_id"], ["wander_sessions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "idx_resonances_embedding",
        "wander_resonances",
        ["embedding"],
        unique=False,
        postgresql_using="hnsw",
        postgresql_ops={"embedding": "vector_cosine_ops"},
    )
    op.create_index(op.f("ix_wander_resonances_project_id"), "wander_resonances", ["project_id"], unique=False)


def _create_memory_and_crystals() -> None:
    op.create_table(
        "wander_warm_memory",
        sa.Column("id", sa.UUID(), server_default=sa.text("gen_random_uuid()"), nullable=False),
        sa.Column("session_id", sa.UUID(), nullable=False),
        sa.Column("cluster_type", sqlmodel.sql.sqltypes.AutoString(length=50), nullable=False),
        sa.Column("content", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("embedding", pgvector.sqlalchemy.vector.VECTOR(dim=DIM), nullable=True),
        sa.Column("strength", sa.Float(), nullable=False),
        sa.Column("last_accessed_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["session_id"], ["wander_sessions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_wander_warm_memory_session_id"), "wander_warm_memory", ["session_id"], unique=False)
    op.create_table(
        "wander_crystals",
        sa.Column("id", sa.UUID(), server_default=sa.text("gen_random_uuid()"), nullable=False),
        sa.Column("session_id", sa.UUID(), nullable=True),
        sa.Column("project_id", sa.UUID(), nullable=False),
        sa.Column("insight", sa.Text(), nullable=False),
        sa.Column("embedding", pgvector.sqlalchemy.vector.VECTOR(dim=DIM), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("actionability", sa.Float(), nullable=False),
        sa.Column("domains", postgresql.ARRAY(sa.Text()), server_default="{}", nullable=False),
        sa.Column("source_resonance_id", sa.UUID(), nullable=True),
        sa.Column("source_locus_id", sa.UUID(), nullable=True),
        sa.Column(
            "supporting_evidence",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'[]'"),
            nullable=False,
        ),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=50), nullable=False),
        sa.Column("validated_by", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
        sa.Column("validation_notes", sa.Text(), nullable=True),
        sa.Column("human_approved", sa.Boolean(), nullable=False),
        sa.Column("human_approved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("human_approved_by", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=True),
        sa.CheckConstraint(
            "status IN ('active', 'acted_upon', 'invalidated', 'archived')", name="valid_crystal_status"
        ),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
        ),
        sa.ForeignKeyConstraint(["session_id"], ["wander_sessions.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(
            ["source_locus_id"],
            ["wander_loci.id"],
        ),
        sa.ForeignKeyConstraint(
            ["source_resonance_id"],
            ["wander_resonances.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "idx_crystals_embedding",
        "wander_crystals",
        ["embedding"],
        unique=False,
        postgresql_using="hnsw",
        postgresql_ops={"embedding": "vector_cosine_ops"},
    )
    op.create_index(op.f("ix_wander_crystals_project_id"), "wander_crystals", ["project_id"], unique=False)


def _create_traces_and_residues() -> None:
    op.create_table(
        "wander_traces",
        sa.Column("id", sa.UUID(), server_default=sa.text("gen_random_uuid()"), nullable=False),
        sa.Column("session_id", sa.UUID(), nullable=False),
        sa.Column("step_number", sa.Integer(), nullable=False),
        sa.Column("from_locus_id", sa.UUID(), nullable=True),
        sa.Column("to_locus_id", sa.UUID(), nullable=False),
        sa.Column("adjacencies_considered", sa.Integer(), nullable=True),
        sa.Column("selection_scores", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("selection_reason", sa.Text(), nullable=True),
        sa.Column("model_used", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
        sa.Column("tokens_used", sa.Integer(), nullable=True),
        sa.Column("cost_cents", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=True),
        sa.ForeignKeyConstraint(
            ["from_locus_id"],
            ["wander_loci.id"],
        ),
        sa.ForeignKeyConstraint(["session_id"], ["wander_sessions.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["to_locus_id"],
            ["wander_loci.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("session_id", "step_number", name="uq_traces_session_step"),
    )
    op.create_index("idx_traces_session", "wander_traces", ["session_id", "step_number"], unique=False)
    op.create_table(
        "wander_residues",
        sa.Column("id", sa.UUID(), server_default=sa.text("gen_random_uuid()"), nullable=False),
        sa.Column("session_id", sa.UUID(), nullable=False),
        sa.Column("trace_id", sa.UUID(), nullable=False),
        sa.Column("from_locus_id", sa.UUID(), nullable=True),
        sa.Column("to_locus_id", sa.UUID(), nullable=False),
        sa.Column("connection", sa.Text(), nullable=True),
        sa.Column("tension", sa.Text(), nullable=True),
        sa.Column("bridge", sa.Text(), nullable=True),
        sa.Column("surprise", sa.Text(), nullable=True),
        sa.Column("possibility", sa.Text(), nullable=True),
        sa.Column("themes", postgresql.ARRAY(sa.Text()), server_default="{}", nullable=True),
        sa.Column("themes_embedding", pgvector.sqlalchemy.vector.VECTOR(dim=DIM), nullable=True),
        sa.Column("interestingness", sa.Float(), nullable=True),
        sa.Column("actionability", sa.Float(), nullable=True),
        sa.Column("model_used", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
        sa.Column("details", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=True),
        sa.ForeignKeyConstraint(
            ["from_locus_id"],
            ["wander_loci.id"],
        ),
        sa.ForeignKeyConstraint(["session_id"], ["wander_sessions.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["to_locus_id"],
            ["wander_loci.id"],
        ),
        sa.ForeignKeyConstraint(["trace_id"], ["wander_traces.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "idx_residues_themes_embedding",
        "wander_residues",
        ["themes_embedding"],
        unique=False,
        postgresql_using="hnsw",
        postgresql_ops={"themes_embedding": "vector_cosine_ops"},
    )
    op.create_index(op.f("ix_wander_residues_session_id"), "wander_residues", ["session_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_wander_residues_session_id"), table_name="wander_residues")
    op.drop_index(
        "idx_residues_themes_embedding",
        table_name="wander_residues",
        postgresql_using="hnsw",
        postgresql_ops={"themes_embedding": "vector_cosine_ops"},
    )
    op.drop_table("wander_residues")
    op.drop_index("idx_traces_session", table_name="wander_traces")
    op.drop_table("wander_traces")
    op.drop_index(op.f("ix_wander_crystals_project_id"), table_name="wander_crystals")
    op.drop_index(
        "idx_crystals_embedding",
        table_name="wander_crystals",
        postgresql_using="hnsw",
        postgresql_ops={"embedding": "vector_cosine_ops"},
    )
    op.drop_table("wander_crystals")
    op.drop_index(op.f("ix_wander_warm_memory_session_id"), table_name="wander_warm_memory")
    op.drop_table("wander_warm_memory")
    op.drop_index(op.f("ix_wander_resonances_project_id"), table_name="wander_resonances")
    op.drop_index(
        "idx_resonances_embedding",
        table_name="wander_resonances",
        postgresql_using="hnsw",
        postgresql_ops={"embedding": "vector_cosine_ops"},
    )
    op.drop_table("wander_resonances")
    op.drop_index(op.f("ix_wander_loci_session_id"), table_name="wander_loci")
    op.drop_index(
        "idx_loci_embedding",
        table_name="wander_loci",
        postgresql_using="hnsw",
        postgresql_ops={"embedding": "vector_cosine_ops"},
    )
    op.drop_table("wander_loci")
    op.drop_table("wander_events")
    op.drop_index(op.f("ix_wander_sessions_status"), table_name="wander_sessions")
    op.drop_index(op.f("ix_wander_sessions_project_id"), table_name="wander_sessions")
    op.drop_table("wander_sessions")
    op.drop_table("projects")
    op.drop_table("kb_sources")
    op.drop_index(op.f("ix_kb_concepts_source"), table_name="kb_concepts")
    op.drop_index(
        "idx_kb_embedding",
        table_name="kb_concepts",
        postgresql_using="hnsw",
        postgresql_ops={"embedding": "vector_cosine_ops"},
    )
    op.drop_table("kb_concepts")
