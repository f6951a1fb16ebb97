"""The arXiv API client against a local server answering Atom 1.0 as export.arxiv.org does:
results with OpenSearch counts, recent submissions of a category, an error feed with HTTP 400,
and a 503 with Retry-After (arXiv's way of asking a client to slow down)."""

from __future__ import annotations

import pytest

from tests.unit.forage.protocol_server import Seen, as_text, serve
from wander.adapters.sources.arxiv import CATEGORIES, Arxiv
from wander.core.sandwich.ports import SourceError

ATOM = "application/atom+xml; charset=utf-8"


def feed(entries: str, total: int) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?search_query%3Dall%3Abounds" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=all:bounds&amp;id_list=&amp;start=0&amp;max_results=4</title>
  <id>http://arxiv.org/api/cHxbiOdZaP56ODnBPIenZhzg5f8</id>
  <updated>2024-05-01T00:00:00-04:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{total}</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">4</opensearch:itemsPerPage>
  {entries}
</feed>"""


PAPER = """<entry>
    <id>http://arxiv.org/abs/2401.01234v1</id>
    <published>2024-01-02T18:00:00Z</published>
    <updated>2024-01-02T18:00:00Z</updated>
    <title>Optimal Stopping Between Prior
      and Likelihood</title>
    <summary>  We study the posterior of an optimal stopping problem bounded above by the prior and below by
  the likelihood, and show the stopping rule lies between them.
</summary>
    <author><name>Ada Lovelace</name></author>
    <author><name>Thomas Bayes</name></author>
    <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">12 pages</arxiv:comment>
    <link href="http://arxiv.org/abs/2401.01234v1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2401.01234v1" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="stat.ML" scheme="http://arxiv.org/schemas/atom"/>
    <category term="stat.ML" scheme="http://arxiv.org/schemas/atom"/>
  </entry>"""

ERROR = """<entry>
    <id>http://arxiv.org/api/errors#max_results_must_be_non_negative</id>
    <title>Error</title>
    <summary>max_results must be non-negative</summary>
    <updated>2024-05-01T00:00:00-04:00</updated>
    <link href="http://arxiv.org/api/errors#max_results_must_be_non_negative" rel="alternate" type="text/html"/>
    <author><name>arXiv api core</name></author>
  </entry>"""


def api(seen: Seen):
    q = seen.query
    if q["search_query"] == "all:broken":
        return as_text(feed(ERROR, 1), ATOM, status=400)
    if q["search_query"] == "all:nothing":
        return as_text(feed("", 0), ATOM)
    return as_text(feed(PAPER, 1234), ATOM)


def test_a_query_by_relevance_gives_each_paper_with_its_category(fetcher, rng):
    with serve({"/api/query": api}) as srv:
        (paper,) = Arxiv(fetcher, srv.url("/api/query"), rng).read("bounds")
    q = srv.seen[0].query
    assert q == {
        "search_query": "all:bounds",
        "start": "0",
        "max_results": "4",
        "sortBy": "relevance",
        "sortOrder": "descending",
    }
    assert paper.title == "Optimal Stopping Between Prior and Likelihood"
    assert "bounded above by the prior" in paper.text and "Ada Lovelace, Thomas Bayes" in paper.text
    assert (paper.kind, paper.ref, paper.domain) == ("arxiv", "http://arxiv.org/abs/2401.01234v1", "stat.ML")


def test_recent_papers_of_a_category(fetcher, rng):
    with serve({"/api/query": api}) as srv:
        Arxiv(fetcher, srv.url("/api/query"), rng).read("")
    q = srv.seen[0].query
    assert q["sortBy"] == "submittedDate" and q["search_query"].removeprefix("cat:") in CATEGORIES


def test_errors_and_empty_results_are_clear(fetcher, rng):
    with serve({"/api/query": api}) as srv:
        source = Arxiv(fetcher, srv.url("/api/query"), rng)
        with pytest.raises(SourceError, match="refused the query: max_results must be non-negative"):
            source.read("broken")
        with pytest.raises(SourceError, match="no paper for 'nothing' \\(total results 0\\)"):
            source.read("nothing")
        srv.routes["/api/query"] = lambda s: as_text("<html>not atom", "text/html", status=500)
        with pytest.raises(SourceError, match="HTTP 500"):
            source.read("bounds")


def test_a_503_with_retry_after_is_waited_out(fetcher, rng):
    answers = [as_text("Retry later", status=503)]
    answers[0][1]["Retry-After"] = "1"

    def slow_down(seen: Seen):
        return answers.pop() if answers else api(seen)

    held: list[float] = []
    fetcher.limiter.hold = lambda host, s: held.append(s)  # type: ignore[method-assign]
    with serve({"/api/query": slow_down}) as srv:
        assert Arxiv(fetcher, srv.url("/api/query"), rng).read("bounds")
    assert held == [1.0] and len(srv.seen) == 2
