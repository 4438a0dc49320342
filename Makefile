# baccarat-report: the two commands of the quick start are `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEMO   := demo

.PHONY: bytecode demo test test-fast mutation lint docs docs-serve bench generate i18n schemas sample-inbox currencies syslibs clean help

help:
	@echo "make demo   install into .venv, then run the monthly job on sample_data/ into demo/"
	@echo "make test   the whole test suite, on every core"
	@echo "make test-fast  the unit tests of the inner loop (engine, checks, config, presentation)"
	@echo "make mutation  mutmut over the engine and verify's checks, then the score (JOBS=1)"
	@echo "make lint   ruff"
	@echo "make docs   build the documentation site into site/ (mkdocs build --strict); make docs-serve previews it"
	@echo "make bench  ingest/verify benchmark (1,000,000 rounds by default; ROUNDS=N)"
	@echo "make i18n   extract, update and compile the gettext catalogues"
	@echo "make schemas  regenerate the JSON Schemas of the configuration and of log profiles"
	@echo "make sample-inbox  regenerate sample_data/inbox/ (same bytes for the same seed)"
	@echo "make currencies  regenerate reporting/data/currencies.json (the currencies in use, their CLDR decimals)"
	@echo "make generate  every generated file: i18n, schemas, sample-inbox and currencies"

syslibs:
	@PYTHON=$(PYTHON) scripts/ensure-system-libs.sh

# The virtualenv: pip puts uv in it (the release the times were measured with), and uv
# installs the project and its dependencies, the same releases pip resolves, in a fraction of
# pip's time (docs/developers/testing.md gives both). uv reads PyPI, not pip's configuration:
# a machine with its own package index sets UV_DEFAULT_INDEX. Nothing is compiled at install:
# each module's bytecode is written the first time it is imported (make test and make demo
# let Python write it, whatever the shell says). pip installs uv with -qq: warnings of a
# machine's own index settings are not a newcomer's concern.
UV := uv==0.13.9
$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (PYTHON=python3.11 make ...)")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -qq --disable-pip-version-check '$(UV)'
	$(BIN)/uv pip install --quiet --link-mode=copy --python $(BIN)/python -e '.[test,dask,docs]'
	@touch $@

# The monthly job on the sample inbox, dated the 5th of November 2026 (the sample month is
# October 2026). Exit code 1 means something bears on the month: the sample has no finding,
# but the Italian live game's declared RTP (99.50%, as published) is above every bet's theory:
# its pages are drafts, listed in the audit workbook's Pages sheet; and its table, dealt 30
# rounds a day in sessions, was idle most of the month while its pages say it is open 24h
# (sample_data/README.md): the audit flags both, so the demo accepts 1.
demo: syslibs $(STAMP)
	@mkdir -p $(DEMO)
	@env PYTHONDONTWRITEBYTECODE= $(BIN)/baccarat-report monthly \
		--config sample_data/operator.toml --inbox sample_data/inbox \
		--db $(DEMO)/baccarat-report.sqlite --out $(DEMO)/reports --as-of 2026-11-05; \
		status=$$?; [ $$status -le 1 ] || exit $$status
	@echo
	@echo "Reports: $(DEMO)/reports/2026-10/ (manifest.json lists every file with its sha256)"
	@echo "  audit workbook:  $(DEMO)/reports/2026-10/audit-2026-10.xlsx"
	@echo "  audit report:    $(DEMO)/reports/2026-10/audit-2026-10.{html,pdf}"
	@echo "  rule sheets:     $(DEMO)/reports/2026-10/<game>/<game>.<lang>.{pdf,xlsx,html}"
	@echo "  ADM disclosure:  $(DEMO)/reports/2026-10/live-baccarat-it/live-baccarat-it.it.disclosure.pdf"
	@echo "Database: $(DEMO)/baccarat-report.sqlite (try: $(BIN)/baccarat-report verify --db $(DEMO)/baccarat-report.sqlite --config sample_data/operator.toml)"

# The package's bytecode, written once (a fraction of a second; nothing when it is up to date):
# the editable install leaves none, and where PYTHONDONTWRITEBYTECODE is set no run writes it,
# so each fresh interpreter of the suite (a worker process, a command run as cron would) would
# compile the package again, about 0.15 s of CPU each.
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q -j 0 reporting

# Across the cores (pytest-xdist), a test file to one worker, so that a fixture built once per
# module is built once (--dist loadgroup cannot group under pytest 9.2: xdist 3.8 renames
# items through an attribute pytest no longer reads); the files in collection order, where
# tests/conftest.py puts the slowest first (--no-loadscope-reorder: not by number of tests).
test: syslibs $(STAMP) bytecode
	$(PYTEST) -n auto --dist loadfile --no-loadscope-reorder

# pytest for both targets. PYTHONDONTWRITEBYTECODE is cleared: pytest keeps the tests'
# assertion-rewritten bytecode beside them (tests/**/__pycache__, ignored by git), so that each
# worker's collection reads it instead of rewriting every test module again (about 10 s against
# 4 s a worker).
PYTEST = env PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest

# The inner loop: the engine, the checks, the configuration and the presentation's units (no
# PDF, no browser, no command run in a child process). make test runs these too.
FAST_TESTS := tests/engine tests/verify/test_checks.py tests/config \
	tests/presentation/test_charts.py tests/presentation/test_i18n.py
test-fast: $(STAMP) bytecode
	$(PYTEST) -n auto --dist loadfile -m "not slow" $(FAST_TESTS)

# Mutation testing (docs/developers/mutation.md): mutmut ([tool.mutmut] in pyproject.toml) over
# reporting/engine/ and reporting/verify/checks.py with the unit tests that bear on them, from a
# fresh copy in mutants/; then the score, the equivalent mutants of
# tests/mutation_equivalent.toml set apart (fails below 98% of the others killed).
JOBS ?= 1
mutation: $(STAMP)
	rm -rf mutants
	$(BIN)/mutmut run --max-children $(JOBS)
	$(BIN)/python scripts/mutation.py

ROUNDS ?= 1000000
bench: syslibs $(STAMP)
	$(BIN)/python scripts/bench.py --rounds $(ROUNDS)

# The documentation site (docs/, mkdocs.yml): a broken link or a missing page fails the build.
# The reference pages are generated from the code by scripts/docs_reference.py (a MkDocs hook).
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

docs-serve: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve

lint: $(STAMP)
	$(BIN)/ruff check reporting tests scripts
	$(BIN)/ruff format --check reporting tests scripts

# Extract the messages of reporting/ (its code and its templates/rules/), update every
# catalogue, and refresh the English one (a new entry's msgstr = its msgid; a reviewed English
# wording is kept).
# Catalogues compile in memory at run time: no .mo files.
i18n: $(STAMP)
	$(BIN)/python scripts/generate.py catalogue-template
	$(BIN)/pybabel update -D messages -i reporting/locale/messages.pot -d reporting/locale --width=100 --ignore-obsolete --no-fuzzy-matching
	$(BIN)/python -c "from babel.messages.pofile import read_po, write_po; p='reporting/locale/en/LC_MESSAGES/messages.po'; c=read_po(open(p,'rb'), locale='en'); [setattr(m, 'string', m.id if isinstance(m.id, str) else tuple(m.id)) for m in c if m.id and not any(m.string if isinstance(m.string, tuple) else (m.string,))]; write_po(open(p,'wb'), c, width=100)"

# The JSON Schemas editors check files against, generated from the key tables and the bet
# catalogue (a bet or a key added there changes them).
schemas: $(STAMP)
	$(BIN)/python scripts/generate.py schemas

# The sample month of sample_data/inbox/ (sample_data/README.md says what it holds).
sample-inbox: $(STAMP)
	$(BIN)/python scripts/generate.py sample-inbox

# The currencies in use with their decimals, from Babel's CLDR (reporting/data/currencies.json).
currencies: $(STAMP)
	$(BIN)/python scripts/generate.py currencies

# Every generated file (scripts/generate.py lists them; tests/test_generated.py fails, naming
# this target, when one is out of date).
generate: i18n schemas sample-inbox currencies

clean:
	rm -rf $(VENV) $(DEMO) mutants site .pytest_cache .ruff_cache .hypothesis build dist *.egg-info
