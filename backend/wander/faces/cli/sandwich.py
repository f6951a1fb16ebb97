"""SANDWICH from the command line (004's four modes): `wander forage` (autonomous, or directed
with --from PATH_OR_URL / --topic), `wander corpus stats|ask` (reflective: the analysis
queries and 8.1's metrics), `wander sandwich explain` (pedagogical, with the corpus's own
examples). Mounted by wander.faces.cli; bad input: one line `error: <field>: <reason>`, exit 2."""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import asdict, is_dataclass
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from wander.core.domain.errors import InvalidInput, WanderError

corpus_app = typer.Typer(help="The sandwich corpus: analysis and metrics (reflective mode).", no_args_is_help=True)
sandwich_app = typer.Typer(
    help="What a sandwich is (pedagogical mode), and the review queue of marginal sandwiches.", no_args_is_help=True
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)


def _fail(message: str) -> None:
    err.print(f"error: {message}", markup=False, soft_wrap=True)
    raise typer.Exit(2)


def _run(factory) -> Any:
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        return asyncio.run(factory())
    except InvalidInput as exc:
        _fail(f"{exc.field}: {exc.reason}")
    except WanderError as exc:
        _fail(str(exc))


def _json(doc: Any) -> str:
    """The JSON a command prints: read models (dataclasses) as objects, anything else as text."""

    def plain(o: Any) -> Any:
        return asdict(o) if is_dataclass(o) and not isinstance(o, type) else str(o)

    return json.dumps(doc, default=plain, indent=1)


def _open():
    from wander.faces.cli.common import open_app, quiet_libraries

    quiet_libraries()
    return open_app()


def forage(
    patience: int = typer.Option(5, help="Failures in a row before the forager rests (resets on a sandwich)."),
    source: str | None = typer.Option(
        None,
        "--from",
        help="Directed: a Markdown/text/HTML/PDF file or folder, a URL, or an online source: wikipedia:QUERY, "
        "arxiv:QUERY, feed:URL, stackexchange:QUERY, gutenberg:QUERY, ckan:QUERY, search:QUERY (an empty QUERY: "
        "the source's own pick, e.g. a random article).",
    ),
    topic: str | None = typer.Option(None, help="Directed: a topic to make a sandwich about."),
    max_attempts: int = typer.Option(50, help="Stop after this many attempts whatever the patience."),
    seed: int | None = typer.Option(None, help="Random seed of the autonomous forager (replayable)."),
    as_json: bool = typer.Option(False, "--json", help="Print the run summary as JSON."),
    depth: int | None = typer.Option(None, help="Wandering: follow links this deep (default WANDER_FORAGE_DEPTH)."),
    pages: int | None = typer.Option(None, help="Wandering: reach at most this many pages (WANDER_FORAGE_PAGES)."),
) -> None:
    """Forage for sandwiches: every attempt is logged with its prompt, source, outcome and why."""
    if not 1 <= patience <= 100:
        _fail(f"patience: must be between 1 and 100 (got {patience})")
    if source is not None and topic is not None:
        _fail("from: give --from or --topic, not both")

    async def main():
        from wander.bootstrap.foraging import make_forager

        async with _open() as app:
            forager = make_forager(app, seed)

            def show(a) -> None:
                if not as_json:
                    where = f"{a.content.kind} '{a.content.title}'" if a.content else "-"
                    out.print(f"[{a.outcome}] {where}: {a.rationale}")

            summary = await forager.run(
                patience=patience,
                source=source,
                topic=topic,
                max_attempts=max_attempts,
                on_attempt=show,
                depth=depth,
                pages=pages,
            )
            made = await app.sandwiches.sandwiches(limit=max(1, summary.made))
            return summary, [s for s in made if s.id in summary.sandwich_ids]

    summary, made = _run(main)
    if as_json:
        print(_json({**summary.__dict__, "sandwiches": made}))
        return
    for s in made:
        out.print(
            f"\n[bold]{s.name}[/bold] ({s.structural_type}, V {s.validity_score:.2f})\n"
            f"  top bread: {s.bread_top}\n  filling:   {s.filling}\n  bottom:    {s.bread_bottom}\n"
            f"  {s.assembly_rationale}"
        )
    out.print(
        f"\n{summary.attempts} attempts, {summary.made} sandwiches "
        f"({', '.join(f'{k} {v}' for k, v in sorted(summary.outcomes.items()))}). {summary.farewell}"
    )
    if summary.status == "failed":
        raise typer.Exit(2)


@corpus_app.command("stats")
def stats(as_json: bool = typer.Option(False, "--json")) -> None:
    """8.1's metrics against their targets, and the analysis queries of 004."""

    async def main():
        from wander.bootstrap.foraging import corpus_report

        async with _open() as app:
            return await corpus_report(app)

    report = _run(main)
    if as_json:
        print(_json(report))
        return
    t = Table(title="SANDWICH metrics (004, 8.1)")
    for col in ("metric", "value", "target", "met"):
        t.add_column(col)
    for name, m in report["metrics"].items():
        t.add_row(
            name,
            "-" if m["value"] is None else f"{m['value']:.3f}",
            m["target"],
            "-" if m["met"] is None else ("yes" if m["met"] else "no"),
        )
    out.print(t)
    out.print("counts: " + ", ".join(f"{k} {v}" for k, v in report["counts"].items()))
    out.print("outcomes: " + (", ".join(f"{k} {v}" for k, v in sorted(report["outcomes"].items())) or "none yet"))
    for r in report["type_distribution"]:
        out.print(f"  {r.structural_type:<14} {r.sandwich_count:>4}  mean V {r.avg_validity:.3f}")


@corpus_app.command("ask")
def ask(
    question: str = typer.Argument(..., help="A question about the corpus."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Answer a question about the existing sandwiches through the analysis queries: 004's key
    queries ("sandwiches similar to <id>", "sandwiches using the bread X", "the taxonomy"), 7.2's
    research questions (types across domains, cross-domain breads, fillings tied to specific
    breads, the distance between breads, validity by source domain, underrepresented types,
    whether ingredient embeddings predict validity), the metrics, or the nearest sandwiches."""
    if not question.strip():
        _fail("question: must not be empty")

    async def main():
        from wander.bootstrap.foraging import ask_corpus

        async with _open() as app:
            found = await ask_corpus(app, question)
            return found["query"], found["answer"]

    query, answer = _run(main)
    if as_json:
        print(json.dumps({"question": question, "query": query, "answer": answer}, default=str, indent=1))
        return
    out.print(f"[bold]{question}[/bold]  (answered by: {query})")
    rows = list(answer.items()) if isinstance(answer, dict) else answer
    if not rows:
        out.print("The corpus is empty so far: forage first (wander forage).")
    for r in rows[:20]:
        out.print(f"  {r}")


@sandwich_app.command("explain")
def explain() -> None:
    """What a sandwich is: the definition, the validity function, the 10 types, with examples
    from the corpus where it has them."""
    from wander.core.domain.sandwich import ACCEPT, REVIEW, TAXONOMY, WEIGHTS

    async def main():
        from wander.bootstrap.foraging import explanation

        async with _open() as app:
            return {t["name"]: t["example"] for t in (await explanation(app))["types"]}

    examples = _run(main)
    out.print(
        "A sandwich is two pieces of bread (B1, B2) that bound a filling F: the breads are related but not "
        "the same idea, and the filling is closer to each bread than they are to each other."
    )
    out.print(
        f"V = {WEIGHTS['bread_compat']} BreadCompat + {WEIGHTS['containment']} Containment + "
        f"{WEIGHTS['non_triviality']} NonTriviality + {WEIGHTS['novelty']} Novelty; accepted at {ACCEPT}, "
        f"reviewed from {REVIEW}.\n"
    )
    for name, desc in TAXONOMY.items():
        ex = examples.get(name)
        line = f"[bold]{name}[/bold]: {desc}."
        if ex:
            line += (
                f"\n    e.g. {ex['name']}: {ex['bread_top']} / {ex['filling']} / {ex['bread_bottom']} (V {ex['v']:.2f})"
            )
        out.print(line)


@sandwich_app.command("reviews")
def reviews(
    status: str = typer.Option("pending", help="pending, accepted, rejected or all."),
    limit: int = typer.Option(50, help="At most this many."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """The review queue: marginal sandwiches (0.5 <= V < 0.7) waiting for a person's verdict."""

    async def main():
        async with _open() as app:
            return await app.sandwiches.reviews(None if status == "all" else status, limit)

    rows = _run(main)
    if as_json:
        print(_json(rows))
        return
    if not rows:
        out.print(f"No {status} review." if status != "all" else "The review queue is empty.")
    for r in rows:
        out.print(
            f"[bold]{r.id}[/bold]  {r.name}  ({r.structural_type}, V {r.validity_score:.2f}, {r.heuristic}, {r.status})\n"
            f"  {r.bread_top} / {r.filling} / {r.bread_bottom}\n  {r.assembly_rationale}",
            soft_wrap=True,
        )


def _decide(review_id: str, accept: bool, reviewer: str, note: str) -> None:
    async def main():
        async with _open() as app:
            return await app.sandwiches.decide_review(review_id, accept, reviewer, note)

    row = _run(main)
    verdict = "accepted: it joins the corpus" if accept else "rejected"
    out.print(f"{row.name}: {verdict}" + (f" (sandwich {row.sandwich_id})" if row.sandwich_id else ""))


@sandwich_app.command("accept")
def accept(
    review_id: str = typer.Argument(..., help="The review's id (wander sandwich reviews)."),
    reviewer: str = typer.Option(..., help="Who decides."),
    note: str = typer.Option("", help="Why."),
) -> None:
    """Accept a marginal sandwich: it is stored in the corpus."""
    _decide(review_id, True, reviewer, note)


@sandwich_app.command("reject")
def reject(
    review_id: str = typer.Argument(..., help="The review's id (wander sandwich reviews)."),
    reviewer: str = typer.Option(..., help="Who decides."),
    note: str = typer.Option("", help="Why."),
) -> None:
    """Reject a marginal sandwich (it stays in the queue's history)."""
    _decide(review_id, False, reviewer, note)


@corpus_app.command("calibrate")
def calibrate(as_json: bool = typer.Option(False, "--json")) -> None:
    """8.2's calibration: V's threshold and weights fitted to people's judgments (the evaluation
    page), with agreement before and after; and 8.3's failure table."""

    async def main():
        from wander.core.sandwich.calibration import calibrate as fit

        async with _open() as app:
            return fit(await app.sandwiches.judged()), await app.sandwiches.failures()

    report, failures = _run(main)
    if as_json:
        print(_json({"calibration": report, "failures": failures}))
        return
    out.print(f"[bold]Calibration (004 8.2)[/bold]: {report['summary']}", soft_wrap=True)
    t = Table(title="V against people's judgments")
    for col in ("", "weights", "threshold", "agreement", "kappa"):
        t.add_column(col)
    for key, label in (("before", "before"), ("threshold_only", "threshold refitted"), ("after", "weights refitted")):
        row = report.get(key)
        if row and "agreement" in row:
            weights = " ".join(f"{k} {v:.2f}" for k, v in row["weights"].items())
            kappa = "-" if row["kappa"] is None else f"{row['kappa']:.2f}"
            t.add_row(label, weights, f"{row['threshold']:.3f}", f"{row['agreement']:.0%}", kappa)
    out.print(t)
    f = Table(title="Failures (004 8.3)")
    for col in ("failure", "count", "data captured", "purpose"):
        f.add_column(col)
    for row in failures:
        f.add_row(row["label"], str(row["count"]), row["captured"], row["purpose"])
    out.print(f)


@corpus_app.command("types")
def types(as_json: bool = typer.Option(False, "--json")) -> None:
    """The structural taxonomy (004 4.2) with parents, canonical examples and validity stats."""

    async def main():
        async with _open() as app:
            return await app.sandwiches.structural_types()

    rows = _run(main)
    if as_json:
        print(_json(rows))
        return
    for r in rows:
        parent = f" (a kind of {r['parent']})" if r["parent"] else ""
        best = f"; best here: {r['canonical_example_name']}" if r["canonical_example_name"] else ""
        out.print(
            f"[bold]{r['name']}[/bold]{parent}: {r['bread_relation']} -> {r['filling_role']}, "
            f"e.g. {r['canonical_example']}{best}; {r['sandwich_count']} sandwiches",
            soft_wrap=True,
        )


@corpus_app.command("related")
def related(
    sandwich_id: str = typer.Argument(..., help="A sandwich's id."),
    kind: str | None = typer.Option(None, "--type", help="similar, same_bread, same_filling, inverse, ..."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """A sandwich's relations (004 5.2), strongest first."""

    async def main():
        async with _open() as app:
            return await app.sandwiches.related(sandwich_id, kind)

    rows = _run(main)
    if as_json:
        print(_json(rows))
        return
    if not rows:
        out.print("No relation.")
    for r in rows:
        out.print(
            f"{r['relation_type']} ({r['direction']}, {r['similarity_score']:.2f}): {r['name']}: "
            f"{r['bread_top']} / {r['filling']} / {r['bread_bottom']}; {r['rationale']}",
            soft_wrap=True,
        )


@corpus_app.command("relate")
def relate_corpus(as_json: bool = typer.Option(False, "--json")) -> None:
    """Bring a corpus stored before bread and ingredient embeddings up to date: embed what
    lacks an embedding, and relate every sandwich to those stored before it (every relation
    kind: similar, same_bread, same_filling, inverse, generalization, domain_transfer)."""

    async def main():
        async with _open() as app:

            async def embed(texts: list[str]):
                return await asyncio.to_thread(app.embedder.embed, texts)

            return await app.sandwiches.relate_all(embed)

    done = _run(main)
    if as_json:
        print(_json(done))
        return
    out.print(
        f"{done['embedded_sandwiches']} sandwiches and {done['embedded_ingredients']} ingredients embedded; "
        f"{done['relations_added']} relations added."
    )
