# symdebug developer commands.  `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint bench clean

setup: $(STAMP)

# torch is installed first and pinned: an unpinned torch would pull a multi-GB CUDA build.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

demo: setup
	$(PY) -m symdebug demo

test: setup
	$(PY) -m pytest -q
	$(MAKE) lint

lint: setup
	$(VENV)/bin/ruff check symdebug tests benchmarks
	$(VENV)/bin/mypy --strict symdebug

bench: setup
	$(PY) benchmarks/bench_capture.py
	$(PY) benchmarks/bench_predict.py

clean:
	rm -rf $(VENV) build dist *.egg-info
