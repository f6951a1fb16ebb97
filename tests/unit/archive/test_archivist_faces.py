"""What the API's archive controller hands to the archivist: the archive search embeds its
query off the event loop and checks the status against the session statuses an archive
can have; the stored archive and the export say what is missing or not final."""

from __future__ import annotations

import threading
import uuid

import numpy as np
import pytest

from wander.core.archive.build import ARCHIVED_STATUSES
from wander.core.archive.service import Archivist
from wander.core.domain.errors import Conflict, InvalidInput, NotFound
from wander.core.domain.models import SessionStatus


class Embedder:
    def __init__(self):
        self.threads: list[str] = []

    def embed(self, texts):
        self.threads.append(threading.current_thread().name)
        return np.ones((len(texts), 4), dtype=np.float32)


class Repo:
    def __init__(self, status: str = "completed"):
        self.calls: list[dict] = []
        self.status = status
        self.sid = str(uuid.uuid4())

    async def list_archives(self, **kw):
        self.calls.append(kw)
        return ["row"]

    async def archive(self, session_id):
        return None

    async def session_exists(self, session_id):
        return session_id == self.sid

    async def dump(self, session_id):
        return {"session": {"status": self.status}} if session_id == self.sid else None


async def test_search_embeds_in_a_thread_and_passes_the_filters():
    embedder, repo = Embedder(), Repo()
    archivist = Archivist(repo, bus=None, embedder=embedder)
    assert await archivist.search("  tidal markets  ", status="paused", has_crystals=True, limit=5) == ["row"]
    assert embedder.threads and embedder.threads[0] != threading.main_thread().name
    call = repo.calls[0]
    assert call["vector"].shape == (4,) and call["status"] == "paused" and call["has_crystals"] is True
    assert call["limit"] == 5
    await archivist.search(None)
    assert repo.calls[1]["vector"] is None and len(embedder.threads) == 1  # no query, no embedding


async def test_search_status_must_be_an_archived_session_status():
    archivist = Archivist(Repo(), bus=None, embedder=Embedder())
    assert set(ARCHIVED_STATUSES) == set(SessionStatus) - {SessionStatus.ACTIVE}
    with pytest.raises(InvalidInput) as e:
        await archivist.search(None, status="active")
    assert e.value.field == "status" and "completed, abandoned, paused" in e.value.reason


async def test_stored_archive_and_export_say_what_is_missing_or_not_final():
    repo = Repo(status="active")
    archivist = Archivist(repo, bus=None)
    with pytest.raises(NotFound) as nf:
        await archivist.stored(repo.sid)
    assert nf.value.what == "archive"
    with pytest.raises(NotFound) as nf:
        await archivist.stored("not-a-uuid")
    assert nf.value.what == "session"
    with pytest.raises(Conflict):
        await archivist.export(repo.sid, final=True)
    snapshot = await archivist.export(repo.sid, final=False)
    assert snapshot["final"] is False and snapshot["session"]["status"] == "active"
    repo.status = "paused"
    assert (await archivist.export(repo.sid))["final"] is True
    with pytest.raises(Conflict):
        await archivist.export(repo.sid, running=True)
    with pytest.raises(Conflict):
        await archivist.archive(repo.sid, running=True)
