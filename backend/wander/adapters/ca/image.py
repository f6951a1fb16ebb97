"""Pictures of frames: an attractor as PNG, a brick as animated GIF or PNG strip (Pillow).

Values in [-1, 1] map to grey levels (black -1, white +1) or, with the diverging map,
blue (-1) through white (0) to red (+1). Frames are enlarged by whole-pixel repetition
(nearest neighbour), so each cell stays a crisp square.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

GRAY = "gray"
DIVERGING = "diverging"
COLORMAPS = (GRAY, DIVERGING)

_BLUE = np.array([33, 102, 172], dtype=np.float32)
_WHITE = np.array([247, 247, 247], dtype=np.float32)
_RED = np.array([178, 24, 43], dtype=np.float32)


def _check(frame: Any) -> np.ndarray:
    f = np.asarray(frame, dtype=np.float32)
    if f.ndim != 2 or f.size == 0:
        raise ValueError(f"frame: expected a non-empty 2-D array, got shape {f.shape}")
    return np.nan_to_num(np.clip(f, -1.0, 1.0))


def _scale_ok(scale: int) -> int:
    if int(scale) != scale or scale < 1 or scale > 64:
        raise ValueError(f"scale: must be an integer in 1..64, got {scale!r}")
    return int(scale)


def frame_rgb(frame: Any, colormap: str = DIVERGING, scale: int = 4) -> np.ndarray:
    """(H*scale, W*scale) uint8 grey, or (H*scale, W*scale, 3) uint8 RGB."""
    f = _check(frame)
    scale = _scale_ok(scale)
    if colormap == GRAY:
        img = np.rint((f + 1.0) * 127.5).astype(np.uint8)
    elif colormap == DIVERGING:
        t = f[..., None]
        neg = _WHITE + (_BLUE - _WHITE) * np.clip(-t, 0, 1)
        pos = _WHITE + (_RED - _WHITE) * np.clip(t, 0, 1)
        img = np.rint(np.where(t < 0, neg, pos)).astype(np.uint8)
    else:
        raise ValueError(f"colormap: must be one of {', '.join(COLORMAPS)}, got {colormap!r}")
    if scale > 1:
        img = np.repeat(np.repeat(img, scale, axis=0), scale, axis=1)
    return img


def _pil(arr: np.ndarray):
    from PIL import Image

    return Image.fromarray(np.ascontiguousarray(arr))  # uint8: 'L' for 2-D, 'RGB' for 3 bands


def attractor_png(frame: Any, *, scale: int = 4, colormap: str = DIVERGING) -> bytes:
    """PNG bytes of one frame (an attractor, or any frame)."""
    buf = io.BytesIO()
    _pil(frame_rgb(frame, colormap, scale)).save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _history_of(brick: Any) -> np.ndarray:
    h = getattr(brick, "history", brick)
    h = np.asarray(h, dtype=np.float32)
    if h.ndim != 3 or h.shape[0] == 0:
        raise ValueError(f"history: expected (T, H, W) with T >= 1, got shape {h.shape}")
    return h


def pick_ticks(n_frames: int, count: int) -> list[int]:
    """Up to ``count`` evenly spaced ticks of 0..n_frames-1, always first and last."""
    if count < 1:
        raise ValueError(f"frames: must be at least 1, got {count}")
    if n_frames <= count:
        return list(range(n_frames))
    if count == 1:
        return [n_frames - 1]
    idx = np.linspace(0, n_frames - 1, count)
    return sorted({int(round(i)) for i in idx})


def brick_gif(
    brick: Any,
    *,
    scale: int = 4,
    colormap: str = DIVERGING,
    max_frames: int = 120,
    frame_ms: int = 80,
    hold_last_ms: int = 1000,
) -> bytes:
    """Animated GIF (looping) of a brick's ticks, at most ``max_frames`` of them."""
    h = _history_of(brick)
    ticks = pick_ticks(h.shape[0], max_frames)
    images = [_pil(frame_rgb(h[t], colormap, scale)) for t in ticks]
    if colormap == DIVERGING:
        from PIL import Image

        images = [im.convert("P", palette=Image.Palette.ADAPTIVE, colors=255) for im in images]
    durations = [frame_ms] * len(images)
    durations[-1] = max(frame_ms, hold_last_ms)
    buf = io.BytesIO()
    images[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=durations,
        loop=0,
        disposal=1,
    )
    return buf.getvalue()


def brick_strip(
    brick: Any,
    *,
    frames: int = 8,
    scale: int = 2,
    gap: int = 2,
    colormap: str = DIVERGING,
) -> bytes:
    """PNG of ``frames`` evenly spaced ticks side by side, seed first, attractor last."""
    h = _history_of(brick)
    ticks = pick_ticks(h.shape[0], frames)
    tiles = [frame_rgb(h[t], colormap, scale) for t in ticks]
    th, tw = tiles[0].shape[:2]
    width = len(tiles) * tw + (len(tiles) - 1) * gap
    shape = (th, width) if tiles[0].ndim == 2 else (th, width, 3)
    canvas = np.full(shape, 255, dtype=np.uint8)
    for i, tile in enumerate(tiles):
        x = i * (tw + gap)
        canvas[:, x : x + tw] = tile
    buf = io.BytesIO()
    _pil(canvas).save(buf, format="PNG", optimize=True)
    return buf.getvalue()


__all__ = ["COLORMAPS", "DIVERGING", "GRAY", "attractor_png", "brick_gif", "brick_strip", "frame_rgb", "pick_ticks"]
