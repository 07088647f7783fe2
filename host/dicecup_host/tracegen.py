"""Motion traces synthesised from a physical model of a dice cup held in a hand.

The model (hardware/traces/README.md has the table of parameter ranges):

* The cup is a rigid body. Its pose is laid out phase by phase at 10x the output
  sample rate: the position of the accelerometer (world frame, metres) and the cup's
  orientation (a tilt rotation about a horizontal axis, then a yaw about the cup's axis).
  The cup stands mouth down on the table, the sensor 9 cm above it, 4.5 cm rim radius.
* What the LIS3DH measures is the specific force in the cup's frame:
  f = R^T (p'' / g + z), in g, with p'' the second difference of the sensor's position
  (so every move, swing, pivot and bounce has exactly the acceleration its path implies),
  plus explicit accelerations for what is too sharp or too small to lay out as a path:
  the ringing of an impact, the rocking of a cup on its rim, dice rattling inside,
  table vibration from a knock, a hand's tremor and sway.
* Hand moves (pick up, move, set down, carry) follow minimum-jerk paths (5th-order
  polynomials; the set-down path may end with a speed, which becomes the impact).
* A shake is a driven oscillation of the hand: random frequency (3-8 Hz), an amplitude
  given as peak acceleration, an axis mix (any direction, or an ellipse for a swirl),
  the wrist turning with it, a second harmonic, slow drift of frequency and amplitude,
  ramped in and out; the dice rattle against the walls meanwhile.
* Set-down: the path ends with a speed; stopping it on the table is a one-step velocity
  change (the impact spike), then the table/cup ringing (a damped 30-80 Hz vertical
  oscillation), the cup rocking on its rim (8-15 Hz, decaying, with the tangential
  acceleration this gives the sensor) and the dice settling inside.
* Handling, tilt, peek (the cup pivots about the opposite edge of its rim, which stays
  on the table), carry, walk (cadence-rate bob, half-cadence sway, surge, heel strikes
  through the arm), bump (in hand: a velocity kick then the arm's damped 3-6 Hz
  oscillation; on the table: a kick, a friction slide, rocking) and table knock
  (1-6 knocks ringing at 30-90 Hz) each have their own kinematics below.
* The sensor: per-output-sample averaging of the fine steps (its low-pass), a fixed
  mounting/table tilt, a per-axis zero-g offset, white noise, quantisation to the
  LIS3DH's high-resolution step for the range (1/2/4/12 mg at 2/4/8/16 g) and clipping
  at the range.

`settled_at_ms` of a roll trace is computed on the noise-free signal with
`traces.find_settle` (every axis within 0.03 g of the final rest from then on).

`generate(out_dir, set_name)` writes the library: set "lib" (the traces the detector
was tuned on) or "heldout" (other seeds, partly other ranges; never used for tuning).
Output is deterministic: same code, same Python -> same bytes.
"""
import math
import random
from pathlib import Path

from . import traces

G = 9.80665
LSB_MG = {2: 1, 4: 2, 8: 4, 16: 12}   # LIS3DH high-resolution mode, mg per step
SENSOR_H = 0.09      # m, sensor above the table when the cup stands
RIM_R = 0.045        # m, rim radius
OVERSAMPLE = 10

# Parameter ranges: (lo, hi) uniform; lists are choices. "lib" was used to tune the
# detector's settings; "heldout" differs in seeds and (where given) in ranges.
COMMON = {
    "lib": {"rate_hz": [100], "range_g": [8], "noise_mg": (2, 6), "offset_mg": (-30, 30),
            "misalign_deg": (0, 2), "tremor_mg": (3, 10), "sway_mg": (5, 15)},
    "heldout": {"rate_hz": [100, 100, 200], "range_g": [2, 4, 8, 8, 16], "noise_mg": (4, 12),
                "offset_mg": (-60, 60), "misalign_deg": (0, 4), "tremor_mg": (5, 20),
                "sway_mg": (5, 25)},
}

SHAKES = {
    # style: freq Hz, amp g (peak acceleration), dur s (or cycles: dur = cycles / freq,
    # ramps in and out included), elev deg (of the shake axis above horizontal), wrist
    # deg (turning with the shake), swirl (ellipse ratio, 0 for a straight shake)
    "vigorous": {"lib": {"freq": (5, 7.5), "amp": (1.8, 3.5), "dur": (1.0, 2.0), "elev": (0, 40),
                         "wrist": (5, 15), "swirl": [0]},
                 "heldout": {"freq": (6.5, 8.5), "amp": (3, 6), "dur": (0.8, 1.6), "elev": (0, 90),
                             "wrist": (5, 25), "swirl": [0]}},
    "gentle": {"lib": {"freq": (3, 4.5), "amp": (0.8, 1.2), "dur": (1.2, 2.2), "elev": (0, 40),
                       "wrist": (3, 10), "swirl": [0]},
               "heldout": {"freq": (2.8, 3.6), "amp": (0.65, 0.85), "dur": (1.2, 2.5),
                           "elev": (0, 70), "wrist": (2, 12), "swirl": [0]}},
    "short": {"lib": {"freq": (4.5, 8), "amp": (1.2, 2.5), "cycles": (4, 5.5), "elev": (0, 40),
                      "wrist": (5, 15), "swirl": [0]},
              "heldout": {"freq": (5, 8), "amp": (1.0, 3.0), "cycles": (3.8, 5), "elev": (0, 60),
                          "wrist": (5, 20), "swirl": [0]}},
    "long": {"lib": {"freq": (3.5, 6), "amp": (1.2, 2.8), "dur": (2.5, 3.5), "elev": (0, 40),
                     "wrist": (5, 15), "swirl": [0]},
             "heldout": {"freq": (3, 7), "amp": (1.0, 3.0), "dur": (3.5, 4.5), "elev": (0, 60),
                         "wrist": (5, 20), "swirl": [0]}},
    "swirl": {"lib": {"freq": (3, 5), "amp": (0.9, 2.2), "dur": (1.0, 2.0), "elev": (0, 15),
                      "wrist": (3, 10), "swirl": (0.6, 1.0)},
              "heldout": {"freq": (2.7, 5.5), "amp": (0.75, 2.5), "dur": (1.0, 2.2), "elev": (0, 25),
                          "wrist": (3, 15), "swirl": (0.4, 1.0)}},
}
# Swing-to-swing unevenness of a hand (two slow random modulations of the amplitude,
# each up to this fraction), the same for every style.
for _style in SHAKES.values():
    _style["lib"]["jitter"] = (0, 0.15)
    _style["heldout"]["jitter"] = (0.05, 0.25)
SET_DOWN = {   # after a shake: pause in the air s, approach time s (from where the shake
               # ended, straight down to the table), contact speed m/s, ringing, rocking
    "lib": {"pause": (0, 0.05), "approach": (0.15, 0.4), "speed": (0.05, 0.8),
            "ring_hz": (30, 70), "ring_g": (0.1, 0.6), "ring_ms": (8, 20),
            "rock_deg": (0.2, 1.2), "rock_hz": (8, 15), "rock_ms": (20, 50)},
    "heldout": {"pause": (0, 0.08), "approach": (0.1, 0.6), "speed": (0.03, 1.5),
                "ring_hz": (25, 90), "ring_g": (0.1, 1.0), "ring_ms": (5, 30),
                "rock_deg": (0.2, 2.0), "rock_hz": (6, 16), "rock_ms": (20, 70)},
}
OTHERS = {
    "handling": {"lib": {"moves": (1, 3), "dist": (0.05, 0.35), "move_s": (0.4, 1.0),
                         "turn_deg": (0, 30), "hold_s": (0.2, 0.8)},
                 "heldout": {"moves": (2, 4), "dist": (0.05, 0.45), "move_s": (0.3, 0.8),
                             "turn_deg": (0, 60), "hold_s": (0.1, 0.6)}},
    "tilt": {"lib": {"tilts": (1, 2), "angle_deg": (30, 80), "tilt_s": (0.4, 0.9), "hold_s": (0.3, 0.8)},
             "heldout": {"tilts": (1, 3), "angle_deg": (20, 120), "tilt_s": (0.25, 0.7),
                         "hold_s": (0.2, 0.8)}},
    "peek": {"lib": {"peeks": (1, 2), "angle_deg": (12, 35), "lift_s": (0.2, 0.5), "hold_s": (0.4, 1.2),
                     "speed": (0.02, 0.15)},
             "heldout": {"peeks": (1, 3), "angle_deg": (8, 50), "lift_s": (0.15, 0.5),
                         "hold_s": (0.3, 1.0), "speed": (0.02, 0.3)}},
    "carry": {"lib": {"dist": (0.4, 1.2), "carry_s": (1.2, 2.5), "bob_g": (0.02, 0.08)},
              "heldout": {"dist": (0.3, 2.0), "carry_s": (1.0, 2.5), "bob_g": (0.02, 0.12)}},
    "walk": {"lib": {"cadence": (1.6, 2.1), "walk_s": (2.0, 3.5), "bob_g": (0.1, 0.25),
                     "sway_g": (0.03, 0.1), "surge_g": (0.05, 0.15), "strike_g": (0.1, 0.3)},
             "heldout": {"cadence": (1.4, 2.4), "walk_s": (2.0, 4.0), "bob_g": (0.1, 0.35),
                         "sway_g": (0.03, 0.15), "surge_g": (0.05, 0.2), "strike_g": (0.1, 0.5)}},
    "bump": {"lib": {"where": ["hand", "table"], "kick": (0.1, 0.4), "arm_hz": (3, 6), "zeta": (0.2, 0.4),
                     "mu": (0.2, 0.4)},
             "heldout": {"where": ["hand", "hand", "table"], "kick": (0.2, 0.6), "arm_hz": (2.5, 7),
                         "zeta": (0.12, 0.25), "mu": (0.15, 0.45)}},
    "knock": {"lib": {"knocks": (1, 4), "every_s": (0.17, 0.4), "ring_hz": (30, 90), "amp_g": (0.1, 1.2),
                      "ring_ms": (5, 15)},
              "heldout": {"knocks": (2, 6), "every_s": (0.12, 0.35), "ring_hz": (25, 100),
                          "amp_g": (0.2, 2.5), "ring_ms": (4, 25)}},
}

# How many traces of each kind a set holds, and the seed base of the set.
PLAN = {
    "lib": {"seed": 1000, "shake": 3, "other": 4},
    "heldout": {"seed": 9090000, "shake": 2, "other": 2},
}


class Params:
    """Draws from one set's ranges with the trace's own generator."""

    def __init__(self, rng, table):
        self.rng = rng
        self.t = table

    def u(self, key):
        v = self.t[key]
        if isinstance(v, list):
            return self.rng.choice(v)
        return self.rng.uniform(v[0], v[1])

    def i(self, key):
        lo, hi = self.t[key]
        return self.rng.randint(lo, hi)


def _quintic(d, vt):
    """Coefficients of p(s) = c3 s^3 + c4 s^4 + c5 s^5: p(0)=p'(0)=p''(0)=0, p(1)=d,
    p'(1)=vt, p''(1)=0 (minimum jerk when vt is 0)."""
    return (10 * d - 4 * vt, -15 * d + 7 * vt, 6 * d - 3 * vt)


def _rotate(v, k, c, s):
    """v rotated about unit axis k by the angle whose cos, sin are c, s (Rodrigues)."""
    kx, ky, kz = k
    x, y, z = v
    cx = ky * z - kz * y
    cy = kz * x - kx * z
    cz = kx * y - ky * x
    d = (kx * x + ky * y + kz * z) * (1 - c)
    return (x * c + cx * s + kx * d, y * c + cy * s + ky * d, z * c + cz * s + kz * d)


def _unit_dir(rng, elev_deg_lo=0.0, elev_deg_hi=0.0):
    az = rng.uniform(0, 2 * math.pi)
    el = math.radians(rng.uniform(elev_deg_lo, elev_deg_hi)) * rng.choice((-1, 1))
    return (math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el))


class Cup:
    """One trace being laid out: pose per fine step plus explicit extra accelerations."""

    def __init__(self, rng, rate_hz, common):
        self.rng = rng
        self.rate = rate_hz
        self.fs = rate_hz * OVERSAMPLE
        self.dt = 1.0 / self.fs
        self.c = common
        self.pos = []          # sensor position, m (world)
        self.tilt = []         # tilt rotation vector (rx, ry), rad (horizontal axis * angle)
        self.held = []         # 1 while in a hand
        self.p = (0.0, 0.0, SENSOR_H)
        self.r = (0.0, 0.0)
        self.yaw = rng.uniform(0, 2 * math.pi)   # how the cup sits relative to the world
        self.extra = {}        # step -> [ax, ay, az] in g (world)
        self.rock = {}         # step -> (rx, ry) extra tilt
        self.dice = {}         # step -> [ax, ay, az] in g (world): the dice rattling inside
        self.tremor = []
        for _ in range(3):     # three independent tremor + sway components per axis
            for band, amp in (((8, 12), common.u("tremor_mg")), ((0.3, 1.2), common.u("sway_mg"))):
                f = rng.uniform(*band)
                self.tremor.append((f, rng.uniform(0, 2 * math.pi), amp / 1000.0 / 3,
                                    _unit_dir(rng, -90, 90)))

    def now(self):
        return len(self.pos)

    # --- phases -------------------------------------------------------------------
    def _push(self, p, r, held):
        self.pos.append(p)
        self.tilt.append(r)
        self.held.append(held)

    def rest(self, t):
        for _ in range(int(t * self.fs)):
            self._push(self.p, self.r, 0)

    def hold(self, t):
        for _ in range(int(t * self.fs)):
            self._push(self.p, self.r, 1)

    def move(self, t, dp=(0, 0, 0), r_to=None, v_end=(0, 0, 0), held=1):
        """Minimum-jerk move by dp (m) over t s, tilt ending at r_to; may end at speed v_end."""
        n = max(1, int(t * self.fs))
        p0, r0 = self.p, self.r
        r1 = self.r if r_to is None else r_to
        co = [_quintic(dp[a], v_end[a] * t) for a in range(3)]
        for k in range(1, n + 1):
            s = k / n
            s3 = s * s * s
            w = s3 * (10 - 15 * s + 6 * s * s)
            p = tuple(p0[a] + co[a][0] * s3 + co[a][1] * s3 * s + co[a][2] * s3 * s * s for a in range(3))
            r = (r0[0] + (r1[0] - r0[0]) * w, r0[1] + (r1[1] - r0[1]) * w)
            self._push(p, r, held)
        self.p = self.pos[-1]
        self.r = r1

    def pick_up(self, lift, t):
        self.move(t, (self.rng.uniform(-0.03, 0.03), self.rng.uniform(-0.03, 0.03), lift))

    def set_down(self, sd, t, speed, rng):
        """Back onto the table, upright, arriving at `speed` m/s; then the impact."""
        drop = self.p[2] - SENSOR_H
        v = min(speed, 1.8 * drop / t)        # no faster than the path allows
        self.move(t, (rng.uniform(-0.02, 0.02), rng.uniform(-0.02, 0.02), -drop), (0.0, 0.0), (0, 0, -v))
        self.p = (self.p[0], self.p[1], SENSOR_H)
        self.impact(sd, speed_ratio=min(1.0, v / 0.8))

    def impact(self, sd, speed_ratio=1.0):
        """Ringing, rocking and rattling dice after the cup lands (the one-step stop
        itself comes out of the path's velocity going to zero)."""
        rng = self.rng
        k0 = self.now()
        f = sd.u("ring_hz")
        self.ring(k0, f, sd.u("ring_g") * (0.2 + 0.8 * speed_ratio), sd.u("ring_ms") / 1000.0,
                  _unit_dir(rng, 70, 90))
        self.rocking(k0, math.radians(sd.u("rock_deg")) * (0.3 + 0.7 * speed_ratio), sd.u("rock_hz"),
                     sd.u("rock_ms") / 1000.0)
        self.rattle(k0, rng.uniform(0.1, 0.3), rng.uniform(10, 30), (0.005, 0.04))

    def ring(self, k0, f, amp, tau, d):
        w = 2 * math.pi * f
        n = int(6 * tau * self.fs)
        for k in range(n):
            t = k * self.dt
            a = amp * math.exp(-t / tau) * math.sin(w * t)
            e = self.extra.setdefault(k0 + k, [0.0, 0.0, 0.0])
            e[0] += a * d[0]
            e[1] += a * d[1]
            e[2] += a * d[2]

    def rocking(self, k0, amp_rad, f, tau):
        """The cup rocks on its rim: a decaying tilt about a random horizontal axis, and
        the sensor (SENSOR_H above the rim) feels the tangential acceleration."""
        th = self.rng.uniform(0, 2 * math.pi)
        ax = (math.cos(th), math.sin(th))
        w = 2 * math.pi * f
        n = int(6 * tau * self.fs)
        for k in range(n):
            t = k * self.dt
            ang = amp_rad * math.exp(-t / tau) * math.sin(w * t)
            r = self.rock.get(k0 + k, (0.0, 0.0))
            self.rock[k0 + k] = (r[0] + ax[0] * ang, r[1] + ax[1] * ang)
            acc = -w * w * ang * SENSOR_H / G       # tangential: perpendicular to the axis
            e = self.extra.setdefault(k0 + k, [0.0, 0.0, 0.0])
            e[0] += -ax[1] * acc
            e[1] += ax[0] * acc

    def rattle(self, k0, t, rate, amp):
        """Dice hitting the walls: short half-sine pulses in random directions."""
        rng = self.rng
        k = k0
        end = k0 + int(t * self.fs)
        while True:
            k += max(1, int(rng.expovariate(rate) * self.fs))
            if k >= end:
                return
            a = rng.uniform(*amp)
            d = _unit_dir(rng, -90, 90)
            width = max(2, int(rng.uniform(0.002, 0.004) * self.fs))
            for j in range(width):
                v = a * math.sin(math.pi * (j + 0.5) / width)
                e = self.dice.setdefault(k + j, [0.0, 0.0, 0.0])
                e[0] += v * d[0]
                e[1] += v * d[1]
                e[2] += v * d[2]

    def shake(self, sp, stop_s=None):
        """A driven oscillation of the hand (see module docstring); `stop_s` forces how
        long the hand takes to bring it to a stop (else half a cycle to a cycle)."""
        rng = self.rng
        f0 = sp.u("freq")
        dur = sp.u("cycles") / f0 if "cycles" in sp.t else sp.u("dur")
        amp = sp.u("amp")
        swirl = sp.u("swirl")
        d1 = _unit_dir(rng, 0, sp.t["elev"][1])
        # a second axis perpendicular to d1 for a swirl's ellipse (mostly horizontal)
        d2 = (-d1[1], d1[0], 0.0)
        m = math.sqrt(d2[0] ** 2 + d2[1] ** 2) or 1.0
        d2 = (d2[0] / m, d2[1] / m, 0.0)
        wrist = math.radians(sp.u("wrist"))
        wrist_ax = (rng.uniform(-1, 1), rng.uniform(-1, 1))
        wm = math.hypot(*wrist_ax) or 1.0
        wrist_ax = (wrist_ax[0] / wm, wrist_ax[1] / wm)
        h2 = rng.uniform(0, 0.25)
        ph2 = rng.uniform(0, 2 * math.pi)
        drift_f = rng.uniform(0.1, 0.15) if dur > 2 else rng.uniform(0.03, 0.08)
        drift_rate = rng.uniform(0.2, 0.6)
        j1, j2 = sp.u("jitter"), sp.u("jitter")
        jf1, jf2 = rng.uniform(0.5, 1.2), rng.uniform(1.2, 2.5)
        jp1, jp2 = rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)
        ramp_in = rng.uniform(0.5, 1.0) / f0    # a hand swings in over half a cycle or more
        ramp_out = rng.uniform(0.5, 1.0) / f0   # a hand takes half a cycle or more to stop
        if stop_s is not None:
            ramp_out = stop_s
            dur += stop_s
        n = int(dur * self.fs)
        p0, r0 = self.p, self.r
        phase = rng.uniform(0, 2 * math.pi)
        ph0 = phase
        w0 = 2 * math.pi * f0
        for k in range(n):
            t = k * self.dt
            f = f0 * (1 + drift_f * math.sin(2 * math.pi * drift_rate * t))
            phase += 2 * math.pi * f * self.dt
            env = min(1.0, t / ramp_in, (dur - t) / ramp_out)
            env = env * env * env * (10 - 15 * env + 6 * env * env)   # no jerk at the ends
            a_amp = amp * (1 + j1 * math.sin(2 * math.pi * jf1 * t + jp1) + j2 * math.sin(2 * math.pi * jf2 * t + jp2))
            disp = env * a_amp * G / (w0 * w0)
            ph = phase - ph0
            u = math.sin(phase) + h2 * math.sin(2 * ph + ph2) / 4   # 2nd harmonic (same accel share)
            v = swirl * math.cos(phase) if swirl else 0.0
            p = (p0[0] + disp * (u * d1[0] + v * d2[0]), p0[1] + disp * (u * d1[1] + v * d2[1]),
                 p0[2] + disp * (u * d1[2] + v * d2[2]))
            ang = env * wrist * math.sin(phase + 0.6)
            r = (r0[0] + wrist_ax[0] * ang, r0[1] + wrist_ax[1] * ang)
            self._push(p, r, 1)
        self.p = self.pos[-1]
        self.r = self.tilt[-1]
        self.rattle(self.now() - n, dur, rng.uniform(15, 40), (0.05, 0.3))

    # --- output -------------------------------------------------------------------
    def render(self, range_g):
        """Samples as integer mg (noisy, quantised, clipped), and the noise-free signal
        of the cup itself (the dice rattling inside left out: it decides nothing about
        when the cup came to rest)."""
        rng = self.rng
        n = len(self.pos)
        # positions padded at both ends so the second difference is defined
        pos = [self.pos[0]] + self.pos + [self.pos[-1]]
        mis = _unit_dir(rng, 0, 0)
        mis_ax = (mis[0], mis[1], 0.0)
        mis_ang = math.radians(self.c.u("misalign_deg"))
        mc, ms = math.cos(-mis_ang), math.sin(-mis_ang)
        cy, sy = math.cos(-self.yaw), math.sin(-self.yaw)
        inv = 1.0 / (self.dt * self.dt * G)

        def to_cup(fw, k):
            rx, ry = self.tilt[k]
            rk = self.rock.get(k)
            if rk:
                rx += rk[0]
                ry += rk[1]
            ang = math.hypot(rx, ry)
            if ang > 1e-12:   # into the cup frame: undo the tilt, then the yaw
                fw = _rotate(fw, (rx / ang, ry / ang, 0.0), math.cos(-ang), math.sin(-ang))
            fw = (fw[0] * cy - fw[1] * sy, fw[0] * sy + fw[1] * cy, fw[2])
            return _rotate(fw, mis_ax, mc, ms)

        fine = []
        cup_only = []
        for k in range(n):
            a = [(pos[k + 2][i] - 2 * pos[k + 1][i] + pos[k][i]) * inv for i in range(3)]
            e = self.extra.get(k)
            if e:
                a[0] += e[0]
                a[1] += e[1]
                a[2] += e[2]
            if self.held[k]:
                t = k * self.dt
                for f, ph, amp, d in self.tremor:
                    s = amp * math.sin(2 * math.pi * f * t + ph)
                    a[0] += s * d[0]
                    a[1] += s * d[1]
                    a[2] += s * d[2]
            fw = to_cup((a[0], a[1], a[2] + 1.0), k)
            cup_only.append(fw)
            dv = self.dice.get(k)
            if dv:
                fw = to_cup((a[0] + dv[0], a[1] + dv[1], a[2] + dv[2] + 1.0), k)
            fine.append(fw)

        def decimate(sig):
            out = []
            for j in range(n // OVERSAMPLE):
                blk = sig[j * OVERSAMPLE:(j + 1) * OVERSAMPLE]
                out.append(tuple(sum(b[i] for b in blk) / OVERSAMPLE for i in range(3)))
            return out

        clean = decimate(fine)
        label = decimate(cup_only)
        lsb = LSB_MG[range_g]
        top = range_g * 1000 - lsb
        noise = self.c.u("noise_mg")
        off = [self.c.u("offset_mg") for _ in range(3)]
        out = []
        for s in clean:
            row = []
            for i in range(3):
                v = s[i] * 1000 + off[i] + rng.gauss(0, noise)
                q = int(round(v / lsb)) * lsb
                row.append(max(-top - lsb, min(top, q)))
            out.append(tuple(row))
        return out, label


# --- the kinds -------------------------------------------------------------------------
def _lift(cup, rng):
    cup.rest(rng.uniform(0.3, 0.6))
    cup.pick_up(rng.uniform(0.05, 0.25), rng.uniform(0.3, 0.6))
    cup.hold(rng.uniform(0.1, 0.4))


def _put_back(cup, rng, sd):
    cup.set_down(sd, rng.uniform(0.3, 0.6), rng.uniform(0.02, 0.15), rng)


def make_shake(cup, rng, sp, sd):
    _lift(cup, rng)
    cup.shake(sp)
    cup.hold(sd.u("pause"))
    cup.set_down(sd, sd.u("approach"), sd.u("speed"), rng)
    cup.rest(rng.uniform(0.7, 0.9))


def make_handling(cup, rng, P, sd):
    _lift(cup, rng)
    for _ in range(P.i("moves")):
        d = P.u("dist")
        az = rng.uniform(0, 2 * math.pi)
        dz = rng.uniform(-0.3, 0.3) * d
        if cup.p[2] + dz < SENSOR_H + 0.03:
            dz = abs(dz)
        turn = math.radians(P.u("turn_deg"))
        th = rng.uniform(0, 2 * math.pi)
        cup.move(P.u("move_s"), (d * math.cos(az), d * math.sin(az), dz), (turn * math.cos(th), turn * math.sin(th)))
        cup.hold(P.u("hold_s"))
    _put_back(cup, rng, sd)
    cup.rest(rng.uniform(0.6, 0.9))


def make_tilt(cup, rng, P, sd):
    _lift(cup, rng)
    th = rng.uniform(0, 2 * math.pi)
    for j in range(P.i("tilts")):
        a = math.radians(P.u("angle_deg"))
        s = 1 if j % 2 == 0 else -1
        cup.move(P.u("tilt_s"), r_to=(s * a * math.cos(th), s * a * math.sin(th)))
        cup.hold(P.u("hold_s"))
        cup.move(P.u("tilt_s"), r_to=(0.0, 0.0))
        cup.hold(rng.uniform(0.1, 0.4))
    _put_back(cup, rng, sd)
    cup.rest(rng.uniform(0.6, 0.9))


def make_peek(cup, rng, P, sd):
    """The player lifts the rim on their side; the cup pivots on the opposite rim."""
    cup.rest(rng.uniform(0.4, 0.8))
    for _ in range(P.i("peeks")):
        u = rng.uniform(0, 2 * math.pi)
        ux, uy = math.cos(u), math.sin(u)
        piv = (cup.p[0] - RIM_R * ux, cup.p[1] - RIM_R * uy, 0.0)
        rel = (RIM_R, SENSOR_H)     # sensor relative to the pivot along (u, z)
        ax = (-uy, ux)              # tilt axis z x u: the cup's top leans to -u
        amax = math.radians(P.u("angle_deg"))
        speed = P.u("speed")

        def pose(alpha):
            c, s = math.cos(alpha), math.sin(alpha)
            su = rel[0] * c - rel[1] * s
            sz = rel[0] * s + rel[1] * c
            return (piv[0] + su * ux, piv[1] + su * uy, sz), (-ax[0] * alpha, -ax[1] * alpha)

        def swing(a0, a1, t, v_end=0.0):
            n = max(1, int(t * cup.fs))
            c3, c4, c5 = _quintic(a1 - a0, v_end * t)
            for k in range(1, n + 1):
                s = k / n
                s3 = s ** 3
                p, r = pose(a0 + c3 * s3 + c4 * s3 * s + c5 * s3 * s * s)
                cup._push(p, r, 1)

        swing(0.0, amax, P.u("lift_s"))
        n = int(P.u("hold_s") * cup.fs)
        p, r = pose(amax)
        for _ in range(n):
            cup._push(p, r, 1)
        # back down; the lifted rim lands at `speed` (angular speed = speed / rim span)
        swing(amax, 0.0, P.u("lift_s"), -speed / (2 * RIM_R))
        cup.p, cup.r = pose(0.0)
        cup.impact(sd, speed_ratio=min(1.0, speed / 0.8))
        cup.rest(rng.uniform(0.3, 0.8))
    cup.rest(rng.uniform(0.3, 0.5))


def make_carry(cup, rng, P, sd):
    _lift(cup, rng)
    d = P.u("dist")
    az = rng.uniform(0, 2 * math.pi)
    t = P.u("carry_s")
    k0 = cup.now()
    cup.move(t, (d * math.cos(az), d * math.sin(az), rng.uniform(-0.05, 0.05)))
    # footsteps under the carry: a slow bob at 1.5-2 Hz
    f = rng.uniform(1.5, 2.0)
    bob = P.u("bob_g")
    for k in range(k0, cup.now()):
        tt = (k - k0) * cup.dt
        e = cup.extra.setdefault(k, [0.0, 0.0, 0.0])
        e[2] += bob * math.sin(math.pi * tt / t) * math.sin(2 * math.pi * f * tt)
    cup.hold(rng.uniform(0.2, 0.5))
    _put_back(cup, rng, sd)
    cup.rest(rng.uniform(0.6, 0.9))


def make_walk(cup, rng, P, sd):
    _lift(cup, rng)
    cad = P.u("cadence")
    t_walk = P.u("walk_s")
    bob, sway, surge, strike = P.u("bob_g"), P.u("sway_g"), P.u("surge_g"), P.u("strike_g")
    az = rng.uniform(0, 2 * math.pi)
    fwd = (math.cos(az), math.sin(az))
    side = (-fwd[1], fwd[0])
    w = 2 * math.pi * cad
    n = int(t_walk * cup.fs)
    p0 = cup.p
    speed = rng.uniform(0.8, 1.4)
    ramp = rng.uniform(0.4, 0.8)          # speeding up and slowing down, s
    for k in range(n):
        t = k * cup.dt
        env = min(1.0, t / ramp, (t_walk - t) / ramp)
        env = max(0.0, env)
        # distance walked: speed ramps smoothly in and out
        if t < ramp:
            x = speed * (t * t / (2 * ramp))
        elif t > t_walk - ramp:
            tr = t_walk - t
            x = speed * (t_walk - ramp) - speed * (tr * tr / (2 * ramp))
        else:
            x = speed * (t - ramp / 2)
        zb = env * bob * G / (w * w) * math.sin(w * t)
        ys = env * sway * G / (w * w / 4) * math.sin(w / 2 * t)
        xs = env * surge * G / (w * w) * math.sin(w * t + 1.2)
        p = (p0[0] + (x + xs) * fwd[0] + ys * side[0], p0[1] + (x + xs) * fwd[1] + ys * side[1], p0[2] + zb)
        cup._push(p, cup.r, 1)
        # heel strike through the arm: a short damped jolt each step
    cup.p = cup.pos[-1]
    k0 = cup.now() - n
    step = 1.0 / cad
    t = rng.uniform(0, step)
    while t < t_walk - ramp / 2:
        env = min(1.0, t / ramp)
        cup.ring(k0 + int(t * cup.fs), rng.uniform(8, 20), strike * env * rng.uniform(0.7, 1.0),
                 rng.uniform(0.015, 0.03), _unit_dir(rng, 60, 90))
        t += step * rng.uniform(0.95, 1.05)
    cup.hold(rng.uniform(0.2, 0.5))
    _put_back(cup, rng, sd)
    cup.rest(rng.uniform(0.6, 0.9))


def make_bump(cup, rng, P, sd):
    where = P.u("where")
    kick = P.u("kick")
    d = _unit_dir(rng, 0, 30 if where == "hand" else 0)
    if where == "hand":
        _lift(cup, rng)
        f = P.u("arm_hz")
        z = P.u("zeta")
        wn = 2 * math.pi * f
        wd = wn * math.sqrt(1 - z * z)
        n = int(rng.uniform(1.2, 1.8) * cup.fs)
        p0 = cup.p
        for k in range(1, n + 1):
            t = k * cup.dt
            x = kick / wd * math.exp(-z * wn * t) * math.sin(wd * t)
            cup._push((p0[0] + x * d[0], p0[1] + x * d[1], p0[2] + x * d[2]), cup.r, 1)
        cup.p = cup.pos[-1]
        cup.hold(rng.uniform(0.2, 0.5))
        _put_back(cup, rng, sd)
    else:
        cup.rest(rng.uniform(0.5, 1.0))
        mu = P.u("mu")
        stop = kick / (mu * G)
        n = int((stop + 0.05) * cup.fs)
        p0 = cup.p
        k0 = cup.now()
        for k in range(1, n + 1):
            t = min(k * cup.dt, stop)
            x = kick * t - 0.5 * mu * G * t * t
            cup._push((p0[0] + x * d[0], p0[1] + x * d[1], p0[2]), cup.r, 0)
        cup.p = cup.pos[-1]
        cup.rocking(k0, math.radians(rng.uniform(1, 4)) * kick / 0.4, rng.uniform(6, 12), rng.uniform(0.04, 0.1))
        cup.rattle(k0, 0.2, 20, (0.01, 0.05))
    cup.rest(rng.uniform(0.7, 1.0))


def make_knock(cup, rng, P, sd):
    cup.rest(rng.uniform(0.4, 0.8))
    k = cup.now()
    every = P.u("every_s")
    knocks = P.i("knocks")
    cup.rest(knocks * every + 0.8)
    for j in range(knocks):
        amp = P.u("amp_g")
        cup.ring(k + int(j * every * cup.fs), P.u("ring_hz"), amp, P.u("ring_ms") / 1000.0,
                 _unit_dir(rng, 60, 90))
        cup.rocking(k + int(j * every * cup.fs), math.radians(0.3) * amp, rng.uniform(8, 15), 0.03)
        cup.rattle(k + int(j * every * cup.fs), 0.08, 30, (0.005, 0.03))


KINDS = ("shake", "handling", "tilt", "peek", "carry", "walk", "bump", "knock")
MAKERS = {"handling": make_handling, "tilt": make_tilt, "peek": make_peek, "carry": make_carry,
          "walk": make_walk, "bump": make_bump, "knock": make_knock}


def one(set_name, kind, style, seed):
    """(Trace, samples in mg) for one kind ("shake" with a style) from one seed."""
    rng = random.Random(seed)
    common = Params(rng, COMMON[set_name])
    rate = common.u("rate_hz")
    range_g = common.u("range_g")
    cup = Cup(rng, rate, common)
    sd = Params(rng, SET_DOWN[set_name])
    if kind == "shake":
        make_shake(cup, rng, Params(rng, SHAKES[style][set_name]), sd)
        name = "shake-" + style
    else:
        MAKERS[kind](cup, rng, Params(rng, OTHERS[kind][set_name]), sd)
        name = kind
    mg, clean = cup.render(range_g)
    settled = None
    if kind == "shake":
        settled = traces.find_settle(clean, rate)
        if settled is None:
            raise RuntimeError("%s seed %d does not end at rest" % (name, seed))
    samples = [(a / 1000.0, b / 1000.0, c / 1000.0) for a, b, c in mg]
    meta = {"kind": name, "source": "tracegen/" + set_name, "seed": str(seed)}
    tr = traces.Trace(rate, range_g, "roll" if kind == "shake" else "none", samples, settled, meta)
    return tr, mg


def plan(set_name):
    """[(file name, kind, style, seed)] of a set, in order."""
    pl = PLAN[set_name]
    out = []
    seed = pl["seed"]
    tag = "" if set_name == "lib" else "h"
    for style in SHAKES:
        for i in range(pl["shake"]):
            seed += 1
            out.append(("shake-%s-%s%02d.txt" % (style, tag, i + 1), "shake", style, seed))
    for kind in KINDS[1:]:
        for i in range(pl["other"]):
            seed += 1
            out.append(("%s-%s%02d.txt" % (kind, tag, i + 1), kind, None, seed))
    return out


def generate(out_dir, set_name):
    """Write every trace of a set into out_dir; returns the paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for fname, kind, style, seed in plan(set_name):
        tr, mg = one(set_name, kind, style, seed)
        p = out_dir / fname
        traces.save(tr, p, comments=("synthesised by dicecup_host.tracegen (a physical model; "
                                     "python -m dicecup_host.tracegen to regenerate)",), samples_mg=mg)
        paths.append(p)
    return paths


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description="Regenerate the synthetic trace library.")
    ap.add_argument("--out", default=str(traces.library_dir()), help="hardware/traces by default")
    ap.add_argument("--set", choices=("lib", "heldout", "both"), default="both")
    a = ap.parse_args(argv)
    for s in (("lib", "heldout") if a.set == "both" else (a.set,)):
        ps = generate(Path(a.out) / s, s)
        print("%s: %d traces in %s" % (s, len(ps), Path(a.out) / s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
