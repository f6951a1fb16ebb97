"""SANDWICH's sources and corpus against the real embedder and Postgres: a PDF (written by
hand here, read by pypdf), a URL served on 127.0.0.1, the user's imported notes, the cosine
novelty threshold on a near-duplicate (not an exact one), the relation table, and the
wanders' crystals stored as sandwiches of the same corpus (origin 'crystal') when
crystal.formed goes by on the bus."""

from __future__ import annotations

import threading
import types
import uuid
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from sqlalchemy import insert, text

from shared_schemas.events import Subject
from tests.api.conftest import API, create
from wander.adapters.postgres.columns import DEFAULT_VECTOR_DIM as DIM  # the tests run with WANDER_EMBED_DIM unset
from wander.adapters.postgres.kb_repository import KbRepository
from wander.adapters.postgres.tables import DEFAULT_PROJECT_ID, WanderCrystal
from wander.adapters.sources.egress import EgressPolicy
from wander.bootstrap.foraging import make_forager
from wander.bootstrap.wiring import NoProgress, import_notes, load_knowledge
from wander.core.domain.models import Event
from wander.core.domain.sandwich_views import UnstoredCrystal
from wander.core.sandwich.forager import NOVELTY_COS
from wander.core.sandwich.model import DUPLICATE

MARKETS = (
    "In a market a buyer and a seller meet at a price. The seller knows the quality of the goods and the "
    "buyer does not. This asymmetry of information is why warranties, reputation and trust matter: they "
    "carry knowledge from the seller to the buyer, and the price settles between supply and demand."
)
RIVERS = (
    "A river carries sediment from the mountain to the sea. Where it meets the ocean the delta spreads the "
    "sediment into channels between the land and the water, and the tide pushes salt water upstream."
)


async def rows(app, sql: str, **params):
    async with app.db.connect() as conn:
        return [dict(r._mapping) for r in (await conn.execute(text(sql), params)).all()]


def minimal_pdf(lines: list[str]) -> bytes:
    """A one-page PDF 1.4 with the lines in Helvetica, its xref offsets computed."""

    def esc(s: str) -> str:
        return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    stream = "BT /F1 11 Tf 14 TL 72 720 Td " + " ".join(f"({esc(line)}) Tj T*" for line in lines) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


async def test_forage_from_a_pdf(app, tmp_path):
    words = MARKETS.split()
    lines = [" ".join(words[i : i + 10]) for i in range(0, len(words), 10)]
    pdf = tmp_path / "papers" / "markets.pdf"
    pdf.parent.mkdir()
    pdf.write_bytes(minimal_pdf(lines))
    summary = await make_forager(app, seed=1).run(patience=5, source=str(pdf))
    (entry,) = await app.sandwiches.log(summary.run_id)
    assert summary.mode == "directed" and summary.status == "completed"
    assert (entry.source_kind, entry.source_title) == ("file", "markets") and entry.source_ref.startswith(str(pdf))
    (source,) = await rows(app, "SELECT content, domain FROM sandwich_sources WHERE ref = :r", r=entry.source_ref)
    assert "asymmetry of information" in " ".join(source["content"].split()) and source["domain"] == "papers"
    # A damaged PDF is a source error with its reason, not a crash.
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\nnot really\n")
    failed = await make_forager(app, seed=1).run(patience=2, source=str(broken))
    (err,) = await app.sandwiches.log(failed.run_id)
    assert failed.status == "failed" and "cannot read PDF" in err.outcome_rationale


async def test_forage_from_a_reachable_url(app):
    page = (
        f"<html><head><title>Markets and rivers</title></head><body><h1>Markets</h1><p>{MARKETS}</p>"
        f"<h1>Rivers</h1><p>{RIVERS}</p><script>tracker()</script></body></html>"
    ).encode()
    served: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            served.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/notes/page.html"
        loopback = EgressPolicy.from_settings(["127.0.0.1/32"])  # internal addresses are refused by default
        summary = await make_forager(app, seed=2, policy=loopback).run(patience=5, source=url)
    finally:
        httpd.shutdown()
        httpd.server_close()
    log = await app.sandwiches.log(summary.run_id)
    assert served == ["/robots.txt", "/notes/page.html"] and summary.attempts == 2 == len(log)
    assert {r.source_kind for r in log} == {"url"} and all(r.source_ref.startswith(url) for r in log)
    contents = [
        r["content"] for r in await rows(app, "SELECT content FROM sandwich_sources WHERE kind = 'url' ORDER BY ref")
    ]
    assert "asymmetry of information" in contents[0] and "sediment" in contents[1]
    assert not any("tracker" in c for c in contents)


async def test_autonomous_foraging_draws_on_imported_notes(app, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "markets.md").write_text(f"# Markets\n\n{MARKETS}\n")
    (notes / "rivers.md").write_text(f"# Rivers\n\n{RIVERS}\n")
    kb = KbRepository(app.db)
    assert await import_notes(kb, app.embedder, notes, NoProgress()) == 2
    knowledge = await load_knowledge(kb)
    imported = {
        knowledge.concept(i).key for i in range(len(knowledge)) if knowledge.concept(i).source.startswith("import:")
    }
    assert len(imported) == 2
    with_notes = types.SimpleNamespace(
        knowledge=knowledge, embedder=app.embedder, sandwiches=app.sandwiches, bus=app.bus
    )
    summary = await make_forager(with_notes, seed=11).run(patience=30, max_attempts=15)
    log = await app.sandwiches.log(summary.run_id)
    from_notes = [r for r in log if r.source_kind == "notes"]
    assert from_notes and {r.source_ref for r in from_notes} <= imported
    assert {r.source_kind for r in log} == {"notes", "corpus"}


async def test_a_near_duplicate_is_turned_down_by_the_cosine_threshold(app, tmp_path):
    forager = make_forager(app, seed=3)
    first = tmp_path / "a" / "markets.md"
    first.parent.mkdir()
    first.write_text(MARKETS + "\n")
    await forager.run(patience=2, source=str(first))
    near = tmp_path / "b" / "markets.md"
    near.parent.mkdir()
    near.write_text(MARKETS.replace("a buyer and a seller", "a buyer and a merchant") + "\n")
    again = await forager.run(patience=2, source=str(near))
    (entry,) = await app.sandwiches.log(again.run_id)
    assert entry.outcome == DUPLICATE and "too close to recently foraged content" in entry.outcome_rationale
    cosine = float(entry.outcome_rationale.split("cosine ")[1].split(" ")[0])
    assert NOVELTY_COS <= cosine < 1.0
    other = tmp_path / "c" / "rivers.md"
    other.parent.mkdir()
    other.write_text(RIVERS + "\n")
    (fresh,) = await app.sandwiches.log((await forager.run(patience=2, source=str(other))).run_id)
    assert fresh.outcome != DUPLICATE


async def test_crystals_become_sandwiches_with_relations(app, client):
    session = await create(client, max_steps=5, random_seed=4)
    assert (await client.post(f"{API}/{session['id']}/step")).status_code == 200
    loci = (await client.get(f"{API}/{session['id']}/loci", params={"visited": True})).json()
    assert len(loci) == 2
    fillings = ["price signal", "warranty"]
    ids = []
    for filling in fillings:
        cid = uuid.uuid4()
        ids.append(str(cid))
        async with app.db.begin() as conn:
            await conn.execute(
                insert(WanderCrystal.__table__).values(
                    id=cid,
                    project_id=DEFAULT_PROJECT_ID,
                    session_id=uuid.UUID(session["id"]),
                    insight=f"{loci[0]['concept']} and {loci[1]['concept']} meet in a {filling}",
                    embedding=app.embedder.embed([filling])[0],
                    confidence=0.8,
                    actionability=0.5,
                    domains=["possession"],
                    bread_a_locus_id=uuid.UUID(loci[0]["id"]),
                    bread_b_locus_id=uuid.UUID(loci[1]["id"]),
                    structural_type="Bridging",
                    validity={"V": 0.81, "verdict": "accepted", "filling": filling},
                )
            )
        (pending,) = [c for c in await app.sandwiches.unstored_crystals() if c.id == str(cid)]
        assert isinstance(pending, UnstoredCrystal) and (pending.bread_a, pending.bread_b) == (
            loci[0]["concept"],
            loci[1]["concept"],
        )
        assert pending.bread_a_embedding.shape == (DIM,) and pending.validity["filling"] == filling
        # As the engine announces a crystal: the bus subscriber stores it in the corpus.
        await app.bus.publish(
            [
                Event(
                    session_id=session["id"],
                    seq=10_000 + len(ids),
                    subject=str(Subject.CRYSTAL_FORMED),
                    ts=datetime.now(UTC),
                    payload={"crystal_id": str(cid)},
                )
            ]
        )
    stored = await rows(
        app, "SELECT id, crystal_id, origin, bread_top, filling, bread_bottom FROM sandwiches ORDER BY created_at"
    )
    assert [(str(r["crystal_id"]), r["origin"], r["filling"]) for r in stored] == [
        (i, "crystal", f) for i, f in zip(ids, fillings)
    ]
    assert all((r["bread_top"], r["bread_bottom"]) == (loci[0]["concept"], loci[1]["concept"]) for r in stored)
    listed = (await client.get("/api/v1/sandwich/sandwiches", params={"origin": "crystal"})).json()
    assert sorted(s["crystal_id"] for s in listed) == sorted(ids)
    # The second sandwich is related to the first: same breads (and their ingredients counted twice).
    relations = await rows(app, "SELECT sandwich_a, sandwich_b, relation_type, rationale FROM sandwich_relations")
    same = [r for r in relations if r["relation_type"] == "same_bread"]
    assert [(r["sandwich_a"], r["sandwich_b"]) for r in same] == [(stored[1]["id"], stored[0]["id"])]
    assert loci[0]["concept"] in same[0]["rationale"] and loci[1]["concept"] in same[0]["rationale"]
    usage = await rows(app, "SELECT text, usage_count FROM sandwich_ingredient_catalog WHERE ingredient_type = 'bread'")
    assert {r["text"]: r["usage_count"] for r in usage} == {loci[0]["concept"]: 2, loci[1]["concept"]: 2}
