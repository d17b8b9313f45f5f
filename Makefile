# symdebug developer commands.  `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup demo test test-fast test-torch record-torch lint bench clean browser contract viewer viewer-check judge

# The supported torch versions (README, "Supported torch versions").  .venv holds the first,
# on which `make test` runs every tier; each other one gets a venv of its own
# (.venv-torch-VERSION), where `make test-torch VERSION=...` runs the conformance tier.
# Each release's adapter module names the version (symdebug/_torch/releases/v*.py, TESTED).
TORCH_VERSIONS := $(shell sed -n 's/^TESTED = "\(.*\)"$$/\1/p' symdebug/_torch/releases/v*.py | sort -V)
FIRST_TORCH := $(firstword $(TORCH_VERSIONS))
OTHER_TORCH := $(wordlist 2,$(words $(TORCH_VERSIONS)),$(TORCH_VERSIONS))
VERSION ?= $(lastword $(TORCH_VERSIONS))

setup: $(STAMP)

# torch is installed first and pinned: an unpinned torch would pull a multi-GB CUDA build.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==$(FIRST_TORCH)
	$(PY) -m pip install -q -e '.[dev]'
	# An editable install skips the wheel's share/ files: link the prebuilt lab extension.
	$(VENV)/bin/jupyter-builder develop --overwrite . >/dev/null
	touch $(STAMP)

# The demo needs the package and its notebook extras only, not the dev tools (`make setup`).
DEMO_STAMP := $(VENV)/.demo-installed
$(DEMO_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==$(FIRST_TORCH)
	$(PY) -m pip install -q -e '.[notebook]'
	touch $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(PY) -m symdebug demo --report out/symdebug-demo.html

# Every tier: tests/unit (imports no torch), tests/integration (torch.compile), tests/e2e
# (browsers, JupyterLab, notebooks, the wheel).  `make test-fast` runs the unit tier alone, in
# seconds: it never pays torch's import, and leaves out the few unit tests marked slow (timeouts
# by design, subprocesses, the import and torch-free checks; `make test` runs them).  Two
# processes (pytest-xdist), a test file each: the tests share no state across files.
# Then the conformance tier on each other supported torch, and the README's compatibility
# table checked against what the runs found (scripts/compat_table.py).
test: setup browser viewer-check
	rm -rf out/conformance
	$(PY) -m pytest -q -n 2 --dist loadfile tests/unit tests/conformance tests/integration tests/e2e
	$(MAKE) lint
	for version in $(OTHER_TORCH); do $(MAKE) test-torch VERSION=$$version || exit 1; done
	$(PY) scripts/compat_table.py --check

# A torch's own venv: that exact torch, then symdebug next to it (pip keeps the torch: the
# package asks for torch>=2.13,<2.16).  PIP_CONSTRAINT=/dev/null: the exact pin is the only
# constraint on torch here (a machine-wide cap must not move the venv to another torch).
.venv-torch-%/.installed: pyproject.toml
	test -x .venv-torch-$*/bin/python || $(PYTHON) -m venv .venv-torch-$*
	.venv-torch-$*/bin/python -m pip install -q --upgrade pip
	PIP_CONSTRAINT=/dev/null .venv-torch-$*/bin/python -m pip install -q torch==$*
	PIP_CONSTRAINT=/dev/null .venv-torch-$*/bin/python -m pip install -q -e '.[dev]'
	.venv-torch-$*/bin/python -c "import torch; assert torch.__version__.startswith('$*'), torch.__version__"
	touch $@

# The conformance tier on one torch: the tests of every feature (tests/features.py), the
# corpus against its recorded answers and logs.  A version never skips: it installs or fails.
test-torch: .venv-torch-$(VERSION)/.installed browser
	.venv-torch-$(VERSION)/bin/python -m pytest -q -n 2 --dist loadfile -m feature \
		tests/conformance tests/integration tests/e2e

# Record the corpus's answers and TORCH_TRACE logs on one torch (a new release: docs/torch-releases.md).
record-torch: .venv-torch-$(VERSION)/.installed
	.venv-torch-$(VERSION)/bin/python scripts/record_conformance.py

# The standing truth check (issue 47): symdebug against torch's own logs on programs it was
# not written for, live and from the log: causes, user lines, graph-break lines, predictions.
# It fails on any check that tests/data/judge-baseline.json passed and that now misses.
judge: setup
	$(PY) scripts/judge_recompiles.py --programs tests/data/unseen tests/data/classes --jobs 2 \
		--baseline tests/data/judge-baseline.json

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
	rm -rf $(VENV) .venv-torch-* build dist *.egg-info
