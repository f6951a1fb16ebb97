"""Random word -> search through a local SearxNG (/search?format=json): results with url,
title, content and engines, a second page when the first is thin, 403 without the JSON
format, 429 from its limiter, and no backend configured."""

from __future__ import annotations

import pytest

from tests.unit.forage.protocol_server import Seen, as_json, as_text, serve
from wander.adapters.sources.fetch import RateLimited
from wander.adapters.sources.websearch import WebSearch
from wander.core.sandwich.ports import SourceError


def result(n: int) -> dict:
    return {
        "url": f"https://site{n}.example/membrane",
        "title": f"Membrane {n}",
        "content": "A <b>membrane</b> lies between the inside of a cell and its environment.",
        "engine": "duckduckgo",
        "engines": ["duckduckgo", "wikipedia"],
        "positions": [n],
        "score": 2.0 / n,
        "category": "general",
    }


def search(seen: Seen):
    assert seen.query["format"] == "json"
    page = int(seen.query["pageno"])
    results = [result(3 * page - 2), result(3 * page - 1), result(3 * page)]
    return as_json(
        {
            "query": seen.query["q"],
            "number_of_results": 0,
            "results": results,
            "answers": [],
            "corrections": [],
            "infoboxes": [],
            "suggestions": ["cell wall"],
            "unresponsive_engines": [["bing", "timeout"]],
        }
    )


def test_a_random_word_is_searched_and_the_results_are_one_content(fetcher):
    with serve({"/search": search}) as srv:
        (found,) = WebSearch(fetcher, srv.url("/search"), lambda: "membrane").read("")
    assert [s.query["pageno"] for s in srv.seen] == ["1", "2"]  # 3 results: thin, so a second page
    assert srv.seen[0].query["q"] == "membrane" and found.title == "membrane"
    assert "Membrane 1: A membrane lies between the inside" in found.text and "<b>" not in found.text
    assert found.links[:2] == ("https://site1.example/membrane", "https://site2.example/membrane")
    assert len(found.links) == 6


def test_refusals_are_clear(fetcher):
    with serve({"/search": lambda s: as_text("Forbidden", status=403)}) as srv:
        with pytest.raises(SourceError, match="refuses the JSON format"):
            WebSearch(fetcher, srv.url("/search"), lambda: "x").read("membrane")
        srv.routes["/search"] = lambda s: (429, {"Retry-After": "600"}, b"Too Many Requests")
        with pytest.raises(RateLimited, match="429"):
            WebSearch(fetcher, srv.url("/search"), lambda: "x").read("membrane")
    with pytest.raises(SourceError, match="set WANDER_SEARX_URL"):
        WebSearch(fetcher, None, lambda: "x").read("membrane")
