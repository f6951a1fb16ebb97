"""Exported Markdown escapes what came from people and models: rendered by a
CommonMark parser, a hostile name, seed, concept, residue or insight stays literal text."""

from __future__ import annotations

from markdown_it import MarkdownIt

from tests.unit.archive.test_build import rows
from wander.core.archive.markdown import md, render_markdown

HOSTILE = "<script>alert(1)</script> [click](javascript:alert(1)) *loud* # heading | a | b |\n\n# injected"


def _html(text: str) -> str:
    return MarkdownIt("commonmark").enable("table").render(text)


def test_md_keeps_text_literal():
    html = _html(md(HOSTILE))
    assert "<script>" not in html and "<a " not in html and "<em>" not in html and "<h1>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "[click](javascript:alert(1))" in html and "*loud*" in html and "# injected" in html


def test_an_archive_with_hostile_text_renders_no_markup_from_it():
    r = rows()
    r["session"]["name"] = HOSTILE
    r["session"]["seed_concept"] = HOSTILE
    r["session"]["attractor"] = "<img src=x onerror=alert(1)>"
    r["loci"][2]["concept"] = "[evil](http://example.invalid)"
    r["residues"][4]["connection"] = "**bold** <b>raw</b>"
    r["resonances"][0]["themes"] = ["_theme_", "<i>x</i>"]
    r["crystals"][0]["insight"] = "| col | col |\n|---|---|\n| a | b |"
    html = _html(render_markdown(r))
    for tag in ("<script", "<img", "<a ", "<b>", "<i>", "<table", "<h1>#"):
        assert tag not in html, tag
    # the archive's own structure is still there: one title, its sections, the bold seed
    assert html.count("<h1>") == 1 and "<h2>Path</h2>" in html and "<strong>" in html
    assert "&lt;script&gt;" in html and "[evil](http://example.invalid)" in html
