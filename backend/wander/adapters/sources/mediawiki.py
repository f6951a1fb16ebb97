"""Wikipedia (any MediaWiki) through its Action API: list=search, list=random, and a page's
plain-text extract with its links (prop=extracts|links, following `continue` for the links).

Errors come back as HTTP 200 with {"error": {"code", "info"}}; `maxlag` and `ratelimited`
(with Retry-After) are held on the host and asked again once. Every request sends maxlag=5,
as the API etiquette asks of bots."""

from __future__ import annotations

from typing import Any

import httpx

from wander.adapters.sources.common import require_ok
from wander.adapters.sources.fetch import Fetcher, RateLimited, retry_after
from wander.core.sandwich.model import Content
from wander.core.sandwich.ports import SourceError
from wander.core.sandwich.text_chunks import to_contents

SEARCH_HITS = 2
MAX_LINK_BATCHES = 3  # `continue` rounds for a page's links
MAX_LINKS = 200
PAGE = "page:"


class MediaWiki:
    name = "wikipedia"

    def __init__(self, fetcher: Fetcher, api_url: str):
        self.fetcher = fetcher
        self.api = api_url

    def call(self, **params: Any) -> dict[str, Any]:
        query = {"format": "json", "formatversion": "2", "maxlag": "5", **params}
        for attempt in range(2):
            r = self.fetcher.get(self.api, query)
            require_ok(r, "wikipedia")
            doc = r.json("wikipedia")
            error = doc.get("error") if isinstance(doc, dict) else None
            if not error:
                return doc
            code = str(error.get("code", ""))
            if code in ("maxlag", "ratelimited") and attempt == 1:
                raise RateLimited(f"wikipedia: still lagging after a wait ({code}: {error.get('info', '')})")
            if code in ("maxlag", "ratelimited"):
                wait = retry_after(r.headers) or 5.0
                if wait > self.fetcher.max_retry_after_s:
                    raise RateLimited(f"wikipedia: {code}, asked to wait {wait:.0f} s")
                self.fetcher.limiter.hold(httpx.URL(self.api).raw_host.decode("ascii"), wait)
                continue
            raise SourceError(f"wikipedia: the API answered {code}: {error.get('info', '')}")
        raise AssertionError("unreachable")

    def search(self, query: str, limit: int = SEARCH_HITS) -> list[str]:
        doc = self.call(action="query", list="search", srsearch=query, srlimit=str(limit), srnamespace="0")
        return [h["title"] for h in doc.get("query", {}).get("search", [])]

    def random_title(self) -> str:
        doc = self.call(action="query", list="random", rnnamespace="0", rnlimit="1")
        found = doc.get("query", {}).get("random", [])
        if not found:
            raise SourceError("wikipedia: list=random returned no page")
        return str(found[0]["title"])

    def page(self, title: str) -> tuple[str, str, list[str]]:
        """(title, plain text with Markdown headings, titles it links to)."""
        params: dict[str, Any] = {
            "action": "query",
            "prop": "extracts|links",
            "titles": title,
            "explaintext": "1",
            "exsectionformat": "wiki",
            "plnamespace": "0",
            "pllimit": "max",
            "redirects": "1",
        }
        text, links, real = "", [], title
        for _ in range(MAX_LINK_BATCHES):
            doc = self.call(**params)
            pages = doc.get("query", {}).get("pages", [])
            if not pages or pages[0].get("missing") or pages[0].get("invalid"):
                raise SourceError(f"wikipedia: no page titled '{title}'")
            p = pages[0]
            real = p.get("title", real)
            text = text or p.get("extract", "")
            links += [x["title"] for x in p.get("links", [])]
            more = doc.get("continue")
            if not more or len(links) >= MAX_LINKS:
                break
            params = {**params, **more}
            params.pop("prop")
            params["prop"] = "links"
        return real, wiki_headings(text), links[:MAX_LINKS]

    def contents(self, title: str) -> list[Content]:
        real, text, links = self.page(title)
        specs = tuple(f"wikipedia:{PAGE}{t}" for t in links)
        out = to_contents(text, "wikipedia", f"wikipedia:{PAGE}{real}", real, "encyclopedia", specs)
        if not out:
            raise SourceError(f"wikipedia: '{real}' has no text")
        return out

    def read(self, query: str) -> list[Content]:
        if query.startswith(PAGE):
            return self.contents(query[len(PAGE) :].strip())
        if not query:
            return self.contents(self.random_title())
        titles = self.search(query)
        if not titles:
            raise SourceError(f"wikipedia: nothing found for '{query}'")
        out: list[Content] = []
        for t in titles:
            out += self.contents(t)
        return out


def wiki_headings(text: str) -> str:
    """'== History ==' (the plain extract's section lines) as Markdown headings."""
    lines = []
    for line in text.splitlines():
        s = line.strip()
        if len(s) > 4 and s.startswith("==") and s.endswith("=="):
            level = min(6, len(s) - len(s.lstrip("=")))
            lines.append("#" * level + " " + s.strip("= ").strip())
        else:
            lines.append(line)
    return "\n".join(lines)
