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

.PHONY: setup run test test-py test-js bench demo kb schemas clean

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

run: setup
	$(WANDER) run "information asymmetry" --attractor "economic opportunity in financial intelligence" --steps 50

test: setup test-py test-js

test-py:
	$(PY) -m pytest -q -p no:cacheprovider

test-js:
	npm test --workspaces --if-present

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
