"""The MediaWiki Action API client against a local server answering as Wikipedia's api.php
does (formatversion=2): search, random, a page's extract and links with `continue`, errors
with HTTP 200, maxlag with Retry-After."""

from __future__ import annotations

import pytest

from tests.unit.forage.protocol_server import Seen, as_json, serve
from wander.adapters.sources.fetch import RateLimited
from wander.adapters.sources.mediawiki import MediaWiki
from wander.core.sandwich.ports import SourceError

EXTRACT = (
    "Entropy is a scientific concept that is most commonly associated with a state of disorder, randomness, "
    "or uncertainty.\n\n== History ==\nIn the early 1850s, Rudolf Clausius set forth the concept of the "
    "thermodynamic system and posited the argument that in any irreversible process a small amount of heat "
    "energy is incrementally dissipated across the system boundary."
)


def api(seen: Seen):
    q = seen.query
    assert q["format"] == "json" and q["formatversion"] == "2" and q["maxlag"] == "5"
    if q.get("list") == "search":
        return as_json(
            {
                "batchcomplete": True,
                "continue": {"sroffset": 2, "continue": "-||"},
                "query": {
                    "searchinfo": {"totalhits": 5321},
                    "search": [
                        {
                            "ns": 0,
                            "title": "Entropy",
                            "pageid": 9891,
                            "size": 117000,
                            "wordcount": 13000,
                            "snippet": '<span class="searchmatch">Entropy</span> is a scientific concept',
                            "timestamp": "2024-05-01T10:00:00Z",
                        }
                    ],
                },
            }
        )
    if q.get("list") == "random":
        return as_json(
            {
                "batchcomplete": True,
                "continue": {"rncontinue": "0.52|0.52|123|0", "continue": "-||"},
                "query": {"random": [{"id": 9891, "ns": 0, "title": "Entropy"}]},
            }
        )
    if q.get("titles") == "Entropy":
        assert q["explaintext"] == "1" and q["redirects"] == "1"
        if "plcontinue" not in q:
            assert q["prop"] == "extracts|links"
            return as_json(
                {
                    "continue": {"plcontinue": "9891|0|Heat", "continue": "||extracts"},
                    "query": {
                        "pages": [
                            {
                                "pageid": 9891,
                                "ns": 0,
                                "title": "Entropy",
                                "extract": EXTRACT,
                                "links": [{"ns": 0, "title": "Disorder"}, {"ns": 0, "title": "Energy"}],
                            }
                        ]
                    },
                }
            )
        assert q["plcontinue"] == "9891|0|Heat" and q["prop"] == "links"
        return as_json(
            {
                "batchcomplete": True,
                "query": {
                    "pages": [{"pageid": 9891, "ns": 0, "title": "Entropy", "links": [{"ns": 0, "title": "Heat"}]}]
                },
            }
        )
    if "titles" in q:
        return as_json({"batchcomplete": True, "query": {"pages": [{"ns": 0, "title": q["titles"], "missing": True}]}})
    return as_json(
        {
            "error": {
                "code": "badvalue",
                "info": 'Unrecognized value for parameter "list": nonsense.',
                "docref": "See https://en.wikipedia.org/w/api.php for API usage.",
            },
            "servedby": "mw-api-ext.eqiad.main-1",
        }
    )


def test_search_then_each_page_as_contents_with_its_links(fetcher):
    with serve({"/w/api.php": api}) as srv:
        contents = MediaWiki(fetcher, srv.url("/w/api.php")).read("entropy")
    assert [c.title for c in contents] == ["Entropy", "History"]
    assert "disorder" in contents[0].text and contents[1].text.startswith("History\nIn the early 1850s")
    assert contents[0].ref == "wikipedia:page:Entropy#0" and contents[0].kind == "wikipedia"
    # the links of both `continue` rounds, as specs wandering can follow
    assert contents[0].links == ("wikipedia:page:Disorder", "wikipedia:page:Energy", "wikipedia:page:Heat")
    assert [s.query.get("list") or s.query.get("prop") for s in srv.seen] == ["search", "extracts|links", "links"]


def test_random_article(fetcher):
    with serve({"/w/api.php": api}) as srv:
        contents = MediaWiki(fetcher, srv.url("/w/api.php")).read("")
    assert contents[0].title == "Entropy" and srv.seen[0].query["rnnamespace"] == "0"


def test_a_missing_page_and_an_api_error_are_clear(fetcher):
    with serve({"/w/api.php": api}) as srv:
        wiki = MediaWiki(fetcher, srv.url("/w/api.php"))
        with pytest.raises(SourceError, match="no page titled 'Nowhere'"):
            wiki.read("page:Nowhere")
        with pytest.raises(SourceError, match="badvalue: Unrecognized value"):
            wiki.call(action="query", list="nonsense")


def test_maxlag_is_waited_out_once_then_reported(fetcher):
    lagging = [True]

    def lag(seen: Seen):
        if lagging[0]:
            lagging[0] = False
            return as_json(
                {"error": {"code": "maxlag", "info": "Waiting for 10.64.0.1: 7 seconds lagged.", "lag": 7}},
                headers={"Retry-After": "1", "X-Database-Lag": "7"},
            )
        return api(seen)

    held: list[float] = []
    fetcher.limiter.hold = lambda host, s: held.append(s)  # type: ignore[method-assign]
    with serve({"/w/api.php": lag}) as srv:
        assert MediaWiki(fetcher, srv.url("/w/api.php")).search("entropy") == ["Entropy"]
        assert held == [1.0]
        srv.routes["/w/api.php"] = lambda s: as_json(
            {"error": {"code": "maxlag", "info": "lagged"}}, headers={"Retry-After": "1"}
        )
        with pytest.raises(RateLimited, match="lagging"):
            MediaWiki(fetcher, srv.url("/w/api.php")).search("entropy")
