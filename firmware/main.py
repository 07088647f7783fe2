# The cup's entry point: safe mode first (hold the safe button at power-on: the
# self-test runs, the game never starts, the REPL stays free), then the game
# (dicecup/appboot.py: the radio, the table protocol, the screen).
from dicecup import appboot

appboot.boot()
