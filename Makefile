# boardbank: the two commands that matter are `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip
BB     := $(VENV)/bin/boardbank
# The tests render Kivy without a screen.
TEST_ENV := SDL_VIDEODRIVER=offscreen KIVY_WINDOW=sdl2 KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 KIVY_LOG_MODE=PYTHON

.PHONY: run test lint typecheck pytest bench system-deps venv clean screenshots diagram

## make run: set everything up, then start the banker UI on the mock reader and an SQLite file
run: system-deps $(VENV)/.stamp-install
	$(BB) run $(ARGS)

## make test: install what the tests need (apt packages too when root), lint, type-check, run every test
test: system-deps $(VENV)/.stamp-install lint typecheck pytest

system-deps:
	@if [ "$$(id -u)" = "0" ]; then bash scripts/install-system-deps.sh; \
	else echo "not root: skipping apt packages (see scripts/install-system-deps.sh)"; fi

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(VENV)/.stamp-install: $(VENV)/bin/python pyproject.toml
	$(PIP) install -q -e '.[dev]'
	touch $@

venv: $(VENV)/.stamp-install

lint: $(VENV)/.stamp-install
	$(VENV)/bin/ruff check .

typecheck: $(VENV)/.stamp-install
	$(VENV)/bin/mypy --strict engine reader

pytest: $(VENV)/.stamp-install
	$(TEST_ENV) $(VENV)/bin/pytest -q $(PYTEST_ARGS)

## make bench: print the benchmark numbers (not timed tests)
bench: $(VENV)/.stamp-install
	@for b in bench/bench_*.py; do echo "== $$b"; $(TEST_ENV) $(PY) $$b || exit 1; done

diagram: $(VENV)/.stamp-install
	$(BB) diagram --out docs

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info
