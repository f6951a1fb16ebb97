# Wander: `make run` sets up and starts Wander on its embedded defaults; `make test` sets
# up and runs every test. Both work on a fresh clone.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
WANDER := $(VENV)/bin/wander
PY_STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
PORT ?= 8765
FRONTEND_SRC := $(shell find frontend/src frontend/index.html frontend/vite.config.ts -type f 2>/dev/null)

.PHONY: setup frontend run demo doctor test test-py test-js test-vitest test-e2e lint lint-all check-system bench kb schemas clean

# One pip install (torch pinned to exactly this CPU build in the same resolve: any other
# version pulls gigabytes of CUDA), without byte-compiling: pip compiles all ~20,000 modules it
# installs (~48 s of CPU here), of which Wander, its tests and its servers import ~3,300.
# Those are compiled next, by importing them (~10 s); any other compiles on first import.
$(PY_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q --no-compile torch==2.13.0 -e '.[dev]'
	PYTHONDONTWRITEBYTECODE= $(PY) -c '$(PRECOMPILE)'
	touch $@

# What the suite, `wander serve` and the other commands import, compiled once at set-up. Not
# umap: importing it compiles pynndescent's numba code (~15 s of CPU), which only the processes
# that fit a UMAP need (they cache it for each other).
PRECOMPILE := import importlib; [importlib.import_module(m) for m in ( \
  "wander.faces.cli", "wander.faces.api.app", "wander.faces.mcp", "wander.bootstrap.wiring", \
  "wander.adapters.embed.bert", "torch", "pytest", "xdist", "pytest_asyncio", "hypothesis", "schemathesis")]

$(NODE_STAMP): package.json frontend/package.json e2e/package.json
	npm install --no-audit --no-fund --loglevel=error
	mkdir -p node_modules && touch $@

setup: $(PY_STAMP) $(NODE_STAMP)

frontend/dist/index.html: $(NODE_STAMP) $(FRONTEND_SRC)
	npm run build -w frontend

frontend: frontend/dist/index.html

# Serve the API and the VISLZR mind map on the embedded defaults.
run: setup frontend
	@echo "Wander: open http://127.0.0.1:$(PORT)/ once it says it is answering requests (a first start loads the corpus, a few seconds)"
	$(WANDER) serve --host 127.0.0.1 --port $(PORT)

# A 50-step wander in the terminal, no browser needed.
demo: setup
	$(WANDER) run "information asymmetry" --attractor "economic opportunity in financial intelligence" --steps 50

# What the machine must have: Python 3.11+ (with venv), Node.js 20+ and make. One line
# naming what is missing and the command that gets it; everything else (Postgres, the
# e2e browser, nats-server, the model) comes from the Python and npm packages.
check-system:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || \
	  { echo "missing: Python 3.11+ ($(PYTHON)); install: sudo apt-get install -y python3 python3-venv (or PYTHON=python3.11 make ...)"; exit 1; }
	@test -x $(PY) || $(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || \
	  { echo "missing: Python's venv module; install: sudo apt-get install -y python3-venv"; exit 1; }
	@command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || \
	  { echo "missing: Node.js 20+ and npm; install: sudo apt-get install -y nodejs npm"; exit 1; }
	@node -e 'process.exit(Number(process.versions.node.split(".")[0]) < 20 ? 1 : 0)' || \
	  { echo "missing: Node.js 20+ (found $$(node --version)); install: https://nodejs.org or your package manager's nodejs 20+"; exit 1; }

# One line of the versions the tests run with (a failure elsewhere can then be read):
# Python, Node, the e2e browser (unpacking @sparticuz/chromium on first use), nats-server,
# the embedded Postgres and pgvector.
doctor: setup
	@echo "doctor: $$($(PY) scripts/doctor.py), Node $$(node --version), $$(node e2e/scripts/browser.mjs)"

# Bytecode for the suite's many Python processes (pytest and its workers, the `wander`
# commands and servers the tests start, the e2e server). Where PYTHONDONTWRITEBYTECODE is set
# (the shells on this project's machines do), each of them compiled the checkout's modules from
# source again, and pytest rewrote the asserts of its plugins' whole packages (hypothesis,
# schemathesis, anyio, ...) again: ~3.4 s of CPU per pytest process and ~0.35 s per `wander`
# start. Written as Python writes it by default, beside the sources (git ignores __pycache__).
test test-py test-e2e fuzz: export PYTHONDONTWRITEBYTECODE :=
# One BLAS thread per process, and OpenMP threads (torch's) that sleep instead of spinning
# while they wait (tests/conftest.py says why; the same for the e2e server).
test test-py test-e2e fuzz: export OPENBLAS_NUM_THREADS ?= 1
test test-py test-e2e fuzz: export OMP_WAIT_POLICY ?= PASSIVE
# One folder of derived data (compiled UMAP code, the corpus's domain neighbourhoods) for the
# tests' processes and the e2e server alike: the server compiles UMAP as it starts, and the
# UMAP test then loads that code instead of compiling it again (~30 s of CPU on a fresh clone).
# Inside the venv: numba's compiled code is tied to the venv's own files.
test test-py test-e2e fuzz: export WANDER_CACHE_DIR ?= $(CURDIR)/$(VENV)/wander-cache

# The linters, pytest, vitest and the browser tests run side by side: the browser tests
# spend most of their time waiting on the page, so they fit beside pytest's two workers.
# Each line of the others is tagged with where it came from.
# On failure the browser tests' errors are printed again at the end: they finish before
# pytest, so their own report scrolls away above it. The last line says how long the
# set-up (venv, npm packages, frontend build) and each part of the tests took.
test: check-system
	@t0=$$SECONDS; $(MAKE) --no-print-directory -j2 --output-sync=target setup frontend || exit 1; setup_s=$$((SECONDS - t0)); \
	$(MAKE) --no-print-directory doctor; \
	times=$$(mktemp); t1=$$SECONDS; \
	WANDER_TEST_TIMES=$$times $(MAKE) --no-print-directory -j4 --output-sync=line lint test-py test-vitest test-e2e; rc=$$?; \
	[ $$rc -eq 0 ] || node e2e/scripts/failure-recap.mjs; \
	echo "time: set-up $${setup_s} s, tests $$((SECONDS - t1)) s ($$(sort $$times | paste -sd, - | sed 's/,/, /g'))"; \
	rm -f $$times; exit $$rc

# Each test job adds "NAME N s" to WANDER_TEST_TIMES (when `make test` set it).
took = echo "$(1) $$((SECONDS - t)) s" >> "$${WANDER_TEST_TIMES:-/dev/null}"

# -rs: every skipped test says why; --durations: the 15 slowest tests. Two xdist workers
# (one per core here) that steal tests from each other, so neither idles at the end while
# the other still has a long file; each test gets its own database, copied from the shared
# template ahead of need (tests/conftest.py, tests/database_pool.py).
PYTEST_WORKERS ?= 2
test-py:
	@t=$$SECONDS; $(PY) -m pytest -q -p no:cacheprovider -rs --durations=15 -n $(PYTEST_WORKERS) --dist worksteal; \
	  rc=$$?; $(call took,pytest); exit $$rc

# ruff (lint, and format --check: `ruff format` owns the layout), mypy on backend/,
# the import-linter contracts (pyproject.toml), eslint + typescript-eslint on frontend/.
lint:
	@t=$$SECONDS; set -o pipefail; $(MAKE) --no-print-directory lint-all 2>&1 | sed -u 's/^/[lint] /'; \
	  rc=$$?; $(call took,lint); exit $$rc

# mypy's cache outside the checkout, shared by every clone on this machine: a fresh clone
# (as CI makes) checks in a second or two instead of ~28 s of CPU. mypy checks each cached
# entry against its source's content, so a clone with other code only rewrites what differs.
MYPY_CACHE ?= $(or $(TMPDIR),/tmp)/wander-mypy-cache
lint-all:
	$(VENV)/bin/ruff check backend shared_schemas tests bench scripts
	$(VENV)/bin/ruff format --check backend shared_schemas tests bench scripts
	MYPY_CACHE_DIR=$(MYPY_CACHE) $(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache
	npm run lint -w frontend

test-js: test-vitest test-e2e

test-vitest:
	@t=$$SECONDS; set -o pipefail; npm test -w frontend 2>&1 | sed -u 's/^/[vitest] /'; \
	  rc=$$?; $(call took,vitest); exit $$rc

test-e2e:
	@t=$$SECONDS; set -o pipefail; npm test -w e2e 2>&1 | sed -u 's/^/[e2e] /'; \
	  rc=$$?; $(call took,e2e); exit $$rc

# API fuzzing (schemathesis over /schema) with many more examples than `make test` runs.
fuzz: setup
	WANDER_FUZZ_EXAMPLES=$${WANDER_FUZZ_EXAMPLES:-200} $(PY) -m pytest -q -p no:cacheprovider -s tests/api/test_fuzz.py

bench: setup
	@for f in bench/bench_*.py; do echo "# $$f"; $(PY) $$f || exit 1; done

# Regenerate shared_schemas/schema.json and frontend/src/api/types.gen.ts from the models, and
# shared_schemas/openapi.json (the API's /schema/openapi.json) and frontend/src/api/openapi.gen.ts,
# the frontend client's types, from the app.
schemas: $(PY_STAMP)
	$(PY) -m shared_schemas.generate
	$(PY) scripts/openapi_client.py

# Rebuild the shipped concept corpus from WordNet (developers only; needs wordnet-base),
# then its shipped vectors (only the texts that changed are embedded again).
kb:
	$(PY) scripts/build_kb.py
	$(PY) scripts/build_vectors.py

clean:
	rm -rf $(VENV) node_modules frontend/node_modules e2e/node_modules
