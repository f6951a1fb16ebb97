"""Resonance: themes that recur. A residue's themes embedding is matched against the
project's resonances (this wander's and other wanders'); a match reinforces, no match
creates a candidate.

Lifecycle: CANDIDATE -> CONFIRMED once it has occurred CONFIRM_OCCURRENCES times with
strength >= CONFIRM_STRENGTH; -> INVALIDATED when its strength, decaying 10% a day since it
was last reinforced, falls below INVALID_STRENGTH, or when the wander walks to a corpus
opposite of one of its themes (contradiction halves the strength)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from shared_schemas.events import (
    ResonanceConfirmedPayload,
    ResonanceDetectedPayload,
    ResonanceStrengthenedPayload,
    ResonanceSummary,
)
from wander.core.domain.geometry import normalize
from wander.core.domain.models import EventDraft, Locus, Residue, Resonance, ResonanceStatus, new_id
from wander.core.engine import events as ev
from wander.core.engine.resonance_rows import ResonanceRows, best_rows
from wander.core.engine.walk import Walk

MATCH_COS = 0.8
CONFIRM_OCCURRENCES = 4
CONFIRM_STRENGTH = 3.0
INVALID_STRENGTH = 0.25
MAX_THEMES = 8


def decayed_strength(r: Resonance, now: datetime) -> float:
    if r.last_reinforced_at is None:
        return r.strength
    days = max(0.0, (now - r.last_reinforced_at).total_seconds() / 86400)
    return r.strength * (1.0 - r.decay_rate) ** days


@dataclass
class ResonanceOutcome:
    changed: list[Resonance] = field(default_factory=list)
    events: list[EventDraft] = field(default_factory=list)
    detected: int = 0
    confirmed: list[Resonance] = field(default_factory=list)
    matched: Resonance | None = None
    # each changed resonance as it was read: (occurrences, status, last_reinforced_at)
    bases: dict[str, tuple] = field(default_factory=dict)


def proximity(walk: Walk, vector: np.ndarray) -> float:
    """Highest similarity of a vector to an active resonance (the router's input)."""
    rows = _rows(walk)
    near = best_rows(rows.similarities(vector), np.flatnonzero(rows.active))
    if not len(near):
        return 0.0
    return float(max(float(walk.resonances[i].embedding @ vector) for i in near))


def _rows(walk: Walk) -> ResonanceRows:
    walk.resonance_rows.sync(walk.resonances)
    return walk.resonance_rows


class _Edits:
    """The step's own copies of the resonances it changes (the walk's are left as they are),
    each one's state as read kept in the outcome's bases."""

    def __init__(self, out: ResonanceOutcome):
        self.out = out
        self.touched: dict[str, Resonance] = {}

    def edit(self, r: Resonance) -> Resonance:
        if r.id not in self.touched:
            self.touched[r.id] = copy.copy(r)
            self.out.bases[r.id] = (r.occurrences, str(r.status), r.last_reinforced_at)
        return self.touched[r.id]

    def current(self, r: Resonance) -> Resonance:
        return self.touched.get(r.id, r)


def check_resonances(walk: Walk, residue: Residue, residue_id: str, visited: Locus, now: datetime) -> ResonanceOutcome:
    """Work out what this residue does to the resonances; the walk is not changed here."""
    out = ResonanceOutcome()
    edits = _Edits(out)
    rows = _rows(walk)
    dropped = _weaken(walk, rows, visited, now, edits)
    if residue.themes_embedding is not None and residue.themes and not residue.failed:
        v = normalize(residue.themes_embedding)
        live = rows.active.copy()
        live[dropped] = False
        best, best_cos = None, -1.0
        for i in best_rows(rows.similarities(v), np.flatnonzero(live)):
            current = edits.current(walk.resonances[i])
            c = float(current.embedding @ v)
            if c > best_cos:
                best, best_cos = current, c
        if best is not None and best_cos >= MATCH_COS:
            _reinforce(walk.session.id, best, best_cos, v, residue, residue_id, now, edits)
        else:
            r = Resonance(
                id=new_id(),
                project_id=walk.session.project_id,
                session_id=walk.session.id,
                themes=list(residue.themes),
                embedding=v,
                supporting_residue_ids=[residue_id],
                last_reinforced_at=now,
                created_at=now,
            )
            edits.touched[r.id] = r
            out.detected += 1
            out.events.append(ev.draft(ResonanceDetectedPayload(session_id=walk.session.id, resonance=summary(r))))
    out.changed = list(edits.touched.values())
    return out


def _weaken(walk: Walk, rows: ResonanceRows, visited: Locus, now: datetime, edits: _Edits) -> list[int]:
    """A resonance the visit contradicts loses half its strength; one decayed below the floor
    (only those near it can be) is invalidated. Returns the rows invalidated."""
    active = np.flatnonzero(rows.active)
    opposed = set(rows.opposing(visited.concept, active))
    weak = np.flatnonzero(rows.active & rows.weakening(now, INVALID_STRENGTH))
    dropped: list[int] = []
    for i in sorted(opposed.union(weak.tolist())):
        r = walk.resonances[i]
        strength = decayed_strength(r, now)
        if i in opposed:
            e = edits.edit(r)
            e.strength, e.last_reinforced_at = strength / 2, now
            strength = e.strength
        if strength < INVALID_STRENGTH:
            e = edits.edit(r)
            e.status = ResonanceStatus.INVALIDATED
            dropped.append(i)
    return dropped


def _reinforce(
    sid: str,
    best: Resonance,
    best_cos: float,
    v: np.ndarray,
    residue: Residue,
    residue_id: str,
    now: datetime,
    edits: _Edits,
) -> None:
    """The residue matched `best`: it recurs once more, stronger, its themes and centre
    joined with the residue's; confirmed once it has recurred often and strongly enough."""
    out = edits.out
    e = edits.edit(best)
    e.strength = decayed_strength(best, now) + 1.0
    e.occurrences += 1
    e.last_reinforced_at = now
    e.supporting_residue_ids = [*best.supporting_residue_ids, residue_id]
    e.themes = list(dict.fromkeys([*best.themes, *residue.themes]))[:MAX_THEMES]
    e.embedding = normalize(best.embedding * (e.occurrences - 1) + v)
    out.matched = e
    similarity = round(float(best_cos), 4)
    if (
        e.status == ResonanceStatus.CANDIDATE
        and e.occurrences >= CONFIRM_OCCURRENCES
        and e.strength >= CONFIRM_STRENGTH
    ):
        e.status = ResonanceStatus.CONFIRMED
        out.confirmed.append(e)
        out.events.append(
            ev.draft(ResonanceConfirmedPayload(session_id=sid, resonance=summary(e), similarity=similarity))
        )
    else:
        out.events.append(
            ev.draft(ResonanceStrengthenedPayload(session_id=sid, resonance=summary(e), similarity=similarity))
        )


def apply(walk: Walk, outcome: ResonanceOutcome) -> None:
    """After the commit: the walk's resonances become what the outcome says."""
    by_id = {r.id: i for i, r in enumerate(walk.resonances)}
    for r in outcome.changed:
        if r.id in by_id:
            walk.resonances[by_id[r.id]] = r
        else:
            walk.resonances.append(r)


def summary(r: Resonance) -> ResonanceSummary:
    return ResonanceSummary(
        id=r.id,
        themes=list(r.themes),
        occurrences=r.occurrences,
        strength=round(float(r.strength), 4),
        status=str(r.status),  # type: ignore[arg-type]
        session_id=r.session_id,
    )
