"""Plain data of foraging: content found, the ingredients in it, a sandwich, an attempt."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# Outcomes of one foraging attempt (004 5.2 and 6.3).
MADE = "sandwich_made"
NO_BREAD = "no_bread"
NO_FILLING = "no_filling"
TRIVIAL = "trivial"
REJECTED = "rejected"  # low validity
DUPLICATE = "already_seen"
SOURCE_ERROR = "source_error"
OUTCOMES = (MADE, NO_BREAD, NO_FILLING, TRIVIAL, REJECTED, DUPLICATE, SOURCE_ERROR)

STARTED, ATTEMPTED, MADE_SUBJECT, FINISHED = (
    "sandwich.forage.started",
    "sandwich.forage.attempt",
    "sandwich.made",
    "sandwich.forage.finished",
)
SUBJECTS = (STARTED, ATTEMPTED, MADE_SUBJECT, FINISHED)
REST = "A good session. I rest now. The sandwiches wait for no one, but they are patient."


@dataclass(frozen=True)
class Content:
    """Text foraged from one source."""

    text: str
    kind: str  # corpus | notes | file | url | topic
    ref: str  # corpus key, note key, file path, URL, topic
    title: str
    domain: str
    content_type: str = "article"
    links: tuple[str, ...] = ()  # where wandering may go next: URLs or source specs (wikipedia:page:X)


@dataclass(frozen=True)
class Ingredient:
    """A concept of the knowledge base that the content mentions."""

    index: int  # in the Knowledge index
    label: str
    domains: tuple[str, ...]
    vector: np.ndarray = field(repr=False, compare=False)


@dataclass
class Sandwich:
    name: str
    description: str
    bread_top: Ingredient
    filling: Ingredient
    bread_bottom: Ingredient
    structural_type: str
    validity: dict[str, Any]
    embedding: np.ndarray = field(repr=False)
    assembly_rationale: str = ""
    commentary: str = ""
    origin: str = "forager"  # forager | crystal
    lineage: dict[str, list[str]] = field(default_factory=dict)  # role -> broader concepts (relations.lineage)


@dataclass
class Attempt:
    """One pass of the loop: what prompted it, where it went, what came of it."""

    curiosity_prompt: str
    outcome: str
    rationale: str
    content: Content | None = None
    sandwich: Sandwich | None = None
    sandwich_id: str | None = None
    review: Sandwich | None = None  # a marginal sandwich (REVIEW <= V < ACCEPT) kept for a person to judge


def content_hash(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()
