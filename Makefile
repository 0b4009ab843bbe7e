# Two commands do all the set-up: `make run` and `make test`. See README.md.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# `make run` serves with the runtime dependencies alone; the other targets add the dev
# and rl extras (tests, linters, benchmarks).
SERVE  := $(VENV)/.installed-runtime

.PHONY: run test demo bench fuzz lint format clean redis openapi openapi-ts

$(STAMP): pyproject.toml scripts/bootstrap.sh
	@PYTHON=$(PYTHON) bash scripts/bootstrap.sh $(VENV) dev,rl
	@touch $(STAMP)

$(SERVE): pyproject.toml scripts/bootstrap.sh
	@PYTHON=$(PYTHON) bash scripts/bootstrap.sh $(VENV)
	@touch $(SERVE)

run: $(SERVE)
	@bash scripts/run.sh

# pytest-xdist processes for `make test` (most tests wait on Redis, gunicorn or Chromium,
# so two processes finish the suite in about two thirds of the time on two cores);
# TEST_JOBS=0 runs it in this one process.
TEST_JOBS ?= 2

test: lint
	@bash scripts/need_redis_server.sh
	@bash scripts/need_chromium.sh
	$(BIN)/python -m pytest -n $(TEST_JOBS)

demo: $(STAMP)
	$(BIN)/boardgames demo

bench: $(STAMP)
	@bash scripts/need_redis_server.sh
	$(BIN)/python -m bench.report

fuzz: $(STAMP)
	@bash scripts/need_redis_server.sh
	FUZZ_EXAMPLES=2000 $(BIN)/python -m pytest tests/fuzz -p no:cacheprovider
	RACE_SECONDS=60 $(BIN)/python -m pytest tests/reliability/test_races.py -p no:cacheprovider

# The OpenAPI documents as files (docs/openapi/<game>.json); a test fails when stale. First
# the examples in them, re-recorded from a seeded game of each service on a private
# redis-server (docs/openapi/examples/<game>.json; an example changes only when its answer does).
openapi: $(STAMP)
	@bash scripts/need_redis_server.sh
	$(BIN)/python scripts/openapi_examples.py
	$(BIN)/python scripts/openapi.py

# TypeScript types from those documents (openapi-typescript, into clients/ts/generated/)
# and tsc --strict on a game loop per game. Needs node and npm; versions pinned in
# clients/ts/package-lock.json.
openapi-ts:
	@command -v npm >/dev/null || { echo "make openapi-ts needs node and npm (e.g. apt-get install nodejs npm)"; exit 1; }
	cd clients/ts && npm ci --no-audit --no-fund --loglevel=error && npm run --silent generate && npx --no-install tsc -p tsconfig.json

# ruff also holds every function in shared/ and services/*/rules/ to cyclomatic complexity
# 20 or less (C901). mypy keeps its cache in .mypy_cache: a re-run takes about a second.
# vulture: dead code (config in pyproject.toml, framework-called names in vulture_whitelist.py).
# lint-imports: the layer rules ([tool.importlinter] in pyproject.toml; docs/architecture.md).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/vulture
	$(BIN)/lint-imports

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .import_linter_cache .grimp_cache
