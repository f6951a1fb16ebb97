"""The batched kernel on CuPy with one fused CUDA pass per tick in place of the elementwise
passes (the pass itself: wander.adapters.ca.cuda_tick)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from .. import cuda_tick
from ..xp import backend_name
from .batched import Batch


class CudaBatch(Batch):
    """:class:`Batch` on CuPy with one fused CUDA pass per tick (:mod:`wander.adapters.ca.cuda_tick`).

    Same buffers and decisions; the torus wraps inside the pass, so there is no halo to
    refresh and no masks to keep. The roles of a tick are written by that tick's update
    pass; when the driver reads the role window before the update (an oscillation check),
    the pending roles are written first by a roles-only pass.
    """

    def __init__(self, frames: Any, xp: ModuleType, with_roles: bool, track_change: bool = True):
        self._cuda = cuda_tick
        self._track_change = track_change
        self._pending_slot = -1
        super().__init__(frames, xp, with_roles)
        self._no_ring = xp.zeros((1, 1, 1, 1), dtype=xp.int8)

    def _pass_buffers(self, size: int) -> None:
        pass  # the fused pass needs no scratch

    def _tick(self, m: int, role_slot: int, write_next: bool) -> None:
        ring = self.ring if self.ring is not None else self._no_ring
        self._cuda.tick(
            self.xp,
            self.P,
            self.Q,
            self.g,
            ring,
            m,
            role_slot=role_slot,
            write_next=write_next,
            write_change=self._track_change,
        )

    def halo(self, m: int) -> None:
        pass

    def extrema(self, m: int) -> None:
        pass

    def roles_into_ring(self, m: int, slot: int) -> None:
        self._pending_slot = slot

    def role_window(self, m: int, t: int) -> Any:
        if self._pending_slot >= 0:
            self._tick(m, self._pending_slot, write_next=False)
            self._pending_slot = -1
        return super().role_window(m, t)

    def update(self, m: int, first: bool) -> None:
        self._tick(m, self._pending_slot, write_next=True)
        self._pending_slot = -1


def new_batch(frames: Any, xp: ModuleType, with_roles: bool, cuda: bool, track_change: bool = True) -> Batch:
    return CudaBatch(frames, xp, with_roles, track_change) if cuda else Batch(frames, xp, with_roles)


def cuda_pass_for(arr: Any, xp: ModuleType, fused: bool | None) -> bool:
    """Whether this batch takes the fused CUDA pass: on CuPy unless ``fused`` is False.
    Frames holding NaN take the elementwise passes, as on NumPy."""
    if fused is False or backend_name(xp) != "cupy":
        return False
    return not bool(xp.isnan(arr).any())
