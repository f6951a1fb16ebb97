from pathlib import Path

import pytest

from wander.domain.errors import InvalidInput
from wander.kb.importer import read_notes


def test_chunks_per_heading_and_paragraph_with_domains(tmp_path: Path):
    (tmp_path / "finance" / "ideas").mkdir(parents=True)
    (tmp_path / "finance" / "ideas" / "a.md").write_text(
        "Intro paragraph about #markets.\n\nSecond paragraph.\n\n# Pricing power\nFirms with #moats set prices.\n"
        "## Risk\nTail events.\n"
    )
    (tmp_path / "loose.txt").write_text("One thought.\n\nAnother thought #later")
    (tmp_path / "skip.bin").write_bytes(b"\x00\x01")
    chunks = read_notes(tmp_path)
    labels = [c.label for c in chunks]
    assert "Pricing power" in labels and "Risk" in labels
    pricing = next(c for c in chunks if c.label == "Pricing power")
    assert pricing.domains == ("finance", "ideas", "moats")
    intro = next(c for c in chunks if c.text.startswith("Intro"))
    assert "markets" in intro.domains
    loose = [c for c in chunks if c.file == "loose.txt"]
    assert len(loose) == 2 and loose[0].domains == ("notes",) and loose[1].domains == ("later",)
    assert len({c.key for c in chunks}) == len(chunks)


def test_missing_and_wrong_paths_are_refused(tmp_path: Path):
    with pytest.raises(InvalidInput, match="does not exist"):
        read_notes(tmp_path / "nope")
    (tmp_path / "x.pdf").write_bytes(b"%PDF")
    with pytest.raises(InvalidInput, match="not a Markdown"):
        read_notes(tmp_path / "x.pdf")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InvalidInput, match="no Markdown"):
        read_notes(tmp_path / "empty")
