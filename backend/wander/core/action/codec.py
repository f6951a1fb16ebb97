"""The fractal codec of 001's Fractal Security Layer, built from standard parts.

What it is: an action proposal is encrypted with AES-256-GCM, and the ciphertext is hidden
in the two low bits of each colour channel of a Julia set (an escape-time fractal) whose
parameters (c, zoom, rotation, hue) derive from an HMAC of the ciphertext. An HMAC-SHA256
tag over the parameters and every pixel travels in the PNG (text chunk ``wander``), so the
one PNG file is the whole audit record. Keys come from one secret through HKDF-SHA256.

What it is not: new cryptography. Secrecy is AES-GCM's and integrity is HMAC's (both from
the `cryptography` package); the fractal is obfuscation and a recognisable picture. A
holder of the secret decodes; one changed pixel, one changed parameter or a wrong key
fails with DecodeError and recovers nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

VERSION = 1
AAD = b"wander-proposal-v1"
BITS = 2  # low bits per channel carrying data
MAX_ITER = 48
SIDES = (96, 128, 192, 256, 384, 512)


class DecodeError(Exception):
    """The image is not an intact encoding under this key: nothing is recovered."""


@dataclass(frozen=True)
class Keys:
    enc: bytes
    mac: bytes

    @classmethod
    def from_secret(cls, secret: bytes) -> Keys:
        def derive(info: bytes) -> bytes:
            return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"wander-fractal", info=info).derive(secret)

        return cls(enc=derive(b"aes-256-gcm"), mac=derive(b"hmac-sha256"))


def load_secret(home: Path) -> bytes:
    """WANDER_HOME/action.key: 32 random bytes made on first use, readable by the owner only."""
    path = home / "action.key"
    if not path.exists():
        home.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(os.urandom(32))
    return path.read_bytes()


@dataclass(frozen=True)
class Params:
    c_re: float
    c_im: float
    zoom: float
    angle: float
    hue: float
    side: int

    def canonical(self) -> bytes:
        return json.dumps({"v": VERSION, **self.__dict__}, sort_keys=True, separators=(",", ":")).encode()


def derive_params(mac_key: bytes, payload: bytes, side: int) -> Params:
    d = hmac.new(mac_key, b"params" + payload, hashlib.sha256).digest()
    u = [int.from_bytes(d[i : i + 4], "big") / 2**32 for i in range(0, 20, 4)]
    w = np.exp(2j * np.pi * u[0])  # c just off the main cardioid's edge: detailed, mostly connected sets
    c = (w / 2 - w * w / 4) * (1.0 + 0.04 * (u[1] - 0.5))
    return Params(
        round(float(c.real), 6),
        round(float(c.imag), 6),
        round(1.2 + 0.8 * u[2], 6),
        round(2 * np.pi * u[3], 6),
        round(u[4], 6),
        side,
    )


def render(p: Params) -> np.ndarray:
    """The Julia set of z^2 + c, escape-time coloured: (side, side, 3) uint8."""
    axis = np.linspace(-1.6, 1.6, p.side) / p.zoom
    x, y = np.meshgrid(axis, axis)
    z = (x + 1j * y) * np.exp(1j * p.angle)
    c = complex(p.c_re, p.c_im)
    count = np.zeros(z.shape, dtype=np.float64)
    alive = np.ones(z.shape, dtype=bool)
    for i in range(MAX_ITER):
        z[alive] = z[alive] ** 2 + c
        escaped = alive & (np.abs(z) > 2)
        count[escaped] = i + 1
        alive &= ~escaped
    t = np.where(alive, 0.0, np.sqrt(count / MAX_ITER))
    phase = 2 * np.pi * (p.hue + t[..., None] * 0.8 + np.array([0.0, 1 / 3, 2 / 3]))
    rgb = 0.5 + 0.5 * np.cos(phase)
    rgb = np.where(alive[..., None], 0.06, rgb * (0.25 + 0.75 * t[..., None]))
    return (rgb * 255).astype(np.uint8)


def _tag(mac_key: bytes, params: Params, pixels: np.ndarray) -> str:
    return hmac.new(mac_key, params.canonical() + pixels.tobytes(), hashlib.sha256).hexdigest()


def _side_for(n_bytes: int) -> int:
    for side in SIDES:
        if side * side * 3 * BITS >= n_bytes * 8:
            return side
    raise ValueError(f"proposal too large to encode ({n_bytes} bytes)")


def _embed(base: np.ndarray, stream: bytes, filler_seed: bytes) -> np.ndarray:
    flat = base.reshape(-1).copy()
    bits = np.unpackbits(np.frombuffer(stream, dtype=np.uint8))
    symbols = bits.reshape(-1, BITS) @ (1 << np.arange(BITS - 1, -1, -1))
    filler = np.random.default_rng(np.frombuffer(filler_seed, dtype=np.uint32)).integers(0, 1 << BITS, flat.size)
    filler[: symbols.size] = symbols
    mask = np.uint8((0xFF << BITS) & 0xFF)
    return ((flat & mask) | filler.astype(np.uint8)).reshape(base.shape)


def _extract(pixels: np.ndarray) -> bytes:
    symbols = pixels.reshape(-1) & ((1 << BITS) - 1)
    bits = ((symbols[:, None] >> np.arange(BITS - 1, -1, -1)) & 1).astype(np.uint8).reshape(-1)
    return np.packbits(bits).tobytes()


def encode(plaintext: bytes, keys: Keys) -> tuple[bytes, Params]:
    """The proposal as a PNG (pixels + a text chunk with the parameters and the tag)."""
    nonce = os.urandom(12)
    payload = nonce + AESGCM(keys.enc).encrypt(nonce, plaintext, AAD)
    stream = struct.pack(">I", len(payload)) + payload
    params = derive_params(keys.mac, payload, _side_for(len(stream)))
    pixels = _embed(render(params), stream, hashlib.sha256(payload).digest())
    return to_png(pixels, params, _tag(keys.mac, params, pixels)), params


def decode(png: bytes, keys: Keys) -> bytes:
    pixels, params, tag = from_png(png)
    if not hmac.compare_digest(_tag(keys.mac, params, pixels), tag):
        raise DecodeError("the tag does not match: changed pixels or parameters, or another key")
    stream = _extract(pixels)
    (n,) = struct.unpack(">I", stream[:4])
    payload = stream[4 : 4 + n]
    if n < 28 or len(payload) != n or derive_params(keys.mac, payload, params.side) != params:
        raise DecodeError("the parameters do not derive from the hidden ciphertext")
    try:
        return AESGCM(keys.enc).decrypt(payload[:12], payload[12:], AAD)
    except Exception as exc:  # InvalidTag
        raise DecodeError("the ciphertext does not authenticate") from exc


def to_png(pixels: np.ndarray, params: Params, tag: str) -> bytes:
    from PIL import Image
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add_text("wander", json.dumps({"params": json.loads(params.canonical()), "tag": tag}, sort_keys=True))
    out = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(out, format="PNG", pnginfo=info)
    return out.getvalue()


def from_png(png: bytes) -> tuple[np.ndarray, Params, str]:
    from PIL import Image

    try:
        image = Image.open(io.BytesIO(png))
        image.load()
        meta = json.loads(image.text["wander"])  # type: ignore[attr-defined]
        raw = dict(meta["params"])
        if raw.pop("v") != VERSION:
            raise DecodeError("unknown codec version")
        params = Params(**raw)
        pixels = np.asarray(image.convert("RGB"), dtype=np.uint8)
        tag = str(meta["tag"])
    except DecodeError:
        raise
    except Exception as exc:
        raise DecodeError(f"not a Wander proposal image: {exc}") from exc
    if pixels.shape != (params.side, params.side, 3):
        raise DecodeError("the image size does not match its parameters")
    return pixels, params, tag


def sha256(png: bytes) -> str:
    return hashlib.sha256(png).hexdigest()
