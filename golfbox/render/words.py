"""Every word the displays show, in English and in French.

The English text is the key: ``say(lang, "wait: {who} is playing", who="Ann")``
gives it in ``lang``, its ``{fields}`` filled in. English needs no table; the
French one below must hold every text (tests/test_words.py finds every
``say(...)`` in the code and checks it is here, with the same fields). The
command line and the logs stay English: only what a display shows goes
through ``say``.
"""

from __future__ import annotations

LANGUAGES = {"en": "english", "fr": "français"}  # code -> its name, as the lobby shows it
DEFAULT_LANGUAGE = "en"


def say(lang: str, text: str, **fields) -> str:
    """``text`` (English) in ``lang``, its fields filled in."""
    if lang != "en":
        text = _TABLES[lang][text]  # a KeyError here is a missing entry: tests/test_words.py
    return text.format(**fields) if fields else text


def say_or_keep(lang: str, text: str) -> str:
    """``text`` in ``lang`` if the catalogue has it, else as given: for words that come
    from outside the displays' catalogue (why the service stopped)."""
    return _TABLES[lang].get(text, text) if lang != "en" else text


# The French of every English text. Short words where the 128-pixel seat screens
# are narrow; "J1" (joueur) where English says "P1" (player).
FRENCH: dict[str, str] = {
    # names, variants, bots, house rules (the lobby and every display)
    "P{n}": "J{n}",
    "4-card": "4 cartes", "6-card": "6 cartes", "polish-poker": "poker polonais", "9-card": "9 cartes",
    "hard": "fort", "medium": "moyen", "easy": "facile", "greedy": "glouton", "random": "hasard",
    "assist": "aide", "knock penalty": "pénalité", "final turn": "dernier tour",
    "peek row": "rangée vue", "four of a kind": "carré", "choose start": "départ choisi",
    "negative pairs keep": "paire de jokers", "lines": "lignes",
    "on": "oui", "off": "non", "double": "double", "rows": "rangées",
    "rows+columns": "rangées+colonnes",
    # a seat's screen
    "ROUND OVER": "FIN MANCHE", "MATCH OVER": "FIN PARTIE", "TOTAL {n}": "TOTAL {n}",
    "MEMORISE": "RETIENS", "TURN UP {n}": "RETOURNE {n}",
    "WAITING": "ATTENDS", "LAST TURN": "TOUR FINAL", "YOUR TURN": "TON TOUR",
    "R{n}/{of}": "M{n}/{of}", "R{n}": "M{n}", "HAND": "MAIN", "PILE": "TAS", "STOCK {n}": "PIOCHE {n}",
    "SCORE {n}": "POINTS {n}",
    # why a score has a penalty: the seat knocked, or went out (9-card)
    "KNOCK {n}": "FRAPPÉ {n}", "WENT OUT {n}": "A FINI {n}", "OUT {n}": "FINI {n}",
    "YOU WIN": "GAGNÉ", "SHARED WIN": "EX AEQUO", "PLACE {n}/{of}": "PLACE {n}/{of}",
    "KNOCK": "FRAPPER", "PASS": "PASSER", "READY": "OK",
    "DISCARD": "JETER",
    "wait: {who} is playing": "attends : {who} joue",
    "wait: {who} still starting": "attends : {who} commence",
    "wait: {several} still starting": "attends : {several} commencent",
    "wait: {n} players still starting": "attends : {n} joueurs commencent",
    "wait: {who}": "attends : {who}",  # when the longer words do not fit
    "draw": "piocher", "take it": "la prendre", "discard": "jeter", "knock": "frapper",
    "pass": "passer", "done looking": "j'ai vu", "place here": "poser ici", "turn up": "retourner",
    "knock? ● yes  ✕ no": "frapper ? ● oui  ✕ non",
    "◀▶ move · ● nearest card": "◀▶ bouger · ● carte proche",
    "◀▶ move · ● {verb}": "◀▶ bouger · ● {verb}",
    "hint: thinking…": "conseil : je réfléchis…", "hint: {verb}": "conseil : {verb}",
    "a bot plays this seat": "un robot joue ici",
    "not in this match": "pas dans cette partie",
    "not in this match: join when it ends": "attends la fin de la partie",
    "the match is over: ✕ on a player's pad opens the lobby":
        "partie finie : ✕ d'un joueur ouvre l'accueil",
    "not allowed now": "pas permis maintenant",
    "not saved, not played: try again": "non enregistré : réessaie",
    "● shows the result": "● montre le résultat", "● deals the next round": "● donne la manche suivante",
    "● next round · ◀▶ rules": "● manche suivante · ◀▶ règles",
    "● result · ◀▶ rules": "● résultat · ◀▶ règles",
    "● new match · ✕ lobby · ◀▶ rules": "● rejouer · ✕ accueil · ◀▶ règles",
    "● lobby · ◀▶ rules": "● accueil · ◀▶ règles",
    "✕ back to the game": "✕ retour au jeu",
    "✕ back to the lobby": "✕ retour à l'accueil",
    # the shared display
    "round {n}/{of}": "manche {n}/{of}", "round {n}/{of} over": "manche {n}/{of} finie",
    "R{n}/{of} stock {stock}": "M{n}/{of} pioche {stock}", "pile": "tas", "tot {n}": "tot {n}",
    "T:{n}": "T:{n}",  # a reveal's total where "tot {n}" does not fit one (render/table.py)
    "round over": "manche finie", "get ready": "à vos cartes", "{who} to play": "à {who} de jouer",
    "{who} plays": "{who} joue",  # the turn where "à {who} de jouer" does not fit
    "waiting for {who}": "on attend {who}", "waiting for {n} players": "on attend {n} joueurs",
    "final turns left: {n}": "derniers tours : {n}", "one final turn left": "un dernier tour",
    "{who} holds {card}": "{who} tient {card}",
    "{who} drew from the stock": "{who} a pioché",
    "{who} took {card} from the discard": "{who} a pris {card} du tas",
    "{who} discarded {card}": "{who} a jeté {card}",
    "{who} placed a card, {out} out": "{who} a posé une carte, {out} sort",
    "{who} placed {card}, {out} out": "{who} a posé {card}, {out} sort",
    "{who} turned up {card}": "{who} a retourné {card}",
    "{who} knocked": "{who} a frappé", "{who} turned nothing up": "{who} n'a rien retourné",
    "{who} is ready": "{who} est prêt", "{who} went out": "{who} a fini",
    "stock ran out": "pioche vide",
    "pile shuffled into a new stock": "tas mélangé en nouvelle pioche",
    "match over": "fin de partie", "{who} wins": "{who} gagne",
    "{some} and {last} share the win": "{some} et {last} gagnent ensemble",
    "{n} players share the win": "{n} joueurs gagnent ensemble",
    "the table's screen is not answering": "l'écran de la table ne répond pas",
    # A seat's fault is "2/2 {who} : débranché · un robot joue dans 120 s" on two lines
    # of 124 px with eight players on 128×64, names of 13 letters too (the name first,
    # as in English; "poste débranché" left a 9-letter name room).
    "{who}'s seat is unplugged": "{who} : débranché",
    "{who}'s screen is not answering": "l'écran de {who} ne répond pas",
    "cannot save the game: see the log": "impossible d'enregistrer : voir le journal",
    "cannot save the lobby: see the log": "impossible d'enregistrer l'accueil : voir le journal",
    # A hand-edited config refused at the start: the table runs on the last that started.
    "{file} refused: {key} · running on the last good one":
        "{file} refusé : {key} · on garde le dernier bon",
    "{file} refused · running on the last good one": "{file} refusé · on garde le dernier bon",
    "{file} missing · running on the last good one": "{file} absent · on garde le dernier bon",
    "{who} is away: a bot plays for it until it is back":
        "{who} est absent : un robot joue à sa place",
    "{who} is not in the config: a bot plays for it":
        "{who} : poste retiré, un robot joue à sa place",
    "a bot plays in {n} s": "un robot joue dans {n} s",
    "paused": "en pause", "stopped by an error: restarting": "arrêt sur erreur : redémarrage",
    # A journal that cannot be opened at start (a full SD card): the table waits for it.
    "the disk is full: the table starts once there is room":
        "le disque est plein : la table démarre dès qu'il y a de la place",
    "the journal cannot be opened: trying again (see the log)":
        "le journal ne s'ouvre pas : nouvel essai (voir le journal système)",
    "disk full: waiting": "disque plein : en attente",
    "cannot start: waiting": "démarrage en attente",
    # the lobby
    "{label}: {value}": "{label} : {value}", "playing: {who}": "à la table : {who}",
    "golfbox: press ● to join": "golfbox : ● pour jouer",
    "{who}: you play": "{who} : tu joues", "{who}: press ● to join": "{who} : ● pour jouer",
    "hold ● on your pad to start": "garde ● appuyé pour commencer",
    "press ● on your pad to join": "appuie sur ● pour jouer",
    "press ● to join first": "appuie d'abord sur ● pour jouer",
    "● join · ◀▶ rules": "● jouer · ◀▶ règles",
    "◀▶ change · ● next setting · hold ● start · ✕ leave":
        "◀▶ changer · ● suivant · garder ● lancer · ✕ partir",
    "{game} needs {n} players: join, or bots in empty seats":
        "{game} se joue à {n} au moins : rejoignez, ou des robots",
    "{game} is for at most {n} players": "{game} se joue à {n} au plus",
    "on (hold ●)": "oui (garde ●)",
    "game": "jeu", "rounds": "manches", "hints": "conseils", "language": "langue", "rules": "règles",
    "◀▶ read": "◀▶ lire", "empty seats": "places vides", "none": "aucune",
    "1 empty seat": "1 place", "{n} empty seats": "{n} places",  # ": reste vide" says it
    "{level} bots": "robots {level}s", "stay empty": "restent vides", "nobody yet": "personne encore",
    "{level} bot": "robot {level}", "stays empty": "reste vide",
    # the screen saver (its first line, "golfbox", is a name)
    "press a button": "appuie sur un bouton",
    # the rules pages
    "◀▶ page · ✕ back": "◀▶ page · ✕ retour", "{who} reads the rules": "{who} lit les règles",
    "{game}: the aim": "{game} : le but", "deal": "la donne", "each turn": "à chaque tour",
    "points": "les points", "house rules": "règles maison", "end of round": "fin de manche",
    "combinations": "combinaisons",
    "Fewest points wins. Your {n} cards lie in a {rows}×{cols} grid; swap them for cheaper ones. "
    "Lowest total after the last round wins.":
        "Le moins de points gagne. Tes {n} cartes forment une grille {rows}×{cols} : "
        "échange-les contre de moins chères. Le plus bas total après la dernière manche gagne.",
    "4 cards face down. Before play you look once at your nearest row: remember it. "
    "Your cards stay face down all round.":
        "4 cartes face cachée. Avant de jouer, tu regardes une fois ta rangée proche : "
        "retiens-la. Tes cartes restent cachées toute la manche.",
    "Draw: place it face down over any card, or discard it. Or take the discard and place it. "
    "Or knock: the others play once more.":
        "Pioche : pose-la face cachée sur une carte, ou jette-la. Ou prends la carte du tas "
        "et pose-la. Ou frappe : les autres jouent encore une fois.",
    "No pairs.": "Pas de paires.",
    "Assist: on, you see your seen cards.": "Aide : oui, tu revois tes cartes vues.",
    "Assist: off, you remember your seen cards.": "Aide : non, tu retiens tes cartes vues.",
    "Knock penalty: {what}": "Pénalité : {what}",
    "a knocker who is not lowest doubles a score above 0 (a tie counts as lowest).":
        "qui frappe sans être le plus bas double ses points s'ils dépassent 0 (égalité = plus bas).",
    "a knocker who is not lowest adds {n} (a tie counts as lowest).":
        "qui frappe sans être le plus bas ajoute {n} (égalité = plus bas).",
    "none: knocking costs nothing.": "aucune, frapper ne coûte rien.",
    "6 cards face down in 2 rows of 3.": "6 cartes face cachée en 2 rangées de 3.",
    "You look once at your nearest row (peek row); it stays face down: remember it.":
        "Tu regardes une fois ta rangée proche (rangée vue) ; elle reste cachée : retiens-la.",
    "Everyone turns 2 cards of their choice face up.": "Chacun retourne 2 cartes de son choix.",
    "Draw and discard it. Or draw, or take the discard, and place it face up over any card: "
    "that card goes to the discard.":
        "Pioche et jette. Ou pioche, ou prends la carte du tas, et pose-la face visible sur "
        "une carte : celle-ci va au tas.",
    "When a player has all 6 cards face up, {end}": "Quand un joueur a ses 6 cartes visibles, {end}",
    "the others play once more (final turn).": "les autres jouent encore une fois (dernier tour).",
    "the round ends at once.": "la manche s'arrête aussitôt.",
    "A column of 2 cards of one rank scores 0 (2 over 2 too).":
        "Une colonne de 2 cartes de même rang fait 0 (les 2 aussi).",
    "Final turn: {final}. Peek row: {peek}. Four of a kind: {four}":
        "Dernier tour : {final}. Rangée vue : {peek}. Carré : {four}",
    "on, 2 paired columns of one rank score {n} together.":
        "oui, 2 colonnes en paire d'un même rang font {n} ensemble.",
    "off, each pair scores 0.": "non, chaque paire fait 0.",
    "Each player picks 2 cards to turn up (choose start).":
        "Chacun choisit 2 cartes à retourner (départ choisi).",
    "2 of each player's cards are turned up at random.":
        "2 cartes de chacun sont retournées au hasard.",
    "Draw and place it face up. Or draw, discard it, then turn one card up or pass. "
    "Or take the discard and place it. Or knock.":
        "Pioche et pose-la face visible. Ou pioche, jette-la, puis retourne une carte ou "
        "passe. Ou prends la carte du tas et pose-la. Ou frappe.",
    "A knock ends a round: the others play once more. If even the reshuffled discard leaves "
    "no card to draw, the round ends at once.":
        "Frapper finit la manche : les autres rejouent une fois. S'il n'y a plus de carte à "
        "piocher, même après avoir remélangé le tas, la manche s'arrête aussitôt.",
    "A column of 2 of one rank scores 0 ({pairs}).": "Une colonne de 2 de même rang fait 0 ({pairs}).",
    "a pair of jokers keeps its -4": "une paire de jokers garde son -4",
    "2 jokers too": "2 jokers aussi",
    "9 cards face down in 3 rows of 3. Your first turn starts by turning 3 cards of your "
    "choice face up.":
        "9 cartes face cachée en 3 rangées de 3. Ton premier tour commence en retournant "
        "3 cartes de ton choix.",
    "Draw, or take the discard, and place it face up over any card. A drawn card cannot be "
    "thrown away.":
        "Pioche, ou prends la carte du tas, et pose-la face visible sur une carte. Une "
        "carte piochée ne se jette pas.",
    "When a player has no card face down, the others play once more. That player adds 5 for "
    "each lower score.":
        "Quand un joueur n'a plus de carte cachée, les autres jouent encore une fois. Il "
        "ajoute 5 par score plus bas que le sien.",
    "Counted in {lines}: 3 of a rank score 0, 3 kings -10, 3 jokers -20, 2 lines of one rank "
    "-30 together.":
        "Comptées en {lines} : 3 de même rang font 0, 3 rois -10, 3 jokers -20, 2 lignes "
        "de même rang -30 ensemble.",
    "A card counts in one line at most, rows first.":
        "Une carte ne compte que dans une seule ligne, les rangées d'abord.",
    "rows and columns": "rangées et colonnes",
    "A {n}": "As {n}", "2 is {n}": "le 2 vaut {n}", "others their number": "les autres leur chiffre",
    "3-10 their number": "3 à 10 leur chiffre", "J Q {n}": "valet dame {n}",
    "J {j}, Q {q}": "valet {j}, dame {q}", "K {n}": "roi {n}", "joker {n}": "joker {n}",
}

_TABLES = {"fr": FRENCH}
