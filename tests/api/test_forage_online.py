"""Autonomous foraging over online sources: the forager asks them about corpus concepts; with
no network every source fails at once with a clear error in the log, and the run ends."""

from __future__ import annotations

import pytest

from tests.unit.forage.protocol_server import serve
from tests.unit.forage.test_mediawiki import api as mediawiki_api
from wander.bootstrap.foraging import make_forager
from wander.core.sandwich.model import SOURCE_ERROR

OFFLINE = {  # what every public host is without network: a name that does not resolve
    "WANDER_MEDIAWIKI_URL": "https://en.wikipedia.invalid/w/api.php",
    "WANDER_ARXIV_URL": "https://export.arxiv.invalid/api/query",
    "WANDER_FEEDS": "https://news.invalid/rss.xml",
    "WANDER_STACKEXCHANGE_URL": "https://api.stackexchange.invalid/2.3",
    "WANDER_GUTENBERG_URL": "https://gutendex.invalid/books",
    "WANDER_CKAN_URL": "https://catalog.invalid/api/3/action",
    "WANDER_SEARX_URL": "https://searx.invalid/search",
}
ONLINE = "wikipedia,arxiv,feeds,stackexchange,gutenberg,ckan,search"


@pytest.fixture
def settings(db_url, tmp_path, request):
    from wander.bootstrap.settings import load_settings

    extra = getattr(request, "param", {})
    return load_settings(
        {
            "WANDER_DATABASE_URL": db_url,
            "WANDER_HOME": str(tmp_path / "home"),
            "WANDER_FORAGE_SOURCES": ONLINE,
            **OFFLINE,
            **extra,
        }
    )


async def test_without_network_every_source_fails_fast_and_says_why(app):
    summary = await make_forager(app, seed=9).run(patience=30, max_attempts=30)
    log = await app.sandwiches.log(summary.run_id)
    errors = [r for r in log if r.outcome == SOURCE_ERROR]
    asked = {r.source_ref.split(":")[0] for r in errors}
    assert len(asked) >= 5  # most of the seven sources were asked within 30 attempts
    assert all("cannot resolve" in r.outcome_rationale and "online" in r.outcome_rationale for r in errors)
    assert asked <= set(ONLINE.split(","))
    assert summary.attempts == len(log) <= 30


@pytest.mark.parametrize(
    "settings", [{"WANDER_FORAGE_SOURCES": "wikipedia", "WANDER_FORAGE_ALLOW_NETWORKS": "127.0.0.1/32"}], indirect=True
)
async def test_the_autonomous_forager_asks_wikipedia_about_the_corpus(app, settings):
    with serve({"/w/api.php": mediawiki_api}) as srv:
        forage = settings.forage.model_copy(update={"mediawiki_url": srv.url("/w/api.php")})
        app.settings = settings.model_copy(update={"forage": forage})
        summary = await make_forager(app, seed=2).run(patience=3, max_attempts=8)
    log = await app.sandwiches.log(summary.run_id)
    from_wiki = [r for r in log if (r.source_ref or "").startswith("wikipedia:page:Entropy")]
    assert from_wiki and all(
        "Asking wikipedia" in r.curiosity_prompt
        or "wikipedia offer" in r.curiosity_prompt
        or r.curiosity_prompt.startswith("Wandering")
        for r in from_wiki
    )
    assert any(s.query.get("list") in ("search", "random") for s in srv.seen)
