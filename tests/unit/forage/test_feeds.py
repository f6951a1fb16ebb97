"""The RSS/Atom client against local feeds shaped like real ones: RSS 2.0 with HTML in the
descriptions, Atom with a rel="next" page (RFC 5005), something that is not a feed, a 404."""

from __future__ import annotations

import pytest

from tests.unit.forage.protocol_server import as_text, serve
from wander.adapters.sources.feeds import Feeds
from wander.core.sandwich.ports import SourceError

RSS = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
  <title>World news</title>
  <link>https://news.example/world</link>
  <description>The world, daily</description>
  <atom:link href="https://news.example/world/rss.xml" rel="self" type="application/rss+xml"/>
  <item>
    <title>Talks resume between the two delegations</title>
    <description><![CDATA[<p>Negotiators met between the <b>opening positions</b> of both sides and a compromise
    on trade was drafted.</p>]]></description>
    <link>https://news.example/world/talks</link>
    <guid isPermaLink="true">https://news.example/world/talks</guid>
    <pubDate>Tue, 07 May 2024 09:00:00 GMT</pubDate>
  </item>
  <item><title>Short</title><link>https://news.example/world/short</link></item>
</channel>
</rss>"""


def atom(page: int, next_href: str | None) -> str:
    nxt = f'<link rel="next" href="{next_href}"/>' if next_href else ""
    return f"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>A science blog</title>
  <id>urn:uuid:60a76c80-d399-11d9-b91C-0003939e0af6</id>
  <updated>2024-05-01T18:30:02Z</updated>
  {nxt}
  <entry>
    <title>Entry {page}: theory and practice</title>
    <link href="https://blog.example/{page}"/>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6{page}</id>
    <updated>2024-05-01T18:30:02Z</updated>
    <summary>Between theory and practice lies the experiment, page {page} of the archive.</summary>
  </entry>
</feed>"""


def test_rss_entries_become_contents_whose_links_wandering_follows(fetcher, rng):
    with serve({"/rss.xml": lambda s: as_text(RSS, "application/rss+xml")}) as srv:
        (talks,) = Feeds(fetcher, (), rng).read(srv.url("/rss.xml"))  # the short item has no text
    assert talks.title == "Talks resume between the two delegations" and talks.domain == "World news"
    assert "opening positions of both sides" in talks.text and "<b>" not in talks.text
    assert talks.links == ("https://news.example/world/talks",) and talks.kind == "feed"


def test_an_atom_feed_is_read_with_its_next_page(fetcher, rng):
    with serve({}) as srv:
        srv.routes["/atom"] = lambda s: as_text(atom(1, srv.url("/atom?page=2")), "application/atom+xml")
        srv.routes["/atom"] = lambda s: as_text(
            atom(int(s.query.get("page", 1)), None if s.query.get("page") else srv.url("/atom?page=2")),
            "application/atom+xml",
        )
        contents = Feeds(fetcher, (srv.url("/atom"),), rng).read("")  # one of the configured feeds
    assert [c.title for c in contents] == ["Entry 1: theory and practice", "Entry 2: theory and practice"]
    assert srv.seen[1].query == {"page": "2"}


def test_not_a_feed_a_404_and_no_feed_configured_are_clear(fetcher, rng):
    with serve({"/page": lambda s: as_text("<html><body>hello</body></html>", "text/html")}) as srv:
        feeds = Feeds(fetcher, (), rng)
        with pytest.raises(SourceError, match="is not an RSS or Atom feed"):
            feeds.read(srv.url("/page"))
        with pytest.raises(SourceError, match="HTTP 404"):
            feeds.read(srv.url("/gone"))
        with pytest.raises(SourceError, match="no feed configured \\(set WANDER_FEEDS"):
            feeds.read("")
