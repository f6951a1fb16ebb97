"""
title: Wander Memory
author: Wander
version: 0.1
license: MIT
description: Recalls Wander's crystals and Wheeler memories for every chat turn and prepends
  them to the system message (seed 002, "Open WebUI Integration").
requirements: pydantic

An Open WebUI Pipelines pipeline (https://github.com/open-webui/pipelines): drop this file in
the pipelines folder (docker/compose.yaml's `openwebui` profile mounts it). It talks to a
running `wander serve` over HTTP (POST /api/v1/wander/recall, with WANDER_API_TOKEN as a
bearer token) and needs nothing but the standard library and pydantic.

- As a filter, `inlet` adds the context block to the request before the model sees it.
- `pipe` does the same and then forwards the chat to an OpenAI-compatible endpoint
  (`upstream_url`, e.g. Ollama's http://ollama:11434/v1) and returns its answer.
When Wander cannot be reached, the chat goes on without context and one warning is logged
(once per outage, not once per message)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import urllib.error
import urllib.request
from typing import Any

from pydantic import BaseModel, Field

log = logging.getLogger("wander_pipeline")


class Pipeline:
    class Valves(BaseModel):
        pipelines: list[str] = Field(default_factory=lambda: ["*"], description="Models this filter applies to.")
        priority: int = 0
        wander_url: str = Field(default_factory=lambda: os.environ.get("WANDER_URL", "http://127.0.0.1:8765"))
        wander_token: str = Field(default_factory=lambda: os.environ.get("WANDER_API_TOKEN", ""))
        top_k: int = Field(default=5, ge=1, le=50, description="Maximum memories to inject.")
        alpha: float = Field(default=0.3, ge=0, le=1, description="Reconstruction blend (0 stored, 1 query).")
        min_similarity: float = Field(default=0.1, ge=-1, le=1, description="Pearson threshold.")
        max_context_length: int = Field(default=2000, ge=100, le=20000, description="Soft cap, characters.")
        timeout_s: float = Field(default=10.0, gt=0, description="Give up on Wander after this long.")
        upstream_url: str = Field(default_factory=lambda: os.environ.get("WANDER_UPSTREAM_URL", ""),
                                  description="OpenAI-compatible base URL that pipe() forwards to.")  # fmt: skip
        upstream_model: str = Field(default_factory=lambda: os.environ.get("WANDER_UPSTREAM_MODEL", "llama3.2:3b"))
        upstream_key: str = Field(default_factory=lambda: os.environ.get("WANDER_UPSTREAM_KEY", ""))

    def __init__(self) -> None:
        self.type = "filter"
        self.name = "Wander Memory"
        self.valves = self.Valves()
        self.wander_down = False  # True while Wander is unreachable: one warning per outage

    async def on_startup(self) -> None:
        log.info("Wander Memory pipeline: recalling from %s", self.valves.wander_url)

    async def on_shutdown(self) -> None:
        pass

    # ---- recall ------------------------------------------------------------------------

    def recall(self, query: str) -> str:
        """The formatted context block for `query`, or '' (nothing relevant, or Wander down)."""
        v = self.valves
        body = {"query": query[:4000], "top_k": v.top_k, "alpha": v.alpha, "min_similarity": v.min_similarity,
                "max_context_length": v.max_context_length}  # fmt: skip
        headers = {"Content-Type": "application/json"}
        if v.wander_token:
            headers["Authorization"] = f"Bearer {v.wander_token}"
        req = urllib.request.Request(f"{v.wander_url.rstrip('/')}/api/v1/wander/recall",
                                     data=json.dumps(body).encode(), headers=headers, method="POST")  # fmt: skip
        try:
            with urllib.request.urlopen(req, timeout=v.timeout_s) as resp:
                context = json.loads(resp.read()).get("context", "")
        except (urllib.error.URLError, OSError, ValueError) as exc:
            if not self.wander_down:
                log.warning("Wander memory unavailable at %s (%s); chatting without context", v.wander_url, exc)
            self.wander_down = True
            return ""
        if self.wander_down:
            log.info("Wander memory reachable again at %s", v.wander_url)
        self.wander_down = False
        return context[: v.max_context_length + 200] if context else ""

    @staticmethod
    def with_context(messages: list[dict[str, Any]], context: str) -> list[dict[str, Any]]:
        """Prepend the block to the system message, or insert one first if there is none."""
        if not context:
            return messages
        out = [dict(m) for m in messages]
        for m in out:
            if m.get("role") == "system":
                m["content"] = f"{context}\n\n{m.get('content') or ''}".rstrip()
                return out
        return [{"role": "system", "content": context}, *out]

    @staticmethod
    def last_user_message(messages: list[dict[str, Any]]) -> str:
        for m in reversed(messages):
            if m.get("role") == "user":
                content = m.get("content")
                if isinstance(content, list):  # multimodal: the text parts
                    return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
                return str(content or "")
        return ""

    # ---- the Pipelines hooks -----------------------------------------------------------

    async def inlet(self, body: dict, user: dict | None = None) -> dict:
        messages = body.get("messages") or []
        query = self.last_user_message(messages)
        if not query.strip():
            return body
        context = await asyncio.to_thread(self.recall, query)  # urllib blocks: keep the server's loop free
        return {**body, "messages": self.with_context(messages, context)}

    def pipe(self, user_message: str, model_id: str, messages: list[dict], body: dict) -> str:
        """Recall, prepend, and forward to the OpenAI-compatible upstream; its answer."""
        messages = self.with_context(messages, self.recall(user_message) if user_message.strip() else "")
        v = self.valves
        if not v.upstream_url:
            return "Wander Memory: no upstream_url valve set, nothing to forward the chat to."
        headers = {"Content-Type": "application/json"}
        if v.upstream_key:
            headers["Authorization"] = f"Bearer {v.upstream_key}"
        payload = {"model": v.upstream_model, "messages": messages, "stream": False}
        req = urllib.request.Request(f"{v.upstream_url.rstrip('/')}/chat/completions",
                                     data=json.dumps(payload).encode(), headers=headers, method="POST")  # fmt: skip
        try:
            with urllib.request.urlopen(req, timeout=120) as resp:
                return json.loads(resp.read())["choices"][0]["message"]["content"]
        except (urllib.error.URLError, OSError, ValueError, KeyError, IndexError) as exc:
            return f"Wander Memory: the model at {v.upstream_url} did not answer ({exc})."
