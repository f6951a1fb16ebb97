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

.PHONY: setup frontend run demo test test-py test-js test-vitest test-e2e lint lint-all check-system bench kb schemas clean

$(PY_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	# torch first, exactly this CPU build: any other version pulls gigabytes of CUDA.
	$(PIP) install -q torch==2.13.0
	$(PIP) install -q -e '.[dev]'
	touch $@

$(NODE_STAMP): package.json frontend/package.json e2e/package.json
	npm install --no-audit --no-fund --loglevel=error
	mkdir -p node_modules && touch $@

setup: $(PY_STAMP) $(NODE_STAMP)

frontend/dist/index.html: $(NODE_STAMP) $(FRONTEND_SRC)
	npm run build -w frontend

frontend: frontend/dist/index.html

# Serve the API and the VISLZR mind map on the embedded defaults.
run: setup frontend
	@echo "Wander: open http://127.0.0.1:$(PORT)/ once it says it is listening (the first start on a machine embeds the corpus)"
	$(WANDER) serve --host 127.0.0.1 --port $(PORT)

# A 50-step wander in the terminal, no browser needed.
demo: setup
	$(WANDER) run "information asymmetry" --attractor "economic opportunity in financial intelligence" --steps 50

# What the machine must have besides Python: one line naming what is missing and how to get it.
check-system:
	@command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || \
	  { echo "missing system package: Node.js 20+ and npm; install: sudo apt-get install -y nodejs npm"; exit 1; }
	@test -x "$${CHROMIUM_PATH:-/usr/bin/chromium}" || \
	  { echo "missing system package: chromium (the e2e browser); install: sudo apt-get install -y chromium"; exit 1; }
	@command -v nats-server >/dev/null 2>&1 || test -x /usr/sbin/nats-server || \
	  { echo "missing system package: nats-server (the scale-out tests); install: sudo apt-get install -y nats-server"; exit 1; }

# The linters, pytest, vitest and the browser tests run side by side: the browser tests
# spend most of their time waiting on the page, so they fit beside pytest's two workers.
# Each line of the others is tagged with where it came from.
# On failure the browser tests' errors are printed again at the end: they finish before
# pytest, so their own report scrolls away above it.
test: check-system setup frontend
	@$(MAKE) --no-print-directory -j4 --output-sync=line lint test-py test-vitest test-e2e \
	  || { node e2e/scripts/failure-recap.mjs; exit 1; }

# -rs: every skipped test says why; --durations: the 15 slowest tests. Two xdist workers
# (one per core here) that steal tests from each other, so neither idles at the end while
# the other still has a long file; each test gets its own database, copied from the shared
# template ahead of need (tests/conftest.py, tests/database_pool.py).
PYTEST_WORKERS ?= 2
test-py:
	$(PY) -m pytest -q -p no:cacheprovider -rs --durations=15 -n $(PYTEST_WORKERS) --dist worksteal

# ruff (lint, and format --check: `ruff format` owns the layout), mypy on backend/,
# the import-linter contracts (pyproject.toml), eslint + typescript-eslint on frontend/.
lint:
	@set -o pipefail; $(MAKE) --no-print-directory lint-all 2>&1 | sed -u 's/^/[lint] /'

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
	@set -o pipefail; npm test -w frontend 2>&1 | sed -u 's/^/[vitest] /'

test-e2e:
	@set -o pipefail; npm test -w e2e 2>&1 | sed -u 's/^/[e2e] /'

# API fuzzing (schemathesis over /schema) with many more examples than `make test` runs.
fuzz: setup
	WANDER_FUZZ_EXAMPLES=$${WANDER_FUZZ_EXAMPLES:-200} $(PY) -m pytest -q -p no:cacheprovider -s tests/api/test_fuzz.py

bench: setup
	@for f in bench/bench_*.py; do echo "# $$f"; $(PY) $$f || exit 1; done

# Regenerate shared_schemas/schema.json and frontend/src/api/types.gen.ts from the models.
schemas: $(PY_STAMP)
	$(PY) -m shared_schemas.generate

# Rebuild the shipped concept corpus from WordNet (developers only; needs wordnet-base).
kb:
	$(PY) scripts/build_kb.py

clean:
	rm -rf $(VENV) node_modules frontend/node_modules e2e/node_modules
