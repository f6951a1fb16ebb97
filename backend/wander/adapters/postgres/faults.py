"""Database errors that mean the store cannot serve now, not that the request was wrong.

- cannot write: SQLSTATE class 53 (insufficient resources: 53100 disk full, 53200 out of
  memory, 53300 too many connections) and class 58 (I/O error). The step's writes raise
  them as StoreUnavailable: a request gets 503 and a run pauses, saying why.
- away: a lost or refused connection, the server shutting down (class 08, 57P). They pass
  through unchanged (a worker waits and retries them, store/leases.py); faces answer 503."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import DBAPIError

from wander.adapters.postgres.leases import is_transient_db_error
from wander.core.domain.errors import StoreUnavailable

CANNOT_WRITE = ("53", "58")
AWAY = ("08", "57P")
WHY = {
    "53100": "the database's disk is full",
    "53200": "the database is out of memory",
    "53300": "the database has too many connections",
}


def sqlstate(exc: BaseException) -> str | None:
    """The SQLSTATE of a driver error, through SQLAlchemy's wrapping (asyncpg: .sqlstate)."""
    cur: BaseException | None = exc
    for _ in range(4):
        if cur is None:
            return None
        code = getattr(cur, "sqlstate", None) or getattr(cur, "pgcode", None)
        if isinstance(code, str):
            return code
        orig = getattr(cur, "orig", None)
        cur = orig if isinstance(orig, BaseException) and orig is not cur else cur.__cause__
    return None


def cannot_write(exc: BaseException) -> bool:
    code = sqlstate(exc)
    return isinstance(exc, DBAPIError) and code is not None and code.startswith(CANNOT_WRITE)


def unavailable(exc: BaseException) -> bool:
    """The store cannot write or cannot be reached: 503, not 500."""
    if cannot_write(exc):
        return True
    code = sqlstate(exc)
    return (code is not None and code.startswith(AWAY)) or is_transient_db_error(exc)


def why(exc: BaseException) -> str:
    """A sentence for people: what is wrong with the store, with no SQL and no stack."""
    code = sqlstate(exc) or ""
    if code in WHY:
        return WHY[code]
    if code.startswith("53"):
        return f"the database is out of resources (SQLSTATE {code})"
    if code.startswith("58"):
        return f"the database hit an I/O error (SQLSTATE {code})"
    if code.startswith("57P"):
        return "the database is shutting down or restarting"
    return "the connection to the database was lost"


@contextmanager
def writing(what: str) -> Iterator[None]:
    """Around a write's transaction: a failure that is the store's state, not the change's,
    becomes StoreUnavailable (the transaction has rolled back: nothing was written)."""
    try:
        yield
    except DBAPIError as exc:
        if not cannot_write(exc):
            raise
        raise StoreUnavailable(f"the store could not write {what}: {why(exc)}; nothing was written") from exc
