# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install lint bench clean locale

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/referee-app gui --demo

# the package's bytecode written first, as an installed copy has it: the tests start a few
# hundred processes (servers, the CLI), each would otherwise compile it again (~0.15 s CPU);
# bytecode allowed for pytest too (PYTHONDONTWRITEBYTECODE emptied), so the test modules'
# asserts are rewritten once, not by each worker (tests/conftest.py pytest_configure)
test: $(STAMP)
	$(BIN)/ruff check referee_app tests benchmarks tools
	$(BIN)/python -m compileall -q referee_app
	PYTHONDONTWRITEBYTECODE= QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -n 3 --dist worksteal

lint: $(STAMP)
	$(BIN)/ruff check referee_app tests benchmarks tools

# after editing referee_app/locale/*/LC_MESSAGES/referee_app.po: compile the shipped .mo
locale: $(STAMP)
	$(BIN)/python tools/catalogues.py

# every benchmark runs and prints its figures even when one before it misses a target (each
# exits 1 then); the run fails at the end, naming those that did
BENCHES := bench_settle bench_startup bench_storage bench_reports bench_seating bench_gui \
	bench_server bench_event
bench: $(STAMP)
	@missed=""; for b in $(BENCHES); do \
		echo "== benchmarks/$$b.py"; \
		QT_QPA_PLATFORM=offscreen $(BIN)/python benchmarks/$$b.py || missed="$$missed $$b"; \
	done; \
	if [ -n "$$missed" ]; then echo "targets missed in:$$missed"; exit 1; fi

clean:
	rm -rf $(VENV) build *.egg-info
