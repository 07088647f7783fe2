# Smart dice cups. `make sim` runs the simulated table, `make test` the whole suite.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?=
RULES ?= perudo
CUPS ?= 4
SEED ?= 1

.PHONY: install test test-fast sim bench mpy fw32 flash repl monitor clean

$(STAMP): pyproject.toml drivers.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -e '.[dev]'
	$(BIN)/pip install -q --no-deps -r drivers.txt
	touch $@

install: $(STAMP)

test: install
	$(BIN)/python -m pytest -q -n auto

test-fast: install
	$(BIN)/python -m pytest -q -n auto -m "not heavy"

# on a terminal: the live view, you on seat 1 against bots; in a pipe: the game told as text
sim: install
	$(BIN)/dicecup sim --rules $(RULES) --cups $(CUPS) --seed $(SEED) $(if $(SPEED),--speed $(SPEED)) $(if $(CUPLANG),--lang $(CUPLANG))

# the bench's WebAssembly MicroPython (build/wasm); without npm its column says so
$(VENV)/.bench: $(STAMP)
	$(BIN)/pip install -q -e '.[dev,bench]'
	-npm install --prefix build/wasm --no-save --no-audit --no-fund @micropython/micropython-webassembly-pyscript@1.27.0 \
	  || echo "bench: npm could not install the WebAssembly MicroPython: its column will say so"
	touch $@

bench: $(VENV)/.bench
	$(BIN)/python -m dicecup_host.bench

mpy: install
	$(BIN)/python -c "from dicecup_host import mpy; print(mpy.build())"

# The 32-bit unix MicroPython with the firmware frozen in (needs gcc-multilib): build/fw32/
fw32: install
	$(BIN)/python -c "from dicecup_host import fw32; print(fw32.build())"

# PORT found when exactly one board is attached; BOARD a name or a board file; FIRMWARE a MicroPython .bin
flash: install
	$(BIN)/dicecup flash $(if $(PORT),--port $(PORT)) $(if $(BOARD),--board $(BOARD)) $(if $(FIRMWARE),--firmware $(FIRMWARE)) $(if $(CHIP),--chip $(CHIP)) $(if $(NAME),--name $(NAME)) $(if $(CUPLANG),--lang $(CUPLANG))

# the cup's REPL, and its serial output (Ctrl-] leaves either)
repl: install
	$(BIN)/mpremote connect $(or $(PORT),auto) repl

monitor: install
	$(BIN)/python -m serial.tools.miniterm --raw $(or $(PORT),$(error give PORT=...)) 115200

clean:
	rm -rf build .pytest_cache .hypothesis
