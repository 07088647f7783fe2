# Smart dice cups. `make sim` runs the simulated table, `make test` the whole suite.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RULES ?= perudo
CUPS ?= 4
SEED ?= 1

.PHONY: install test test-fast sim bench mpy fw32 firmware enclosure enclosure-previews cards cards-docs flash repl monitor vboard clean

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
	$(BIN)/dicecup sim --rules $(RULES) $(if $(SEATS),--seats $(SEATS),--cups $(CUPS)) --seed $(SEED) $(if $(SPEED),--speed $(SPEED)) $(if $(CUPLANG),--lang $(CUPLANG))

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

# MicroPython for a board (BOARD: a name in hardware/boards or a board file, default
# esp32-devkitc) with the cup's modules frozen in: needs ESP-IDF (idf.py on PATH) and a
# MicroPython checkout in MICROPYTHON_DIR; without them it says what is missing (exit 2)
firmware: install
	@$(BIN)/dicecup firmware $(if $(BOARD),--board "$(BOARD)")

# The printable cup for BOARD (default esp32-devkitc): STL + STEP per printed part and PNG
# previews in build/enclosure/BOARD/ (OUT overrides), from hardware/enclosure/cup.py
enclosure: install
	@$(BIN)/dicecup enclosure $(if $(BOARD),--board "$(BOARD)") $(if $(OUT),--out "$(OUT)")

# the previews the README shows, in hardware/enclosure/previews/ (a test checks they are current)
enclosure-previews: install
	$(BIN)/python -c "from dicecup_host import enclosure; print(*enclosure.readme_previews(), sep='\n')"

# The quick-start card per language (CUPLANG: one of en fr de it es, default all), the screens
# on it the cup's real renders: quickstart-<lang>.png (both sides) and .pdf (two A6 pages)
# in build/cards/ (OUT overrides)
cards: install
	@$(BIN)/dicecup cards "$(or $(OUT),build/cards)" $(if $(CUPLANG),--lang $(CUPLANG))

# the cards the README shows, in docs/cards/ (a test checks they are current)
cards-docs: install
	$(BIN)/dicecup cards docs/cards --no-pdf

# The cup firmware onto a board: PORT (default: the one ESP32 board attached), BOARD (a name
# in hardware/boards or a board file's path), FIRMWARE (a MicroPython .bin: erase and write it
# first; the chip is the board file's, CHIP only overrides), NAME, CUPLANG, PLAY + BOTS (the cup
# boots as master of a table of bots and plays a game).
flash: install
	$(BIN)/dicecup flash $(if $(PORT),--port "$(PORT)") $(if $(BOARD),--board "$(BOARD)") \
	  $(if $(FIRMWARE),--firmware "$(FIRMWARE)") $(if $(CHIP),--chip $(CHIP)) $(if $(NAME),--name "$(NAME)") \
	  $(if $(CUPLANG),--lang $(CUPLANG)) $(if $(PLAY),--play $(PLAY)) $(if $(BOTS),--bots $(BOTS))

# MicroPython's REPL on the cup (mpremote; Ctrl-] leaves); the cup's serial output as it comes
# (pyserial's miniterm, the game keeps running; Ctrl-] leaves)
repl: install
	@port=$$($(BIN)/dicecup flash --which-port $(if $(PORT),--port "$(PORT)")) && \
	  $(BIN)/python -m mpremote connect "$$port" repl

monitor: install
	@port=$$($(BIN)/dicecup flash --which-port $(if $(PORT),--port "$(PORT)")) && \
	  $(BIN)/python -m serial.tools.miniterm --raw --eol LF "$$port" 115200

# A virtual cup on a pty (first line: the port); PLAY=perudo BOTS=3 lets it play a game
vboard: install
	$(BIN)/dicecup vboard $(if $(LINK),--link "$(LINK)") $(if $(PLAY),--play $(PLAY)) $(if $(BOTS),--bots $(BOTS))

clean:
	rm -rf build .pytest_cache .hypothesis
