# Two commands set everything up on a fresh machine:
#   make demo   -> installs iosched in .venv and runs `iosched advise` on a built-in example
#   make test   -> installs the test tools (and, as root, Debian's fio and chromium) and runs the whole suite
PY ?= python3
export NO_MKDOCS_2_WARNING := 1
VENV := .venv
BIN := $(VENV)/bin
# pip's output is kept in .venv/pip.log and shown only when it fails
PIP = $(BIN)/python -m pip --disable-pip-version-check -q install
QUIET = >>$(VENV)/pip.log 2>&1 || { cat $(VENV)/pip.log; exit 1; }

$(BIN)/iosched: pyproject.toml
	@echo "setup: creating the virtual environment $(VENV)"
	$(PY) -m venv $(VENV)
	@echo "setup: installing iosched and its dependencies into $(VENV) (a minute or more; log: $(VENV)/pip.log)"
	$(PIP) -e . $(QUIET)

$(VENV)/.dev: requirements-dev.txt $(BIN)/iosched
	@echo "setup: installing the test and site tools into $(VENV) (log: $(VENV)/pip.log)"
	$(PIP) -r requirements-dev.txt -e '.[site]' $(QUIET)
	@touch $@

.PHONY: demo test quick lint site serve bench system-deps
demo: $(BIN)/iosched
	@echo "demo: iosched advise --example pg-vm-ubuntu1604"
	$(BIN)/iosched advise --example pg-vm-ubuntu1604

system-deps:
	@bash .ci/system-deps

lint: $(VENV)/.dev
	$(BIN)/ruff check engine tests bench
	$(BIN)/ruff format --check engine tests bench
	$(BIN)/mypy
	$(BIN)/iosched kb check

# One pytest worker per core; tests marked root (loop devices, /run/iosched) run one at a time on one worker.
test: system-deps lint
	$(BIN)/python -m pytest -q -n auto --dist loadgroup --durations=10

# The quick loop while working: every test but those marked slow (seconds each), root (the machine's loop devices),
# browser (Chromium) or ansible (ansible-playbook, ansible-lint); no system packages, no lint. make test runs them all.
QUICK = not slow and not root and not browser and not ansible
quick: $(VENV)/.dev
	$(BIN)/python -m pytest -q -n auto --dist loadgroup -m "$(QUICK)" --durations=10

site: $(VENV)/.dev
	$(BIN)/mkdocs build --strict

serve: $(VENV)/.dev
	$(BIN)/mkdocs serve -a 127.0.0.1:8000

bench: $(VENV)/.dev
	@for b in bench/*.py; do $(BIN)/python $$b; done
