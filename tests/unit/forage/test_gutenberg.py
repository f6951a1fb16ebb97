"""The Project Gutenberg client against a local Gutendex catalogue (count, next, previous,
results with formats) and the book's plain text with Project Gutenberg's header and licence."""

from __future__ import annotations

import pytest

from tests.unit.forage.protocol_server import Seen, as_json, as_text, serve
from wander.adapters.sources.gutenberg import Gutenberg, body_of
from wander.core.sandwich.ports import SourceError

BOOK = (
    "The Project Gutenberg eBook of Walden\n\nThis eBook is for the use of anyone anywhere...\n\n"
    "*** START OF THE PROJECT GUTENBERG EBOOK WALDEN ***\n\n"
    + "\n\n".join(
        f"Chapter {i}. I went to the woods because I wished to live deliberately, between the village and the "
        f"wilderness, to front only the essential facts of life (part {i})."
        for i in range(1, 13)
    )
    + "\n\n*** END OF THE PROJECT GUTENBERG EBOOK WALDEN ***\n\nSection 1. General Terms of Use..."
)


def record(srv, n: int) -> dict:
    return {
        "id": 205 + n,
        "title": "Walden, and On The Duty Of Civil Disobedience",
        "authors": [{"name": "Thoreau, Henry David", "birth_year": 1817, "death_year": 1862}],
        "summaries": ["A reflection on simple living in natural surroundings."],
        "translators": [],
        "subjects": ["Philosophy, American", "Wilderness areas"],
        "bookshelves": ["Best Books Ever Listings"],
        "languages": ["en"],
        "copyright": False,
        "media_type": "Text",
        "formats": {
            "text/html": srv.url(f"/ebooks/{205 + n}.html.images"),
            "text/plain; charset=us-ascii": srv.url(f"/cache/epub/{205 + n}/pg{205 + n}.txt"),
            "application/epub+zip": srv.url(f"/ebooks/{205 + n}.epub3.images"),
        },
        "download_count": 5000,
    }


def routes(srv):
    def books(seen: Seen):
        page = int(seen.query.get("page", 1))
        nxt = srv.url(f"/books/?page={page + 1}&languages=en&sort=popular") if page < 3 else None
        return as_json(
            {
                "count": 3,
                "next": nxt,
                "previous": None,
                "results": [record(srv, page)] if seen.query.get("search") != "zzz" else [],
            }
        )

    r = {"/books": books, "/books/": books}
    for n in (1, 2, 3):
        r[f"/cache/epub/{205 + n}/pg{205 + n}.txt"] = lambda s: as_text(BOOK)
    return r


def test_a_search_gives_a_window_of_the_book_without_the_licence(fetcher, rng):
    with serve({}) as srv:
        srv.routes.update(routes(srv))
        contents = Gutenberg(fetcher, srv.url("/books"), rng).read("walden")
    assert srv.seen[0].query == {"search": "walden", "languages": "en"}
    assert srv.paths()[1:] == ["/robots.txt", "/cache/epub/206/pg206.txt"]  # the text is a page: robots.txt first
    assert 1 <= len(contents) <= 6 and all("deliberately" in c.text for c in contents)
    assert not any("START OF" in c.text or "General Terms" in c.text for c in contents)
    assert contents[0].text.endswith("(Walden, and On The Duty Of Civil Disobedience, Thoreau, Henry David)")
    assert contents[0].domain == "Best Books Ever Listings" and contents[0].kind == "gutenberg"


def test_a_random_popular_book_follows_the_catalogue_pages(fetcher):
    import numpy as np

    with serve({}) as srv:
        srv.routes.update(routes(srv))
        for seed in range(6):  # some seed walks to a later page through `next`
            Gutenberg(fetcher, srv.url("/books"), np.random.default_rng(seed)).read("")
    pages = {s.query.get("page", "1") for s in srv.seen if s.path.startswith("/books")}
    assert pages >= {"1", "2"} and all(
        s.query.get("sort") == "popular" for s in srv.seen if s.path.startswith("/books")
    )


def test_no_book_and_a_catalogue_error_are_clear(fetcher, rng):
    with serve({}) as srv:
        srv.routes.update(routes(srv))
        g = Gutenberg(fetcher, srv.url("/books"), rng)
        with pytest.raises(SourceError, match="no book with a plain text for 'zzz'"):
            g.read("zzz")
        srv.routes["/books"] = lambda s: as_json({"detail": "Invalid page."}, status=404)
        with pytest.raises(SourceError, match="HTTP 404: Invalid page."):
            g.read("walden")


def test_the_header_and_licence_are_cut():
    assert body_of(BOOK).strip().startswith("Chapter 1.") and "END OF" not in body_of(BOOK)
