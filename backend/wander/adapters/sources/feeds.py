"""News and blogs through RSS/Atom feeds, parsed by feedparser: `feeds:` reads one of the
configured feeds (WANDER_FEEDS), `feed:URL` that feed. An Atom feed's rel="next" page (RFC
5005) is followed once. Each entry is one content; its link is where wandering goes."""

from __future__ import annotations

from collections.abc import Sequence

import feedparser
import numpy as np

from wander.adapters.sources.common import plain, require_ok
from wander.adapters.sources.fetch import Fetcher
from wander.core.sandwich.model import Content
from wander.core.sandwich.ports import SourceError

ACCEPT = "application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5"
MAX_PAGES = 2
MIN_TEXT = 40


class Feeds:
    name = "feeds"

    def __init__(self, fetcher: Fetcher, feeds: Sequence[str], rng: np.random.Generator):
        self.fetcher = fetcher
        self.feeds = tuple(feeds)
        self.rng = rng

    def read(self, query: str) -> list[Content]:
        url = query
        if not url.lower().startswith(("http://", "https://")):
            if not self.feeds:
                raise SourceError("feeds: no feed configured (set WANDER_FEEDS, or forage feed:URL)")
            url = self.feeds[int(self.rng.integers(len(self.feeds)))]
        out: list[Content] = []
        for _ in range(MAX_PAGES):
            r = self.fetcher.get(url, accept=ACCEPT)
            require_ok(r, "feeds")
            feed = feedparser.parse(r.body)
            if not feed.entries and (feed.bozo or not feed.version):
                raise SourceError(f"feeds: {url} is not an RSS or Atom feed")
            name = " ".join(feed.feed.get("title", "").split()) or url
            for e in feed.entries:
                title = " ".join(e.get("title", "").split())
                body = plain(e.get("summary", "") or "".join(c.get("value", "") for c in e.get("content", [])))
                text = f"{title}\n\n{body}".strip()
                if len(text) < MIN_TEXT:
                    continue
                link = e.get("link", "")
                links = (link,) if link.startswith(("http://", "https://")) else ()
                out.append(Content(text, "feed", link or f"{url}#{len(out)}", title or name, name, "news", links))
            nxt = next((x.get("href") for x in feed.feed.get("links", []) if x.get("rel") == "next"), None)
            if not nxt:
                break
            url = nxt
        if not out:
            raise SourceError(f"feeds: {url} has no entry with text")
        return out
