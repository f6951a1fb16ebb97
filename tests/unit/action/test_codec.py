"""The fractal codec: exact round trips; one changed pixel, one changed parameter or a
wrong key recovers nothing (property-based)."""

import dataclasses
import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from wander.core.action import codec

KEYS = codec.Keys.from_secret(b"k" * 32)
OTHER = codec.Keys.from_secret(b"j" * 32)
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
payloads = st.binary(min_size=0, max_size=3000)


@FAST
@given(payloads)
def test_round_trip_is_exact(plaintext):
    png, _params = codec.encode(plaintext, KEYS)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert codec.decode(png, KEYS) == plaintext


@FAST
@given(payloads, st.integers(min_value=0), st.integers(min_value=0, max_value=7))
def test_one_changed_pixel_fails(plaintext, where, bit):
    png, _params = codec.encode(plaintext, KEYS)
    pixels, p, tag = codec.from_png(png)
    flat = pixels.reshape(-1).copy()
    flat[where % flat.size] ^= np.uint8(1 << bit)
    with pytest.raises(codec.DecodeError):
        codec.decode(codec.to_png(flat.reshape(pixels.shape), p, tag), KEYS)


@FAST
@given(payloads, st.sampled_from(["c_re", "c_im", "zoom", "angle", "hue"]), st.floats(1e-6, 1.0))
def test_one_changed_parameter_fails(plaintext, name, delta):
    png, _ = codec.encode(plaintext, KEYS)
    pixels, p, tag = codec.from_png(png)
    changed = dataclasses.replace(p, **{name: getattr(p, name) + delta})
    with pytest.raises(codec.DecodeError):
        codec.decode(codec.to_png(pixels, changed, tag), KEYS)


@FAST
@given(payloads)
def test_a_wrong_key_recovers_nothing(plaintext):
    png, _ = codec.encode(plaintext, KEYS)
    with pytest.raises(codec.DecodeError):
        codec.decode(png, OTHER)


def test_a_forged_tag_over_changed_pixels_still_fails_without_the_key():
    """Recomputing the tag needs the MAC key: an attacker with another key is refused."""
    png, _ = codec.encode(b"open a paper position", KEYS)
    pixels, p, _ = codec.from_png(png)
    pixels = pixels.copy()
    pixels[0, 0, 0] ^= 1
    forged = codec.to_png(pixels, p, codec._tag(OTHER.mac, p, pixels))
    with pytest.raises(codec.DecodeError):
        codec.decode(forged, KEYS)


def test_the_image_is_a_fractal_and_not_noise():
    png, p = codec.encode(b"x" * 500, KEYS)
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
    assert rgb.shape == (p.side, p.side, 3)
    base = codec.render(p).astype(np.int16)
    # The hidden bits move each channel by at most 3: the picture is the Julia set's.
    assert np.abs(rgb - base).max() <= 3
    assert (base.max(axis=2) < 20).mean() > 0.01, "the set's interior shows"
    assert rgb.std() > 20, "an escape-time picture, not a flat image"


def test_not_an_image_is_a_decode_error():
    with pytest.raises(codec.DecodeError):
        codec.decode(b"not a png", KEYS)


def test_the_secret_is_made_once_and_private(tmp_path):
    a = codec.load_secret(tmp_path)
    assert codec.load_secret(tmp_path) == a and len(a) == 32
    assert (tmp_path / "action.key").stat().st_mode & 0o077 == 0
