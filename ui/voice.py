"""Spoken announcements through espeak-ng, on a worker thread so speech never blocks the screen."""

from __future__ import annotations

import contextlib
import logging
import re
import shutil
import subprocess
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from pathlib import Path

from companion.colours import PIECE_RGB
from companion.games.ttd.board import HEX_NAME
from companion.phrases import LONG_WORDS  # a sentence longer is split at a colon or semicolon

log = logging.getLogger(__name__)

# Says one espeak-ng command line. A runner may say it and return when done (the tests' fakes), or start it
# and return the ``subprocess.Popen``, as the real one does: the voice then waits for that process itself and
# can cut it short when the app quits.
Runner = Callable[[Sequence[str]], object]
# Before the sentence: espeak-ng read a sentence starting with "-" ("-2 lives", "--- Round 3 ---") as its own
# options, said nothing at all and exited 0, so the silence went unnoticed.
END_OF_OPTIONS = "--"


def espeak_path() -> str | None:
    return shutil.which("espeak-ng")


SPEAKING_SECONDS = 60  # a sentence still being said after this is cut: espeak-ng stuck on a busy sound device
STOP_SECONDS = 1.0  # how long quitting waits for the voice in all: espeak-ng ended, the worker joined


def _run(cmd: Sequence[str]) -> subprocess.Popen[bytes]:
    """Start espeak-ng and return at once, so the sentence can be cut (``Voice.stop``). Its complaints are
    kept (``trouble``): without a sound card it says them and still exits 0."""
    return subprocess.Popen(list(cmd), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)


# What espeak-ng (or ALSA under it) says when the table hears nothing: "ALSA lib confmisc.c:855:(parse_card)
# cannot find card '0'" without a sound card, "Error: The specified espeak-ng voice does not exist.".
TROUBLE = re.compile(r"error|cannot|can't|unable|not exist", re.IGNORECASE)
ALSA_PLACE = re.compile(r"^ALSA lib \S+:\d+:\(\w+\)\s*")


def trouble(returncode: int | None, stderr: bytes) -> str:
    """Why a finished espeak-ng said nothing, in a few words; "" when it worked."""
    lines = [ALSA_PLACE.sub("", line).strip() for line in stderr.decode("utf-8", "replace").splitlines()]
    said = next((line for line in lines if TROUBLE.search(line)), "").rstrip(".")
    if returncode:
        return f"{said} (exit {returncode})" if said else f"exit {returncode}"
    return said


def _end(process: subprocess.Popen[bytes], seconds: float) -> None:
    """Terminate ``process``, kill it if it is still there after half of ``seconds``, and reap it."""
    try:
        process.terminate()
        process.wait(seconds / 2)
        return
    except OSError:  # gone already
        return
    except subprocess.TimeoutExpired:
        pass
    with contextlib.suppress(OSError):
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):  # not even SIGKILL moved it: the worker reaps it later
        process.wait(seconds / 2)


def render_wav(text: str, out: Path, speed: int = 150, volume: int = 100) -> Path:
    """Write speech to a WAV file: how tests (and a café without speakers) check the voice works."""
    binary = espeak_path()
    if binary is None:
        raise FileNotFoundError("espeak-ng is not installed")
    subprocess.run([binary, "-s", str(speed), "-a", str(volume), "-w", str(out), END_OF_OPTIONS, text], check=True,
                   capture_output=True, timeout=60)
    return out


# -- what the table hears ------------------------------------------------------------------------------
# The screen's texts are written to be read: a clause id to look up, a hex as the board file spells it, a
# card's inventory id. Read aloud by espeak-ng the same characters turn into letters, dashes and lost signs,
# so each is rewritten here, in speech only; the screen and the engine keep their words.

# "[TTD-3a]", "[BP-C10, BP-6]": a ruling's clauses, shown on the screen and in full behind Dispute.
# Spelt out ("T T D three a") they are noise between two reasons, so speech leaves them out.
CLAUSES = re.compile(r"\s*\[[A-Z]{1,5}-[A-Za-z0-9.]+(?:,\s*[A-Z]{1,5}-[A-Za-z0-9.]+)*\]")
# Through the Desert's hexes "(5,5)", "(-1,12)" (``HEX_NAME``, read as the game writes them, ``hex_label``):
# espeak-ng reads "(-1,12)" as "one twelve", the minus lost.
# The temple's cells "[7,0] (slot 2)": x the column from the west edge, y the row from the north, as the drawing
# numbers its margins. An older journal's texts carry the in-card "r0c1" as well (spelt "r zero c one"): left out.
CELL = re.compile(r"\[(\d+),(\d+)\](?: \(slot (\d+)(?: r\d+c\d+)?\))?")
# The temple's marker named with its cell beside it, as the screen writes it ("moves to its Ah Kinchil marker [1,13]
# (corner)"): aloud "marker column 1, row 13" ran the marker into its cell, the place heard as more of its name.
MARKER_CELL = re.compile(r"\bmarker (?=column \d)")
# Targi's centre cards "centre 2-1" (row-column, as the tag on the card reads): "two dash one" aloud.
CENTRE = re.compile(r"\b([Cc]entre) (\d)-(\d)\b")
# Fata Morgana's "from centre 3-2 to 3-1" names the second card without "centre": left to RANGE it was said
# "to 3 to 1", heard as die faces; it is said "to centre 3 1".
CENTRE_TO = re.compile(r"\b([Cc]entre \d-\d) to (\d-\d)\b")
# A range of die faces "4-6 keeps it": "four dash six" aloud.
RANGE = re.compile(r"\b(\d+)-(\d+)\b")
# A card's inventory id beside its name, "Date Sacks (G04)", "(T41, tent, ...)": the name says it already.
# A card known only by its id (the temple's "P27 goes into slot 1") keeps it.
CARD_ID = re.compile(r" \([A-Z]\d{2}\)|(?<=\()[A-Z]\d{2}, ")
# The desert race's spaces are named with their number on the ring, "move to Twin Dunes (11)", "Cobra Pit (27,
# scared)": a bracketed number after a name was said as a bare "twelve" tacked on; it is said "Twin Dunes, space
# 12", as a player reads it off the ring. Only after a capitalised word: "the round limit (30)" is no space.
SPACE_NUMBER = re.compile(r"\b([A-Z][\w']*)!? \((\d{1,3})((?:, [a-z ]+)?)\)(?=(\s\w)?)")
# Any other number alone in brackets, after a word in small letters ("The round limit (30) is reached"): espeak-ng
# said "the round limit thirty is reached", the brackets unheard. It is said between two pauses, as a space's
# number is ("the round limit, 30, is reached"); a bracket saying more ("(3 left)") stays a bracket.
BARE_NUMBER = re.compile(r"\b([a-z][\w']*) \((\d+)\)(?=(\s\w)?)")
VP = re.compile(r"\b(1 )?VP\b")
# The temple's path cards, known by their ids alone: "P07" was "p zero seven" beside "P32", "p thirty-two".
PATH_CARD = re.compile(r"\bP0(\d)\b")
# Targi's tribe-card symbol "targia" was "tar-juh" (espeak-ng's soft g); "targhia" is said "tar-gee-a".
TARGIA = re.compile(r"\b([Tt])argia\b")
# A correction names what it withdraws in brackets, a whole step long ("(Purple rolls 4: the Guardian's Test
# needs a 6; Purple stays and the turn ends)"): heard inside its sentence, 28 words went by before "is
# withdrawn" said what the sentence was about. Said after it, the instruction its own sentence.
WITHDRAWN = re.compile(r"^(Correction: .* entered last) \((.+)\) is withdrawn; (\w)(.*)$")
# The desert race's space kind "Scared!" inside a sentence ("Teal is Scared! on Cobra Pit (13): redeem ...",
# "Scared! has no effect"): read as a sentence's end, it cut the sentence in two where nobody pauses (so a long
# one was never cut where it does, nor a stray die's question in brackets said apart), and espeak-ng cried it out
# mid-sentence. A "!" before a word in small letters ends no sentence; "Scared! Grey loses 2 Lives" keeps it.
MID_EXCLAIM = re.compile(r"(?<=\w)!(?= [a-z])")
# The temple's Ah Kinchil card is put back by its id, "Put card AK back in Green's hand." ("ay kay" aloud), where
# every other text names it: said by its name. Path cards have no name but their ids, which stay.
AK_CARD = re.compile(r"\bcard AK\b")
LONG_BRACKET = 8  # words: a bracket this long closing a sentence (the question a stray die read came during) is
# a sentence of its own, as heard
# An "Allowed there:" list names the same place or card in every choice ("Pink leader to hex 4, 9; Green leader
# to hex 4, 9; ...", "Slot 2: P15 out, P02 in; Slot 2: P15 out, P04 in; ..."): after the first choice, the words
# it shares with the first at its start, or at its end from its hex or cell on, are left out. So does a "such as:"
# list of examples ("Place a Targi on 2 (Palm Grove); Place a Targi on 9 (Trader); ...": 31 words).
ALLOWED = re.compile(r"^(Allowed(?: there)?: |.*?, such as: )(.*?)( and \d+ more)?([.!?]?)$")
PLACE_WORDS = frozenset({"to", "at", "on", "from", "in", "into"})
PLACES = frozenset({"hex", "column"})  # as said above: "in" of "P08 in, sending Red 1 back" is no place
MORE = 3  # shared ending words, at least, to leave out
# The first choice's place, said again in the middle of another ("Green 1 to column 10, row 13 (slot 7) in 5; Green
# 2 to column 10, row 13 (slot 7) in 4"): left out of the others, as an ending place is.
PLACE_NAME = r"(?:hex (?:minus )?\d+, (?:minus )?\d+|column \d+, row \d+(?: \((?:slot \d+|corner)\))?)"
PLACE_PHRASE = re.compile(rf" (?:to|at|on|from|in|into) {PLACE_NAME}")
# The last place a sentence names, and the next naming it again: the temple's stairway, "Blue 2 moves 3 from ... to
# column 0, row 9 (slot 10). Blue 2 takes the secret stairway from column 0, row 9 (slot 10) to ...", is said
# "... from there to ...", and "Yellow 1 ends on the secret stairway at column 13, row 4 (slot 4): ..." "...
# stairway there: ...". Targi's centre cards too: an undone take said "Put Black's tribe marker back on centre 3 2.
# Put Well Keeper back face up on centre 3 2, ...", now "... face up there, ...". The screen shows each line whole.
# The desert race's spaces as said ("Sacred Spring, space 34"): an undo's "Put Black's pawn back on Sacred Spring,
# space 34." then "Black: roll the die to move from Sacred Spring, space 34.", "... to Cobra Pit, space 27. Black is
# Scared on Cobra Pit, space 27.", "Black attempts Rocky Ridge, space 5. Black: roll for Rocky Ridge, space 5,
# needing ..." (620 of 29,423 distinct announcements over 150 seeded games): "from there", "Scared there", "roll
# for it". Targi's take names the centre card it empties, "Black takes Milk Camel (...) from centre 3 2.", "Black
# takes 1 salt (Salt Block, centre 3 2).", "Black takes Open Market (centre 2 2): ...", and its next event the card
# laid there: "A goods card goes face down on centre 3 2." (643 of 27,740 distinct announcements over 150 seeded
# games): "... goes face down there.".
DESERT_SPACE = r"[A-Z][\w']*(?: (?:of the )?[A-Z][\w']*)*, space \d+"
NAMED_AT = re.compile(rf" (?:to|at|on|onto|into|attempts|from) ({PLACE_NAME}|centre \d \d|{DESERT_SPACE})(?![\d(]| \()"
                      r"|(?:(?<=, )|(?<=\())(centre \d \d)(?=\))")
# A desert space is said with its number the first time an announcement names it, by its name alone after: the
# number finds it on the ring, once. Heard again for another runner it said both twice in one breath: "Pink rolls
# 2: Guardian's Test, space 31, needs a 6; Pink stays and the turn ends. Grey: roll for Guardian's Test, space 31,
# needing exactly 6 ...", "Scared! Grey ... runs back to Desert Dawn, space 0. Black: roll to move from Merchant's
# Stall, space 2; a 5 lands on Scared!: lose 2 Lives and go back to Desert Dawn, space 0."
SPACE_SAID = re.compile(r"(?<![\w'])([A-Z][\w']*(?: (?:of the )?[A-Z][\w']*)*), space \d+(?!\d)(,?)(?= ?(\w*))")
# A list read aloud past a handful of choices is not heard: the temple's card swaps named five and a count ("Slot
# 1: P30 out, P01 in; ... P09 in, sending Yellow 2 back and 21 more", 25 to 32 words in one sentence). A list of
# more choices than SAID_CHOICES + 1 says the first SAID_CHOICES and how many more the screen shows (its buttons
# list them all): "Allowed there: Slot 1: P30 out, P 1 in; P 2 in; P 3 in; and 23 more on the screen." A total
# said first as well ("26 choices") said the count twice in one sentence, and made it no shorter to hear. A list
# still past LONG_WORDS says fewer choices, as many as keep it within them (one at least).
SAID_CHOICES = 3
COUNTED = re.compile(r" and (\d+) more$")
# One report per player or piece, the verb said again for each: "White puts tribe markers on centre 2 2 and
# centre 2 3. Black puts a tribe marker on centre 3 1.", "White pays the raid: 2 dates and 1 pepper. Black pays the
# raid: 2 victory points.", "Red 2 is blown 6 forward from ... Red 1 is blown 6 forward from ...". Who: a
# player's colour, or a piece of it ("Red 2"); then the verb, in small letters.
WHO = re.compile(rf"^((?:{'|'.join(sorted(c.capitalize() for c in PIECE_RGB))})(?: \d+)?) ([a-z]+) (.+)\.$")
PLURAL = {"is": "are", "has": "have", "goes": "go", "does": "do"}
OWN = re.compile(r"\b(its|his|her)\b")
GAP_ENDS = PLACE_WORDS | {"for", "with"}  # a shared ending left out of later reports opens with one of these


def _number(text: str) -> str:
    return f"minus {text[1:]}" if text.startswith("-") else text


def spoken_form(text: str) -> str:
    """``text`` as espeak-ng should say it: clause ids left out, places and ranges in words a listener follows.

    One pure function, used wherever the app speaks, so the screen's texts and the engine's stay as they are.
    """
    text = CLAUSES.sub("", text)
    text = HEX_NAME.sub(lambda m: f"hex {_number(m[1])}, {_number(m[2])}", text)
    text = CELL.sub(lambda m: f"column {m[1]}, row {m[2]}" + (f" (slot {m[3]})" if m[3] else ""), text)
    text = MARKER_CELL.sub("marker at ", text)
    text = CENTRE_TO.sub(r"\1 to centre \2", text)
    text = CENTRE.sub(r"\1 \2 \3", text)
    text = RANGE.sub(r"\1 to \2", text)
    text = CARD_ID.sub("", text)
    text = SPACE_NUMBER.sub(lambda m: f"{m[1]}, space {m[2]}{m[3]}{',' if m[4] else ''}", text)
    text = BARE_NUMBER.sub(lambda m: f"{m[1]}, {m[2]}{',' if m[3] else ''}", text)
    text = VP.sub(lambda m: "1 victory point" if m[1] else "victory points", text)
    text = TARGIA.sub(lambda m: f"{m[1]}arghia", text)
    text = MID_EXCLAIM.sub("", text)
    text = AK_CARD.sub("the Ah Kinchil card", text)
    said = []
    for sentence in _sentences(text):
        # "(7,0) is already taken", "[8,2] is on the card" open with a place: rewritten above into words, said as
        # "hex 7, 0 is ..." and "column 8, row 2 is ...", a sentence without its capital
        sentence = sentence[:1].upper() + sentence[1:]
        sentence = ALLOWED.sub(_allowed, sentence)
        sentence = WITHDRAWN.sub(lambda m: f"{m[1]} is withdrawn: {m[2]}. {m[3].upper()}{m[4]}", sentence)
        said.extend(_sentences(_bracket_apart(sentence)))
    text = " ".join(_split_long(s) for s in _places_said_once(_echoes_said_once(_gapped(_merged(said))))) if said \
        else text
    text = _space_numbers_said_once(text)
    return PATH_CARD.sub(r"P \1", text)  # last: a list's choices are told apart by their ids' words


def _space_numbers_said_once(text: str) -> str:
    """``text`` with each desert space's number said the first time only (``SPACE_SAID``): named again, by
    another runner's challenge or the next runner's Scared! warning, the space is said by its name alone."""
    seen: set[str] = set()

    def once(m: re.Match[str]) -> str:
        if m[1] not in seen:
            seen.add(m[1])
            return m[0]
        # the comma the number needed goes with it ("Rocky Ridge is a challenge", "stops at Rocky Ridge without
        # an attempt"); the game's own before a phrase ("roll for Rocky Ridge, needing 4 or more") stays
        return m[1] + ("" if m[2] and m[3].islower() and not m[3].endswith("ing") else m[2])

    return SPACE_SAID.sub(once, text)


def _spans(text: str) -> list[re.Match[str]]:
    return list(re.finditer(r"[A-Za-z0-9']+", text))


def _balanced(text: str) -> bool:
    return text.count("(") == text.count(")")


def _allowed(m: re.Match[str]) -> str:
    """One "Allowed there:" list with each choice after the first said without what it shares with the first."""
    items = m[2].split("; ")
    # a piece's own list inside a list of pieces' ("Allowed: Red 1 to ...; ... and 3 more; Red 2 to ...") counts too
    total = sum(1 + int(counted[1]) if (counted := COUNTED.search(item)) else 1 for item in items)
    total += int(m[3].split()[1]) if m[3] else 0
    rest = m[3] or ""
    if total > SAID_CHOICES + 1:
        items = [COUNTED.sub("", item) for item in items[:SAID_CHOICES]]
        rest = f"; and {total - len(items)} more on the screen"
    if len(items) < 2:
        return f"{m[1]}{items[0]}{rest}{m[4]}"
    first = _words(items[0])
    kept = [items[0]]
    for item in items[1:]:
        spans = _spans(item)
        words = [s[0].lower() for s in spans]
        shared = min(len(first), len(words))
        same = next((i for i in range(shared) if first[i] != words[i]), shared)
        if 2 <= same < len(words) and _balanced(item[:spans[same].start()]):
            item = item[spans[same].start():]
            spans, words = _spans(item), words[same:]
        end = 0
        while end < min(len(first), len(words)) and first[-1 - end] == words[-1 - end]:
            end += 1
        place = next((i for i in range(len(words) - end, len(words) - 1)
                      if words[i] in PLACE_WORDS and words[i + 1] in PLACES), None)
        if place is not None and place > 0 and len(words) - place >= MORE and _balanced(item[spans[place].start():]):
            item = item[:spans[place].start()].rstrip(" ,;:(")
        elif (middle := PLACE_PHRASE.search(items[0])) and item.count(middle[0]) == 1 and not item.endswith(middle[0]):
            item = item.replace(middle[0], "")  # "Green 2 to column 10, row 13 (slot 7) in 4": "Green 2 in 4"
        kept.append(item)
    # Three choices of a temple swap, one of them a stairway, made 29 to 43 words ("...; P 7 in, Red 1 takes the
    # secret stairway at column 8, row 1 (slot 2) to one of 3 others; P 9 in, ..."): fewer are said, one at least.
    # Counted from the list's own sentence: a refusal before "...: what may be done now ..., such as:" is cut off.
    head = m[1][:-2].rsplit(": ", 1)[-1]
    while len(kept) > 1 and len(_words(PATH_CARD.sub(r"P \1", f"{head}: {'; '.join(kept)}{rest}"))) > LONG_WORDS:
        kept.pop()
        rest = f"; and {total - len(kept)} more on the screen"
    return f"{m[1]}{'; '.join(kept)}{rest}{m[4]}"


def _bracket_apart(sentence: str) -> str:
    """A bracket closing ``sentence`` and holding a sentence (the question asked now) said after it: a long one,
    or one opening with a capital. "... no roll is expected now (Black wins.)." was said with its stop twice
    and the game's end inside the refusal's sentence; it is "... no roll is expected now. Black wins."."""
    body = sentence.rstrip(".!?")
    if not body.endswith(")"):
        return sentence
    depth = 0
    for i in range(len(body) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(body[i], 0)
        if depth == 0:
            break
    inner = body[i + 1:-1].strip()
    short = len(_words(inner)) < LONG_BRACKET and not inner[:1].isupper()
    if depth or i == 0 or short or inner[-1:] not in ".!?":
        return sentence  # a list in brackets ("(the roll entered by hand, an undo, a new game)") stays in its place
    return f"{body[:i].rstrip(' ,;:')}. {inner[:1].upper()}{inner[1:]}"


def _merged(sentences: list[str]) -> list[str]:
    """Two sentences alike but for whose they are said once: "White's and Black's Targi make no crossing: ...".
    Only a possessive is joined: "Teal misses this turn" twice would be "Teal and Black misses"."""
    out: list[str] = []
    for sentence in sentences:
        head, _, rest = sentence.partition(" ")
        if out and rest and len(_words(rest)) >= 3:
            last_head, _, last_rest = out[-1].partition(" ")
            if last_rest == rest and head.endswith("'s") and last_head.endswith("'s") and head[:1].isupper():
                out[-1] = f"{last_head} and {head} {rest}"
                continue
        out.append(sentence)
    return out


def _plural(verb: str) -> str:
    """The verb for two or more: "misses" is "miss", "goes" "go", "is" "are"."""
    if verb in PLURAL:
        return PLURAL[verb]
    if re.search(r"(ss|sh|ch|x|z)es$", verb):
        return verb[:-2]
    return verb[:-3] + "y" if verb.endswith("ies") else verb[:-1] if verb.endswith("s") else verb


def _gapped(sentences: list[str]) -> list[str]:
    """Reports alike but for who, one after another, said as one sentence with the verb said once, as a person
    says them: "Teal and Black miss this turn (Desert Whisper).", "Black and White each pay the raid: 2
    victory points.", "Black puts tribe markers on centre 1 1 and centre 1 3, and White on centre 2 2.",
    "White pays the raid: 2 dates and 1 pepper; Black, 2 victory points.", "Red 2 goes back from d7 (ring 3) to
    its starting circle in the centre, and Red 3 from d4 (ring 4)." What a later report shares with the first
    after its verb is left out up to its last place word ("on", "from") or colon, and a shared ending of three
    words or more from a place word (or "for", "with") on; every fact that differs is said. A sentence past
    ``LONG_WORDS`` is not made: the next report starts a sentence of its own. The screen keeps one line each."""
    out: list[str] = []
    group: list[re.Match[str]] = []

    def flush() -> None:
        if group:
            out.append(_joined(group))
            group.clear()

    for sentence in sentences:
        report = WHO.match(sentence)
        if report is None:
            flush()
            out.append(sentence)
            continue
        if group and (report[2] != group[0][2] or report[1] in {g[1] for g in group}
                      or len(_words(_joined([*group, report]))) > LONG_WORDS
                      or _joined([*group, report]) == " ".join(g[0] for g in [*group, report])):
            flush()
        group.append(report)
    flush()
    return out


def _joined(group: list[re.Match[str]]) -> str:
    """One sentence of ``group``'s reports (`_gapped`); their own sentences when they cannot be joined."""
    if len(group) == 1:
        return group[0][0]
    whos = [g[1] for g in group]
    names = f"{', '.join(whos[:-1])} and {whos[-1]}"
    first = group[0][3]
    if all(g[3] == first for g in group):  # alike but for who: "Teal and Black miss this turn."
        each = "each " if re.search(r"\d", first) else ""  # "Black and White pay the raid: 2" is no total
        return f"{names} {each}{_plural(group[0][2])} {OWN.sub('their', first)}."
    tokens = first.split(" ")
    later = []
    for g in group[1:]:
        words = g[3].split(" ")
        shared = next((i for i, (a, b) in enumerate(zip(tokens, words, strict=False)) if a != b),
                      min(len(tokens), len(words)))
        colon = next((i + 1 for i in range(shared - 1, -1, -1) if words[i].endswith(":")), None)
        if colon is not None:
            later.append((g[1], ", ", words[colon:]))
            continue
        start = next((i for i in range(shared - 1, -1, -1) if words[i] in PLACE_WORDS), 0)
        kept = words[start:]
        end = 0
        while end < min(len(tokens), len(kept)) - 1 and tokens[-1 - end] == kept[-1 - end]:
            end += 1
        tail = next((i for i in range(len(kept) - end, len(kept) - 2) if kept[i] in GAP_ENDS), None)
        if tail is not None and tail > 0:
            kept = kept[:tail]
        if (re.match(r"\d", kept[0]) and g[1][-1:].isdigit()) or (not start and g[2] in PLURAL):
            return " ".join(m[0] for m in group)  # "Red 1 3 forward", "Red 2 blown 3 forward": said apart
        later.append((g[1], " ", kept))
    if any(sep == ", " for _, sep, _ in later):  # after a colon: "...: 2 dates and 1 pepper; Black, 2 victory points."
        if not all(sep == ", " for _, sep, _ in later):
            return " ".join(m[0] for m in group)
        return "; ".join([f"{group[0][1]} {group[0][2]} {first}", *(f"{who}, {' '.join(kept)}" for who, _, kept
                                                                      in later)]) + "."
    parts = [f"{group[0][1]} {group[0][2]} {first}", *(f"{who} {' '.join(kept)}" for who, _, kept in later)]
    return f"{', '.join(parts[:-1])}, and {parts[-1]}."


def _echoes_said_once(sentences: list[str]) -> list[str]:
    """A sentence opening with the name the one before it ended on says it once: "Brown moves 2 spaces forward to
    Rocky Ridge, space 5. Rocky Ridge, space 5, is a challenge: ..." is said "... to Rocky Ridge, space 5. It is a
    challenge: ...", and "Black chooses to go to Date Grove, space 12. Date Grove, space 12: Black goes from 6 to
    7 Lives." "... to Date Grove, space 12: Black goes from 6 to 7 Lives." Each step and prompt names its place
    whole, being shown on its own; heard in a row, the desert race named it twice (903 of 27,793 distinct
    announcements in 150 seeded games).
    Only a name (two words at least, from a capital) followed by a comma and a small word, or a colon."""
    out: list[str] = []
    for sentence in sentences:
        last = out[-1] if out else ""
        body = last[:-1] if last[-1:] in ".!?" else last
        starts = [m.start() for m in re.finditer(r"(?<= )[A-Z]", body)]
        echo = next((body[i:] for i in starts if sentence.startswith(body[i:])
                     and len(_words(body[i:])) >= 2 and sentence[len(body) - i:len(body) - i + 2] in (", ", ": ")), "")
        rest = sentence[len(echo) + 2:]
        if echo and sentence[len(echo)] == ":" and last[-1:] == "." and rest:
            out[-1] = f"{body}: {rest}"
            continue
        if echo and rest[:1].islower():
            sentence = f"It {rest}"
        out.append(sentence)
    return out


# What goes on after a place with a clause of its own, kept behind a comma when the place is said "there".
CLAUSE_AFTER = r"(?:and|but|or|then|so|where|which)\b|[a-z]+ing\b"


def _places_said_once(sentences: list[str]) -> list[str]:
    """The last place the sentence before named said "there" where the next names it again (``NAMED_AT``): "from
    there", once, after "from"; else "there" for its "at" or "on"; "cannot reach it" for a place it cannot reach
    (a temple answer's pawns, each refused at the cell touched: 9 of 27,740 distinct announcements over 150
    seeded games said the cell twice in a row, "... cannot stop at column 13, row 3 (slot 4). Blue 2 cannot
    reach column 13, row 3 (slot 4) with a roll of 4.")."""
    out: list[str] = []
    there: list[str] = []  # the place the sentence before said "there" for: the next may say it so too
    for sentence in sentences:
        named = there or ([m[1] or m[2] for m in NAMED_AT.finditer(out[-1])] if out else [])
        there = []
        if named:
            # a desert space has no bracket of its own: "from there (or first: Desert Flask)"; the comma that
            # closed its "Twin Dunes, space 11," goes with it ("stops there without an attempt", "is back there with
            # 3 Lives"), one the text put there stays before a clause of its own ("is there, needing 4 or more")
            desert = re.fullmatch(DESERT_SPACE, named[-1])
            ends = rf"(?!\d)(?:,(?= (?!{CLAUSE_AFTER})[a-z]))?" if desert else r"(?![\d(]| \()"
            place = rf"{re.escape(named[-1])}{ends}"
            said = re.sub(rf" from {place}", " from there", sentence, count=1)
            if sentence.split(":")[0] in out[-1]:  # a challenge the one to roll was just told of: "roll for it"
                said = re.sub(rf" roll for {place}", " roll for it", said, count=1)
            said = said if said != sentence else re.sub(rf" (?:at|on) {place}", " there", sentence, count=1)
            # a temple answer's next pawn: "... so it cannot stop at column 13, row 3 (slot 4). Blue 2 cannot reach it"
            said = said if said != sentence else re.sub(rf" cannot reach {place}", " cannot reach it", sentence,
                                                        count=1)
            there = named[-1:] if said != sentence and not NAMED_AT.search(said) else []
            sentence = said
        out.append(sentence)
    return out


def _split_long(sentence: str) -> str:
    """``sentence`` over ``LONG_WORDS`` words cut into sentences where it pauses: at a colon (a semicolon when it
    has none), outside brackets, leaving four words at least on either side; with neither, before a ", but".
    A list ("such as: A; B; C", "Allowed there: A; B") is not cut between its choices, nor before them."""
    if len(_words(sentence)) <= LONG_WORDS:
        return sentence
    listing = re.search(r"(?:such as|^Allowed(?: there)?):", sentence)
    depth, cuts = 0, []
    for i, ch in enumerate(sentence):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth or ch not in ":;" or sentence[i + 1:i + 2] != " " or (listing and i >= listing.end() - 1):
            continue
        if sentence[i - 1:i] == "!":  # "a 6 is Scared!: loses 2 Lives": cut there, "Scared!." then "Loses 2 Lives"
            continue
        if len(_words(sentence[:i])) >= 4 and len(_words(sentence[i + 1:])) >= 4:
            cuts.append(i)
    cuts = [i for i in cuts if sentence[i] == ":"] or cuts
    if not cuts and not listing:  # no colon or semicolon with room on both sides: before a ", but", outside brackets
        cuts = [m.start() for m in re.finditer(r", but ", sentence) if _balanced(sentence[:m.start()])
                and len(_words(sentence[:m.start()])) >= 4 and len(_words(sentence[m.start():])) >= 5]
    if not cuts:
        return sentence
    middle = len(sentence) / 2
    cut = min(cuts, key=lambda i: abs(i - middle))
    rest = sentence[cut + 1:].strip()
    return f"{_split_long(sentence[:cut].rstrip() + '.')} {_split_long(rest[:1].upper() + rest[1:])}"


def _words(text: str, loose: bool = False) -> list[str]:
    """Words compared; ``loose``: "rolls" and "rolled" are one word to a listener hearing them twice."""
    words = re.findall(r"[a-z0-9']+", text.lower())
    if not loose:
        return words
    return [w[:-2] if w.endswith("ed") and len(w) > 4 else w[:-1] if w.endswith("s") and len(w) > 3 else w
            for w in words]


def _within(part: str, said: str, loose: bool = False) -> bool:
    """Whether ``part``'s words were just said, in the same order and together."""
    words, heard = _words(part, loose), _words(said, loose)
    return bool(words) and any(heard[i:i + len(words)] == words for i in range(len(heard) - len(words) + 1))


def _sentences(text: str) -> list[str]:
    """``text``'s sentences; a stop inside brackets ends none: a correction withdrawing a step of two sentences,
    "(Grey rolls 3: failed attempt 3 of 3 at Sheer Cliff (15). Next turn Grey may ... try again) is withdrawn",
    was cut inside its bracket, and said whole, withdrawn step and all, before "is withdrawn"."""
    out: list[str] = []
    for piece in re.split(r"(?<=[.!?])\s+", text.strip()):
        if out and out[-1].count("(") > out[-1].count(")"):
            out[-1] = f"{out[-1]} {piece}"
        elif piece:
            out.append(piece)
    return [s for s in out if s]


HEARD_RUN = 6  # words in a row just said, at least, for a part of the prompt to count as heard
TAIL_WORDS = 4  # words, at least, of a step's tail that the prompt says word for word inside a longer part


def _longest_run(part: list[str], said: list[str]) -> int:
    """The most words of ``part`` in a row that ``said`` has in the same order."""
    return SequenceMatcher(None, part, said, autojunk=False).find_longest_match(0, len(part), 0, len(said)).size


def _asked_once(sentence: str, last: str) -> str:
    """``sentence``, a prompt "Who: verb ...", said "Who: verb." when ``last`` (the step's last sentence) just said
    all that follows the verb: the temple's roll for the first turn said "Red rolls 4 for the first turn. Yellow:
    roll for the first turn." each time a player rolled (65 of 14,376 announcements over 30 seeded temple games).
    Who acts next and what they do stay; what they do it for was just heard. Three words at least, said together
    in the sentence just before, outside brackets: after a tie ("... they roll again.") or a roll withdrawn ("the
    roll entered last (Red rolls X for the first turn) is withdrawn") the roll is asked for again whole."""
    lead, colon, rest = sentence.partition(": ")
    verb, _, tail = rest.rstrip(".!?").partition(" ")
    told = re.sub(r" \([^)]*\)", "", last)
    if not colon or len(_words(lead)) > 2 or len(_words(tail)) < 3 or not _within(tail, told):
        return sentence
    return f"{lead}: {verb}{sentence[-1] if sentence[-1:] in '.!?' else '.'}"


def _without_heard(sentence: str, step: str, last: str = "") -> str:
    """``sentence`` without its semicolon parts that ``step`` just said, in other words around the same place
    ("Yellow 1 ends on the secret stairway at [0,4] (slot 12): ..." then "Yellow: Yellow 1 is on the secret
    stairway at [0,4] (slot 12); pick the stairway it comes out at."): a part goes when six of its words in
    a row, two thirds of it at least, were just said. A part before the last that only says again, in any order,
    what ``last`` (the step's last sentence) said of the player the opening names goes too (`_reported`): "Blue
    rolls red 7." then "Blue: red 7 rolled; first replace one path card ..." said the roll twice in a row. A
    short opening ("Yellow:", "Sand Thief:") and one part at least stay: who acts, and what is asked."""
    lead, colon, rest = sentence.partition(": ")
    if not colon or len(_words(lead)) > 2:
        lead, colon, rest = "", "", sentence
    parts = rest.split("; ")
    said = _words(step)
    told = set(_words(last)) if lead and _named(lead, last) else set()

    def heard(part: str) -> bool:
        words = _words(part)
        run = _longest_run(words, said)
        if run >= HEARD_RUN and 3 * run >= 2 * len(words):
            return True
        return part is not parts[-1] and len(words) >= 3 and all(_reported(word, told) for word in words)

    kept = [part for part in parts if not heard(part)]
    if len(kept) in (0, len(parts)):
        return sentence
    body = "; ".join(kept)
    if body[-1:] not in ".!?" and sentence[-1:] in ".!?":
        body += sentence[-1]
    return f"{lead}{colon}{body}" if colon else body[:1].upper() + body[1:]


def _reported(word: str, said: set[str]) -> bool:
    """Whether ``word`` was said in ``said``, a past "rolled" or "moved" as the step's "rolls" or "moves"; a bare
    "roll" is no "rolls": "Black: roll the die" asks what "Black rolls the die." told."""
    return word in said or (word.endswith("ed") and (word[:-2] + "s" in said or word[:-1] + "s" in said))


# An undo that gives the turn back ends "Back to Yellow's turn." (`companion.takeback`): on the screen and in
# the protocol it says whose turn it is again, but heard just before the prompt "Yellow: roll the oracle." the
# name came twice in a row, in two sentences saying one thing.
TURN_BACK = re.compile(r"Back to (.+)'s turn\.")


def _turn_said_by(sentence: str, prompt: str) -> bool:
    """Whether ``sentence`` is an undo's "Back to X's turn." and ``prompt`` names X (as a name, capitalised)."""
    back = TURN_BACK.fullmatch(sentence)
    return back is not None and _named(back[1], prompt)


def _named(name: str, text: str) -> bool:
    """Whether ``text`` names ``name`` as a word of its own ("Blue 1 moves", "Blue's turn"), not inside another
    ("Bluebell", "Sky-Blue")."""
    return re.search(rf"(?<![\w'-]){re.escape(name)}(?![\w-])", text) is not None


def _in_order(part: list[str], whole: list[str]) -> bool:
    """Whether every word of ``part`` is in ``whole``, in the same order (others may come between)."""
    rest = iter(whole)
    return all(word in rest for word in part)


def _tail_asked(sentence: str, prompt: str) -> str:
    """``sentence`` (the step's last) without its closing tail when the prompt right after it says that tail
    again, every word in the same order, with a run of ``HEARD_RUN`` words at least: the temple's optional card
    change said "... first replace one path card (or leave the path as it is). Blue: red 7 rolled; first replace
    one path card with one from your hand, or leave the path as it is." The tail begins at a colon or an opening
    bracket outside brackets, the earliest that leaves three words before it. The prompt keeps its words, being
    what is asked now and saying more between them. A tail of ``TAIL_WORDS`` or more that the prompt says word
    for word goes too when the prompt's part holding it says more than the step ("Blue rolls red 1: first
    replace one path card." before "Blue: ...; first replace one path card with one from your hand."); one
    whose part the step said all of is left to the prompt's own rules (`spoken_step`), which drop it from the
    prompt instead (a draw's "a draw (equal points, gold and goods)" stays before "The game is over.").
    A last part after a semicolon goes when a sentence of the prompt opens with its first two words (who, and
    what they do) and says every word of it in the same order (`_asked_again`): the Sand Thief's "...; Pink rolls
    to keep it (4-6 keeps it)." before "Pink rolls to keep the Golden Compass from Black (4-6 keeps it, 1-3 loses
    it)." said who rolls to keep it twice in a row."""
    heard = _words(prompt, loose=True)
    depth = 0
    for i, ch in enumerate(sentence):
        opens = ch == "(" and sentence[i - 1:i] == " "
        spaced = sentence[i + 1:i + 2] == " "
        cut = depth == 0 and (opens or (ch in ":;" and spaced))
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if not cut or len(_words(sentence[:i])) < 3:
            continue
        if ch == ";":
            if _asked_again(sentence[i + 1:], prompt):
                return sentence[:i].rstrip(" ,;:") + "."
            continue
        tail = _words(sentence[i:], loose=True)
        run = _longest_run(tail, heard)
        whole = run == len(tail) >= TAIL_WORDS and any(
            _longest_run(tail, _words(part, loose=True)) == len(tail) and not _within(part, sentence, loose=True)
            for part in _parts(prompt))  # said word for word in a part that says more than the step did
        if _in_order(tail, heard) and (HEARD_RUN <= run < len(tail) or whole):
            return sentence[:i].rstrip(" ,;:") + "."
    return sentence


def _tail_restated(sentence: str, prompt: str) -> str:
    """``sentence`` (the step's last) without its tail after a colon when a sentence of the prompt opens the same
    way (who and where, three words at least) and asks it again in other words, saying every word of four letters
    or more the tail said (three such at least): the desert race's "Grey is Scared! on Sandstorm Wall (16): the
    Mirage Cloak may be redeemed to ignore the penalty." before "Grey is Scared! on Sandstorm Wall (16): redeem
    the Mirage Cloak to ignore the penalty (...)?" said the cloak and the penalty twice in a row. The question,
    being what is asked, stays."""
    lead, colon, tail = sentence.partition(": ")
    said = [w for w in _words(tail, loose=True) if len(w) >= 4]
    if not colon or len(_words(lead)) < 3 or len(said) < 3:
        return sentence
    for asked in re.split(r"(?<=[.?])\s+|(?<=!)\s+(?![a-z])", prompt.strip()):
        opening, asks, rest = asked.partition(": ")
        if asks and opening == lead and set(said) <= set(_words(rest, loose=True)):
            return f"{lead}."
    return sentence


def _asked_again(part: str, prompt: str) -> bool:
    """Whether a sentence of ``prompt`` opens with ``part``'s first two words and says all of its words (three at
    least) in the same order, with more between, and so each bracket of it: "Pink rolls to keep it (4-6 keeps
    it)" in "Pink rolls to keep the Golden Compass from Black (4-6 keeps it, 1-3 loses it)."."""
    brackets = re.findall(r"\(([^()]*)\)", part)
    words = _words(re.sub(r"\([^()]*\)", " ", part), loose=True)
    if len(words) < 3 or not _balanced(part):
        return False
    for asked in _sentences(prompt):
        heard = _words(asked, loose=True)
        if heard[:2] == words[:2] and _in_order(words, heard) and all(
                _in_order(_words(inner, loose=True), heard) for inner in brackets):
            return True
    return False


def _parts(text: str) -> list[str]:
    """``text``'s sentences cut again at each colon and semicolon: the parts a listener hears apart."""
    return [part for part in re.split(r"(?<=[.!?])\s+|[:;]\s+", text.strip()) if part]


def _place_said(lead: str, last: str, before: str = "") -> bool:
    """Whether ``lead`` is who acts and where ("Pink on Jewel of the Desert (38)") and ``last`` (the step's last
    sentence) just named that place, four words at least or with its number: "Pink moves 4 spaces forward to
    Jewel of the Desert (38)." The prompt then says only who: "Pink: agree trades, or end the turn.". So a
    challenge's question, "Grey is on Rocky Ridge (5), needing 4 or more: attempt it now, ...?", right after the
    space said what it needs, "Rocky Ridge (5) is a challenge: roll 4 or more to go on (...)." (``before``, the
    sentence before it, naming who moved there): 320 of 7,260 distinct announcements in 30 seeded games said the
    space and the roll it needs twice in a row."""
    who, _, where = lead.partition(" ")
    place, _, name = where.removeprefix("is ").partition(" ")
    name, _, need = name.partition(", needing ")
    about = _named(who, last) or (last.startswith(name) and _named(who, before))
    return (who[:1].isupper() and place in PLACE_WORDS and (len(_words(name)) >= 4 or re.search(r"\(\d+\)$", name)
            is not None) and _within(name, last) and (not need or _within(need, last)) and about)


def _told(sentence: str, step: str) -> bool:
    """Whether each word of ``sentence`` of three letters or more was just said by ``step``, in any order and
    form: "Pink wins." after "Pink enters Secret Passage ... and wins!", "The game ended at the round limit, no
    winner." after "The round limit (30) is reached: the game ends with no winner."."""
    said = set(_words(step, loose=True))
    words = [w for w in _words(sentence, loose=True) if len(w) >= 3]
    return bool(words) and all(w in said for w in words)


def spoken_step(step: str, prompt: str, over: bool = False) -> str:
    """A step and the next prompt as one announcement, without the prompt saying again what the step just said.

    The screen shows them apart, so each is written whole; heard together they repeat each other: "Green
    rolls 1. Green rolled 1: choose the traveller to move.", and every game's last step names the winner and
    then the game-over prompt names them again. Each part of the prompt already heard is left out: a whole
    sentence, word for word; its opening "Green rolled 1:" if the step ends with those words ("rolls" heard
    as "rolled"); the rest after a long opening ("The game is over: the last blue camel has been placed.").
    Who is to act next is never left out: an opening of one or two words ("Black:", "Blue:") stays
    unless the whole sentence was said, and "Black: roll the die." is not "Black rolls the die." A part of a
    sentence between semicolons goes when the step said it in other words around the same place or card
    (`_without_heard`); what the prompt asks stays. An undo's "Back to Yellow's turn." is left out of the
    step when the prompt names Yellow ("Yellow: roll the oracle."): the prompt says it. ``over``: the prompt
    is the game over's, after the step that ended the game (or its redo), and a sentence of it goes when the
    step said all its words, in any order (`_told`): the desert race said "... and wins! Pink wins.". The step's
    last sentence loses its tail when the prompt says that tail again with more words between (`_tail_asked`).
    A name in the prompt's brackets that the step just said goes (``NAME_BRACKET``): "... Third Raid: each player
    loses 3 goods or 2 victory points. White: choose how to pay the raid."
    """
    if not step.strip():
        return prompt.strip()
    first, *rest = _sentences(step) or [step]
    if any(_turn_said_by(s, prompt) for s in rest):
        step = " ".join([first, *(s for s in rest if not _turn_said_by(s, prompt))])
    *before, ending = _sentences(step) or [step]
    if _tail_asked(ending, prompt) != ending:
        step = " ".join([*before, _tail_asked(ending, prompt)])
    *before, ending = _sentences(step) or [step]
    if before and before[-1].endswith("!") and ending[:1].islower():  # "Grey is Scared! on Sandstorm Wall (16): ..."
        *before, ending = [*before[:-1], f"{before[-1]} {ending}"]
    if _tail_restated(ending, prompt) != ending:
        step = " ".join([*before, _tail_restated(ending, prompt)])
    last = _sentences(step)[-1] if _sentences(step) else step
    before = _sentences(step)[-2] if len(_sentences(step)) > 1 else ""
    kept: list[str] = []
    for sentence in _sentences(prompt):
        if _within(sentence, step) or (over and _told(sentence, step)):
            continue
        lead, colon, rest = sentence.partition(": ")
        if colon and len(_words(lead)) >= 3 and len(_words(rest)) >= 4 and _within(rest, step):
            sentence = lead.rstrip(".!?") + "."
        elif colon and len(_words(lead)) >= 3 and _within(lead, last, loose=True) and rest:
            sentence = rest[:1].upper() + rest[1:]
        elif colon and rest and _place_said(lead, last, before):
            sentence = f"{lead.split()[0]}: {rest}"
        else:
            sentence = _asked_once(_without_heard(sentence, step, last), last)
        kept.append(NAME_BRACKET.sub(lambda m: "" if _named(m[1], step) else m[0], sentence))
    return " ".join([step.strip(), *kept])


# A prompt names what it is about in brackets, for the screen where it stands alone: "White: choose how to pay the
# raid (Third Raid)." Heard after the step that just said "The robber moves to card 12 (Third Raid). Third Raid:
# each player loses ...", the name came a third time (115 of 4,237 distinct Targi announcements over 30 seeded
# games). A name of two words or more that the step said goes from the prompt's brackets.
NAME_BRACKET = re.compile(r" \(([A-Z][\w']*(?: [A-Z][\w']*)+)\)")


FAILED = "Speech failed ({}): announcements are shown but not spoken."
MAX_WAITING = 4  # sentences queued behind the one being spoken; older ones are dropped past this
KEYS_KEPT = 256  # event keys remembered as spoken; the app's keys only grow, so older ones never recur


class Voice:
    """Sentences spoken one at a time; each event key is spoken at most once.

    Speech is slower than a table: a few quick steps, and above all a sensor
    or camera repeating a reading the game cannot take, would queue sentences
    faster than espeak-ng says them, and the kiosk would talk for hours about
    moments long gone. So a sentence already waiting is not queued twice (it
    moves to the end, as the newest), and past ``MAX_WAITING`` the oldest
    waiting one gives way.
    """

    def __init__(self, enabled: bool = True, speed: int = 150, runner: Runner | None = None,
                 on_problem: Callable[[str], None] | None = None, volume: int = 100) -> None:
        """``on_problem`` hears each change of ``problem`` (on the voice's thread, or the caller's for a
        missing espeak-ng): the app shows it."""
        self.binary = espeak_path()
        self._enabled = enabled
        self.speed = speed
        self.volume = volume  # espeak-ng's -a: a noisy café turns it up
        self.last = ""
        self._runner = runner or _run
        self._spoken: OrderedDict[object, None] = OrderedDict()
        # each sentence with the loudness it is said at: None for ``volume`` as it is then (a saved change
        # applies to what waits), a number for a settings screen's sample of a loudness not yet saved
        self._waiting: deque[tuple[str, int | None]] = deque()
        self._speaking = False
        self._closing = threading.Event()  # the running worker's own: one left behind by stop never resumes
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._process: subprocess.Popen[bytes] | None = None  # the espeak-ng saying the current sentence
        self.on_problem = on_problem
        self.problem = ""  # why the last sentence was not heard, for the settings screen; "" once one is
        self._hushes = 0  # times speech was cut (Silent, an undo): a sentence begun before the latest is not said
        self._logged = False  # the first problem of a run is logged; a sound card gone would log every sentence

    @property
    def enabled(self) -> bool:
        return self._enabled

    @enabled.setter
    def enabled(self, on: bool) -> None:
        """Silent (the settings screen's switch) is silent at once: the sentence being said is cut and those
        waiting are dropped. They were all said, half a minute and more, after the owner had saved Silent."""
        self._enabled = on
        if not on:
            self.hush()

    def hush(self) -> None:
        """Cut the sentence being said and drop those waiting, without waiting for anything: from Kivy's thread.
        The worker reaps the ended espeak-ng and waits for the next sentence."""
        with self._changed:
            self._waiting.clear()
            self._hushes += 1  # a sentence starting now is cut as soon as its espeak-ng is there
            process = self._process
        if process is not None:
            with contextlib.suppress(OSError):
                process.terminate()

    @property
    def available(self) -> bool:
        return self.binary is not None or self._runner is not _run

    def note(self) -> str:
        """What the settings screen says about speech."""
        if not self.available:
            return "espeak-ng is not installed: announcements are shown but not spoken (sudo apt install espeak-ng)."
        return self.problem or "Speech through espeak-ng."

    def _outcome(self, problem: str) -> None:
        """Keep whether the last sentence was heard; a change is told to ``on_problem``, the first problem logged.

        A failing espeak-ng (no sound card, removed, a broken voice) was passed over in silence: the table
        heard nothing, and nothing said why.
        """
        with self._changed:
            if problem == self.problem:
                return
            self.problem = problem
            first = bool(problem) and not self._logged
            self._logged = self._logged or first
        if first:
            log.warning("%s", problem)
        if self.on_problem is not None:
            with contextlib.suppress(Exception):  # the referee goes on whatever the screen makes of it
                self.on_problem(problem)

    def say(self, text: str, key: object = None) -> bool:
        """Queue ``text`` unless ``key`` was already spoken; returns whether it was queued."""
        if not text:
            return False
        if key is not None:
            if key in self._spoken:
                return False
            self._spoken[key] = None
            while len(self._spoken) > KEYS_KEPT:
                self._spoken.popitem(last=False)
        self.last = text
        return self._enqueue(text)

    def repeat_last(self) -> bool:
        return self._enqueue(self.last, asked=True) if self.last else False

    def sample(self, text: str, volume: int) -> bool:
        """Say ``text`` at ``volume`` now: the settings screen's loudness buttons, so a café owner hears a level
        before saving it. What was being said, and what waits, is cut (``hush``): a tap heard only after a
        sentence of the game is no answer to the tap, and taps in a row leave only the last level to hear.
        Said even while the voice is Silent, since the owner asked for it (the screen asks only while its own
        switch shows Spoken); never kept as the sentence **Say again** says again."""
        self.hush()
        return self._enqueue(text, asked=True, volume=volume, wanted=True)

    def _enqueue(self, text: str, asked: bool = False, volume: int | None = None, wanted: bool = False) -> bool:
        """``asked``: a player asked to hear it again, which is said even while the same sentence waits.
        ``volume``: a loudness for this sentence alone; ``wanted``: said even while the voice is Silent."""
        if not self.enabled and not wanted:
            return False
        if not self.available:
            self._outcome(self.note())  # said once: the note never changes while espeak-ng stays missing
            return False
        entry = (text, volume)
        with self._changed:
            if entry in self._waiting and not asked:
                # Said once, and as the newest: left where it waited, an undo, redo, undo run ended on the
                # redo's sentence, and the table heard the step as done while the board showed it undone.
                self._waiting.remove(entry)
            if len(self._waiting) >= MAX_WAITING:
                self._waiting.popleft()
            self._waiting.append(entry)
            if self._thread is None:
                self._closing = threading.Event()
                self._thread = threading.Thread(target=self._work, args=(self._closing,), name="voice", daemon=True)
                self._thread.start()
            self._changed.notify_all()
        return True

    def _work(self, closing: threading.Event) -> None:
        while True:
            with self._changed:
                while not self._waiting and not closing.is_set():
                    self._changed.wait()
                if closing.is_set():
                    return
                text, volume = self._waiting.popleft()
                hushes = self._hushes
                self._speaking = True
            try:
                problem = self._speak(text, closing, hushes, volume)
            except Exception as error:  # espeak-ng removed or unreadable: it must never stop the referee
                problem = FAILED.format(f"espeak-ng could not start: {error}")
            try:
                if not closing.is_set():  # a sentence cut at quit is no failure
                    self._outcome(problem)
            finally:
                with self._changed:
                    if not closing.is_set():  # once stopped, the voice's state is no longer this worker's
                        self._process = None
                        self._speaking = False
                    self._changed.notify_all()

    def _speak(self, text: str, closing: threading.Event, hushes: int = 0, volume: int | None = None) -> str:
        """Say ``text`` (at ``volume``, else the voice's own); why it was not heard, or ""."""
        loudness = self.volume if volume is None else volume
        started = self._runner([self.binary or "espeak-ng", "-s", str(self.speed), "-a", str(loudness),
                                END_OF_OPTIONS, text])
        if not isinstance(started, subprocess.Popen):
            return ""  # a runner that said it already
        with self._changed:
            # stop or Silent came while it was starting, and found no process to end
            cut = closing.is_set() or self._hushes != hushes
            if not cut:
                self._process = started
        if cut:
            _end(started, STOP_SECONDS)
        try:
            _, err = started.communicate(timeout=SPEAKING_SECONDS)  # reads what it says while it speaks
        except subprocess.TimeoutExpired:
            _end(started, STOP_SECONDS)
            started.wait()  # reaped here if not by _end: no zombie left behind
            return ""  # cut after a minute: it spoke, if slowly
        except (OSError, ValueError):  # its pipe closed under it by stop: a cut sentence
            started.wait()
            return ""
        said = trouble(started.returncode if started.returncode and started.returncode > 0 else 0, err or b"")
        return FAILED.format(f"espeak-ng: {said}") if said else ""

    def wait(self) -> None:
        """Block until everything queued was spoken (tests, and letting a last sentence be heard on purpose)."""
        with self._changed:
            while self._thread is not None and (self._waiting or self._speaking):
                self._changed.wait()

    def stop(self) -> None:
        """End speech at once: the sentence being said is cut, the waiting ones are dropped, the worker ends.

        Quitting (a café closing the kiosk, systemd stopping the service) waited for the sentence being said and
        up to 5 s for the worker, and an espeak-ng stuck on a busy sound device outlived the app. Now espeak-ng
        is terminated, killed if it is still there after half of ``STOP_SECONDS``, and reaped, and the worker is
        joined within what is left: ``STOP_SECONDS`` in all. Safe to call twice, before anything was said and
        without espeak-ng. ``wait`` first to hear what is queued.
        """
        deadline = time.monotonic() + STOP_SECONDS
        with self._changed:
            thread, process = self._thread, self._process
            self._thread = self._process = None
            self._speaking = False
            self._waiting.clear()
            self._closing.set()
            self._changed.notify_all()
        if process is not None:
            _end(process, STOP_SECONDS / 2)
        if thread is not None and thread is not threading.current_thread():
            thread.join(max(0.0, deadline - time.monotonic()))
