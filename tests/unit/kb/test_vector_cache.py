"""The machine's corpus vector cache: embedded once, then read; a stale or broken file is
embedded again; two processes at once embed once; no folder or an unusable one still works."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import numpy as np

from wander.adapters.kb.vector_cache import corpus_vectors
from wander.bootstrap.settings import load_settings


def vectors(rows: int = 5, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((rows, 8)).astype(np.float32)


class Counting:
    def __init__(self, result: np.ndarray) -> None:
        self.result, self.calls = result, 0

    def __call__(self) -> np.ndarray:
        self.calls += 1
        return self.result


def test_embedded_once_then_read(tmp_path):
    first, again = Counting(vectors()), Counting(vectors(seed=1))
    a = corpus_vectors(tmp_path, "corpus:model", 5, first)
    b = corpus_vectors(tmp_path, "corpus:model", 5, again)
    assert (first.calls, again.calls) == (1, 0)
    assert np.array_equal(a, b) and b.dtype == np.float32
    # another corpus or another embedder is another file
    other = Counting(vectors(seed=2))
    assert np.array_equal(corpus_vectors(tmp_path, "corpus:other-model", 5, other), vectors(seed=2))
    assert other.calls == 1 and len(list(tmp_path.glob("corpus-*.npy"))) == 2


def test_a_file_that_does_not_fit_is_embedded_again(tmp_path):
    corpus_vectors(tmp_path, "k", 5, Counting(vectors()))
    (path,) = tmp_path.glob("corpus-*.npy")
    fresh = Counting(vectors(rows=6, seed=3))
    assert np.array_equal(corpus_vectors(tmp_path, "k", 6, fresh), vectors(rows=6, seed=3))  # rows changed
    assert fresh.calls == 1
    path.write_bytes(b"not a numpy file")
    broken = Counting(vectors(rows=6, seed=4))
    assert np.array_equal(corpus_vectors(tmp_path, "k", 6, broken), vectors(rows=6, seed=4))
    assert broken.calls == 1
    nan = vectors(rows=6)
    nan[2, 3] = np.nan
    np.save(path, nan)
    assert corpus_vectors(tmp_path, "k", 6, Counting(vectors(rows=6))).shape == (6, 8)
    assert not list(tmp_path.glob("*.tmp")), "no half-written file is left behind"


def test_without_a_usable_folder_it_embeds_every_time(tmp_path):
    each = Counting(vectors())
    corpus_vectors(None, "k", 5, each)
    corpus_vectors(None, "k", 5, each)
    assert each.calls == 2
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    assert np.array_equal(corpus_vectors(blocked / "sub", "k", 5, Counting(vectors())), vectors())


def _slow_embed_in_process(folder: str, log: str) -> None:
    def embed() -> np.ndarray:
        with open(log, "a") as fh:
            fh.write(f"{os.getpid()}\n")
        time.sleep(1.0)  # long enough that the other process asks meanwhile
        return vectors()

    got = corpus_vectors(Path(folder), "shared", 5, embed)
    assert np.array_equal(got, vectors())


def test_two_processes_at_once_embed_once(tmp_path):
    log = tmp_path / "embedded.log"
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_slow_embed_in_process, args=(str(tmp_path / "cache"), str(log))) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0]
    assert len(log.read_text().split()) == 1


def test_the_setting(tmp_path):
    assert load_settings({"WANDER_VECTOR_CACHE": "off"}).vector_cache_dir is None
    assert load_settings({"WANDER_VECTOR_CACHE": str(tmp_path)}).vector_cache_dir == tmp_path
    assert load_settings({}).vector_cache_dir.name == "vectors"
