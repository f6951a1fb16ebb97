"""Choice of array module for the CA kernel: CuPy on a CUDA device, NumPy otherwise.

The kernel is written once against an ``xp`` module. ``WANDER_CA_BACKEND`` picks it (the
composition root, wander.bootstrap, hands it to :func:`use_backend` at start-up; this module
reads no settings):

- ``numpy``: always NumPy;
- ``cupy``: CuPy, and a clear :class:`CABackendError` when CuPy or a CUDA device is missing;
- ``auto`` (default): CuPy when it imports and ``cupy.cuda.is_available()``, NumPy otherwise.

CuPy is imported lazily, only when asked for or probed, so importing this module costs
nothing on a machine without it.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

BACKENDS = ("auto", "numpy", "cupy")


class CABackendError(RuntimeError):
    """The requested CA backend cannot be used here."""


_cupy_probe: tuple[ModuleType | None, str] | None = None
_default_backend = "auto"  # what a call naming no backend gets: WANDER_CA_BACKEND, via use_backend


def use_backend(backend: str) -> None:
    """Make `backend` (WANDER_CA_BACKEND) what every CA call in this process that names none
    runs on (checked there, as a named one is: CABackendError for an unknown name)."""
    global _default_backend
    _default_backend = backend


def _probe_cupy() -> tuple[ModuleType | None, str]:
    """Import CuPy and check for a device once; (module or None, reason when None)."""
    global _cupy_probe
    if _cupy_probe is None:
        try:
            import cupy  # type: ignore[import-not-found]
        except Exception as exc:  # ImportError, or a broken CUDA install raising anything
            _cupy_probe = (None, f"cupy is not importable ({type(exc).__name__}: {exc})")
        else:
            try:
                ok = bool(cupy.cuda.is_available())
            except Exception as exc:
                ok, why = False, f"CUDA probe failed ({type(exc).__name__}: {exc})"
            else:
                why = "no CUDA device is available"
            _cupy_probe = (cupy, "") if ok else (None, why)
    return _cupy_probe


def cupy_available() -> bool:
    return _probe_cupy()[0] is not None


def requested_backend(backend: str | None = None) -> str:
    """The backend asked for: the argument, else the process's (use_backend), else 'auto'."""
    if backend is None:
        backend = _default_backend
    name = backend.strip().lower() or "auto"
    if name not in BACKENDS:
        raise CABackendError(f"WANDER_CA_BACKEND: unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    return name


def get_xp(backend: str | None = None) -> ModuleType:
    """The array module to use (numpy or cupy) for ``backend`` (default: the process's, see use_backend)."""
    name = requested_backend(backend)
    if name == "numpy":
        return np
    cupy, why = _probe_cupy()
    if cupy is not None:
        return cupy
    if name == "cupy":
        raise CABackendError(f"WANDER_CA_BACKEND: 'cupy' was asked for but {why}; use 'numpy' or 'auto'")
    return np


def active_backend(backend: str | None = None) -> tuple[str, str]:
    """(the backend the CA kernel runs on here: 'numpy' or 'cupy', why) for `wander doctor`."""
    name = requested_backend(backend)
    if name == "numpy":
        return "numpy", "WANDER_CA_BACKEND=numpy"
    cupy, why = _probe_cupy()
    if cupy is not None:
        return "cupy", "CuPy on a CUDA device"
    if name == "cupy":
        return "none", f"'cupy' was asked for but {why}"
    return "numpy", f"NumPy fallback: {why}"


def backend_name(xp: ModuleType) -> str:
    return "cupy" if xp.__name__.startswith("cupy") else "numpy"


def available_backends() -> list[str]:
    """Backends that work on this machine ('numpy' always, 'cupy' with a CUDA device)."""
    return ["numpy", "cupy"] if cupy_available() else ["numpy"]


def array_module_of(a: Any) -> ModuleType:
    """The module that owns array ``a`` (numpy for anything that is not a CuPy array)."""
    mod = type(a).__module__
    if mod.startswith("cupy"):
        return _probe_cupy()[0] or np
    return np


def to_numpy(a: Any) -> np.ndarray:
    """Host copy of a NumPy or CuPy array (NumPy arrays pass through)."""
    if isinstance(a, np.ndarray):
        return a
    get = getattr(a, "get", None)
    if get is not None:
        return get()
    return np.asarray(a)
