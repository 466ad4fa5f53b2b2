# Quick start: `make run` starts the table (simulated on a laptop), `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test system-test bench clean goldens firmware

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("golfbox needs Python >= 3.11, found " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	# From Python 3.14 the dev extra has pygame-ce, not pygame (no wheel): luma.emulator
	# comes without the pygame it asks for (pyproject.toml). Before, it is there already.
	$(BIN)/python -m pip install --quiet --no-deps 'luma.emulator>=1.5'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/golfbox run

# The tests read and write the project's UTF-8 files (README.md, docs/RULES.md) in the
# locale's encoding, as Python does before 3.15: UTF-8 mode (PEP 686) makes that UTF-8
# in a Latin-1 or other non-UTF-8 locale too.
test: $(STAMP)
	PYTHONUTF8=1 $(BIN)/python -m pytest

# A Debian VM under QEMU installs and runs the service on a real systemd (tests/system/run.py; root).
system-test: $(STAMP)
	tests/system/host-deps.sh
	$(BIN)/python tests/system/run.py

bench: $(STAMP)
	$(BIN)/python bench/engine_speed.py

# The seat node's firmware as it is flashed: .mpy files + main.py in firmware/build/
firmware: $(STAMP)
	$(BIN)/python firmware/build.py firmware/build

goldens: $(STAMP)
	$(BIN)/python tests/goldens.py --regenerate

clean:
	rm -rf $(VENV) build *.egg-info
