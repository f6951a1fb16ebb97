"""The CKAN Action API client against a local catalogue answering as CKAN 2.x does:
{"help", "success", "result": {"count", "results"}} and errors with "success": false."""

from __future__ import annotations

import pytest

from tests.unit.forage.protocol_server import Seen, as_json, serve
from wander.adapters.sources.ckan import Ckan
from wander.core.sandwich.ports import SourceError

HELP = "https://catalog.example/api/3/action/help_show?name=package_search"


def dataset(n: int) -> dict:
    return {
        "id": f"1f0c-{n}",
        "name": f"river-flow-{n}",
        "title": f"River flow between upstream and downstream gauges {n}",
        "notes": "<p>Daily discharge measured between the <em>upstream</em> dam and the downstream estuary.</p>",
        "organization": {"id": "o1", "name": "usgs", "title": "U.S. Geological Survey"},
        "tags": [{"name": "hydrology"}, {"name": "rivers"}],
        "resources": [{"name": "Daily flow", "description": "CSV of daily flow", "format": "CSV", "url": "https://x"}],
        "num_resources": 1,
        "state": "active",
    }


def package_search(seen: Seen):
    q = seen.query
    if q.get("q") == "bad:[":
        return as_json(
            {
                "help": HELP,
                "success": False,
                "error": {"__type": "Search Query Error", "message": "Invalid search query"},
            },
            status=409,
        )
    rows, start = int(q["rows"]), int(q.get("start", 0))
    results = [dataset(i) for i in range(start, start + rows)] if q.get("q") != "nothing" else []
    return as_json(
        {
            "help": HELP,
            "success": True,
            "result": {"count": 57, "sort": "score desc", "facets": {}, "results": results, "search_facets": {}},
        }
    )


def test_a_search_gives_each_dataset(fetcher, rng):
    with serve({"/api/3/action/package_search": package_search}) as srv:
        found = Ckan(fetcher, srv.url("/api/3/action"), rng).read("river flow")
    assert srv.seen[0].query == {"q": "river flow", "rows": "4", "start": "0"}
    assert len(found) == 4 and found[0].title == "River flow between upstream and downstream gauges 0"
    assert "between the upstream dam" in found[0].text and "Tags: hydrology, rivers" in found[0].text
    assert found[0].domain == "U.S. Geological Survey" and found[0].ref.endswith("package_show?id=river-flow-0")


def test_a_random_dataset_counts_then_pages_to_it(fetcher, rng):
    with serve({"/api/3/action/package_search": package_search}) as srv:
        (one,) = Ckan(fetcher, srv.url("/api/3/action"), rng).read("")
    count, pick = srv.seen
    assert count.query == {"rows": "0"} and pick.query["rows"] == "1" and 0 <= int(pick.query["start"]) < 57
    assert one.title.endswith(pick.query["start"])


def test_errors_and_no_result_are_clear(fetcher, rng):
    with serve({"/api/3/action/package_search": package_search}) as srv:
        ckan = Ckan(fetcher, srv.url("/api/3/action"), rng)
        with pytest.raises(SourceError, match="HTTP 409\\): Search Query Error: Invalid search query"):
            ckan.read("bad:[")
        with pytest.raises(SourceError, match="no dataset for 'nothing' \\(count 57\\)"):
            ckan.read("nothing")
