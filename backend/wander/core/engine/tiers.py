"""Memory layers (001): HOT (recent encounters in full, in memory) compresses on overflow
into WARM (theme clusters, failed paths, a summary; stored with strength and expiry);
WARM cools by the Wheeler temperature formula (hits, 7-day half-life) and, once cold,
becomes COMPOST: kept only as text and vector, and still found by distance-band sampling.
COLD memory proper is the crystals."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np

from wander.core.domain.geometry import normalize
from wander.core.domain.models import CompostItem, HotItem, WarmMemory, new_id
from wander.core.domain.temperature import WARM_MIN, temperature
from wander.core.engine.walk import Walk

HOT_LIMIT = 30
CLUSTER_COS = 0.7
FAILED_BELOW = 0.45  # an encounter this dull is remembered as a failed path
WARM_TTL = timedelta(days=30)


@dataclass
class MemoryChange:
    warm_new: list[WarmMemory] = field(default_factory=list)
    warm_updated: list[WarmMemory] = field(default_factory=list)
    warm_to_compost: list[tuple[str, CompostItem]] = field(default_factory=list)  # (warm id, compost)


def hot_size_after(steps: int, limit: int) -> int:
    """How many encounters HOT holds after `steps` steps: compression is a function of the
    step count alone, so a resumed wander rebuilds exactly the HOT an unbroken one has."""
    size = 0
    for _ in range(steps):
        size += 1
        if size > limit:
            size -= max(1, size // 2)
    return size


def warm_temperature(w: WarmMemory, now: datetime) -> float:
    return temperature(int(w.content.get("hits", 1)), w.last_accessed_at or w.created_at or now, now)


def _clusters(items: list[HotItem]) -> list[list[HotItem]]:
    """Greedy clustering by theme embedding: each item joins the first cluster it is close to."""
    groups: list[tuple[np.ndarray, list[HotItem]]] = []
    for it in items:
        v = normalize(it.themes_embedding)
        for centre, members in groups:
            if float(normalize(centre) @ v) >= CLUSTER_COS:
                members.append(it)
                centre += v
                break
        else:
            groups.append((v.copy(), [it]))
    return [members for _, members in groups]


def compress(walk: Walk, hot_limit: int, now: datetime) -> MemoryChange:
    """Move the oldest half of HOT into WARM when HOT is over its limit: its theme clusters
    (a theme that came back warms its cluster up), its failed paths and a summary."""
    change = MemoryChange()
    if len(walk.hot) <= hot_limit:
        return change
    n = max(1, len(walk.hot) // 2)
    old, walk.hot = walk.hot[:n], walk.hot[n:]
    sid = walk.session.id
    existing = [w for w in walk.warm if w.cluster_type == "theme_cluster" and w.embedding is not None]
    for members in _clusters(old):
        v = normalize(np.mean([m.themes_embedding for m in members], axis=0))
        match = next((w for w in existing if float(w.embedding @ v) >= CLUSTER_COS), None)
        if match is not None:  # the theme came back: warm it up
            match.content = {
                **match.content,
                "hits": int(match.content.get("hits", 1)) + len(members),
                "steps": [*match.content.get("steps", []), *[m.step_number for m in members]],
            }
            match.last_accessed_at = now
            change.warm_updated.append(match)
        else:
            change.warm_new.append(_theme_cluster(sid, members, v, now))
    change.warm_new += [_failed_path(sid, m, now) for m in old if m.interestingness < FAILED_BELOW]
    change.warm_new.append(_summary(sid, old, now))
    return change


def _warm(sid: str, kind: str, embedding: np.ndarray, content: dict, now: datetime) -> WarmMemory:
    return WarmMemory(
        id=new_id(),
        session_id=sid,
        cluster_type=kind,
        embedding=embedding,
        content=content,
        last_accessed_at=now,
        created_at=now,
        expires_at=now + WARM_TTL,
    )


def _theme_cluster(sid: str, members: list[HotItem], v: np.ndarray, now: datetime) -> WarmMemory:
    themes = [t for t, _ in Counter(t for m in members for t in m.themes).most_common(6)]
    content = {
        "themes": themes,
        "hits": len(members),
        "steps": [m.step_number for m in members],
        "concepts": sorted({m.to_concept for m in members}),
        "domains": _domains(members),
    }
    return _warm(sid, "theme_cluster", v, content, now)


def _failed_path(sid: str, m: HotItem, now: datetime) -> WarmMemory:
    content = {
        "from": m.from_concept,
        "to": m.to_concept,
        "step": m.step_number,
        "hits": 1,
        "interestingness": round(m.interestingness, 4),
        "themes": m.themes[:3],
        "domains": m.to_domains,
    }
    return _warm(sid, "failed_path", normalize(m.themes_embedding), content, now)


def _summary(sid: str, old: list[HotItem], now: datetime) -> WarmMemory:
    top = [t for t, _ in Counter(t for m in old for t in m.themes).most_common(5)]
    content = {
        "from_step": old[0].step_number,
        "to_step": old[-1].step_number,
        "hits": 1,
        "themes": top,
        "path": [m.to_concept for m in old],
        "domains": _domains(old),
        "text": f"steps {old[0].step_number}-{old[-1].step_number}: "
        f"{old[0].from_concept} -> ... -> {old[-1].to_concept}; themes {', '.join(top)}",
    }
    return _warm(sid, "summary", normalize(np.mean([m.themes_embedding for m in old], axis=0)), content, now)


def decay(walk: Walk, now: datetime, change: MemoryChange | None = None) -> MemoryChange:
    """Warm memories whose temperature fell below warm (or that expired) become compost."""
    change = change or MemoryChange()
    for w in walk.warm:
        if w.embedding is None:
            continue
        expired = w.expires_at is not None and now >= w.expires_at
        if expired or warm_temperature(w, now) < WARM_MIN:
            change.warm_to_compost.append(
                (
                    w.id,
                    CompostItem(
                        id=new_id(),
                        kind=w.cluster_type,
                        text=_compost_text(w),
                        domains=list(w.content.get("domains", [])),
                        embedding=np.asarray(w.embedding, dtype=np.float32),
                    ),
                )
            )
    return change


def apply(walk: Walk, change: MemoryChange) -> None:
    gone = {wid for wid, _ in change.warm_to_compost}
    walk.warm = [w for w in walk.warm if w.id not in gone] + change.warm_new
    walk.compost.extend(c for _, c in change.warm_to_compost)


def _domains(items: list[HotItem]) -> list[str]:
    return [d for d, _ in Counter(d for m in items for d in m.to_domains[:1]).most_common(2)]


def _compost_text(w: WarmMemory) -> str:
    c = w.content
    if w.cluster_type == "theme_cluster":
        return ", ".join(c.get("themes", [])[:3]) or "theme cluster"
    if w.cluster_type == "failed_path":
        return f"{c.get('from')} / {c.get('to')}"
    return ", ".join(c.get("themes", [])[:3]) or c.get("text", "summary")
