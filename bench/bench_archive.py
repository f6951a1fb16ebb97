"""Archive benchmark (000 "Visual Encoding for Session Archives"): one offline wander over
Postgres, measured as it grows (50, 150, 300, 1,000 and 5,000 steps): the size of
archive.json as stored rows give it (raw, and gzipped as it goes on the wire), the
compressed text's length in tokens (the MiniLM tokenizer that ships with Wander, offline;
000 asks for 500-2,000), and the plot's PNG at 1024 and 512. Prints `name: value unit`.

WANDER_BENCH_ARCHIVE_STEPS (comma-separated) changes the checkpoints."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from wander.adapters.embed.minilm import MiniLMEmbedder  # noqa: E402
from wander.adapters.postgres.database import ensure_embedded_database  # noqa: E402
from wander.adapters.postgres.kb_repository import KbRepository  # noqa: E402
from wander.adapters.projection.tokens import count_tokens  # noqa: E402
from wander.bootstrap.archivist import open_archivist  # noqa: E402
from wander.bootstrap.settings import load_settings  # noqa: E402
from wander.bootstrap.wiring import NoProgress, ensure_corpus, open_app, open_database  # noqa: E402
from wander.core.archive.build import document  # noqa: E402
from wander.core.archive.markdown import render_markdown  # noqa: E402
from wander.core.archive.plot import render_png  # noqa: E402
from wander.core.archive.service import Archivist  # noqa: E402
from wander.core.engine.service import NewWander  # noqa: E402

CHECKPOINTS = [int(x) for x in os.environ.get("WANDER_BENCH_ARCHIVE_STEPS", "50,150,300,1000,5000").split(",")]


async def main() -> None:
    home = Path(tempfile.gettempdir()) / "wander-bench-archive"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    url = ensure_embedded_database(home / "pg", "bench")
    settings = load_settings({"WANDER_DATABASE_URL": url, "WANDER_HOME": str(home), "WANDER_PROJECTION": "pca"})
    embedder = MiniLMEmbedder()
    embedder.embed(["warm up"])
    db = await open_database(settings)
    await ensure_corpus(KbRepository(db), embedder, NoProgress())
    await db.dispose()
    async with open_app(settings, embedder=embedder) as app:
        archivist = open_archivist(app.db, app.bus, app.settings, embedder=embedder)
        s = await app.engine.create(
            NewWander(
                seed_concept="information asymmetry",
                attractor="economic opportunity in financial intelligence",
                max_steps=max(CHECKPOINTS),
                random_seed=1,
                human_checkpoint_frequency=0,
            )
        )
        for n in CHECKPOINTS:
            while (session := await app.store.get_session(s.id)).step_count < n:
                if session.status != "active":  # a breaker paused it: note it and go on
                    print(f"# paused at step {session.step_count}: {session.stopped_reason}")
                    await app.engine.set_status(s.id, "active")
                await app.engine.run(s.id, n_steps=n - session.step_count)
            await report(archivist, s.id, n)
        await archivist.close()


async def report(archivist: Archivist, session_id: str, n: int) -> None:
    rows = await archivist.rows(session_id)
    points, _ = await archivist._points(session_id, rows)
    t = time.perf_counter()
    body = json.dumps(document(rows, final=False), separators=(",", ":")).encode()
    wire = gzip.compress(body, 6)
    export_ms = (time.perf_counter() - t) * 1000
    text = render_markdown(rows)
    keep = os.environ.get("WANDER_BENCH_ARCHIVE_KEEP")  # a folder: the rows kept, to measure again
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        (Path(keep) / f"rows-{n}.json.gz").write_bytes(wire)
    print(f"archive_json_{n}_steps: {len(body) / 1e6:.2f} MB")
    print(f"archive_json_gzip_{n}_steps: {len(wire) / 1e6:.2f} MB ({len(body) / len(wire):.1f}x smaller)")
    print(f"archive_json_encode_and_gzip_{n}_steps: {export_ms:.0f} ms")
    print(f"compressed_text_{n}_steps: {count_tokens(text)} tokens (MiniLM tokenizer; 000: 500-2000)")
    for size in (1024, 512):
        png = render_png(rows, points, size)
        print(f"plot_png_{size}_{n}_steps: {len(png) / 1e3:.0f} kB")
        if keep:
            (Path(keep) / f"umap-{n}-steps-{size}.png").write_bytes(png)
    print(f"crystals_{n}_steps: {len(rows['crystals'])}; loci: {len(rows['loci'])}")


if __name__ == "__main__":
    asyncio.run(main())
