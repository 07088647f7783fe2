"""Quick-start cards: one printable card per language, telling a new player how to join
a table, shake, peek, bid and call with the cup's buttons, and what the 3-button XIAO
does differently. A card is two-sided A6 (105 x 148 mm) at 200 dpi: the PNG shows the
front (steps 1-3) and the back (steps 4-5, the XIAO's table) side by side, an A5
landscape sheet to print, cut or fold; the PDF has the two sides as two A6 pages.

Every screen on a card is a real render of the cup's screen in that language: the
framebuffer `gallery.samples(lang)` gives for that screen, drawn by the firmware's
`ui/screens.draw` (the bytes `dicecup screens` writes), placed unresampled at an
integer scale (`figimage`: each OLED pixel an exact SCALE x SCALE square of the
panel's two colours, png.OFF and png.ON). The body text is DejaVu Sans, the font
matplotlib ships (its own copy, so every machine draws the same pixels); the cup's own
words on a card (menu items, the moves, each game's calls) come from `ui/lang.py`, so
the card says what the cup shows.

    card = compose("fr")          # the pixels (H x W x 3), where each screen sits, the boxes
    write(outdir, ["fr"])         # quickstart-fr.png (both sides) and quickstart-fr.pdf

The layout is computed, not eyeballed: text is wrapped to its column by measuring each
word, and `compose` raises LayoutError when a block would leave the page or run into
the next one (tests/docs/test_cards.py builds every language).
"""
import os
import re
import zlib
from collections import namedtuple

from dicecup.ui import lang as _lang

from . import png as _png

LANGS = _lang.LANGS
DPI = 200
MM = DPI / 25.4
WIDTH = round(105 * MM)      # one side: A6 portrait, 105 x 148 mm
HEIGHT = round(148 * MM)
SHEET = 2 * WIDTH            # the PNG: front and back side by side (A5 landscape)
SCALE = 2                    # pixels per OLED pixel: a screen 32.5 mm wide, as on the cup
MARGIN = round(6 * MM)
BODY_PT = 7.2
SMALL_PT = 6.4

INK = (0.10, 0.10, 0.12)
ACCENT = (0.55, 0.11, 0.13)  # a dice-cup red
PALE = (0.93, 0.91, 0.88)
BEZEL = (0.16, 0.17, 0.20)

# the steps: (key, the gallery screens shown, top to bottom)
STEPS = (
    ("join", ("lobby-table", "lobby-code")),
    ("shake", ("shake", "rolled")),
    ("peek", ("peek",)),
    ("bid", ("bid-entry", "bid-quantity")),
    ("call", ("my-turn", "reveal")),
)
SCREENS = tuple(n for _, names in STEPS for n in names)
GAMES_CALL = ("perudo", "menteur", "liars", "bluff")    # the call's label in each
GAMES_EXACT = ("perudo", "menteur", "liars")           # the games with an exact call

Card = namedtuple("Card", "lang image placements boxes")
# image: H x W x 3 uint8; placements: [(screen, x, y, scale)], x, y its top-left pixel;
# boxes: [(what, x0, y0, x1, y1)], every block laid out, in pixels from the top-left


class LayoutError(ValueError):
    """A card's text does not fit where it goes."""


# ----- the words ----------------------------------------------------------------------
# **bold**; "\n" starts a new paragraph; {names} are the cup's own strings (_cup_words).
# A no-break space (\u00a0) keeps French punctuation on its word.
TEXT = {
    "en": {
        "title": "Smart dice cups",
        "subtitle": "Quick start",
        "legend": "Buttons: **◀** left, **OK**, **▶** right along the near edge; "
                  "**{back}** on its own at the far side. **Hold** = keep a button down for 0.7 s.",
        "join": ("Join a table",
                 "One player's cup makes the table: **{create}**, **◀ ▶** to the game, **OK**. "
                 "It shows the **join code** (here 4711); on its table menu it adds bots and "
                 "starts the game.\n"
                 "On every other cup: **{join}**, then the code: **◀ ▶** change a digit, "
                 "**OK** goes to the next, **{back}** to the one before. With several tables "
                 "nearby, pick the one named after its maker."),
        "shake": ("Shake to roll",
                  "When the cup says **{shake}**, shake it like a real dice cup and set it "
                  "down, mouth down. Your dice are rolled when it rests; only your cup "
                  "knows them."),
        "peek": ("Peek at your dice",
                 "**Hold OK**, lift the near edge and look inside: your dice turn face up "
                 "for 3 seconds, then face down again by themselves. Peek as often as you "
                 "like, but keep the screen to yourself."),
        "bid": ("Bid",
                "When the cup says **{your_turn}**: **◀ ▶** along your moves, **OK** on **{btn_bid}**. "
                "Pick the **face** with **◀ ▶**, **OK**; then the **quantity** with **◀ ▶**; "
                "**OK** sends the bid. The cup only offers legal bids; **{back}** goes one "
                "step back."),
        "call": ("Call",
                 "To challenge the bid, pick the game's call among your moves and press "
                 "**OK** ({calls}). Every cup then shows all the dice, the counted ones "
                 "inverted, and who loses.\n"
                 "To say the count is **exact** ({exacts}): **◀ + ▶ together**, on your turn "
                 "or, where the game allows it, out of turn."),
        "lang": "The cup's language: **OK** on **{menu_lang}** in its first menu.",
        "xiao": "Cups with 3 buttons (XIAO ESP32C3)",
        "cols": ("", "4 buttons (DevKitC, S3)", "3 buttons (XIAO)"),
        "rows": (("One step back, close the menu", "{back} (or hold ◀)", "hold ◀"),
                 ("Menu: language, leave the table", "hold {back} (or ▶)", "hold ▶"),
                 ("Self-test at power-on", "hold {back}", "hold OK")),
        "tips": "**Away from your cup?** It reminds you, and after a minute its own bot plays for "
                "you; your next move takes your seat back. **Game over:** **OK** on the cup that made "
                "the table starts a new game, **{back}** leaves the table.",
        "same": "Everything else is the same on every cup. Rules: docs/rules.md",
    },
    "fr": {
        "title": "Gobelets à dés connectés",
        "subtitle": "Prise en main",
        "legend": "Boutons\u00a0: **◀** gauche, **OK**, **▶** droite sur le bord avant\u00a0; "
                  "**{back}** seul à l'arrière. **Maintenir** = garder le bouton enfoncé 0,7\u00a0s.",
        "join": ("Rejoindre une table",
                 "Le gobelet d'un joueur crée la table\u00a0: **{create}**, **◀ ▶** jusqu'au "
                 "jeu, **OK**. Il affiche le **code** (ici 4711)\u00a0; depuis son menu de "
                 "table, il ajoute des bots et lance la partie.\n"
                 "Sur chaque autre gobelet\u00a0: **{join}**, puis le code\u00a0: **◀ ▶** "
                 "changent le chiffre, **OK** passe au suivant, **{back}** revient au "
                 "précédent. S'il y a plusieurs tables à proximité, choisis celle qui porte "
                 "le nom de son créateur."),
        "shake": ("Secouer pour lancer",
                  "Quand le gobelet affiche **{shake}**, secoue-le comme un vrai gobelet "
                  "puis pose-le, ouverture vers le bas. Tes dés sont lancés dès qu'il ne "
                  "bouge plus\u00a0; seul ton gobelet les connaît."),
        "peek": ("Regarder tes dés",
                 "**Maintiens OK**, soulève le bord avant et regarde dedans\u00a0: tes dés "
                 "s'affichent face visible pendant 3\u00a0secondes, puis se cachent d'eux-"
                 "mêmes. Regarde aussi souvent que tu veux, mais garde l'écran pour toi."),
        "bid": ("Miser",
                "Quand le gobelet affiche **{your_turn}**\u00a0: **◀ ▶** parcourent tes coups, **OK** sur "
                "**{btn_bid}**. Choisis la **face** avec **◀ ▶**, **OK**\u00a0; puis la "
                "**quantité** avec **◀ ▶**\u00a0; **OK** envoie la mise. Le gobelet ne propose "
                "que des mises valables\u00a0; **{back}** revient d'un cran."),
        "call": ("Contester",
                 "Pour contester la mise, choisis l'annonce du jeu parmi tes coups et appuie "
                 "sur **OK** ({calls}). Tous les gobelets montrent alors tous les dés, ceux "
                 "qui comptent en inversé, et qui perd.\n"
                 "Pour annoncer que le compte est **exact** ({exacts})\u00a0: **◀ + ▶ "
                 "ensemble**, à ton tour ou, si le jeu le permet, hors de ton tour."),
        "lang": "Langue du gobelet\u00a0: **OK** sur **{menu_lang}** dans son premier menu.",
        "xiao": "Gobelets à 3 boutons (XIAO ESP32C3)",
        "cols": ("", "4 boutons (DevKitC, S3)", "3 boutons (XIAO)"),
        "rows": (("Un cran en arrière, fermer le menu", "{back} (ou maintenir ◀)", "maintenir ◀"),
                 ("Menu\u00a0: langue, quitter la table", "maintenir {back} (ou ▶)", "maintenir ▶"),
                 ("Autotest à l'allumage", "maintenir {back}", "maintenir OK")),
        "tips": "**Tu t'absentes\u00a0?** Le gobelet te le rappelle, puis au bout d'une minute son "
                "propre bot joue pour toi\u00a0; ton prochain coup te rend ta place. **Fin de "
                "partie\u00a0:** **OK** sur le gobelet qui a créé la table relance une partie, "
                "**{back}** quitte la table.",
        "same": "Tout le reste est identique sur chaque gobelet. Règles\u00a0: docs/rules.md",
    },
    "de": {
        "title": "Smarte Würfelbecher",
        "subtitle": "Schnellstart",
        "legend": "Tasten: **◀** links, **OK**, **▶** rechts an der vorderen Kante; "
                  "**{back}** allein hinten. **Halten** = eine Taste 0,7 s gedrückt halten.",
        "join": ("Einem Tisch beitreten",
                 "Der Becher eines Spielers eröffnet den Tisch: **{create}**, mit **◀ ▶** "
                 "zum Spiel, **OK**. Er zeigt den **Code** (hier 4711); über sein Tischmenü "
                 "setzt er Bots dazu und startet das Spiel.\n"
                 "Auf jedem anderen Becher: **{join}**, dann der Code: **◀ ▶** ändern die "
                 "Ziffer, **OK** geht zur nächsten, **{back}** zur vorigen. Sind mehrere "
                 "Tische in der Nähe, wähle den, der den Namen seines Gastgebers trägt."),
        "shake": ("Schütteln zum Würfeln",
                  "Zeigt der Becher **{shake}**, schüttle ihn wie einen echten Würfelbecher "
                  "und stell ihn mit der Öffnung nach unten ab. Sobald er ruht, sind deine "
                  "Würfel geworfen; nur dein Becher kennt sie."),
        "peek": ("Spicken",
                 "**OK halten**, die vordere Kante anheben und hineinschauen: deine Würfel "
                 "liegen 3 Sekunden lang offen und verdecken sich dann von selbst. Spicke, "
                 "so oft du willst, aber zeig niemandem den Bildschirm."),
        "bid": ("Bieten",
                "Zeigt der Becher **{your_turn}**: mit **◀ ▶** durch deine Züge, **OK** auf "
                "**{btn_bid}**. Mit **◀ ▶** die **Augenzahl** wählen, **OK**; dann mit "
                "**◀ ▶** die **Anzahl**; **OK** schickt das Gebot ab. Der Becher bietet nur "
                "gültige Gebote an; **{back}** geht einen Schritt zurück."),
        "call": ("Anzweifeln",
                 "Um das Gebot anzuzweifeln, wähl unter deinen Zügen den Ruf des Spiels und "
                 "drück **OK** ({calls}). Alle Becher zeigen dann alle Würfel, die gezählten "
                 "invertiert, und wer verliert.\n"
                 "Stimmt die Anzahl deiner Meinung nach **genau** ({exacts}), drück **◀ + ▶ "
                 "gleichzeitig**: wenn du dran bist oder, wo das Spiel es erlaubt, auch "
                 "außer der Reihe."),
        "lang": "Sprache des Bechers: **OK** auf **{menu_lang}** im ersten Menü.",
        "xiao": "Becher mit 3 Tasten (XIAO ESP32C3)",
        "cols": ("", "4 Tasten (DevKitC, S3)", "3 Tasten (XIAO)"),
        "rows": (("Einen Schritt zurück, Menü schließen", "{back} (oder ◀ halten)", "◀ halten"),
                 ("Menü: Sprache, Tisch verlassen", "{back} halten (oder ▶)", "▶ halten"),
                 ("Selbsttest beim Einschalten", "{back} halten", "OK halten")),
        "tips": "**Kurz weg?** Der Becher erinnert dich, nach einer Minute spielt sein eigener Bot "
                "für dich; mit deinem nächsten Zug übernimmst du wieder. **Spielende:** **OK** auf "
                "dem Becher des Gastgebers startet ein neues Spiel, **{back}** verlässt den Tisch.",
        "same": "Alles andere ist auf jedem Becher gleich. Regeln: docs/rules.md",
    },
    "it": {
        "title": "Bicchieri per dadi smart",
        "subtitle": "Guida rapida",
        "legend": "Tasti: **◀** sinistra, **OK**, **▶** destra sul bordo davanti; "
                  "**{back}** da solo sul lato opposto. **Tieni premuto** = tenere giù il tasto per 0,7 s.",
        "join": ("Unirsi a un tavolo",
                 "Il bicchiere di un giocatore crea il tavolo: **{create}**, **◀ ▶** fino "
                 "al gioco, **OK**. Mostra il **codice** (qui 4711); dal suo menu del "
                 "tavolo aggiunge i bot e avvia la partita.\n"
                 "Su ogni altro bicchiere: **{join}**, poi il codice: **◀ ▶** cambiano la "
                 "cifra, **OK** passa alla successiva, **{back}** torna alla precedente. Se "
                 "ci sono più tavoli vicini, scegli quello col nome di chi l'ha creato."),
        "shake": ("Scuoti per tirare",
                  "Quando il bicchiere dice **{shake}**, scuotilo come un vero bussolotto "
                  "e posalo capovolto sul tavolo. I dadi sono tirati appena si ferma; solo "
                  "il tuo bicchiere li conosce."),
        "peek": ("Sbirciare i dadi",
                 "**Tieni premuto OK**, solleva il bordo davanti e guarda dentro: i tuoi "
                 "dadi si scoprono per 3 secondi, poi si coprono da soli. Sbircia quanto "
                 "vuoi, ma tieni lo schermo per te."),
        "bid": ("Puntare",
                "Quando il bicchiere dice **{your_turn}**: **◀ ▶** scorrono le mosse, **OK** su **{btn_bid}**. "
                "Scegli la **faccia** con **◀ ▶**, **OK**; poi la **quantità** con **◀ ▶**; "
                "**OK** invia la puntata. Il bicchiere propone solo puntate valide; "
                "**{back}** torna di un passo."),
        "call": ("Dubitare",
                 "Per contestare la puntata scegli tra le mosse la chiamata del gioco e premi "
                 "**OK** ({calls}). Tutti i bicchieri mostrano allora tutti i dadi, quelli "
                 "contati in negativo, e chi perde.\n"
                 "Per dire che il conto è **esatto** ({exacts}): **◀ + ▶ insieme**, al tuo "
                 "turno o, dove il gioco lo consente, fuori turno."),
        "lang": "Lingua del bicchiere: **OK** su **{menu_lang}** nel primo menu.",
        "xiao": "Bicchieri a 3 tasti (XIAO ESP32C3)",
        "cols": ("", "4 tasti (DevKitC, S3)", "3 tasti (XIAO)"),
        "rows": (("Un passo indietro, chiudere il menu", "{back} (o tieni ◀)", "tieni ◀"),
                 ("Menu: lingua, lasciare il tavolo", "tieni {back} (o ▶)", "tieni ▶"),
                 ("Autotest all'accensione", "tieni {back}", "tieni OK")),
        "tips": "**Ti allontani?** Il bicchiere te lo ricorda e dopo un minuto il suo bot gioca "
                "per te; con la tua prossima mossa riprendi il posto. **Fine partita:** **OK** sul "
                "bicchiere che ha creato il tavolo avvia una nuova partita, **{back}** lascia il "
                "tavolo.",
        "same": "Tutto il resto è uguale su ogni bicchiere. Regole: docs/rules.md",
    },
    "es": {
        "title": "Cubiletes inteligentes",
        "subtitle": "Guía rápida",
        "legend": "Botones: **◀** izquierda, **OK**, **▶** derecha en el borde delantero; "
                  "**{back}** aparte, en el lado opuesto. **Mantener** = tener pulsado un botón 0,7 s.",
        "join": ("Unirse a una mesa",
                 "El cubilete de un jugador crea la mesa: **{create}**, **◀ ▶** hasta el "
                 "juego, **OK**. Muestra el **código** (aquí 4711); desde su menú de mesa "
                 "añade bots y empieza la partida.\n"
                 "En cada uno de los demás cubiletes: **{join}** y luego el código: **◀ ▶** cambian "
                 "la cifra, **OK** pasa a la siguiente, **{back}** vuelve a la anterior. Si "
                 "hay varias mesas cerca, elige la que lleva el nombre de quien la creó."),
        "shake": ("Agitar para tirar",
                  "Cuando el cubilete diga **{shake}**, agítalo como uno de verdad y déjalo "
                  "boca abajo sobre la mesa. Los dados quedan tirados en cuanto se queda "
                  "quieto; solo tu cubilete los conoce."),
        "peek": ("Mirar tus dados",
                 "**Mantén OK**, levanta el borde delantero y mira dentro: tus dados se "
                 "ven durante 3 segundos y luego se tapan solos. Mira cuantas veces "
                 "quieras, pero no enseñes la pantalla."),
        "bid": ("Apostar",
                "Cuando el cubilete diga **{your_turn}**: **◀ ▶** recorren tus jugadas, **OK** en "
                "**{btn_bid}**. Elige la **cara** con **◀ ▶**, **OK**; luego la **cantidad** "
                "con **◀ ▶**; **OK** envía la apuesta. El cubilete solo ofrece apuestas "
                "válidas; **{back}** retrocede un paso."),
        "call": ("Dudar",
                 "Para dudar de la apuesta, elige entre tus jugadas la llamada del juego y "
                 "pulsa **OK** ({calls}). Todos los cubiletes muestran entonces todos los "
                 "dados, los contados en negativo, y quién pierde.\n"
                 "Para decir que la cuenta es **exacta** ({exacts}): **◀ + ▶ a la vez**, en "
                 "tu turno o, donde el juego lo permite, fuera de turno."),
        "lang": "Idioma del cubilete: **OK** en **{menu_lang}** en el primer menú.",
        "xiao": "Cubiletes de 3 botones (XIAO ESP32C3)",
        "cols": ("", "4 botones (DevKitC, S3)", "3 botones (XIAO)"),
        "rows": (("Un paso atrás, cerrar el menú", "{back} (o mantener ◀)", "mantener ◀"),
                 ("Menú: idioma, dejar la mesa", "mantener {back} (o ▶)", "mantener ▶"),
                 ("Autotest al encender", "mantener {back}", "mantener OK")),
        "tips": "**¿Te alejas?** El cubilete te lo recuerda y, al cabo de un minuto, su propio bot "
                "juega por ti; con tu próxima jugada recuperas el sitio. **Fin de la partida:** "
                "**OK** en el cubilete que creó la mesa empieza otra, **{back}** deja la mesa.",
        "same": "Todo lo demás es igual en cada cubilete. Reglas: docs/rules.md",
    },
}


def _bare(word):
    """A call as said ("¡Calzo!", "Tout pile !") without its exclamation marks."""
    return word.replace("¡", "").rstrip("!").strip().replace("\u00a0", " ")


def _cup_words(code):
    """The cup's own strings the card's text names, in language `code` (ui/lang.py)."""
    colon, semi = ("\u00a0: ", "\u00a0; ") if code == "fr" else (": ", "; ")
    game = lambda r: _lang.game_word(r, "game", code).replace(" ", "\u00a0")   # noqa: E731
    calls = semi.join("%s%s**%s**" % (game(r), colon, _lang.tr(r, "btn_call", code)) for r in GAMES_CALL)
    exacts = semi.join("%s%s**%s**" % (game(r), colon, _bare(_lang.game_word(r, "exact", code)))
                       for r in GAMES_EXACT)
    return {
        "create": _lang.t("menu_create", code),
        "join": _lang.t("menu_join", code),
        "back": _lang.t("btn_back", code),
        "shake": _lang.t("shake", code),
        "your_turn": _lang.t("your_turn", code),
        "btn_bid": _lang.tr("perudo", "btn_bid", code),
        "menu_lang": _lang.t("menu_lang", code),
        "calls": calls,
        "exacts": exacts,
    }


def _nobreak(s):
    """Gestures never split across lines: "◀ ▶", "◀ + ▶" (with their bold marks)."""
    return s.replace("◀ + ▶", "◀\u00a0+\u00a0▶").replace("◀ ▶", "◀\u00a0▶").replace(" ▶", "\u00a0▶")


def texts(code):
    """The card's text in `code`, the cup's words filled in."""
    if code not in TEXT:
        raise ValueError("no quick-start card in %r (one of %s)" % (code, ", ".join(LANGS)))
    words = _cup_words(code)
    fill = lambda s: _nobreak(s.format(**words))   # noqa: E731
    t = TEXT[code]
    out = {k: fill(t[k]) for k in ("title", "subtitle", "legend", "xiao", "same", "lang", "tips")}
    for key, _ in STEPS:
        out[key] = (t[key][0], fill(t[key][1]))
    out["cols"] = t["cols"]
    out["rows"] = tuple(tuple(fill(c) for c in row) for row in t["rows"])
    return out


# ----- the screens --------------------------------------------------------------------

def screen_buffers(code, names=SCREENS):
    """{name: framebuffer} for the gallery's screens `names` in `code`: the same Scenes
    and the same draw() as `dicecup screens` (gallery.render)."""
    from dicecup.ui import fb
    from dicecup.ui.screens import draw

    from . import gallery
    scenes = dict(gallery.samples(code))
    out = {}
    for name in names:
        buf = fb.new()
        draw(buf, scenes[name])
        out[name] = bytes(buf)
    return out


def screen_pixels(buf, scale=SCALE):
    """A framebuffer as an RGB array, each pixel a scale x scale square of png.OFF/ON."""
    import numpy as np
    bits = np.array(_png.rows(buf), dtype=np.uint8)
    rgb = np.array([_png.OFF, _png.ON], dtype=np.uint8)[bits]
    return rgb.repeat(scale, axis=0).repeat(scale, axis=1)


# ----- layout -------------------------------------------------------------------------

def fonts():
    """matplotlib's own DejaVu Sans, regular and bold, by file (never a system copy)."""
    import matplotlib
    ttf = os.path.join(matplotlib.get_data_path(), "fonts", "ttf")
    return os.path.join(ttf, "DejaVuSans.ttf"), os.path.join(ttf, "DejaVuSans-Bold.ttf")


class _Page:
    """A figure addressed in pixels from the top-left, with word-wrapped rich text."""

    def __init__(self):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.font_manager import FontProperties
        self.fig = Figure(figsize=(SHEET / DPI, HEIGHT / DPI), dpi=DPI, facecolor="white")
        self.canvas = FigureCanvasAgg(self.fig)
        self.renderer = self.canvas.get_renderer()
        self._fp = FontProperties
        self._files = fonts()
        self._props = {}
        self._widths = {}
        self.boxes = []
        self.placements = []

    def prop(self, size, bold=False):
        key = (size, bold)
        if key not in self._props:
            self._props[key] = self._fp(fname=self._files[bold], size=size)
        return self._props[key]

    def width(self, s, size, bold=False):
        key = (s, size, bold)
        if key not in self._widths:
            w, _, _ = self.renderer.get_text_width_height_descent(s, self.prop(size, bold), ismath=False)
            self._widths[key] = w
        return self._widths[key]

    @staticmethod
    def line_height(size):
        return size * 1.32 * DPI / 72

    def text(self, s, x, y, size, bold=False, color=INK, ha="left"):
        """One run of text, its baseline at pixel row y."""
        self.fig.text(x / SHEET, 1 - y / HEIGHT, s, fontproperties=self.prop(size, bold),
                      color=color, ha=ha, va="baseline")

    def rect(self, x0, y0, x1, y1, color):
        from matplotlib.patches import Rectangle
        self.fig.patches.append(Rectangle((x0 / SHEET, 1 - y1 / HEIGHT), (x1 - x0) / SHEET, (y1 - y0) / HEIGHT,
                                          transform=self.fig.transFigure, facecolor=color,
                                          edgecolor="none", linewidth=0))

    def circle(self, x, y, r, color):
        from matplotlib.patches import Ellipse
        self.fig.patches.append(Ellipse((x / SHEET, 1 - y / HEIGHT), 2 * r / SHEET, 2 * r / HEIGHT,
                                        transform=self.fig.transFigure, facecolor=color, edgecolor="none"))

    def screen(self, name, buf, x, y, scale=SCALE):
        """A cup's screen, its top-left pixel at (x, y), unresampled, in a dark bezel."""
        x, y = round(x), round(y)      # whole pixels: the screen is placed, never resampled
        pad = 2 * scale
        w, h = 128 * scale, 64 * scale
        self.rect(x - pad, y - pad, x + w + pad, y + h + pad, BEZEL)
        self.fig.figimage(screen_pixels(buf, scale), xo=x, yo=HEIGHT - y - h, origin="upper", zorder=5)
        self.placements.append((name, x, y, scale))
        self.boxes.append(("screen " + name, x - pad, y - pad, x + w + pad, y + h + pad))

    def paragraphs(self, s, x, y, width, size, color=INK, gap=0.35):
        """Rich text (**bold**, "\\n" a new paragraph) wrapped to `width` px from (x, y),
        y the top of the first line; returns the y under the last line."""
        lh = self.line_height(size)
        space = self.width("x x", size) - self.width("xx", size)
        for k, para in enumerate(s.split("\n")):
            if k:
                y += lh * gap
            for line in self._wrap(para, width, size, space):
                cx = x
                base = y + lh * 0.78
                for word in line:
                    for piece, bold in word:
                        self.text(piece, cx, base, size, bold, color)
                        cx += self.width(piece, size, bold)
                    cx += space
                y += lh
        return y

    def _wrap(self, para, width, size, space):
        words = []          # each a list of (piece, bold)
        fresh = True
        for n, run in enumerate(re.split(r"\*\*", para)):
            bold = n % 2 == 1
            parts = run.split(" ")
            for i, part in enumerate(parts):
                if i:
                    fresh = True
                if not part:
                    continue
                if fresh or not words:
                    words.append([])
                    fresh = False
                words[-1].append((part, bold))
        lines, line, used = [], [], 0.0
        for word in words:
            w = sum(self.width(p, size, b) for p, b in word)
            if w > width:
                raise LayoutError("the word %r is wider than its column (%d px)" % (
                    "".join(p for p, _ in word), width))
            if line and used + space + w > width:
                lines.append(line)
                line, used = [], 0.0
            used += (space if line else 0) + w
            line.append(word)
        if line:
            lines.append(line)
        return lines

    def box(self, what, x0, y0, x1, y1):
        self.boxes.append((what, x0, y0, x1, y1))

    def pixels(self):
        import numpy as np
        self.canvas.draw()
        rgba = np.asarray(self.canvas.buffer_rgba())
        return rgba[:, :, :3].copy()


def compose(code, buffers=None, strict=True):
    """The quick-start card in language `code`: a Card. `buffers` ({screen: framebuffer})
    defaults to the gallery's renders (screen_buffers). With `strict` off a layout that
    does not fit is drawn anyway (to look at it) instead of raising LayoutError."""
    import matplotlib
    t = texts(code)
    buffers = buffers if buffers is not None else screen_buffers(code)
    with matplotlib.rc_context():
        matplotlib.rcdefaults()
        matplotlib.rcParams["text.hinting"] = "default"
        return _compose(code, t, buffers, strict)


def _compose(code, t, buffers, strict):
    p = _Page()
    front = _heading(p, t, code, 0, "1/2")
    top = front
    front = p.paragraphs(t["legend"], MARGIN, front, WIDTH - 2 * MARGIN, SMALL_PT)
    p.box("legend", MARGIN, top, WIDTH - MARGIN, front)
    front += round(2.2 * MM)
    back = _heading(p, t, code, WIDTH, "2/2")
    for n, (key, names) in enumerate(STEPS, 1):
        if n <= FRONT_STEPS:
            front = _step(p, t, n, key, names, buffers, 0, front, last=False)
        else:
            back = _step(p, t, n, key, names, buffers, WIDTH, back, last=False)
    p.rect(MARGIN, front - round(1.5 * MM), WIDTH - MARGIN, front - round(1.5 * MM) + 1, PALE)
    top = front
    front = p.paragraphs(t["tips"], MARGIN, front, WIDTH - 2 * MARGIN, SMALL_PT, color=(0.25, 0.25, 0.28))
    p.box("tips", MARGIN, top, WIDTH - MARGIN, front)
    back = _xiao(p, t, WIDTH, back + round(1 * MM))
    for side, y in (("front", front), ("back", back)):
        if y > HEIGHT - round(4 * MM) and strict:
            raise LayoutError("the %s card's %s runs %d px past its page" % (code, side, y - (HEIGHT - round(4 * MM))))
    if strict:
        _check_boxes(code, p.boxes)
    return Card(code, p.pixels(), p.placements, p.boxes)


FRONT_STEPS = 3


def _heading(p, t, code, ox, side):
    """The band across the top of one side; returns the y under it."""
    band = round(13.6 * MM)
    x0, x1 = ox + MARGIN, ox + WIDTH - MARGIN
    p.rect(ox, 0, ox + WIDTH, band, ACCENT)
    p.text(t["title"], x0, round(6.9 * MM), 12, True, "white")
    p.text(t["subtitle"], x0, round(11.1 * MM), 8.5, False, "white")
    p.text(code.upper(), x1, round(6.9 * MM), 8.5, True, "white", ha="right")
    p.text(side, x1, round(11.1 * MM), 7, False, "white", ha="right")
    p.box("heading " + side, ox, 0, ox + WIDTH, band)
    return band + round(2.8 * MM)


def _step(p, t, n, key, names, buffers, ox, y, last):
    """Step n: its number, heading and text on the left, its screens on the right;
    returns the y for what follows."""
    x0, x1 = ox + MARGIN, ox + WIDTH - MARGIN
    sw = 128 * SCALE
    pad = 2 * SCALE
    gap = round(2.6 * MM)
    num_r = round(2.3 * MM)
    text_x = x0 + 2 * num_r + round(1.8 * MM)
    shot_x = x1 - pad - sw
    text_w = shot_x - pad - gap - text_x
    head, body = t[key]
    top = y
    p.circle(x0 + num_r, y + num_r, num_r, ACCENT)
    p.text(str(n), x0 + num_r, y + num_r + 0.36 * 9 * DPI / 72, 9, True, "white", ha="center")
    ty = p.paragraphs("**" + head + "**", text_x, y, text_w, 8.2, ACCENT)
    ty = p.paragraphs(body, text_x, ty + 1, text_w, BODY_PT)
    sy = y + pad
    for name in names:
        p.screen(name, buffers[name], shot_x, sy)
        sy += 64 * SCALE + 2 * pad + round(1.4 * MM)
    sy -= round(1.4 * MM) + pad
    bottom = max(ty, sy)
    p.box("step " + key, x0, top, x1, bottom)
    y = bottom + round(2.7 * MM)
    if not last:
        p.rect(x0, y - round(1.5 * MM), x1, y - round(1.5 * MM) + 1, PALE)
    return y


def _xiao(p, t, ox, y):
    """The 3-button XIAO's differences: a small table; returns the y under it."""
    x0, x1 = ox + MARGIN, ox + WIDTH - MARGIN
    top = y
    y = p.paragraphs("**" + t["xiao"] + "**", x0, y, x1 - x0, 7.6, ACCENT) + 2
    c1 = x0 + round(0.37 * (x1 - x0))
    c2 = x0 + round(0.72 * (x1 - x0))
    lefts = (x0, c1, c2)
    rights = (c1, c2, x1)
    rows = [tuple("**%s**" % c if c else "" for c in t["cols"])] + list(t["rows"])
    for k, row in enumerate(rows):
        ys = []
        for c, cell in enumerate(row):
            ys.append(p.paragraphs(cell, lefts[c] + (0 if c == 0 else 4), y + 3,
                                   rights[c] - lefts[c] - 8, SMALL_PT))
        bottom = max(ys) + 3
        if k % 2 == 1:
            p.rect(x0 - 4, y, x1 + 4, bottom, PALE)
        y = bottom
    y = p.paragraphs(t["same"] + "\n" + t["lang"], x0, y + 6, x1 - x0, SMALL_PT, color=(0.35, 0.35, 0.38))
    p.box("xiao", x0, top, x1, y)
    return y


def _check_boxes(code, boxes):
    """Every block on its side of the sheet, and no two blocks overlapping."""
    for what, a, b, c, d in boxes:
        side = 0 if a < WIDTH else WIDTH
        if a < side or b < 0 or c > side + WIDTH or d > HEIGHT:
            raise LayoutError("%s card: %s leaves its side" % (code, what))
    blocks = [bx for bx in boxes if not bx[0].startswith("screen ")]
    for i in range(len(blocks)):
        for j in range(i + 1, len(blocks)):
            _, a0, b0, a1, b1 = blocks[i]
            _, c0, d0, c1, d1 = blocks[j]
            if a0 < c1 and c0 < a1 and b0 < d1 and d0 < b1:
                raise LayoutError("%s card: %s runs into %s" % (code, blocks[i][0], blocks[j][0]))


# ----- files --------------------------------------------------------------------------

FOLD = (190, 190, 190)


def write_png(image, path):
    """The sheet as a PNG: both sides, a grey line where they meet (the fold or cut)."""
    import png as pypng
    image = image.copy()
    image[:, WIDTH] = FOLD
    h, w, _ = image.shape
    with open(path, "wb") as fh:
        pypng.Writer(w, h, greyscale=False, bitdepth=8, compression=9).write(fh, image.reshape(h, w * 3))
    return path


def sides(image):
    """The card's two sides (front, back), each an A6 page of pixels."""
    return image[:, :WIDTH], image[:, WIDTH:]


def write_pdf(image, path, width_mm=105, height_mm=148):
    """A two-page PDF, front and back (print both sides, flip on the long edge), each
    page the card's pixels over the whole A6 page: the same raster as the PNG, so the
    print is what the PNG shows. No dates in it: the same card, the same bytes."""
    pw, ph = width_mm / 25.4 * 72, height_mm / 25.4 * 72
    pages = sides(image)
    n = len(pages)
    # objects: 1 catalog, 2 pages, then per page: page, image, content
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % (3 + 3 * k) for k in range(n)), n)]
    for k, page in enumerate(pages):
        h, w, _ = page.shape
        data = zlib.compress(page.tobytes(), 9)
        content = b"q %.2f 0 0 %.2f 0 0 cm /Side Do Q" % (pw, ph)
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] "
                    b"/Resources << /XObject << /Side %d 0 R >> >> /Contents %d 0 R >>" % (pw, ph, 4 + 3 * k, 5 + 3 * k))
        objs.append(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB "
                    b"/BitsPerComponent 8 /Filter /FlateDecode /Interpolate false /Length %d >>\nstream\n"
                    % (w, h, len(data)) + data + b"\nendstream")
        objs.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for k, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % k + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    with open(path, "wb") as fh:
        fh.write(out)
    return path


def write(outdir, langs=LANGS, pdf=True):
    """quickstart-<lang>.png (and .pdf) in `outdir` for each language; returns the paths."""
    paths = []
    for code in langs:
        card = compose(code)
        paths.append(write_png(card.image, os.path.join(outdir, "quickstart-%s.png" % code)))
        if pdf:
            paths.append(write_pdf(card.image, os.path.join(outdir, "quickstart-%s.pdf" % code)))
    return paths
