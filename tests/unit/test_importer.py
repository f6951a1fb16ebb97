from pathlib import Path

import pytest

from wander.adapters.kb.importer import read_notes
from wander.core.domain.errors import InvalidInput


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


def test_symbolic_links_out_of_the_named_folder_are_not_followed(tmp_path: Path):
    notes, secret = tmp_path / "notes", tmp_path / "elsewhere"
    notes.mkdir()
    (secret / "keys").mkdir(parents=True)
    (notes / "mine.md").write_text("# Mine\nMy own thought.\n")
    (notes / "sub").mkdir()
    (notes / "sub" / "also.md").write_text("Another own thought.\n")
    (secret / "secret.md").write_text("# Secret\nNot yours to import.\n")
    (secret / "keys" / "k.txt").write_text("a private key\n")
    (notes / "link-to-file.md").symlink_to(secret / "secret.md")
    (notes / "link-to-folder").symlink_to(secret / "keys", target_is_directory=True)
    (notes / "inside.md").symlink_to(notes / "sub" / "also.md")  # stays inside: followed
    chunks = read_notes(notes)
    texts = " ".join(c.text for c in chunks)
    assert "My own thought" in texts and "Another own thought" in texts
    assert "Not yours" not in texts and "private key" not in texts
    assert {c.file for c in chunks} == {"mine.md", "sub/also.md", "inside.md"}
