"""arXiv through its API (Atom 1.0 with OpenSearch counts): `arxiv:QUERY` searches every field
by relevance; `arxiv:` asks for the most recent submissions of a category. A bad query comes
back as HTTP 400 with an Atom feed whose one entry is the error (id .../api/errors#...)."""

from __future__ import annotations

import feedparser
import numpy as np

from wander.adapters.sources.fetch import Fetcher
from wander.core.sandwich.model import Content
from wander.core.sandwich.ports import SourceError

RESULTS = 4
CATEGORIES = ("cs.AI", "physics.soc-ph", "q-bio.PE", "econ.TH", "math.OC", "stat.ML", "q-fin.GN", "cs.CY")


class Arxiv:
    name = "arxiv"

    def __init__(self, fetcher: Fetcher, api_url: str, rng: np.random.Generator):
        self.fetcher = fetcher
        self.api = api_url
        self.rng = rng

    def query(self, search: str, sort_by: str, start: int = 0, results: int = RESULTS) -> feedparser.FeedParserDict:
        params = {
            "search_query": search,
            "start": str(start),
            "max_results": str(results),
            "sortBy": sort_by,
            "sortOrder": "descending",
        }
        r = self.fetcher.get(self.api, params, accept="application/atom+xml")
        feed = feedparser.parse(r.body)
        for e in feed.entries:
            if "/api/errors" in e.get("id", ""):
                raise SourceError(f"arxiv: the API refused the query: {e.get('summary', e.get('title', ''))}")
        if r.status >= 400:
            raise SourceError(f"arxiv: {r.url} answered HTTP {r.status}")
        if feed.bozo and not feed.entries and "opensearch_totalresults" not in feed.feed:
            raise SourceError(f"arxiv: the answer is not an Atom feed ({feed.get('bozo_exception')})")
        return feed

    def read(self, query: str) -> list[Content]:
        if query:
            feed = self.query(f"all:{query}", "relevance")
        else:
            category = CATEGORIES[int(self.rng.integers(len(CATEGORIES)))]
            feed = self.query(f"cat:{category}", "submittedDate")
        out = []
        for e in feed.entries:
            title = " ".join(e.get("title", "").split())
            abstract = " ".join(e.get("summary", "").split())
            if not abstract:
                continue
            category = (e.get("arxiv_primary_category") or {}).get("term") or "arxiv"
            authors = ", ".join(a.get("name", "") for a in e.get("authors", [])[:4])
            text = f"{title}\n\n{abstract}" + (f"\n\n({authors})" if authors else "")
            out.append(Content(text, "arxiv", e.get("id", ""), title, category, "paper"))
        if not out:
            total = feed.feed.get("opensearch_totalresults", "0")
            raise SourceError(f"arxiv: no paper for '{query or 'recent'}' (total results {total})")
        return out
