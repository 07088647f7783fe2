"""PNG plots of stats.summary (matplotlib, Agg: no display needed). Each plot is one
question a player asks: who wins (per seat, per kind of player), how long a game is,
how honest the bids are and how well calls pay."""
import os


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


class PlotError(Exception):
    """A plot that could not be written (the folder was checked, the file was not)."""


def write(s, folder):
    """Write the plots into `folder`; returns their paths."""
    plt = _plt()
    os.makedirs(folder, exist_ok=True)
    out = []

    def save(fig, name):
        path = os.path.join(folder, name)
        fig.tight_layout()
        try:
            fig.savefig(path, dpi=100)
        except (OSError, ValueError) as e:   # io.UnsupportedOperation is both
            raise PlotError("cannot write the plot %s: %s" % (path, e)) from None
        finally:
            plt.close(fig)
        out.append(path)

    if s["seats"] or s["kinds"]:
        fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
        for ax, rows, title, label in ((axes[0], s["seats"], "wins per seat", lambda k: "seat %d" % (k + 1)),
                                       (axes[1], s["kinds"], "wins per player", str)):
            names = [label(k) for k in rows]
            rates = [100 * (r["rate"] or 0) for r in rows.values()]
            bars = ax.bar(names, rates, color="#4a7ab5")
            for b, r in zip(bars, rows.values()):
                ax.annotate("%d/%d" % (r["wins"], r["games"]), (b.get_x() + b.get_width() / 2, b.get_height()),
                            ha="center", va="bottom", fontsize=8)
            ax.set_ylim(0, 100)
            ax.set_ylabel("games won (%)")
            ax.set_title(title)
        save(fig, "wins.png")
    rounds = s["rounds"]["per_game"]
    if rounds:
        fig, ax = plt.subplots(figsize=(6, 3.6))
        lo, hi = min(rounds), max(rounds)
        ax.hist(rounds, bins=range(lo, hi + 2), color="#5a9e6f", edgecolor="white", align="left")
        from matplotlib.ticker import MaxNLocator
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("rounds in the game")
        ax.set_ylabel("games")
        ax.set_title("game length (%d games, mean %.1f rounds)" % (len(rounds), s["rounds"]["mean"]))
        save(fig, "length.png")
    parts = [("bids true", s["bids"]["true"], s["bids"]["total"]),
             ("called bids true", s["called"]["true"], s["called"]["total"]),
             ("challenges won", s["challenges"]["won"], s["challenges"]["total"]),
             ("exact calls right", s["exacts"]["right"], s["exacts"]["total"])]
    parts = [p for p in parts if p[2]]
    if parts:
        fig, ax = plt.subplots(figsize=(6.5, 3.6))
        bars = ax.barh([p[0] for p in parts], [100 * p[1] / p[2] for p in parts], color="#c27c3a")
        for b, p in zip(bars, parts):
            ax.annotate(" %d/%d" % (p[1], p[2]), (b.get_width(), b.get_y() + b.get_height() / 2),
                        va="center", fontsize=8)
        ax.set_xlim(0, 100)
        ax.set_xlabel("%")
        ax.invert_yaxis()
        ax.set_title("bids and calls")
        save(fig, "bids.png")
    return out
