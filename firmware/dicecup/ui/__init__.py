"""The cup's screens on the 128x64 mono OLED.

Drawing works on the SSD1306's own buffer layout (MONO_VLSB: 1024 bytes, byte
(y // 8) * 128 + x, bit y % 8) as a plain `bytearray`, so the same code draws on the
cup (the driver's `.buffer`), on the host (PNG screenshots, golden tests) and inside
the MicroPython runtime in CI, with the same bytes everywhere:
`fb` (rectangles, bitmaps), `text` with the `font_*` modules, `dice` (die faces),
`lang` (every string in five languages, with the place it is drawn), `controls` (the
button model: keymap, bids, picking) and `screens` (a Scene drawn).
"""
