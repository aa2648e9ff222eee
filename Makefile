# boardbank: the two commands that matter are `make run` and `make test`.
#
# `make run` installs what running needs and no more: the run apt list (scripts/install-system-deps.sh run)
# and the package with its `ui` extra. `make test` adds the test apt list and the `dev` extra (pytest,
# Hypothesis, mypy, ruff, pyscard, graphviz). Each has its own stamp in the venv, so `make test` after
# `make run` still installs the test tools.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip
BB     := $(VENV)/bin/boardbank
SHOTS  ?= out/screenshots/game
# The tests render Kivy without a screen.
TEST_ENV := SDL_VIDEODRIVER=offscreen KIVY_WINDOW=sdl2 KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 KIVY_LOG_MODE=PYTHON

.PHONY: run test lint typecheck pytest bench bench-kiosk fast test-fast system-deps-run system-deps-test venv clean screenshots diagram

## make run: set up what running needs, then start the banker UI on the mock reader and an SQLite file
run: system-deps-run $(VENV)/.stamp-run
	$(BB) run $(ARGS)

## make test: install what the tests need (apt packages too when root), lint, type-check, run every test
test: system-deps-test $(VENV)/.stamp-test lint typecheck pytest

system-deps-run system-deps-test: system-deps-%:
	@if [ "$$(id -u)" = "0" ]; then bash scripts/install-system-deps.sh $*; \
	else echo "not root: skipping apt packages (see scripts/install-system-deps.sh $*)"; fi

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(VENV)/.stamp-run: $(VENV)/bin/python pyproject.toml
	$(PIP) install -q -e '.[ui]'
	touch $@

$(VENV)/.stamp-test: $(VENV)/bin/python pyproject.toml
	$(PIP) install -q -e '.[dev]'
	touch $@

venv: $(VENV)/.stamp-test

lint: $(VENV)/.stamp-test
	$(VENV)/bin/ruff check .

typecheck: $(VENV)/.stamp-test
	$(VENV)/bin/mypy --strict engine reader

pytest: $(VENV)/.stamp-test
	$(TEST_ENV) $(VENV)/bin/pytest -q $(PYTEST_ARGS)

## make bench: print the benchmark numbers (not timed tests); the kiosk's real install is apart (root, minutes)
bench: $(VENV)/.stamp-test
	@for b in $(filter-out bench/bench_kiosk_install.py,$(wildcard bench/bench_*.py)); do echo "== $$b"; $(TEST_ENV) $(PY) $$b || exit 1; done

## sudo make bench-kiosk: hardware/kiosk/install.sh for real in a fresh Debian 12 root (debootstrap, apt, pip)
bench-kiosk: $(VENV)/.stamp-test
	$(PY) bench/bench_kiosk_install.py

## make fast: the optional compiled engine (mypyc) in build/fast; use it with PYTHONPATH=build/fast
fast: build/fast/SOURCES.sha256

build/fast/SOURCES.sha256: $(VENV)/.stamp-test scripts/build_fast.py $(shell find engine -name '*.py')
	$(PY) scripts/build_fast.py --out build/fast

## make test-fast: the classic rules' and the simulator's tests against the compiled build
test-fast: fast
	cd build && PYTHONPATH=$(CURDIR)/build/fast $(CURDIR)/$(PY) -m pytest -q --import-mode=append -p no:cacheprovider \
	  --rootdir=$(CURDIR) $(CURDIR)/tests/engine/classic $(CURDIR)/tests/engine/test_sim.py

## make screenshots: play tests/ui/game.tap through the UI at 800x480 and save a PNG per step in $(SHOTS)
screenshots: $(VENV)/.stamp-run
	rm -f $(SHOTS)/*.png
	$(TEST_ENV) $(BB) run --script tests/ui/game.tap --screenshots $(SHOTS) --size 800x480

diagram: $(VENV)/.stamp-run
	$(BB) diagram --out docs

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info
