"""A BERT encoder's forward pass in plain torch, on the weights of a safetensors file, with
the model's own fast tokenizer (the `tokenizers` library).

all-MiniLM-L6-v2 is a 6-layer BERT. Importing transformers and building the model through
`from_pretrained` cost about 2.6 s of CPU in every process that embeds (each `wander` command
that walks, each worker, each server start); this pass costs about 0.1 s to set up and computes
the same function: embeddings (word + token type, then position) and LayerNorm, then per layer
self-attention over the unpadded keys, a residual LayerNorm, the GELU feed-forward and a second
residual LayerNorm. tests/unit/test_minilm_equivalence.py holds it to sentence-transformers'
vectors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch


class BertEncoder:
    """The last hidden state of a BERT model (no pooler) for a batch of texts."""

    def __init__(self, model_dir: str | Path, max_tokens: int) -> None:
        import torch  # torch, safetensors and tokenizers load with the first encoder, not on import
        import torch.nn.functional as F
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        self._torch, self._F = torch, F
        model_dir = Path(model_dir)
        config = json.loads((model_dir / "config.json").read_text())
        if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
            raise ValueError(f"{model_dir}: not a BERT model with GELU (config.json)")
        self.hidden = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        self.w = load_file(str(model_dir / "model.safetensors"))
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        # the file pads and cuts at a fixed 128; embed as the model card says: up to
        # max_tokens, padded to the longest text of the batch
        self.tokenizer.enable_truncation(max_length=max_tokens)
        self.tokenizer.enable_padding(pad_id=int(config.get("pad_token_id", 0)), pad_token="[PAD]")

    def tokenize(self, texts: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
        """Token ids and attention mask, each (batch, longest)."""
        enc = self.tokenizer.encode_batch(texts)
        torch = self._torch
        ids = torch.tensor([e.ids for e in enc], dtype=torch.long)
        mask = torch.tensor([e.attention_mask for e in enc], dtype=torch.long)
        return ids, mask

    def _norm(self, x: torch.Tensor, prefix: str) -> torch.Tensor:
        return self._F.layer_norm(x, (self.hidden,), self.w[prefix + ".weight"], self.w[prefix + ".bias"], self.eps)

    def _dense(self, x: torch.Tensor, prefix: str) -> torch.Tensor:
        return self._F.linear(x, self.w[prefix + ".weight"], self.w[prefix + ".bias"])

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        w, F = self.w, self._F
        batch, length = ids.shape
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.token_type_embeddings.weight"][0]
        x = x + w["embeddings.position_embeddings.weight"][:length]
        x = self._norm(x, "embeddings.LayerNorm")
        keys = mask[:, None, None, :].bool()  # attend to real tokens only
        head = self.hidden // self.heads

        def split(t: torch.Tensor) -> torch.Tensor:
            return t.view(batch, length, self.heads, head).transpose(1, 2)

        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            q = split(self._dense(x, p + "attention.self.query"))
            k = split(self._dense(x, p + "attention.self.key"))
            v = split(self._dense(x, p + "attention.self.value"))
            att = F.scaled_dot_product_attention(q, k, v, attn_mask=keys)
            att = att.transpose(1, 2).reshape(batch, length, self.hidden)
            x = self._norm(self._dense(att, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
            inner = F.gelu(self._dense(x, p + "intermediate.dense"))
            x = self._norm(self._dense(inner, p + "output.dense") + x, p + "output.LayerNorm")
        return x
