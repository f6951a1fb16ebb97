"""A web page as a source (a URL given to `--from`, a link followed while wandering, a search
result): fetched under robots.txt and the egress policy, HTML reduced to text and links."""

from __future__ import annotations

import httpx

from wander.adapters.sources.fetch import Fetcher
from wander.adapters.sources.files import html_page
from wander.core.sandwich.model import Content
from wander.core.sandwich.ports import SourceError
from wander.core.sandwich.text_chunks import to_contents

ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.8"
MAX_LINKS = 60


def absolute_links(base: str, hrefs: list[str]) -> tuple[str, ...]:
    """The http(s) links of a page, absolute, without fragments, each once, in order."""
    out: dict[str, None] = {}
    b = httpx.URL(base)
    for href in hrefs:
        try:
            u = b.join(href.strip()).copy_with(fragment=None)
        except (httpx.InvalidURL, ValueError):
            continue
        if u.scheme in ("http", "https") and str(u) != str(b.copy_with(fragment=None)):
            out.setdefault(str(u), None)
        if len(out) >= MAX_LINKS:
            break
    return tuple(out)


class WebPage:
    name = "web"

    def __init__(self, fetcher: Fetcher):
        self.fetcher = fetcher

    def read(self, url: str) -> list[Content]:
        r = self.fetcher.get(url, robots=True, accept=ACCEPT)
        if r.status >= 400:
            raise SourceError(f"from: {url} answered HTTP {r.status}")
        host = httpx.URL(url).host
        if r.content_type in ("text/html", "application/xhtml+xml"):
            title, body, hrefs = html_page(r.text())
            links = absolute_links(r.url, hrefs)
        elif r.content_type.startswith("text/"):
            title, body, links = "", r.text(), ()
        else:
            raise SourceError(f"from: {url} is not a page of text (content type '{r.content_type}')")
        out = to_contents(body, "url", url, title or host, host, links)
        if not out:
            raise SourceError(f"from: {url} has no text")
        return out
