# baccarat-report: the two commands of the quick start are `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEMO   := demo

.PHONY: demo test lint bench i18n syslibs clean help

help:
	@echo "make demo   install into .venv, then run the monthly job on sample_data/"
	@echo "make test   the whole test suite"
	@echo "make lint   ruff"
	@echo "make bench  ingest/verify benchmark (1,000,000 rounds by default; ROUNDS=N)"
	@echo "make i18n   extract, update and compile the gettext catalogues"

syslibs:
	@scripts/ensure-system-libs.sh

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (PYTHON=python3.11 make ...)")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

demo: syslibs $(STAMP)
	@echo "== Exact odds of every sample game (computed by the engine) =="
	@for game in live-baccarat-it live-baccarat-dk live-baccarat-gr mini-baccarat-it; do \
		$(BIN)/baccarat-report odds --config sample_data/operator.toml --game $$game || exit $$?; \
	done
	@mkdir -p $(DEMO)
	@echo "== Ingest the sample month into $(DEMO)/baccarat-report.sqlite =="
	@$(BIN)/baccarat-report ingest sample_data/inbox --config sample_data/operator.toml \
		--db $(DEMO)/baccarat-report.sqlite; status=$$?; [ $$status -le 1 ] || exit $$status
	@echo "The database is $(DEMO)/baccarat-report.sqlite (open it with sqlite3 or Datasette)."

test: syslibs $(STAMP)
	$(BIN)/python -m pytest

ROUNDS ?= 1000000
bench: syslibs $(STAMP)
	$(BIN)/python scripts/bench.py --rounds $(ROUNDS)

lint: $(STAMP)
	$(BIN)/ruff check reporting tests scripts
	$(BIN)/ruff format --check reporting tests scripts

clean:
	rm -rf $(VENV) $(DEMO) .pytest_cache .ruff_cache .hypothesis
