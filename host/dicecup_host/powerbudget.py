"""The cup's power budget: average current and hours of play on a stated battery.

    python -m dicecup_host.powerbudget [--mah 1200] [--lit 15] [--peek 100]

Figures are typical values from the parts' datasheets (see hardware/POWER.md for the
sources and what is an estimate); every one is a parameter, so a maker with a USB power
meter can put measured values in and get their own hours.
"""
import argparse

# Typical currents in mA. "rx": radio receiving/listening with the CPU running (ESP-NOW
# must listen the whole game); "tx": transmitting at full power (short bursts);
# "light": light sleep with the radio off.
CHIPS = {
    "esp32": {"rx": 97.5, "tx": 240.0, "light": 0.8},     # ESP32 datasheet, Rx 95~100 mA
    "esp32s3": {"rx": 95.0, "tx": 283.0, "light": 0.24},  # ESP32-S3 datasheet
    "esp32c3": {"rx": 84.0, "tx": 280.0, "light": 0.13},  # ESP32-C3 datasheet, Rx 82~84 mA
}
LIS3DH_MA = {"play": 0.020, "sleep": 0.006}  # 100 Hz and 25 Hz (DocID17530 table 12)
OLED_BASE_MA = 2.5       # controller + charge pump, display on, nothing lit (estimate)
OLED_PER_PCT_MA = 0.20   # per percent of the 8192 pixels lit, full contrast (estimate)
OLED_OFF_MA = 0.01       # display off (0xAE): SSD1306 sleep current
LDO_IQ_MA = 0.055        # AP2112K-3.3 quiescent current
DIVIDER_MA = 0.021       # 2 x 100k across a 4.2 V battery
USABLE = 0.85            # of the rated capacity above the 3.3 V cut-off, through the LDO


def oled_ma(lit_pct):
    return OLED_BASE_MA + OLED_PER_PCT_MA * lit_pct


def play_ma(chip, lit_pct=15.0, peek_pct=100.0, frames_per_s=10.0, frame_ms=0.6):
    """Average current while a game runs: radio listening throughout, a short transmit
    burst per frame, the display on `peek_pct` percent of the time."""
    c = CHIPS[chip]
    tx_share = min(1.0, frames_per_s * frame_ms / 1000.0)
    radio = c["rx"] * (1 - tx_share) + c["tx"] * tx_share
    on = peek_pct / 100.0
    display = on * oled_ma(lit_pct) + (1 - on) * OLED_OFF_MA
    return radio + display + LIS3DH_MA["play"] + LDO_IQ_MA + DIVIDER_MA


def sleep_ma(chip):
    """Average current lying still between games (light sleep, INT1 armed)."""
    return CHIPS[chip]["light"] + LIS3DH_MA["sleep"] + OLED_OFF_MA + LDO_IQ_MA + DIVIDER_MA


def hours(mah, ma):
    return mah * USABLE / ma


def table(mah=1200, lit_pct=15.0, peek_pct=100.0):
    rows = []
    for chip in CHIPS:
        p = play_ma(chip, lit_pct, peek_pct)
        s = sleep_ma(chip)
        rows.append((chip, p, hours(mah, p), s, hours(mah, s) / 24))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(prog="powerbudget", description=__doc__.split("\n")[0])
    ap.add_argument("--mah", type=float, default=1200, help="battery capacity (default 1200)")
    ap.add_argument("--lit", type=float, default=15, help="percent of OLED pixels lit (15)")
    ap.add_argument("--peek", type=float, default=100,
                    help="percent of play time the display is on (100)")
    a = ap.parse_args(argv)
    print("battery %d mAh (%.0f%% usable), OLED %.0f%% lit, on %.0f%% of the game"
          % (a.mah, USABLE * 100, a.lit, a.peek))
    print("%-8s %10s %10s %12s %10s" % ("chip", "play mA", "play h", "sleep mA", "sleep d"))
    for chip, p, ph, s, sd in table(a.mah, a.lit, a.peek):
        print("%-8s %10.1f %10.1f %12.2f %10.0f" % (chip, p, ph, s, sd))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
