# symdebug developer commands.  `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup demo test test-fast lint bench clean browser contract viewer viewer-check

setup: $(STAMP)

# torch is installed first and pinned: an unpinned torch would pull a multi-GB CUDA build.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[dev]'
	# An editable install skips the wheel's share/ files: link the prebuilt lab extension.
	$(VENV)/bin/jupyter-builder develop --overwrite . >/dev/null
	touch $(STAMP)

# The demo needs the package and its notebook extras only, not the dev tools (`make setup`).
DEMO_STAMP := $(VENV)/.demo-installed
$(DEMO_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[notebook]'
	touch $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(PY) -m symdebug demo --report out/symdebug-demo.html

# Every tier: tests/unit (imports no torch), tests/integration (torch.compile), tests/e2e
# (browsers, JupyterLab, notebooks, the wheel).  `make test-fast` runs the unit tier alone, in
# seconds: it never pays torch's import, and leaves out the few unit tests marked slow (timeouts
# by design, subprocesses, the import and torch-free checks; `make test` runs them).  Two
# processes (pytest-xdist), a test file each: the tests share no state across files.
test: setup browser viewer-check
	$(PY) -m pytest -q -n 2 --dist loadfile tests/unit tests/integration tests/e2e
	$(MAKE) lint

test-fast: setup
	$(PY) -m pytest -q -n 2 -m "not slow" tests/unit

# Browser tests drive Debian's Chromium (a downloaded browser cannot be installed here).
browser:
	command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)

# The document contract (its JSON Schema and the viewer's TypeScript types) is generated from
# the dataclasses of symdebug/model and committed; the viewer is built against it.  Three
# documents: the session, the diff of two runs and the suite sweep; then the wire's packing
# (symdebug/model/wire_format.py), which the renderers pack by and the viewer unpacks by.
GENERATED := symdebug/schema/session.schema.json extension/src/document.ts \
	symdebug/schema/diff.schema.json extension/src/diff_document.ts \
	symdebug/schema/suite.schema.json extension/src/suite_document.ts \
	extension/src/wire.ts
contract: setup
	$(PY) -m symdebug.model.contract

# The viewer bundles and the JupyterLab extension are committed (pip install needs no Node);
# check they, and the contract, equal a fresh build.  The extension is built by JupyterLab's
# builder (.venv).
viewer: setup contract
	# npm install, not `npm ci`: the lock holds the Windows-only optional package vite lists
	# (committed as npm install writes it, so a build leaves the lock unchanged).
	cd extension && npm install --no-audit --no-fund --loglevel=error && npx vite build --logLevel warn \
		&& npx vite build --mode widget --logLevel warn
	rm -rf symdebug/labextension extension/lib
	cd extension && PATH="$(CURDIR)/$(VENV)/bin:$$PATH" npm run --silent build:lab >/dev/null

# The lock too: npm install must leave it as committed (a fresh clone's tree stays clean).
BUILT := symdebug/_static/ symdebug/labextension/ extension/package-lock.json $(GENERATED)
viewer-check: viewer
	cd extension && npx tsc --noEmit && npx vitest run
	git diff --exit-code -- $(BUILT) && test -z "$$(git status --porcelain -- $(BUILT))" || \
		(echo "$(BUILT) differ from a fresh build: commit it" && exit 1)

lint: setup
	$(VENV)/bin/ruff check symdebug tests benchmarks scripts
	$(VENV)/bin/mypy --strict symdebug
	$(VENV)/bin/lint-imports
	$(PY) scripts/check_imports.py  # no import cycle, few imports hidden in functions
	cd extension && npx biome check src test

# Every benchmark runs, each in its own process, whatever the ones before it did; each records
# its figures in out/bench-figures.json, and one that misses a target exits 1 (run_all.py
# fails at the end when any did).  Then the planted bugs (scripts/plant_bugs.py); the target
# fails when either failed.  `scripts/readme_figures.py` then writes the README's figures.
bench: setup
	$(PY) benchmarks/run_all.py; status=$$?; $(PY) scripts/plant_bugs.py && exit $$status

clean:
	rm -rf $(VENV) build dist *.egg-info
