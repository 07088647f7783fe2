"""Shake to roll: tell a real shake, then the cup set down, from everything else.

The LIS3DH measures specific force in g in the cup's frame: at rest on the table it
reads (0, 0, +1) (z up, see hardware/traces/README.md). `ShakeDetector.feed(x, y, z)`
takes one such sample and returns "roll" exactly once per real roll, else None.

    det = ShakeDetector(rate_hz=100)
    for each sample:
        if det.feed(x, y, z) == "roll":
            seed = det.entropy()          # 32 bytes from the shake's samples

What counts as a roll (the order matters):
1. A real shake: the dynamic part of the acceleration (gravity and slow hand motion
   taken off, knock ringing filtered out) swings past `swing_mg` and reverses
   direction at least `shake_reversals` times, each reversal 30..210 ms after the last
   (a hand shaking at 2.4..16 Hz), over at least `shake_min_ms`, the latest swing
   still at least `sustain_pct` of the largest (driven by a hand, not a bumped cup
   ringing out). Picking up, tilting, peeking, carrying and walking are too weak or
   too slow; a bump or a table knock rings too fast and dies out too soon. Reversals
   are taken on the vector (dot product with the direction of the last swing), so a
   swirl counts as well as a straight shake, whatever the axis mix.
2. Then the cup is set down: it comes to rest (every axis within `still_mg` of the
   rest's mean for `still_ms`, with no trend beyond `drift_mg`) upright (z within `upright_deg` of vertical, 1 g) and
   the rest is a landing: it began within `land_ms` of a jolt (the table stopping the
   cup) and reads "home" (within `home_mg` of how the cup stood on this table before).
   A rest that is upright but not clearly a landing at home rolls after `unsure_ms`.
   A cup held at an angle or lying on its side never rolls, nor does one that is not
   at rest within `settle_max_ms` after the shake.

Known limits (measured on synthetic traces, hardware/traces/README.md): an
accelerometer cannot tell rest from moving at a steady speed, nor a table from a hand
that holds perfectly still. A rest that begins within `land_ms` of the shake's last
strong swing passes for a landing, so a cup stopped sharply after a shake and held
motionless, upright and level in the air for `still_ms` rolls there, before it is set
down (7 % of the shakes drawn from the held-out ranges, which allow a pause in the air
and a slow set-down). Held still in the air for `unsure_ms` it rolls anyway. A flat
elliptic swirl can turn the swing vector past 90 degrees twice within
`reversal_min_ms`, restart the count and not roll.

States (`.state`): "handling" (moving, or at rest but not upright; also the state at
power-up until rest is seen), "still" (at rest upright, no shake pending), "shaking"
(a real shake in progress), "settling" (a shake happened, waiting for rest), "rolled"
(at rest after a roll, until the cup moves again).

Cheap on the cup: after the conversion of the inputs to integer milli-g, `feed` does
integer adds, shifts and a few multiplies that stay within MicroPython's small ints
(30 bits on the ESP32), so it allocates nothing (`feed_mg` takes milli-g ints and
allocates nothing at all; `feed` only makes the three temporary floats of `x * 1000`,
which are garbage at once).
Filters are exponential averages whose factor is a power of two chosen from the
sample rate, so the same settings (in ms and mg) hold at 50, 100, 200 or 400 Hz.
"""
from micropython import const

# The states, by the names tools and screens use.
_STILL = const("still")
_HANDLING = const("handling")
_SHAKING = const("shaking")
_SETTLING = const("settling")
_ROLLED = const("rolled")
STATES = (_STILL, _HANDLING, _SHAKING, _SETTLING, _ROLLED)

# Every threshold of the detector, in ms and mg so they hold at any sample rate, as
# (name, value) pairs: a constant tuple (flash when frozen), not a dict built in RAM
# at import; `dict(SETTINGS)` reads it by name. Pass `settings={...}` to override
# some (unknown names are a ValueError).
SETTINGS = (
    # -- the shake ------------------------------------------------------------------
    # Time constant of the per-axis running average taken as "gravity and slow hand
    # motion"; what is left is the dynamic part. 160 ms keeps 3 Hz shakes at 95 %,
    # while a tilt (gravity moving between axes over ~0.5 s) leaves little.
    ("gravity_ms", 160),
    # Time constant of the low-pass on the dynamic part (~8 Hz corner): shakes pass,
    # the 30-100 Hz ringing of a knock or a bump is cut to a fraction.
    ("band_ms", 20),
    # Vigour: a swing counts only when the dynamic vector exceeds this (the dice in a
    # cup slide once the cup pushes harder than friction, ~0.3-0.5 g). It is also the
    # hysteresis of reversal counting: noise near zero never makes a reversal.
    ("swing_mg", 400),
    # Two reversals closer than this are ringing, not a hand (over ~16 Hz): the count
    # starts again from this swing.
    ("reversal_min_ms", 30),
    # Two reversals further apart than this are handling or walking (under ~2.4 Hz):
    # the count starts again.
    ("reversal_max_ms", 210),
    # Reversals needed for a real shake (5: two and a half back-and-forths at full
    # swing; a swirl makes about four per turn)...
    ("shake_reversals", 5),
    # ...spanning at least this long from the first swing (a knock or bump that rings
    # at hand frequency dies out well before).
    ("shake_min_ms", 350),
    # Driven, not ringing: when the count is reached, the latest swing must still be
    # at least this share (%) of the shake's largest (the opening swing left out: it
    # may be the kick of a bump, or a player's first hard stroke). A hand keeps a
    # shake going; a bumped cup swinging on the arm dies away (to ~28 % in four
    # half-swings even for a lightly damped arm, damping ratio 0.1; to ~45 % in three).
    ("sustain_pct", 50),
    # No reversal for this long: the shake is over and the cup is settling.
    ("shake_end_ms", 210),
    # -- the set-down ----------------------------------------------------------------
    # At rest: every axis stays within this of the rest's mean (the LIS3DH's noise
    # is 2-10 mg; a hand moving the cup changes it by more).
    ("still_mg", 60),
    # ...for this long. This is most of the latency from settling to the roll.
    ("still_ms", 90),
    # ...and without a trend: the mean of the window's last third within this of its
    # first third on every axis. A table holds still; a hand starting to move the cup
    # after a pause drifts slowly, by less than still_mg in 90 ms but not by nothing.
    ("drift_mg", 20),
    # Set down, not gliding or held still in the air. An accelerometer cannot tell
    # rest from moving at a steady speed, so a roll wants the landing too: a jolt,
    # a change of at least `land_mg` on some axis from one sample to the next (the
    # table stops the cup within a few ms: contact speed / sample time, 0.15 g at
    # 100 Hz for 1.5 cm/s), and the rest must begin within `land_ms` of it (the rim
    # rocking on the table dies away in up to ~150 ms).
    ("land_mg", 150),
    ("land_ms", 200),
    # Home: the reading of the cup standing on this table, learned whenever it has
    # stood still and upright for `home_learn_ms`. The rest after a landing (its mean
    # and the latest sample) must be within `home_mg` of it on every axis (about
    # 3 deg, or 5 % of 1 g): a slow move can stay within still_mg for a while, but
    # not at exactly 1 g upright.
    ("home_mg", 50),
    ("home_learn_ms", 300),
    # A rest that is not clearly a landing at home (a set-down too soft to jolt,
    # another table, a book under the cup) still rolls, after this long at rest.
    ("unsure_ms", 400),
    # Upright: z within this angle of vertical (a peek lifts the edge 10-50 deg; a
    # table or a mount may be off by a few).
    ("upright_deg", 25),
    # At rest the cup must measure 1 g within this (a sanity check of the mounting and
    # calibration: in free fall or mid-move it is not at rest on a table).
    ("gravity_tol_mg", 250),
    # After a shake the cup must be at rest within this long, else the shake is
    # forgotten (the player kept fiddling: shake again to roll).
    ("settle_max_ms", 3000),
)

_CLAMP = const(16000)       # mg: the LIS3DH's widest range is +-16 g
_BIG = const(1 << 20)       # saturation of the sample counters (small int everywhere)


def _shift(ms, rate_hz):
    """The k of an exponential average with factor 1/2**k whose time constant
    (about 2**k samples) is nearest to `ms` at `rate_hz` (in the log sense)."""
    n = ms * rate_hz / 1000.0
    k = 0
    while (1 << k) * 1.4142 < n:
        k += 1
    return k


def _samples(ms, rate_hz):
    n = int(ms * rate_hz / 1000.0 + 0.5)
    return n if n > 0 else 1


class ShakeDetector:
    """Shake-to-roll over accelerometer samples; see the module docstring."""

    def __init__(self, rate_hz=100, settings=None):
        if settings:
            names = [k for k, _ in SETTINGS]
            for k in settings:
                if k not in names:
                    raise ValueError("unknown shake setting: %s" % k)

        def s(name):
            # a setting: its override, else the table's (read in place: no dict made)
            if settings and name in settings:
                return settings[name]
            for k, v in SETTINGS:
                if k == name:
                    return v
        if not 10 <= rate_hz <= 5000:
            raise ValueError("rate_hz out of range: %r" % (rate_hz,))
        self._kg = _shift(s("gravity_ms"), rate_hz)
        self._kb = _shift(s("band_ms"), rate_hz)
        sw = s("swing_mg") >> 2                       # vectors are compared in 4 mg units
        self._swing2 = sw * sw
        self._rmin = _samples(s("reversal_min_ms"), rate_hz)
        self._rmax = _samples(s("reversal_max_ms"), rate_hz)
        self._need = s("shake_reversals")
        self._shake_min = _samples(s("shake_min_ms"), rate_hz)
        self._shake_end = _samples(s("shake_end_ms"), rate_hz)
        r = s("sustain_pct")
        self._sustain = (r * r * 256 + 5000) // 10000      # (pct/100)^2 in 1/256
        self._still_tol = s("still_mg")
        self._still_n = _samples(s("still_ms"), rate_hz)
        w = self._still_n
        self._third = w // 3 if w >= 3 else 1
        self._drift = s("drift_mg") * self._third
        self._w = [0] * (3 * w)                        # the last still_n samples: x, y, z rings
        self._land = s("land_mg")
        self._land_n = _samples(s("land_ms"), rate_hz)
        self._home = s("home_mg")
        self._home_learn = _samples(s("home_learn_ms"), rate_hz)
        self._unsure = _samples(s("unsure_ms"), rate_hz)
        import math   # (here, not a global: one use)
        c = math.cos(math.radians(s("upright_deg")))
        self._cos2 = int(c * c * 256 + 0.5)            # cos^2 in 1/256
        lo = (1000 - s("gravity_tol_mg")) >> 2
        hi = (1000 + s("gravity_tol_mg")) >> 2
        self._g2lo = lo * lo
        self._g2hi = hi * hi
        self._settle_max = _samples(s("settle_max_ms"), rate_hz)
        self._pool = bytearray(32)
        self._mixed = 0
        self.reset()

    def reset(self):
        """Forget everything but the entropy pool: as at power-up ("handling" until the
        cup is seen at rest)."""
        self.state = _HANDLING
        self._fresh = True
        self._gx = self._gy = self._gz = 0      # gravity averages, scaled by 2**kg
        self._bx = self._by = self._bz = 0      # band-passed dynamic part, scaled by 2**kb
        self._rx = self._ry = self._rz = 0      # direction of the last counted swing
        self._since = _BIG                      # samples since the last swing/reversal
        self._span = 0                          # samples since the shake's first swing
        self._count = 0                         # reversals in the current shake
        self._peak = 0                          # largest |swing|^2 since the last reversal
        self._top = 0                           # largest swing peak of the current shake
        self._armed = False                     # a real shake happened, no roll yet
        self._ax = self._ay = self._az = 0      # rest anchor, mg * 8
        self._run = 0                           # samples within still_mg of the anchor
        self._settle = 0                        # samples spent settling
        self._px = self._py = self._pz = 0      # previous sample
        self._jolt = _BIG                       # samples since the last jolt
        self._wi = 0                            # ring position of the next sample
        self._ex = self._ey = self._ez = 0      # the ring's newest third's sum less its oldest's
        for i in range(3 * self._still_n):
            self._w[i] = 0
        self._hx = self._hy = self._hz = 0      # home reading, mg * 16 (0, 0, 0: unknown)

    def feed(self, x, y, z):
        """One sample in g (cup frame). Returns "roll" once per roll, else None."""
        # round(), not int(): 0.004 * 1000 may come out as 3.9999... (in single
        # precision on the ESP32 more often), and must still be 4 mg everywhere
        return self.feed_mg(round(x * 1000), round(y * 1000), round(z * 1000))

    def feed_mg(self, x, y, z):
        """One sample in integer milli-g (cup frame); allocation-free."""
        if x > _CLAMP:
            x = _CLAMP
        elif x < -_CLAMP:
            x = -_CLAMP
        if y > _CLAMP:
            y = _CLAMP
        elif y < -_CLAMP:
            y = -_CLAMP
        if z > _CLAMP:
            z = _CLAMP
        elif z < -_CLAMP:
            z = -_CLAMP
        kg = self._kg
        kb = self._kb
        if self._fresh:
            self._fresh = False
            self._gx = x << kg
            self._gy = y << kg
            self._gz = z << kg
            self._ax = x << 3
            self._ay = y << 3
            self._az = z << 3
            self._px = x
            self._py = y
            self._pz = z

        # Dynamic part: the sample less its slow average, then low-passed.
        gx = self._gx
        gy = self._gy
        gz = self._gz
        gx += x - (gx >> kg)
        gy += y - (gy >> kg)
        gz += z - (gz >> kg)
        self._gx = gx
        self._gy = gy
        self._gz = gz
        bx = self._bx
        by = self._by
        bz = self._bz
        bx += x - (gx >> kg) - (bx >> kb)
        by += y - (gy >> kg) - (by >> kb)
        bz += z - (gz >> kg) - (bz >> kb)
        self._bx = bx
        self._by = by
        self._bz = bz
        bx = bx >> (kb + 2)                     # 4 mg units: squares stay small ints
        by = by >> (kb + 2)
        bz = bz >> (kb + 2)

        # Reversals of the swing direction.
        since = self._since
        if since < _BIG:
            since += 1
        span = self._span
        if span < _BIG:
            span += 1
        reversed_now = False
        m2 = bx * bx + by * by + bz * bz
        if m2 > self._peak:
            self._peak = m2
        if m2 > self._swing2:
            if since > self._rmax:
                # A swing after a long pause opens a new shake candidate.
                self._count = 0
                self._top = 0
                self._peak = m2
                span = 0
                since = 0
                self._rx = bx
                self._ry = by
                self._rz = bz
            elif bx * self._rx + by * self._ry + bz * self._rz < 0:
                last = self._peak                # the swing that just ended
                if since < self._rmin:
                    self._count = 0              # ringing: start again from here
                    self._top = 0
                    span = 0
                else:
                    self._count += 1
                    reversed_now = True
                    if last > self._top and self._count > 1:
                        self._top = last         # (not the opening swing: a start or a kick)
                    if (self._count >= self._need and span >= self._shake_min
                            and last >= (self._top >> 8) * self._sustain):
                        self._armed = True
                self._peak = m2
                since = 0
                self._rx = bx
                self._ry = by
                self._rz = bz
        self._since = since
        self._span = span

        # Jolts: a big change from the previous sample (a landing, a knock, a bump).
        land = self._land
        d = x - self._px
        if d >= land or d <= -land:
            self._jolt = 0
        else:
            d = y - self._py
            if d >= land or d <= -land:
                self._jolt = 0
            else:
                d = z - self._pz
                if d >= land or d <= -land:
                    self._jolt = 0
                elif self._jolt < _BIG:
                    self._jolt += 1
        self._px = x
        self._py = y
        self._pz = z

        # The last still_n samples (one ring per axis, end to end in one list), and
        # per axis the sum of their newest third less that of their oldest: the oldest
        # third loses r[i] (overwritten now) and gains r[j], the newest gains the
        # sample and loses r[k].
        w = self._still_n
        t = self._third
        i = self._wi
        self._wi = i + 1 if i + 1 < w else 0
        j = i + t
        if j >= w:
            j -= w
        k = i - t
        if k < 0:
            k += w
        r = self._w
        self._ex += x - r[k] - r[j] + r[i]
        r[i] = x
        i += w
        j += w
        k += w
        self._ey += y - r[k] - r[j] + r[i]
        r[i] = y
        i += w
        j += w
        k += w
        self._ez += z - r[k] - r[j] + r[i]
        r[i] = z

        st = self.state
        # Rest: every axis within still_mg of the rest anchor, the mean of the rest's
        # first still_ms (in mg * 8).
        tol = self._still_tol
        ax = self._ax
        ay = self._ay
        az = self._az
        dx = x - (ax >> 3)
        dy = y - (ay >> 3)
        dz = z - (az >> 3)
        run = self._run
        if -tol <= dx <= tol and -tol <= dy <= tol and -tol <= dz <= tol:
            if run < _BIG:
                run += 1
            if run <= self._still_n:
                # the mean of the rest so far: a first sample still ringing a little
                # does not decide where the rest is; then it stays put, so that a
                # slow drift ends the rest
                n = run + 1
                self._ax = ax + (x * 8 - ax) // n
                self._ay = ay + (y * 8 - ay) // n
                self._az = az + (z * 8 - az) // n
        else:
            run = 0
            self._ax = x << 3
            self._ay = y << 3
            self._az = z << 3
        self._run = run

        # Entropy: the low bits of every sample while the cup is not at rest.
        if st != _STILL and st != _ROLLED:
            p = self._pool
            i = self._mixed & 31
            p[i] = ((p[i] << 1 | p[i] >> 7) ^ x) & 0xFF
            i = (i + 11) & 31
            p[i] = ((p[i] << 1 | p[i] >> 7) ^ y) & 0xFF
            i = (i + 11) & 31
            p[i] = ((p[i] << 1 | p[i] >> 7) ^ z ^ (x >> 8)) & 0xFF
            self._mixed += 1
            if self._mixed >= _BIG:
                self._mixed = 32

        # The state machine.
        out = None
        if st == _SHAKING:
            if since > self._shake_end or run >= self._still_n >> 1:
                st = _SETTLING
                self._settle = 0
        elif st == _SETTLING:
            self._settle += 1
            if reversed_now:
                st = _SHAKING
            elif run >= self._still_n and self._upright() and self._steady() and (
                    run >= self._unsure
                    or (self._jolt - run <= self._land_n and self._at_home(x, y, z)
                        and self._at_home(self._ax >> 3, self._ay >> 3, self._az >> 3))):
                st = _ROLLED
                self._armed = False
                self._count = 0
                out = "roll"
            elif self._settle > self._settle_max:
                st = _HANDLING
                self._armed = False
                self._count = 0
        elif self._armed:
            st = _SHAKING
        elif run >= self._still_n:
            if st != _ROLLED:
                st = _STILL if self._upright() else _HANDLING
            if st != _HANDLING and run >= self._home_learn:
                # learn home: a slow average of the rest (mg * 16)
                if self._hz == 0:
                    self._hx = x << 4
                    self._hy = y << 4
                    self._hz = z << 4
                else:
                    self._hx += x - (self._hx >> 4)
                    self._hy += y - (self._hy >> 4)
                    self._hz += z - (self._hz >> 4)
        elif run == 0:
            st = _HANDLING
        self.state = st
        return out

    def _steady(self):
        """No trend over the last still_n samples (oldest vs newest third)."""
        d = self._drift
        e = self._ex
        if e > d or e < -d:
            return False
        e = self._ey
        if e > d or e < -d:
            return False
        e = self._ez
        return -d <= e <= d

    def _upright(self):
        """The rest anchor is ~1 g and within upright_deg of +z."""
        x = self._ax >> 5                       # mg * 8 -> 4 mg units
        y = self._ay >> 5
        z = self._az >> 5
        if z <= 0 or x > 500 or x < -500 or y > 500 or y < -500 or z > 500:
            return False
        m = x * x + y * y + z * z
        if m < self._g2lo or m > self._g2hi:
            return False
        return z * z * 256 >= self._cos2 * m

    def _at_home(self, x, y, z):
        """x, y, z (mg) are within home_mg of home on every axis (or home is unknown)."""
        if self._hz == 0:
            return True
        t = self._home
        d = x - (self._hx >> 4)
        if d > t or d < -t:
            return False
        d = y - (self._hy >> 4)
        if d > t or d < -t:
            return False
        d = z - (self._hz >> 4)
        return -t <= d <= t

    def entropy(self):
        """32 bytes: SHA-256 over the pool of sample bits gathered while the cup moved
        (the shake included) and the number of samples mixed in.

        Raw samples are poor random numbers: mostly the motion itself (which a watcher
        could roughly predict), with the unpredictable part (sensor noise, the fine
        detail of a hand's shake) in the low bits and spread unevenly. A cryptographic
        hash folds all of it into 32 bytes where every bit depends on every input bit:
        the output is uniform if the pool holds enough unpredictable bits, nobody can
        steer it by shaking "just so", and it reveals nothing of the samples.
        Mix it with the hardware RNG (os.urandom) rather than replacing it."""
        import hashlib
        h = hashlib.sha256(self._pool)
        h.update(str(self._mixed).encode())
        return h.digest()
