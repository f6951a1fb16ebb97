"""Random word -> search (004's serendipitous source) through a SearxNG instance's JSON API
(WANDER_SEARX_URL): `search:QUERY` or `search:` for a random word of the corpus. The results'
titles and snippets make one content; their URLs are where wandering goes (as web pages,
under robots.txt). A second page (pageno=2) is asked when the first has too few results.
An instance without the JSON format answers 403; one that limits the rate, 429."""

from __future__ import annotations

from collections.abc import Callable

from wander.adapters.sources.common import plain
from wander.adapters.sources.fetch import Fetcher
from wander.core.sandwich.model import Content
from wander.core.sandwich.ports import SourceError

ENOUGH = 5
MAX_PAGES = 2


class WebSearch:
    name = "search"

    def __init__(self, fetcher: Fetcher, searx_url: str | None, random_word: Callable[[], str]):
        self.fetcher = fetcher
        self.url = searx_url
        self.random_word = random_word

    def read(self, query: str) -> list[Content]:
        if not self.url:
            raise SourceError("search: no search backend configured (set WANDER_SEARX_URL to a SearxNG /search URL)")
        q = query or self.random_word()
        results: list[dict] = []
        for page in range(1, MAX_PAGES + 1):
            r = self.fetcher.get(self.url, {"q": q, "format": "json", "pageno": str(page)}, accept="application/json")
            if r.status == 403:
                raise SourceError(f"search: {self.url} refuses the JSON format (enable `json` in its search.formats)")
            if r.status >= 400:
                raise SourceError(f"search: {r.url} answered HTTP {r.status}")
            doc = r.json("search")
            batch = doc.get("results", []) if isinstance(doc, dict) else []
            results += batch
            if len(results) >= ENOUGH or not batch:
                break
        lines = [f"{plain(x.get('title', ''))}: {plain(x.get('content', ''))}" for x in results if x.get("content")]
        if not lines:
            raise SourceError(f"search: nothing found for '{q}'")
        links = tuple(
            dict.fromkeys(x["url"] for x in results if str(x.get("url", "")).startswith(("http://", "https://")))
        )
        text = f"{q}\n\n" + "\n".join(lines)
        return [Content(text[:4000], "search", f"search:{q}", q, "web", "search", links)]
