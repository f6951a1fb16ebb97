"""The SANDWICH corpus's pictures (004 7.3), read from the sandwich tables: the sandwich network
(sandwiches and their relations), the ingredient tree (role -> domain -> ingredient by use),
the structural type tree (parent type where the structural_types table gives one -> type ->
sandwich), validity scores binned per period, domains x structural types, and the foraging
runs' outcomes over time; and the review queue's counts. Plain dicts, shaped as
shared_schemas.sandwich_charts's models."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.core.domain.sandwich import ACCEPT, REVIEW, TAXONOMY

BINS = 20  # validity bins of 0.05
NO_DOMAIN = "(no domain)"


async def _rows(engine: AsyncEngine, sql: str, **params: Any) -> list[dict[str, Any]]:
    async with engine.connect() as conn:
        return [dict(r._mapping) for r in (await conn.execute(text(sql), params or None)).all()]


async def network(engine: AsyncEngine, nodes: int) -> dict[str, Any]:
    """The newest `nodes` sandwiches and the relations among them."""
    rows = await _rows(
        engine,
        """SELECT id, name, structural_type, validity_score, origin, bread_top, filling, bread_bottom
           FROM sandwiches ORDER BY created_at DESC, id LIMIT :n""",
        n=nodes,
    )
    ids = [r["id"] for r in rows]
    edges = (
        await _rows(
            engine,
            """SELECT sandwich_a, sandwich_b, relation_type, similarity_score FROM sandwich_relations
               WHERE sandwich_a = ANY(:ids) AND sandwich_b = ANY(:ids) AND sandwich_a <> sandwich_b
               ORDER BY relation_type, sandwich_a, sandwich_b""",
            ids=ids,
        )
        if ids
        else []
    )
    total = (await _rows(engine, "SELECT COUNT(*) AS n FROM sandwiches"))[0]["n"]
    return {
        "nodes": [
            {
                "id": str(r["id"]),
                "name": r["name"],
                "structural_type": r["structural_type"],
                "validity": float(r["validity_score"]),
                "origin": r["origin"],
                "bread_top": r["bread_top"],
                "filling": r["filling"],
                "bread_bottom": r["bread_bottom"],
            }
            for r in rows
        ],
        "edges": [
            {
                "source": str(e["sandwich_a"]),
                "target": str(e["sandwich_b"]),
                "relation_type": e["relation_type"],
                "similarity": float(e["similarity_score"]),
            }
            for e in edges
        ],
        "relation_types": sorted({e["relation_type"] for e in edges}),
        "total_sandwiches": int(total),
    }


def _tree(name: str, children: list[dict[str, Any]]) -> dict[str, Any]:
    return {"name": name, "value": float(sum(c["value"] for c in children)), "children": children}


async def ingredient_tree(engine: AsyncEngine, limit: int) -> dict[str, Any]:
    """The `limit` most used ingredients under their role (bread, filling) and first domain."""
    rows = await _rows(
        engine,
        """SELECT text, ingredient_type, domains, usage_count FROM sandwich_ingredient_catalog
           ORDER BY usage_count DESC, text LIMIT :n""",
        n=limit,
    )
    by: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        domain = (r["domains"] or [NO_DOMAIN])[0] or NO_DOMAIN
        by[r["ingredient_type"]][domain].append({"name": r["text"], "value": float(r["usage_count"]), "children": []})
    roles = [
        _tree(
            role, sorted((_tree(d, leaves) for d, leaves in by[role].items()), key=lambda n: (-n["value"], n["name"]))
        )
        for role in ("bread", "filling")
        if role in by
    ]
    return _tree("ingredients", roles)


async def _type_parents(engine: AsyncEngine) -> dict[str, str]:
    """Each structural type's parent type where the structural_types table (migration 0013)
    gives one; {} without the table."""
    cols = {
        r["column_name"]
        for r in await _rows(
            engine,
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'structural_types'"
            " AND table_schema = current_schema()",
        )
    }
    if not {"name", "type_id", "parent_type_id"} <= cols:
        return {}
    rows = await _rows(
        engine,
        """SELECT t.name, p.name AS parent FROM structural_types t
           JOIN structural_types p ON p.type_id = t.parent_type_id""",
    )
    return {r["name"]: r["parent"] for r in rows if r["parent"] and r["parent"] != r["name"]}


async def type_tree(engine: AsyncEngine, per_type: int = 40) -> tuple[dict[str, Any], bool]:
    """Structural type -> sandwich (value 1 each, with its id and V; a type's `per_type` best by
    V, the rest one leaf "+N more" of value N); where the taxonomy gives a type a parent, the
    type sits inside its parent beside the parent's own sandwiches. And whether any parent
    was used."""
    rows = await _rows(
        engine,
        """SELECT id, name, structural_type, validity_score FROM sandwiches
           ORDER BY structural_type, validity_score DESC, name, id""",
    )
    leaves: dict[str, list[dict[str, Any]]] = defaultdict(list)
    rest: Counter[str] = Counter()
    for r in rows:
        kind = r["structural_type"]
        if len(leaves[kind]) >= per_type:
            rest[kind] += 1
            continue
        leaves[kind].append(
            {
                "name": r["name"],
                "value": 1.0,
                "children": [],
                "id": str(r["id"]),
                "validity": float(r["validity_score"]),
            }
        )
    for kind, more in rest.items():
        leaves[kind].append({"name": f"+{more} more", "value": float(more), "children": []})
    parents = await _type_parents(engine)
    order = {t: i for i, t in enumerate(TAXONOMY)}

    def key(t: str) -> tuple[int, str]:
        return (order.get(t, 99), t)

    kids: dict[str, list[str]] = defaultdict(list)
    for child, parent in parents.items():
        kids[parent].append(child)
    used = False

    def subtree(t: str, seen: frozenset[str]) -> dict[str, Any] | None:
        nonlocal used
        sub = [n for c in sorted(kids[t], key=key) if c not in seen and (n := subtree(c, seen | {c})) is not None]
        if not sub and not leaves[t]:
            return None
        used = used or bool(sub)
        return _tree(t, sub + leaves[t])

    types = {*leaves, *parents, *parents.values()}
    roots = sorted((t for t in types if t not in parents), key=key)
    tree = [n for t in roots if (n := subtree(t, frozenset({t}))) is not None]
    return _tree("structural types", tree), used


def _bin(v: float) -> int:
    return min(BINS - 1, max(0, int(v * BINS + 1e-9)))


async def validity_histogram(engine: AsyncEngine) -> dict[str, Any]:
    """The corpus's validity scores and the queue's marginal ones not (yet) accepted (an accepted
    one is a corpus sandwich already), binned by 0.05, one row per day (per hour when every
    score falls on one day)."""
    rows = await _rows(
        engine,
        """SELECT created_at, validity_score FROM sandwiches
           UNION ALL
           SELECT created_at, validity_score FROM sandwich_reviews WHERE status <> 'accepted'""",
    )
    stamps: list[datetime] = [r["created_at"] for r in rows]
    by_hour = len({s.date() for s in stamps}) == 1
    fmt = "%Y-%m-%d %H:00" if by_hour else "%Y-%m-%d"
    counts: dict[str, list[int]] = defaultdict(lambda: [0] * BINS)
    for r in rows:
        counts[r["created_at"].strftime(fmt)][_bin(float(r["validity_score"]))] += 1
    periods = sorted(counts)
    return {
        "bin_edges": [round(i / BINS, 2) for i in range(BINS)],
        "bin_width": 1 / BINS,
        "period": "hour" if by_hour else "day",
        "periods": periods,
        "counts": [counts[p] for p in periods],
        "accept": ACCEPT,
        "review": REVIEW,
        "scores": len(rows),
    }


async def domain_heatmap(engine: AsyncEngine, domains: int) -> dict[str, Any]:
    """Sandwiches per (domain, structural type), a sandwich counted under each of its domains;
    the `domains` domains with most sandwiches."""
    rows = await _rows(
        engine,
        """SELECT COALESCE(NULLIF(d.domain, ''), :none) AS domain, s.structural_type, COUNT(*) AS n
           FROM sandwiches s
           LEFT JOIN LATERAL unnest(s.domains) AS d(domain) ON TRUE
           GROUP BY 1, 2""",
        none=NO_DOMAIN,
    )
    per_domain: Counter[str] = Counter()
    for r in rows:
        per_domain[r["domain"]] += int(r["n"])
    top = [d for d, _ in sorted(per_domain.items(), key=lambda kv: (-kv[1], kv[0]))[:domains]]
    kept = set(top)
    present = {r["structural_type"] for r in rows}
    types = list(TAXONOMY) + sorted(present - set(TAXONOMY))
    cells = sorted(
        (
            {"domain": r["domain"], "structural_type": r["structural_type"], "count": int(r["n"])}
            for r in rows
            if r["domain"] in kept
        ),
        key=lambda c: (top.index(c["domain"]), types.index(c["structural_type"])),
    )
    return {"domains": top, "types": types, "cells": cells}


async def efficiency(engine: AsyncEngine, runs: int) -> list[dict[str, Any]]:
    """The newest `runs` foraging runs, oldest first, with their outcomes from the foraging log."""
    rows = await _rows(
        engine,
        """SELECT r.id, r.mode, r.started_at, l.outcome, COUNT(l.id) AS n
           FROM (SELECT id, mode, started_at FROM foraging_runs ORDER BY started_at DESC, id LIMIT :n) r
           LEFT JOIN foraging_log l ON l.run_id = r.id
           GROUP BY r.id, r.mode, r.started_at, l.outcome
           ORDER BY r.started_at, r.id""",
        n=runs,
    )
    out: dict[str, dict[str, Any]] = {}
    for r in rows:
        p = out.setdefault(
            str(r["id"]),
            {"run_id": str(r["id"]), "started_at": r["started_at"].isoformat(), "mode": r["mode"], "outcomes": {}},
        )
        if r["outcome"] is not None:
            p["outcomes"][r["outcome"]] = int(r["n"])
    for p in out.values():
        p["attempts"] = sum(p["outcomes"].values())
        p["made"] = p["outcomes"].get("sandwich_made", 0)
        p["rate"] = p["made"] / p["attempts"] if p["attempts"] else None
    return list(out.values())


async def chart_data(
    engine: AsyncEngine,
    nodes: int = 200,
    ingredients: int = 300,
    domains: int = 20,
    runs: int = 100,
    leaves: int = 40,
) -> dict[str, Any]:
    types, parents = await type_tree(engine, leaves)
    return {
        "network": await network(engine, nodes),
        "ingredients": await ingredient_tree(engine, ingredients),
        "types": types,
        "type_parents": parents,
        "validity": await validity_histogram(engine),
        "heatmap": await domain_heatmap(engine, domains),
        "efficiency": await efficiency(engine, runs),
    }


async def review_counts(engine: AsyncEngine) -> dict[str, int]:
    rows = await _rows(engine, "SELECT status, COUNT(*) AS n FROM sandwich_reviews GROUP BY status")
    found = {r["status"]: int(r["n"]) for r in rows}
    return {s: found.get(s, 0) for s in ("pending", "accepted", "rejected")}
