"""Find wording the project shares with the rule texts: runs of 8 or more consecutive words.

The project paraphrases the rules in its own words (DECISIONS.md, project
decision 7); a rule sentence pasted into a rulebook summary, a doc or a
message would be copied text, and a long shared run is how one shows. Case and
punctuation are ignored (curly quotes, dashes and apostrophes alike), so a
copy with a changed comma is still found. Short runs of game terms ("the
Golden Compass", "a roll of 6") are well below the threshold.

    python tools/shared_runs.py                 # every tracked file against /work/shared/rules
    python tools/shared_runs.py --words 10 --rules /path/to/rules

Prints one line per run (file:line, length, the words) and the count; exits 1
when a run is found that is not in ALLOWED: lists of the games' own names
(spaces, cards, actions), tables of numbers, data keys that happen to spell a
rule's words, and test names taken from the worked cases' titles.
"""

from __future__ import annotations

import argparse
import difflib
import re
import subprocess
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = Path("/work/shared/rules")
TEXT_SUFFIXES = {".py", ".json", ".md", ".kv", ".txt", ".toml", ".cfg", ".conf", ".service", ".sh", ".tc", ""}
WORD = re.compile(r"[a-z0-9]+")
ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|[ntr])")
APOSTROPHES = {"'", "\u2018", "\u2019", "\u02bc"}
# Runs that are names and numbers, not sentences: each as its normalised words.
ALLOWED = frozenset(
    {
        "carrier forward 6 3 5 3 4 2 3 2 2 1 1 0",  # Blackpool's loaded-carrier table
        "start safe collection mystery life trade scared challenge secret passage",  # desert space types
        "oasis alcove golden dune hidden oasis pyramids base pharaohs tomb diamond oasis jewel of the desert",
        "golden dune hidden oasis pyramids base pharaohs tomb diamond oasis",  # safe spaces a board leaves out
        "spaces index 0 id dawn name desert dawn type start",  # board.json keys around a space name
        "challenge pred gte k 4 attemptlimit 3 index",
        "challenge pred eq k 6 attemptlimit null index",
        "golden compass desert flask sunshield amulet sandstorm sneakers mirage cloak",  # the card names
        "sand thief desert whisper dune shift desert vortex camels blessing",
        "noble caravan tribal expansion fata morgana silversmith trader gain",  # Targi border card names
        "cards no 1 label noble action code noble no",
        "2 22 3 26 4 30 5 30",  # camels per player count
        "bp at15 card with nothing to act on",  # worked-case titles as test names
        "bp at18 diagonal step down from ring 4",
    }
)


@dataclass(frozen=True)
class Run:
    path: str
    line: int
    words: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {len(self.words)} words: {' '.join(self.words)}"


def _unescape(match: re.Match[str]) -> str:
    """What an escape in a string literal stands for, as far as words go (a line break is a space here)."""
    code = match.group(1)
    char = " " if code is None else chr(int(code, 16))
    return char if char.isalnum() else "" if char in APOSTROPHES else " "


def words_with_lines(text: str) -> list[tuple[str, int]]:
    """Each word, lower-cased with apostrophes and accents dropped (so "you're" and "you’re" agree), and its line.

    A string literal's escapes are read as what they stand for: "you\\u2019re" in a JSON file or
    "roll\\nthe die" in a Python string would otherwise hide a copied run behind a word that is not one.
    """
    text = ESCAPE.sub(_unescape, text)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c) and c not in APOSTROPHES).lower()
    out: list[tuple[str, int]] = []
    for number, line in enumerate(text.splitlines(), 1):
        out.extend((w, number) for w in WORD.findall(line))
    return out


def reference_grams(sources: Iterable[Path], size: int) -> set[tuple[str, ...]]:
    grams: set[tuple[str, ...]] = set()
    for source in sources:
        words = [w for w, _ in words_with_lines(source.read_text(encoding="utf-8", errors="replace"))]
        grams.update(tuple(words[i : i + size]) for i in range(len(words) - size + 1))
    return grams


def shared_runs(path: str, text: str, grams: set[tuple[str, ...]], size: int) -> Iterator[Run]:
    """Maximal runs of ``size`` or more words of ``text`` that each lie in some reference window."""
    words = words_with_lines(text)
    hits = [tuple(w for w, _ in words[i : i + size]) in grams for i in range(len(words) - size + 1)]
    i = 0
    while i < len(hits):
        if not hits[i]:
            i += 1
            continue
        j = i
        while j + 1 < len(hits) and hits[j + 1]:
            j += 1
        yield Run(path, words[i][1], tuple(w for w, _ in words[i : j + size]))
        i = j + 1


SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|\n+")
NEAR = 0.75  # word-sequence likeness at which a sentence reads as a rule sentence with words swapped


def sentences(text: str, shortest: int = 8) -> list[tuple[str, tuple[str, ...]]]:
    """Each sentence (or clause after ';' or ':') of ``text`` with its words, when it has ``shortest`` or more."""
    found = []
    for part in SENTENCE_END.split(text):
        words = tuple(w for w, _ in words_with_lines(part))
        if len(words) >= shortest:
            found.append((part.strip(), words))
    return found


def near_sentences(text: str, references: list[tuple[str, tuple[str, ...]]], ratio: float = NEAR) -> list[str]:
    """Sentences of ``text`` that are a reference sentence with a word or two swapped ("keep" for "hold").

    An 8-word run misses them: "Collection cards are items you hold until you choose to spend them" shares
    no 8 words in a row with the rule text it rewords word for word. Likeness is difflib's ratio over words.
    """
    out = []
    for sentence, words in sentences(text):
        for source, theirs in references:
            matcher = difflib.SequenceMatcher(None, words, theirs, autojunk=False)
            if matcher.real_quick_ratio() >= ratio and matcher.quick_ratio() >= ratio and matcher.ratio() >= ratio:
                out.append(f"{sentence!r} ~ {source!r} ({matcher.ratio():.2f})")
                break
    return out


def project_files(root: Path) -> list[Path]:
    command = ["git", "ls-files", "--cached", "--others", "--exclude-standard"]  # new files before their commit too
    listed = subprocess.run(command, cwd=root, capture_output=True, text=True, check=True).stdout
    return [root / name for name in listed.splitlines() if Path(name).suffix in TEXT_SUFFIXES]


def rule_sources(rules: Path) -> list[Path]:
    """Every file of the rules folder: the texts, DECISIONS.md and the README that describes the games."""
    sources = sorted(p for p in rules.iterdir() if p.is_file()) if rules.is_dir() else []
    if not (rules / "DECISIONS.md").is_file() or len(sources) < 2:
        raise FileNotFoundError(f"no rule texts under {rules}")
    return sources


def find_runs(root: Path, rules: Path, size: int) -> list[Run]:
    """Every shared run in the files git tracks under ``root``; FileNotFoundError without the rule texts."""
    grams = reference_grams(rule_sources(rules), size)
    runs: list[Run] = []
    for path in project_files(root):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # model weights and other binaries
        runs.extend(shared_runs(str(path.relative_to(root)), text, grams, size))
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", type=Path, default=RULES, help="folder of the rule texts and DECISIONS.md")
    parser.add_argument("--words", type=int, default=8, help="shortest run reported (default 8)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the project checkout to scan")
    args = parser.parse_args(argv)
    try:
        runs = find_runs(args.root, args.rules, args.words)
    except FileNotFoundError as missing:
        print(missing, file=sys.stderr)
        return 2
    copied = [r for r in runs if " ".join(r.words) not in ALLOWED]
    for run in runs:
        print(run, "(names, allowed)" if run not in copied else "")
    print(f"{len(runs)} runs of {args.words}+ shared words; {len(copied)} not on the allowed list")
    return 1 if copied else 0


if __name__ == "__main__":
    sys.exit(main())
