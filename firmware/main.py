# The cup's entry point. Safe mode and the hardware come first (dicecup.hw.safemode);
# the game loop is added by the app (a later issue).
from dicecup.hw import safemode

hw = safemode.main()

