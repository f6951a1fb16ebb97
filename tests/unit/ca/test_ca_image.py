from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from wander.adapters.ca.bricks import Brick
from wander.adapters.ca.image import attractor_png, brick_gif, brick_strip, frame_rgb
from wander.adapters.ca.kernel import evolve
from wander.adapters.ca.seed import hash_frame


@pytest.fixture(scope="module")
def brick():
    return Brick.from_evolution(evolve(hash_frame("picture me"), keep_history=True))


def test_attractor_png(brick):
    for cmap, mode in [("gray", "L"), ("diverging", "RGB")]:
        im = Image.open(io.BytesIO(attractor_png(brick.attractor, scale=3, colormap=cmap)))
        assert im.format == "PNG" and im.size == (192, 192) and im.mode == mode


def test_colours():
    f = np.array([[-1.0, 0.0, 1.0]], dtype=np.float32)
    g = frame_rgb(f, "gray", 1)
    assert g.tolist() == [[0, 128, 255]]
    d = frame_rgb(f, "diverging", 1)
    assert d[0, 0, 2] > d[0, 0, 0] and d[0, 2, 0] > d[0, 2, 2]  # blue, then red
    assert d[0, 1].tolist() == [247, 247, 247]


def test_brick_gif_and_strip(brick):
    gif = Image.open(io.BytesIO(brick_gif(brick)))
    assert gif.format == "GIF" and gif.n_frames > 1
    strip = Image.open(io.BytesIO(brick_strip(brick, frames=6, scale=2, gap=2)))
    assert strip.size == (6 * 128 + 5 * 2, 128)


def test_bad_arguments(brick):
    with pytest.raises(ValueError, match="scale"):
        attractor_png(brick.attractor, scale=0)
    with pytest.raises(ValueError, match="colormap"):
        attractor_png(brick.attractor, colormap="viridis")
