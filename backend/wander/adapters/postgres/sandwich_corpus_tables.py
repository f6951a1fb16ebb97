"""004's data model beyond migration 0008 (migration 0013): the structural taxonomy as a table
(structural_types: parent type, 004's canonical example and the corpus's best sandwich of the
type), and 8.2's human judgments of sandwiches, crystals and marginal sandwiches.

A sandwich names its type by text (sandwiches.structural_type = structural_types.name): a
crystal's type comes from the wander's gate, and a type added later needs no backfill."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.dialects.postgresql import JSONB, UUID
from sqlmodel import SQLModel

meta = SQLModel.metadata

STRUCTURAL_TYPES = Table(
    "structural_types",
    meta,
    Column("type_id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(100), nullable=False, unique=True),
    Column("description", Text, nullable=False, server_default=""),
    Column("bread_relation", Text, nullable=False, server_default=""),
    Column("filling_role", Text, nullable=False, server_default=""),
    Column("parent_type_id", Integer, ForeignKey("structural_types.type_id", ondelete="SET NULL")),
    Column("canonical_example", Text, nullable=False, server_default=""),  # 004's own, in words
    Column("canonical_example_id", UUID(as_uuid=True), ForeignKey("sandwiches.id", ondelete="SET NULL")),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
)

SUBJECT_KINDS = ("sandwich", "crystal", "review")

# 8.2: a person's judgment of one sandwich (a forager's, a crystal, or a marginal one in the
# review queue), with the automatic V and its parts as they were when judged (what the
# calibration compares against). One judgment per judge and subject; judging again replaces it.
JUDGMENTS = Table(
    "sandwich_judgments",
    meta,
    Column("id", UUID(as_uuid=True), primary_key=True, server_default=func.gen_random_uuid()),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    Column("subject_kind", String(20), nullable=False),
    Column("subject_id", UUID(as_uuid=True), nullable=False),
    Column("judge", Text, nullable=False),
    Column("valid", Boolean, nullable=False),
    Column("quality", SmallInteger, nullable=False),
    Column("creativity", SmallInteger, nullable=False),
    Column("clarity", SmallInteger, nullable=False),
    Column("name_quality", SmallInteger, nullable=False),
    Column("auto_v", Float, nullable=False),
    Column("auto_parts", JSONB, nullable=False),  # bread_compat, containment, non_triviality, novelty
    Column("note", Text, nullable=False, server_default=""),
    CheckConstraint("subject_kind IN ('sandwich', 'crystal', 'review')", name="judgment_subject_kind"),
    *(
        CheckConstraint(f"{c} BETWEEN 1 AND 5", name=f"judgment_{c}_range")
        for c in ("quality", "creativity", "clarity", "name_quality")
    ),
    UniqueConstraint("judge", "subject_kind", "subject_id", name="uq_judgment_judge_subject"),
    Index("ix_sandwich_judgments_created", "created_at"),
)
