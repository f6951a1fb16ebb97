"""Source specs to sources: a URL is a web page (robots.txt, links made absolute), NAME:QUERY
an online source, anything else a path."""

from __future__ import annotations

import pytest

from tests.unit.forage.protocol_server import as_text, serve
from wander.adapters.sources.router import SourceRouter
from wander.adapters.sources.web import WebPage, absolute_links
from wander.core.sandwich.model import Content
from wander.core.sandwich.ports import SourceError

PAGE = """<html><head><title>Shores</title></head><body><nav><a href="/menu">menu</a></nav>
<h1>Shores</h1><p>A shore lies between the sea and the land, and the tide moves across it twice a day,
leaving sand, shells and the wrack of the storms behind.</p>
<p><a href="/tides#top">Tides</a> <a href="https://other.example/sand">Sand</a> <a href="mailto:x@y">mail</a>
<a href="#self">here</a></p></body></html>"""


class Echo:
    name = "echo"

    def read(self, query: str) -> list[Content]:
        return [Content(query, "echo", query, query, "test")]


def test_specs_go_to_their_source(fetcher, tmp_path):
    (tmp_path / "note.md").write_text("# Note\n\n" + "Between the sea and the land lies the shore. " * 3)
    router = SourceRouter(WebPage(fetcher), {"echo": Echo()})
    assert router.read("echo:what lies between")[0].text == "what lies between"
    assert router.read(str(tmp_path / "note.md"))[0].kind == "file"
    with pytest.raises(SourceError, match="no source named 'nope' \\(known: echo; or a URL, or a path\\)"):
        router.read("nope:x")
    with pytest.raises(SourceError, match="must not be empty"):
        router.read("  ")
    with serve({"/page": lambda s: as_text(PAGE, "text/html; charset=utf-8")}) as srv:
        (page,) = router.read(srv.url("/page"))
    assert page.title == "Shores" and "between the sea and the land" in page.text and "menu" not in page.text
    assert page.links == (srv.url("/tides"), "https://other.example/sand")


def test_a_page_that_is_not_text_or_not_there_is_a_clear_error(fetcher):
    web = WebPage(fetcher)
    with serve({"/img": lambda s: (200, {"Content-Type": "image/png"}, b"\x89PNG")}) as srv:
        with pytest.raises(SourceError, match="not a page of text \\(content type 'image/png'\\)"):
            web.read(srv.url("/img"))
        with pytest.raises(SourceError, match="HTTP 404"):
            web.read(srv.url("/missing"))


def test_links_are_absolute_http_and_each_once():
    base = "https://a.example/x/page"
    hrefs = ["../y", "/z#frag", "/z", "ftp://f.example/", "javascript:void(0)", "#", "https://b.example/"]
    assert absolute_links(base, hrefs) == ("https://a.example/y", "https://a.example/z", "https://b.example/")
