# Two entry points a fresh clone needs: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
RUN_STAMP  := $(VENV)/.run-installed
TEST_STAMP := $(VENV)/.test-installed


.PHONY: run test lint bench fmt clean mutate dist install-desktop

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(RUN_STAMP): $(BIN)/python pyproject.toml constraints.txt
	$(BIN)/pip install -q -c constraints.txt -e .
	touch $@

$(TEST_STAMP): $(BIN)/python pyproject.toml constraints.txt
	$(BIN)/pip install -q -c constraints.txt -e '.[test]'
	touch $@ $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/postdesk --demo

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Coverage floor for the packages whose bugs lose data or send twice (README, Tests).
COVERAGE := --cov=app.api --cov=app.sync --cov=app.store --cov-report=term:skip-covered \
	--cov-fail-under=90

test: $(TEST_STAMP) lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest $(COVERAGE)

bench: $(TEST_STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest tests/bench -p no:randomly -s

MUTATE_STAMP := $(VENV)/.mutate-installed
$(MUTATE_STAMP): $(TEST_STAMP)
	$(BIN)/pip install -q -c constraints.txt -e '.[test,mutate]'
	touch $@

# Mutation testing of app/api, app/sync and app/store (slow: tens of minutes on 2 cores).
mutate: $(MUTATE_STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/mutmut run
	$(BIN)/mutmut export-cicd-stats
	@cat mutants/mutmut-cicd-stats.json

# A self-contained app folder (dist/postdesk/) and a check that it starts on the demo workspace.
dist: $(RUN_STAMP)
	$(BIN)/pip install -q 'pyinstaller>=6.10'
	$(BIN)/pyinstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/pyinstaller \
		packaging/postdesk.spec
	QT_QPA_PLATFORM=offscreen XDG_DATA_HOME=$$(mktemp -d) XDG_CONFIG_HOME=$$(mktemp -d) \
		dist/postdesk/postdesk --demo --screenshot build/dist-check.png
	@echo "dist/postdesk/postdesk built and started on the demo workspace"

# Adds Postdesk to the desktop's application menu (per user) for the built app or the venv's.
install-desktop:
	@exe="$(CURDIR)/dist/postdesk/postdesk"; [ -x "$$exe" ] || exe="$(CURDIR)/$(BIN)/postdesk"; \
	mkdir -p ~/.local/share/applications ~/.local/share/icons/hicolor/scalable/apps; \
	sed "s|^Exec=.*|Exec=$$exe|" resources/postdesk.desktop > ~/.local/share/applications/postdesk.desktop; \
	cp resources/postdesk.svg ~/.local/share/icons/hicolor/scalable/apps/postdesk.svg; \
	echo "installed ~/.local/share/applications/postdesk.desktop (Exec=$$exe)"

fmt: $(TEST_STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) build dist mutants *.egg-info
