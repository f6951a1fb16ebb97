"""The Embedder port on Ollama embeddings (POST /api/embed), e.g. nomic-embed-text, through
the official `ollama` client: batched, unit-normalised float32 rows, the same interface as
minilm.py. Settings: WANDER_OLLAMA_URL, WANDER_OLLAMA_EMBED_MODEL (nomic-embed-text),
WANDER_OLLAMA_EMBED_DIM (the model's own size when unset; a smaller one truncates, for
models trained for it, such as nomic-embed-text v1.5).

The vector size of the store follows the embedder (DESIGN 2): a database made with
MiniLM (384) needs WANDER_OLLAMA_EMBED_DIM=384 or a new database."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import httpx
import numpy as np

from wander.core.domain.errors import WanderError

DEFAULT_URL = "http://127.0.0.1:11434"
DEFAULT_MODEL = "nomic-embed-text"
KNOWN_DIMS = {
    "nomic-embed-text": 768,
    "mxbai-embed-large": 1024,
    "all-minilm": 384,
    "snowflake-arctic-embed": 1024,
    "bge-m3": 1024,
    "bge-large": 1024,
}


class EmbeddingUnavailable(WanderError):
    """Ollama could not embed (server down, model missing, bad answer)."""


def _known_dim(model: str) -> int | None:
    base = model.split(":")[0]
    return KNOWN_DIMS.get(base)


class OllamaEmbedder:
    def __init__(
        self,
        host: str = DEFAULT_URL,
        model: str = DEFAULT_MODEL,
        *,
        dim: int | None = None,
        batch_size: int = 64,
        timeout: float = 60.0,
        retries: int = 2,
        retry_delay: float = 0.5,
    ):
        self.host = host.rstrip("/")
        self.model = model
        self.name = f"ollama:{model}" + (f":{dim}" if dim else "")
        self._dim = dim
        self._truncate_to = dim
        self.batch_size = batch_size
        self.timeout = timeout
        self.retries = retries
        self.retry_delay = retry_delay
        import ollama  # the SDK loads with the first embedder, not with this module

        self._client = ollama.Client(host=self.host, timeout=httpx.Timeout(timeout, connect=min(5.0, timeout)))

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = _known_dim(self.model) or int(self._embed_batch(["dimension probe"]).shape[1])
        return self._dim

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        import ollama  # loaded by __init__ already

        last: Exception | None = None
        for attempt in range(self.retries + 1):
            try:
                r = self._client.embed(model=self.model, input=texts, dimensions=self._truncate_to)
                rows = np.asarray(r.embeddings, dtype=np.float32)
                if rows.ndim != 2 or rows.shape[0] != len(texts):
                    raise EmbeddingUnavailable(
                        f"Ollama at {self.host} returned {rows.shape[0] if rows.ndim else 0} "
                        f"embeddings for {len(texts)} texts"
                    )
                return rows
            except ollama.ResponseError as exc:
                if exc.status_code == 404:
                    raise EmbeddingUnavailable(
                        f"embedding model '{self.model}' is not on the Ollama server at "
                        f"{self.host} (run `ollama pull {self.model}`)"
                    ) from None
                if exc.status_code != 429 and exc.status_code < 500:
                    raise EmbeddingUnavailable(f"Ollama at {self.host} refused to embed: {exc.error}") from None
                last = exc
            except ConnectionError:
                raise EmbeddingUnavailable(f"nothing answers at {self.host} (is `ollama serve` running?)") from None
            except (httpx.TimeoutException, httpx.TransportError) as exc:
                last = exc
            if attempt < self.retries:
                time.sleep(self.retry_delay * (2**attempt))
        raise EmbeddingUnavailable(f"Ollama at {self.host} could not embed: {last}")

    def embed(self, texts: Sequence[str], progress: Callable[[int], None] | None = None) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            rows = self._embed_batch(batch)
            if self._truncate_to and rows.shape[1] > self._truncate_to:
                rows = rows[:, : self._truncate_to]
            parts.append(rows)
            if progress is not None:
                progress(len(batch))
        out = np.concatenate(parts, axis=0).astype(np.float32, copy=False)
        if self._dim is None:
            self._dim = int(out.shape[1])
        elif out.shape[1] != self._dim:
            raise EmbeddingUnavailable(
                f"Ollama model '{self.model}' gave {out.shape[1]}-d vectors, expected {self._dim}"
            )
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return (out / norms).astype(np.float32)
