"""Errors that faces translate into clear messages (CLI exit 2, HTTP 4xx)."""

from __future__ import annotations


class WanderError(Exception):
    """Base for errors a user can act on."""


class InvalidInput(WanderError):
    """A field failed validation; the message names the field and the reason."""

    def __init__(self, field: str, reason: str, suggestions: list[str] | None = None):
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason
        self.suggestions = suggestions  # what the field could have been, where that is known


class NotFound(WanderError):
    def __init__(self, what: str, ident: str):
        super().__init__(f"{what} not found: {ident}")
        self.what = what
        self.ident = ident


class Conflict(WanderError):
    """The request does not fit the current state (e.g. stepping a completed wander)."""


class StepAlreadyCommitted(Conflict):
    """Another run committed this step number first; the caller reloads and goes on."""


class ResonanceMoved(WanderError):
    """A resonance this step changed was changed meanwhile by another wander of the project:
    the step's transaction is rolled back and the step is taken again over the fresh
    resonances (a lost reinforcement otherwise)."""


class NoCandidates(WanderError):
    """No concept in scope is reachable from the current locus: the wander cannot go on."""


class Refused(WanderError):
    """An action the human gate or a limit refuses: 403 (no valid approval) or 409 (state,
    replay, a changed image, a limit); the message is the reason."""

    def __init__(self, reason: str, status: int = 409):
        super().__init__(reason)
        self.reason = reason
        self.status = status


class StoreUnavailable(WanderError):
    """The store could not write (its disk is full, it hit an I/O error): nothing of the
    change was written, and the same request can be made again once the store is back
    (HTTP 503; a run pauses and says why)."""
