"""Wandering mode: from a page the forager follows links within a depth and a page budget;
every page reached or not is an attempt in the foraging log (robots.txt, an internal address,
an error), and a page too close to what was just foraged is not followed further."""

from __future__ import annotations

from tests.unit.forage.protocol_server import as_text, serve
from wander.adapters.sources.egress import EgressPolicy
from wander.bootstrap.foraging import make_forager
from wander.core.sandwich.model import DUPLICATE, SOURCE_ERROR

TEXTS = {
    "/start": "A market sits between the buyer and the seller; price is what the two sides agree between them.",
    "/rivers": "A river runs between its source in the mountains and its mouth at the sea, carrying sediment.",
    "/tides": "The tide rises and falls between high water and low water, twice a day, under the moon's pull.",
    "/deeper": "Glaciers carve valleys between the peaks over thousands of years, leaving moraines behind.",
    "/twin": "A market sits between the buyer and the seller; price is what the two sides agree between them.",
}
LINKS = {
    "/start": ["/rivers", "/tides", "/private/secret", "/twin", "http://10.0.0.7/admin"],
    "/rivers": ["/deeper"],
    "/twin": ["/deeper"],
}


def page(path: str) -> str:
    links = " ".join(f'<a href="{href}">{href}</a>' for href in LINKS.get(path, []))
    return f"<html><head><title>{path[1:]}</title></head><body><p>{TEXTS[path]} {links}</p></body></html>"


def site():
    routes = {p: (lambda s, p=p: as_text(page(p), "text/html; charset=utf-8")) for p in TEXTS}
    routes["/robots.txt"] = lambda s: as_text("User-agent: *\nDisallow: /private/\n")
    return routes


async def test_wandering_follows_links_within_depth_and_budget_and_logs_every_attempt(app):
    loopback = EgressPolicy.from_settings(["127.0.0.1/32"])
    with serve(site()) as srv:
        summary = await make_forager(app, seed=4, policy=loopback).run(
            patience=20, source=srv.url("/start"), depth=1, pages=10
        )
    log = await app.sandwiches.log(summary.run_id)
    refs = {r.source_ref.split("#")[0]: r for r in log}
    # depth 1: the start page's links (FANOUT of them, in a seeded order), never /deeper (depth 2)
    reached = set(refs) - {srv.url("/start")}
    assert srv.url("/deeper") not in refs and "/deeper" not in srv.paths()
    assert len(reached) == 3 and summary.attempts == len(log) == 4
    for ref in reached:
        entry = refs[ref]
        assert entry.curiosity_prompt.startswith("Wandering from url") and "(depth 1)" in entry.curiosity_prompt
        if ref.endswith("/private/secret"):
            assert entry.outcome == SOURCE_ERROR and "robots.txt" in entry.outcome_rationale
        elif ref == "http://10.0.0.7/admin":
            assert entry.outcome == SOURCE_ERROR and "a private address" in entry.outcome_rationale
        elif ref.endswith("/twin"):
            assert entry.outcome == DUPLICATE
    assert "/private/secret" not in srv.paths()


async def test_the_page_budget_and_novelty_stop_the_walk(app):
    loopback = EgressPolicy.from_settings(["127.0.0.1/32"])
    with serve(site()) as srv:
        one = await make_forager(app, seed=4, policy=loopback).run(
            patience=20, source=srv.url("/start"), depth=3, pages=1
        )
        assert one.attempts == 2  # the start page and the one page the budget allows
        # the same start again: already seen, so none of its links are followed
        again = await make_forager(app, seed=4, policy=loopback).run(patience=20, source=srv.url("/start"), depth=3)
    (entry,) = await app.sandwiches.log(again.run_id)
    assert entry.outcome == DUPLICATE
