# casino-audit: the two commands of the README, and housekeeping.
#   make demo   set everything up on a fresh clone and run the main job (embedded SQLite)
#   make test   set everything up, check (ruff, layer contracts, mypy) and run the whole suite
#               (SQLite and a throwaway PostgreSQL)

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# The sources mypyc compiles at install (replayer/compiled.py and audit/compiled.py list
# them; setup.py builds them), as `python -m audit.compiled sources` names them (importing
# the packages does nothing else): an edit to one rebuilds, so a stale extension module
# never shadows its .py.
COMPILED_LISTS := replayer/compiled.py audit/compiled.py
COMPILED_SOURCES := $(shell $(PYTHON) -m audit.compiled sources)
CHROMIUM := /usr/bin/chromium
REDIS    := /usr/bin/redis-server

.PHONY: install chromium redis demo test lint long bench clean

$(STAMP): pyproject.toml constraints.txt setup.py $(COMPILED_LISTS) $(COMPILED_SOURCES)
	@echo "make: [1/2] creating the virtualenv $(VENV)" >&2
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade "pip>=24"
	@echo "make: [2/2] installing the locked dependencies, then compiling the replayer's and ingest's hot paths with mypyc ('Building editable': a few minutes; about 6 in all on 2 cores)" >&2
	$(PY) -m pip install --progress-bar on -c constraints.txt -e ".[test,celery]"
	touch $(STAMP)
	@echo "make: installed; the command is $(VENV)/bin/casino-audit (or '. $(VENV)/bin/activate' first)" >&2

install: $(STAMP)

# The browser tests drive Debian's Chromium (Playwright never downloads a browser here):
# installed quietly when missing and we are root, as .ci/with-postgres does for PostgreSQL.
chromium:
	@if [ ! -x $(CHROMIUM) ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "make: $(CHROMIUM) not found; installing Debian's chromium" >&2; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    -o DPkg::Lock::Timeout=600 chromium >/dev/null; \
	fi

# The distributed DAG test (tests/pipelines/test_dag_celery.py) starts its own Redis broker from
# Debian's redis-server: installed the same way when missing and we are root.
redis:
	@if [ ! -x $(REDIS) ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "make: $(REDIS) not found; installing Debian's redis-server" >&2; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    -o DPkg::Lock::Timeout=600 redis-server >/dev/null; \
	fi

demo: $(STAMP)
	$(VENV)/bin/casino-audit demo
	@echo "make: the command is $(VENV)/bin/casino-audit, not on your PATH: run '$(VENV)/bin/casino-audit ...', or '. $(VENV)/bin/activate' first" >&2

test: $(STAMP) chromium redis
	$(PY) -m audit.compiled check
	$(VENV)/bin/ruff check audit replayer pipelines simulate console cli tests benchmarks
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	.ci/with-postgres $(PY) -m pytest -n 2 -m "not long" tests

long: $(STAMP)
	.ci/with-postgres $(PY) -m pytest -m long tests

bench: $(STAMP)
	.ci/with-postgres $(PY) benchmarks/ingest.py
	.ci/with-postgres $(PY) benchmarks/pluribus.py
	$(PY) benchmarks/evaluator.py
	$(PY) benchmarks/replay.py
	.ci/with-postgres $(PY) benchmarks/console.py

clean:
	rm -rf $(VENV) casino-audit.db .pytest_cache .ruff_cache build .mypyc_cache \
	  replayer/compiled-sources.json audit/compiled-sources.json
	find . -name '*.so' -not -path './.venv/*' -delete
