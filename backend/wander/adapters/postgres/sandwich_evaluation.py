"""8.2's human evaluation in Postgres (mixed into SandwichRepository): a sample of sandwiches,
crystals and marginal sandwiches for a person to judge, the judgments (the automatic V and
parts copied from the subject when judged, never from the client), and 8.3's failure table."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.sandwich_corpus_queries import SandwichCorpusQueries
from wander.adapters.postgres.sandwich_corpus_tables import JUDGMENTS, SUBJECT_KINDS
from wander.core.domain.errors import InvalidInput, NotFound
from wander.core.domain.sandwich import ACCEPT
from wander.core.sandwich.calibration import Judged

RATINGS = ("quality", "creativity", "clarity", "name_quality")

# The subjects, with their V parts: stored sandwiches (kind by origin) and pending reviews.
SUBJECTS = """
    SELECT CASE WHEN s.origin = 'crystal' THEN 'crystal' ELSE 'sandwich' END AS kind, s.id, s.name,
           s.description, s.bread_top, s.filling, s.bread_bottom, s.structural_type, s.assembly_rationale,
           s.validity_score, s.bread_compat_score AS bread_compat, s.containment_score AS containment,
           s.nontrivial_score AS non_triviality, s.novelty_score AS novelty
    FROM sandwiches s
    UNION ALL
    SELECT 'review', r.id, r.name, r.description, r.bread_top, r.filling, r.bread_bottom, r.structural_type,
           r.assembly_rationale, r.validity_score, (r.validity->>'bread_compat')::float,
           (r.validity->>'containment')::float, (r.validity->>'non_triviality')::float,
           (r.validity->>'novelty')::float
    FROM sandwich_reviews r WHERE r.status = 'pending'"""


def check_judgment(doc: dict[str, Any]) -> dict[str, Any]:
    """A judgment as the API and CLI take it, checked field by field (InvalidInput names the
    field): subject_kind, subject_id, judge, valid (yes/no), the four ratings 1-5, note."""
    if not isinstance(doc, dict):
        raise InvalidInput("body", "must be a JSON object")
    known = {"subject_kind", "subject_id", "judge", "valid", "note", *RATINGS}
    extra = sorted(set(doc) - known)
    if extra:
        raise InvalidInput(extra[0], "is not a field of a judgment")
    kind = doc.get("subject_kind")
    if kind not in SUBJECT_KINDS:
        raise InvalidInput("subject_kind", f"must be one of {', '.join(SUBJECT_KINDS)}")
    try:
        sid = uuid.UUID(str(doc.get("subject_id")))
    except ValueError as exc:
        raise InvalidInput("subject_id", "must be a UUID") from exc
    judge = doc.get("judge")
    if not isinstance(judge, str) or not judge.strip() or len(judge) > 200:
        raise InvalidInput("judge", "must be a name of 1 to 200 characters")
    if not isinstance(doc.get("valid"), bool):
        raise InvalidInput("valid", "must be true or false")
    out: dict[str, Any] = {"subject_kind": kind, "subject_id": sid, "judge": judge.strip(), "valid": doc["valid"]}
    for r in RATINGS:
        x = doc.get(r)
        if isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 5:
            raise InvalidInput(r, "must be a whole number from 1 to 5")
        out[r] = x
    note = doc.get("note", "")
    if not isinstance(note, str) or len(note) > 4000:
        raise InvalidInput("note", "must be text of at most 4000 characters")
    out["note"] = note
    return out


class SandwichEvaluation(SandwichCorpusQueries):
    engine: AsyncEngine

    async def evaluation_sample(self, n: int, judge: str | None = None) -> list[dict[str, Any]]:
        """Up to N subjects in random order, each kind (sandwich, crystal, review) taking its
        turn, none the judge has judged already; V is left out (the person judges blind)."""
        rows = await self._rows(
            f"""
            WITH subj AS ({SUBJECTS}),
                 todo AS (SELECT * FROM subj WHERE NOT EXISTS (
                    SELECT 1 FROM sandwich_judgments j WHERE j.subject_id = subj.id AND j.subject_kind = subj.kind
                      AND j.judge = CAST(:judge AS text))),
                 ranked AS (SELECT *, row_number() OVER (PARTITION BY kind ORDER BY random()) AS turn FROM todo)
            SELECT kind AS subject_kind, id AS subject_id, name, description, bread_top, filling, bread_bottom,
                   structural_type, assembly_rationale
            FROM ranked ORDER BY turn, random() LIMIT :n""",
            judge=(judge or "").strip() or None,
            n=n,
        )
        return rows

    async def record_judgment(self, doc: dict[str, Any]) -> dict[str, Any]:
        """Stores (or replaces: one per judge and subject) a checked judgment; 404 for a
        subject that is not there."""
        j = check_judgment(doc)
        found = await self._rows(
            f"SELECT * FROM ({SUBJECTS}) AS subj WHERE kind = :kind AND id = :sid",
            kind=j["subject_kind"],
            sid=j["subject_id"],
        )
        if not found:
            raise NotFound(j["subject_kind"], str(j["subject_id"]))
        s = found[0]
        parts = {p: float(s[p] or 0.0) for p in ("bread_compat", "containment", "non_triviality", "novelty")}
        values = {**j, "auto_v": float(s["validity_score"]), "auto_parts": parts}
        stmt = pg_insert(JUDGMENTS).values(**values)
        stmt = stmt.on_conflict_do_update(
            constraint="uq_judgment_judge_subject",
            set_={k: stmt.excluded[k] for k in ("valid", *RATINGS, "note", "auto_v", "auto_parts")}
            | {"created_at": text("now()")},
        )
        async with self.engine.begin() as conn:
            jid = (await conn.execute(stmt.returning(JUDGMENTS.c.id))).scalar_one()
        return (await self.judgments(judgment_id=str(jid)))[0]

    async def judgments(self, limit: int = 500, judgment_id: str | None = None) -> list[dict[str, Any]]:
        return await self._rows(
            f"""
            SELECT j.id, j.created_at, j.subject_kind, j.subject_id, j.judge, j.valid, j.quality, j.creativity,
                   j.clarity, j.name_quality, j.auto_v, j.auto_parts, j.note, subj.name, subj.bread_top,
                   subj.filling, subj.bread_bottom
            FROM sandwich_judgments j
            LEFT JOIN ({SUBJECTS.replace("WHERE r.status = 'pending'", "")}) AS subj
              ON subj.id = j.subject_id AND subj.kind = j.subject_kind
            WHERE CAST(:jid AS uuid) IS NULL OR j.id = CAST(:jid AS uuid)
            ORDER BY j.created_at DESC, j.id LIMIT :limit""",
            jid=judgment_id,
            limit=limit,
        )

    async def judged(self) -> list[Judged]:
        rows = await self._rows("SELECT valid, auto_v, auto_parts, quality FROM sandwich_judgments ORDER BY id")
        return [Judged(bool(r["valid"]), float(r["auto_v"]), dict(r["auto_parts"]), int(r["quality"])) for r in rows]

    async def failures(self, examples: int = 5) -> list[dict[str, Any]]:
        """8.3's failure table: per failure type its count, the data captured and the latest
        examples."""
        no_ingredients = await self._rows(
            """
            SELECT l.ts, l.outcome, l.curiosity_prompt, l.source_ref, src.title AS source_title,
                   LEFT(src.content, 300) AS source_content, l.outcome_rationale
            FROM foraging_log l LEFT JOIN sandwich_sources src ON src.id = l.source_id
            WHERE l.outcome IN ('no_bread', 'no_filling') ORDER BY l.ts DESC, l.id LIMIT :k""",
            k=examples,
        )
        low = await self._rows(
            """
            SELECT l.ts, l.outcome, l.source_ref, l.outcome_rationale, r.name AS review_name,
                   r.validity_score AS review_v, r.status AS review_status
            FROM foraging_log l
            LEFT JOIN sandwich_reviews r ON r.source_id = l.source_id AND l.source_id IS NOT NULL
            WHERE l.outcome IN ('rejected', 'trivial') ORDER BY l.ts DESC, l.id LIMIT :k""",
            k=examples,
        )
        disagree = await self._rows(
            """
                SELECT * FROM (SELECT j.subject_kind, j.subject_id, j.judge, j.valid, j.quality, j.auto_v,
                                      (j.auto_v >= :accept) AS auto_valid, j.note, j.created_at
                               FROM sandwich_judgments j) AS x
                WHERE valid <> auto_valid ORDER BY created_at DESC LIMIT :k""",
            accept=ACCEPT,
            k=examples,
        )
        duplicate = await self._rows(
            """
            SELECT l.ts, l.source_ref, src.title AS source_title, l.outcome_rationale,
                   (SELECT s.name FROM sandwich_sources o JOIN sandwiches s ON s.source_id = o.id
                    WHERE src.id IS NOT NULL AND o.content_hash = src.content_hash AND o.id <> src.id
                    ORDER BY s.created_at LIMIT 1) AS existing_sandwich
            FROM foraging_log l LEFT JOIN sandwich_sources src ON src.id = l.source_id
            WHERE l.outcome = 'already_seen' ORDER BY l.ts DESC, l.id LIMIT :k""",
            k=examples,
        )
        (counts,) = await self._rows(
            """
            SELECT (SELECT COUNT(*) FROM foraging_log WHERE outcome IN ('no_bread', 'no_filling')) AS no_ingredients,
                   (SELECT COUNT(*) FROM foraging_log WHERE outcome IN ('rejected', 'trivial')) AS low_validity,
                   (SELECT COUNT(*) FROM sandwich_judgments WHERE valid <> (auto_v >= :accept)) AS human_disagrees,
                   (SELECT COUNT(*) FROM foraging_log WHERE outcome = 'already_seen') AS duplicate""",
            accept=ACCEPT,
        )
        table = (
            ("no_ingredients", "No ingredients", "Source content, curiosity prompt", "Improve foraging strategy"),
            ("low_validity", "Low validity", "Full sandwich, scores, rationale", "Improve assembly/validation"),
            (
                "human_disagrees",
                "Human disagrees",
                "Sandwich, human judgment, auto score",
                "Calibrate validity function",
            ),
            ("duplicate", "Duplicate", "Source, existing sandwich", "Improve novelty detection"),
        )
        found = {
            "no_ingredients": no_ingredients,
            "low_validity": low,
            "human_disagrees": disagree,
            "duplicate": duplicate,
        }
        return [
            {
                "failure": key,
                "label": label,
                "captured": captured,
                "purpose": purpose,
                "count": int(counts[key]),
                "examples": found[key],
            }
            for key, label, captured, purpose in table
        ]
