"""The Stack Exchange API client against a local server answering as api.stackexchange.com/2.3
does: the common wrapper (items, has_more, quota_max, quota_remaining, backoff), pages, the
error wrapper (bad_parameter 400, throttle_violation 502)."""

from __future__ import annotations

import pytest

from tests.unit.forage.protocol_server import Seen, as_json, serve
from wander.adapters.sources.fetch import RateLimited
from wander.adapters.sources.stackexchange import StackExchange
from wander.core.sandwich.ports import SourceError


def question(n: int) -> dict:
    return {
        "tags": ["algorithms", "complexity-theory"],
        "owner": {"account_id": 1, "reputation": 101, "user_id": 7, "user_type": "registered", "display_name": "ada"},
        "is_answered": True,
        "view_count": 1200,
        "answer_count": 3,
        "score": 14,
        "last_activity_date": 1714550000,
        "creation_date": 1714500000,
        "question_id": 7800 + n,
        "content_license": "CC BY-SA 4.0",
        "link": f"https://stackoverflow.com/questions/{7800 + n}/bounds",
        "title": f"Why is the lower bound &quot;tight&quot; here? ({n})",
        "body": "<p>The running time lies between the <code>n log n</code> lower bound and the quadratic upper bound.</p>",
    }


def api(seen: Seen):
    q = seen.query
    assert q["site"] == "stackoverflow" and q["filter"] == "withbody"
    if q.get("q") == "bad":
        return as_json({"error_id": 400, "error_message": "sort", "error_name": "bad_parameter"}, status=400)
    if q.get("q") == "throttled":
        return as_json(
            {
                "error_id": 502,
                "error_message": "too many requests from this IP, more requests available in 82356 seconds",
                "error_name": "throttle_violation",
            },
            status=400,
        )
    page = int(q["page"])
    items = [question(2 * page - 1), question(2 * page)]
    return as_json(
        {"items": items, "has_more": page < 5, "quota_max": 300, "quota_remaining": 290 - page, "backoff": 2}
    )


def test_a_search_reads_pages_until_enough_questions_and_holds_the_backoff(fetcher):
    held: list[tuple[str, float]] = []
    fetcher.limiter.hold = lambda host, s: held.append((host, s))  # type: ignore[method-assign]
    with serve({"/2.3/search/advanced": api}) as srv:
        questions = StackExchange(fetcher, srv.url("/2.3"), "stackoverflow").read("lower bound")
    assert [s.query["page"] for s in srv.seen] == ["1", "2"]  # has_more, then 4 questions: enough
    assert srv.seen[0].query["q"] == "lower bound" and srv.seen[0].query["sort"] == "relevance"
    assert len(questions) == 4 and held == [("127.0.0.1", 2.0), ("127.0.0.1", 2.0)]
    q = questions[0]
    assert q.title == 'Why is the lower bound "tight" here? (1)' and "n log n lower bound" in q.text
    assert (q.kind, q.domain, q.ref) == (
        "stackexchange",
        "algorithms",
        "https://stackoverflow.com/questions/7801/bounds",
    )


def test_hot_questions_without_a_query(fetcher):
    with serve({"/2.3/questions": api}) as srv:
        StackExchange(fetcher, srv.url("/2.3"), "stackoverflow", key="k3y").read("")
    assert srv.seen[0].query["sort"] == "hot" and srv.seen[0].query["key"] == "k3y"


def test_errors_are_named_and_a_throttle_is_a_rate_limit(fetcher):
    with serve({"/2.3/search/advanced": api}) as srv:
        se = StackExchange(fetcher, srv.url("/2.3"), "stackoverflow")
        with pytest.raises(SourceError, match="bad_parameter \\(400\\): sort"):
            se.read("bad")
        with pytest.raises(RateLimited, match="throttle_violation \\(502\\)"):
            se.read("throttled")
