# Two entry points a fresh clone needs: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
RUN_STAMP  := $(VENV)/.run-installed
TEST_STAMP := $(VENV)/.test-installed


.PHONY: run test lint bench fmt clean mutate dist install-desktop uninstall-desktop a11y-check

$(BIN)/python:
	@echo "Postdesk: creating $(VENV) (first run only; the whole set-up takes about two minutes)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(RUN_STAMP): $(BIN)/python pyproject.toml constraints.txt
	@echo "Postdesk: installing the app's packages into $(VENV) (pinned in constraints.txt)"
	$(BIN)/pip install -q -c constraints.txt -e .
	touch $@

$(TEST_STAMP): $(BIN)/python pyproject.toml constraints.txt
	@echo "Postdesk: installing the app's and the tests' packages into $(VENV) (pinned in constraints.txt)"
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

# What a screen reader gets over AT-SPI from the live demo (needs xvfb, xdotool, at-spi2-core,
# dbus-x11, python3-gi, gir1.2-atspi-2.0; docs/notes/accessibility_atspi.md).
a11y-check: $(TEST_STAMP)
	POSTDESK_ATSPI=1 QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest tests/ui/test_atspi_walk.py -p no:randomly

MUTATE_STAMP := $(VENV)/.mutate-installed
$(MUTATE_STAMP): $(TEST_STAMP)
	$(BIN)/pip install -q -c constraints.txt -e '.[test,mutate]'
	touch $@

# Mutation testing of app/api, app/sync, app/store, app/compose, app/networks, app/csv_io and
# app/webhooks (slow: 3-4 hours on 2 cores; `mutmut run "app.networks*"` narrows it to one package).
# Most mutants' tests wait on sockets and timers, not the CPU: more runs than cores pay off.
MUTATE_CHILDREN ?= 4
mutate: $(MUTATE_STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/mutmut run --max-children $(MUTATE_CHILDREN)
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

# Takes Postdesk out of the desktop's application menu again (what install-desktop added).
uninstall-desktop:
	rm -f ~/.local/share/applications/postdesk.desktop ~/.local/share/icons/hicolor/scalable/apps/postdesk.svg
	@echo "removed Postdesk from the application menu"

fmt: $(TEST_STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) build dist mutants *.egg-info
