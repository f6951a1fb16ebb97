"""The SANDWICH corpus tables (seed 004, 5.2), as Wander keeps them: sources, sandwiches,
ingredients with their use counts, the sandwich-ingredient junction, relations between
sandwiches, foraging runs with their log, and the runs' own outbox (forage_events).

Why an outbox of its own: wander_events is keyed by (session_id -> wander_sessions), and a
foraging run is not a wander. forage_events has the same shape keyed by the run, written in
the transaction of each log row and published on the bus after commit, like a wander's
events. Structural types are the 10 names of domain.sandwich.TAXONOMY (a text column)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID
from sqlmodel import SQLModel

from wander.adapters.postgres.columns import SizedVector

meta = SQLModel.metadata
OUTCOMES = "('sandwich_made', 'no_bread', 'no_filling', 'trivial', 'rejected', 'already_seen', 'source_error')"


def _ts(name: str, nullable: bool = False) -> Column:
    return Column(name, DateTime(timezone=True), nullable=nullable, server_default=None if nullable else func.now())


def _pk() -> Column:
    return Column("id", UUID(as_uuid=True), primary_key=True, server_default=func.gen_random_uuid())


SOURCES = Table(
    "sandwich_sources",
    meta,
    _pk(),
    Column("kind", String(20), nullable=False),  # corpus | notes | file | url | topic | crystal
    Column("ref", Text, nullable=False),
    Column("title", Text, nullable=False),
    Column("domain", String(255), nullable=False),
    Column("content_type", String(50), nullable=False),
    Column("content", Text, nullable=False),
    Column("content_hash", String(64), nullable=False),
    Column("embedding", SizedVector(), nullable=False),
    _ts("fetched_at"),
    Index("ix_sandwich_sources_hash", "content_hash"),
    Index("ix_sandwich_sources_domain", "domain"),
)

SANDWICHES = Table(
    "sandwiches",
    meta,
    _pk(),
    Column("name", String(255), nullable=False),
    Column("description", Text, nullable=False),
    _ts("created_at"),
    Column("validity_score", Float, nullable=False),
    Column("bread_compat_score", Float, nullable=False),
    Column("containment_score", Float, nullable=False),
    Column("nontrivial_score", Float, nullable=False),
    Column("novelty_score", Float, nullable=False),
    Column("bread_top", Text, nullable=False),
    Column("bread_bottom", Text, nullable=False),
    Column("filling", Text, nullable=False),
    Column("filling_embedding", SizedVector(), nullable=False),
    Column("sandwich_embedding", SizedVector(), nullable=False),
    Column("bread_top_embedding", SizedVector()),  # migration 0013: null on sandwiches stored before it
    Column("bread_bottom_embedding", SizedVector()),
    Column("lineage", JSONB, nullable=False, server_default="{}"),  # role -> the ingredient's broader concepts
    Column("source_id", UUID(as_uuid=True), ForeignKey("sandwich_sources.id", ondelete="SET NULL")),
    Column("structural_type", String(100), nullable=False),
    Column("domains", ARRAY(Text), nullable=False, server_default="{}"),
    Column("origin", String(20), nullable=False),  # forager | crystal
    Column("crystal_id", UUID(as_uuid=True), unique=True),
    Column("assembly_rationale", Text, nullable=False, server_default=""),
    Column("validation_rationale", Text, nullable=False, server_default=""),
    Column("reuben_commentary", Text, nullable=False, server_default=""),
    CheckConstraint("validity_score >= 0 AND validity_score <= 1", name="sandwich_validity_range"),
    Index("ix_sandwiches_validity", "validity_score"),
    Index("ix_sandwiches_type", "structural_type"),
    Index("ix_sandwiches_created", "created_at"),
)

INGREDIENTS = Table(
    "sandwich_ingredient_catalog",
    meta,
    _pk(),
    Column("text", Text, nullable=False),
    Column("ingredient_type", String(20), nullable=False),
    Column("domains", ARRAY(Text), nullable=False, server_default="{}"),
    Column("embedding", SizedVector()),  # migration 0013
    Column("first_seen_sandwich", UUID(as_uuid=True), ForeignKey("sandwiches.id", ondelete="SET NULL")),
    _ts("first_seen_at"),
    Column("usage_count", Integer, nullable=False, server_default="1"),
    CheckConstraint("ingredient_type IN ('bread', 'filling')", name="ingredient_type_valid"),
    UniqueConstraint("text", "ingredient_type", name="uq_ingredient_text_type"),
    Index("ix_ingredient_usage", "usage_count"),
)

SANDWICH_INGREDIENTS = Table(
    "sandwich_ingredients",
    meta,
    Column("sandwich_id", UUID(as_uuid=True), ForeignKey("sandwiches.id", ondelete="CASCADE"), primary_key=True),
    Column(
        "ingredient_id",
        UUID(as_uuid=True),
        ForeignKey("sandwich_ingredient_catalog.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("role", String(20), primary_key=True),
    CheckConstraint("role IN ('bread_top', 'bread_bottom', 'filling')", name="sandwich_ingredient_role"),
)

RELATIONS = Table(
    "sandwich_relations",
    meta,
    _pk(),
    Column("sandwich_a", UUID(as_uuid=True), ForeignKey("sandwiches.id", ondelete="CASCADE"), nullable=False),
    Column("sandwich_b", UUID(as_uuid=True), ForeignKey("sandwiches.id", ondelete="CASCADE"), nullable=False),
    Column("relation_type", String(50), nullable=False),  # wander.core.sandwich.relations.KINDS
    Column("similarity_score", Float, nullable=False),
    Column("rationale", Text, nullable=False, server_default=""),
    _ts("created_at"),
    UniqueConstraint("sandwich_a", "sandwich_b", "relation_type", name="uq_sandwich_relation"),
    Index("ix_sandwich_relations_type", "relation_type"),
)

RUNS = Table(
    "foraging_runs",
    meta,
    _pk(),
    Column("mode", String(20), nullable=False),  # autonomous | directed
    Column("target", Text),
    Column("patience", Integer, nullable=False),
    Column("status", String(20), nullable=False, server_default="running"),
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("made", Integer, nullable=False, server_default="0"),
    Column("event_seq", BigInteger, nullable=False, server_default="0"),
    _ts("started_at"),
    _ts("finished_at", nullable=True),
)

LOG = Table(
    "foraging_log",
    meta,
    _pk(),
    _ts("ts"),
    Column("run_id", UUID(as_uuid=True), ForeignKey("foraging_runs.id", ondelete="CASCADE"), nullable=False),
    Column("source_id", UUID(as_uuid=True), ForeignKey("sandwich_sources.id", ondelete="SET NULL")),
    Column("source_ref", Text),
    Column("curiosity_prompt", Text, nullable=False),
    Column("outcome", String(50), nullable=False),
    Column("outcome_rationale", Text, nullable=False),
    Column("sandwich_id", UUID(as_uuid=True), ForeignKey("sandwiches.id", ondelete="SET NULL")),
    CheckConstraint(f"outcome IN {OUTCOMES}", name="foraging_outcome_valid"),
    Index("ix_foraging_log_run", "run_id"),
    Index("ix_foraging_log_outcome", "outcome"),
)

EVENTS = Table(
    "forage_events",
    meta,
    Column("run_id", UUID(as_uuid=True), ForeignKey("foraging_runs.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", BigInteger, primary_key=True),
    Column("subject", Text, nullable=False),
    Column("ts", DateTime(timezone=True), nullable=False, server_default=func.now()),
    Column("payload", JSONB, nullable=False),
    Column("published_at", DateTime(timezone=True)),
)

ALL = (SOURCES, SANDWICHES, INGREDIENTS, SANDWICH_INGREDIENTS, RELATIONS, RUNS, LOG, EVENTS)  # migration 0008

# The review queue (004 3.2.4: 0.5 <= V < 0.7 is a marginal sandwich, flagged for review;
# migration 0012): a marginal sandwich kept whole (its ingredients' texts, domains and
# vectors), out of the corpus and its metrics, until a person accepts it (it is then stored
# as a sandwich of the corpus, sandwich_id) or rejects it. A decision is made once.
REVIEW_STATUSES = ("pending", "accepted", "rejected")

REVIEWS = Table(
    "sandwich_reviews",
    meta,
    Column("id", UUID(as_uuid=True), primary_key=True, server_default=func.gen_random_uuid()),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    Column("run_id", UUID(as_uuid=True), ForeignKey("foraging_runs.id", ondelete="SET NULL")),
    Column("source_id", UUID(as_uuid=True), ForeignKey("sandwich_sources.id", ondelete="SET NULL")),
    Column("name", String(255), nullable=False),
    Column("description", Text, nullable=False),
    Column("heuristic", String(50), nullable=False),
    Column("structural_type", String(100), nullable=False),
    Column("validity_score", Float, nullable=False),
    Column("validity", JSONB, nullable=False),  # V, its parts, reasons, domains, heuristic
    Column("bread_top", Text, nullable=False),
    Column("filling", Text, nullable=False),
    Column("bread_bottom", Text, nullable=False),
    Column("ingredient_domains", JSONB, nullable=False),  # {"bread_top": [...], "filling": [...], ...}
    Column("bread_top_embedding", SizedVector(), nullable=False),
    Column("filling_embedding", SizedVector(), nullable=False),
    Column("bread_bottom_embedding", SizedVector(), nullable=False),
    Column("sandwich_embedding", SizedVector(), nullable=False),
    Column("assembly_rationale", Text, nullable=False, server_default=""),
    Column("status", String(20), nullable=False, server_default="pending"),
    Column("decided_at", DateTime(timezone=True)),
    Column("reviewer", Text),
    Column("note", Text),
    Column("sandwich_id", UUID(as_uuid=True), ForeignKey("sandwiches.id", ondelete="SET NULL")),
    CheckConstraint("status IN ('pending', 'accepted', 'rejected')", name="sandwich_review_status"),
    CheckConstraint("validity_score >= 0 AND validity_score <= 1", name="sandwich_review_validity_range"),
    Index("ix_sandwich_reviews_status", "status", "created_at"),
)
