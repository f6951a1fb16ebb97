"""Stack Exchange through its API (v2.3): `stackexchange:QUERY` is /search/advanced by
relevance, `stackexchange:` the site's hot questions; question bodies come with the
`withbody` filter. The wrapper's `backoff` (seconds) is held on the host before the next call,
`has_more` pages are read until enough questions have come; an error is a wrapper with
error_id / error_name / error_message (throttle_violation: 502)."""

from __future__ import annotations

from typing import Any

import httpx

from wander.adapters.sources.common import plain
from wander.adapters.sources.fetch import Fetcher, RateLimited
from wander.core.sandwich.model import Content
from wander.core.sandwich.ports import SourceError

WANTED = 4
PAGE_SIZE = 4
MAX_PAGES = 3


class StackExchange:
    name = "stackexchange"

    def __init__(self, fetcher: Fetcher, api_url: str, site: str, key: str | None = None):
        self.fetcher = fetcher
        self.api = api_url.rstrip("/")
        self.site = site
        self.key = key
        self.host = httpx.URL(self.api).raw_host.decode("ascii")

    def call(self, path: str, **params: Any) -> dict[str, Any]:
        query = {"site": self.site, "filter": "withbody", "pagesize": str(PAGE_SIZE), **params}
        if self.key:
            query["key"] = self.key
        r = self.fetcher.get(f"{self.api}{path}", query)
        doc = r.json("stackexchange")
        if not isinstance(doc, dict):
            raise SourceError("stackexchange: the answer is not the API's wrapper object")
        if "error_id" in doc:
            message = f"stackexchange: {doc.get('error_name')} ({doc.get('error_id')}): {doc.get('error_message')}"
            if doc.get("error_name") == "throttle_violation" or doc.get("error_id") == 502:
                raise RateLimited(message)
            raise SourceError(message)
        if r.status >= 400:
            raise SourceError(f"stackexchange: {r.url} answered HTTP {r.status}")
        if doc.get("backoff"):
            self.fetcher.limiter.hold(self.host, float(doc["backoff"]))
        return doc

    def read(self, query: str) -> list[Content]:
        path, params = (
            ("/search/advanced", {"q": query, "order": "desc", "sort": "relevance"})
            if query
            else ("/questions", {"order": "desc", "sort": "hot"})
        )
        items: list[dict[str, Any]] = []
        for page in range(1, MAX_PAGES + 1):
            doc = self.call(path, page=str(page), **params)
            items += doc.get("items", [])
            if len(items) >= WANTED or not doc.get("has_more"):
                break
        out = []
        for q in items[:WANTED]:
            title = plain(q.get("title", ""))
            body = plain(q.get("body", ""))
            if not body:
                continue
            tags = q.get("tags") or [self.site]
            text = f"{title}\n\n{body}"[:4000]
            out.append(Content(text, "stackexchange", q.get("link", ""), title, str(tags[0]), "question"))
        if not out:
            raise SourceError(f"stackexchange: no question for '{query or 'hot'}' on {self.site}")
        return out
