"""Default model settings: pure constants the settings and the model adapters share."""

OLLAMA_URL = "http://127.0.0.1:11434"
OLLAMA_MODEL = "llama3.2:3b"
OLLAMA_TIMEOUT = 120.0
OLLAMA_EMBED_MODEL = "nomic-embed-text"
ANTHROPIC_MODEL = "claude-sonnet-4-6"
ANTHROPIC_HEAVY_MODEL = "claude-opus-4-6"
ANTHROPIC_TIMEOUT = 60.0
