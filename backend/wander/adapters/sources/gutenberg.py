"""Project Gutenberg: the catalogue through the Gutendex JSON API (`gutenberg:QUERY` searches
titles and authors; `gutenberg:` picks a popular book from a random page of the catalogue,
following `next`), then the book's plain text (its text/plain format, under robots.txt), the
licence header and footer cut, a window of paragraphs taken from somewhere inside."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from wander.adapters.sources.common import require_ok
from wander.adapters.sources.fetch import Fetcher
from wander.core.sandwich.model import Content
from wander.core.sandwich.ports import SourceError
from wander.core.sandwich.text_chunks import to_contents

RANDOM_PAGES = 3  # `gutenberg:` draws from the first pages of the popular books
WINDOW = 6  # contents taken from one book
START = re.compile(r"\*\*\*\s*START OF (THE|THIS) PROJECT GUTENBERG[^\n]*\n", re.IGNORECASE)
END = re.compile(r"\*\*\*\s*END OF (THE|THIS) PROJECT GUTENBERG", re.IGNORECASE)


def body_of(text: str) -> str:
    """The book without Project Gutenberg's header and licence."""
    start = START.search(text)
    if start:
        text = text[start.end() :]
    end = END.search(text)
    return text[: end.start()] if end else text


class Gutenberg:
    name = "gutenberg"

    def __init__(self, fetcher: Fetcher, catalogue_url: str, rng: np.random.Generator):
        self.fetcher = fetcher
        self.api = catalogue_url
        self.rng = rng

    def catalogue(self, url: str, params: dict[str, str] | None = None) -> dict[str, Any]:
        r = self.fetcher.get(url, params)
        doc = r.json("gutenberg")
        if r.status >= 400:
            detail = doc.get("detail") if isinstance(doc, dict) else None
            raise SourceError(f"gutenberg: the catalogue answered HTTP {r.status}" + (f": {detail}" if detail else ""))
        if not isinstance(doc, dict) or "results" not in doc:
            raise SourceError("gutenberg: the catalogue's answer has no results")
        return doc

    def pick(self, query: str) -> dict[str, Any]:
        if query:
            doc = self.catalogue(self.api, {"search": query, "languages": "en"})
            books = doc["results"]
        else:
            doc = self.catalogue(self.api, {"languages": "en", "sort": "popular"})
            for _ in range(int(self.rng.integers(RANDOM_PAGES))):
                if not doc.get("next"):
                    break
                doc = self.catalogue(doc["next"])
            books = doc["results"]
        texts = [b for b in books if any(k.startswith("text/plain") for k in b.get("formats", {}))]
        if not texts:
            raise SourceError(f"gutenberg: no book with a plain text for '{query or 'popular'}'")
        return texts[0] if query else texts[int(self.rng.integers(len(texts)))]

    def read(self, query: str) -> list[Content]:
        book = self.pick(query)
        formats = book["formats"]
        url = next(formats[k] for k in sorted(formats) if k.startswith("text/plain"))
        r = self.fetcher.get(url, robots=True, accept="text/plain")
        require_ok(r, "gutenberg")
        title = " ".join(str(book.get("title", "")).split())
        author = ", ".join(a.get("name", "") for a in book.get("authors", []))
        shelf = (book.get("bookshelves") or book.get("subjects") or ["literature"])[0]
        chunks = to_contents(body_of(r.text()), "gutenberg", url, title, str(shelf)[:255], content_type="book")
        if not chunks:
            raise SourceError(f"gutenberg: '{title}' has no text")
        at = int(self.rng.integers(max(1, len(chunks) - WINDOW)))
        out = chunks[at : at + WINDOW]
        return [Content(f"{c.text}\n\n({title}, {author})", *_rest(c)) for c in out]


def _rest(c: Content) -> tuple[Any, ...]:
    return (c.kind, c.ref, c.title, c.domain, c.content_type, c.links)
