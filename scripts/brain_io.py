"""A Gomocup brain driven over its pipes, and the games of a match's SGF, for the measuring
scripts beside this file."""
import re
import subprocess
import sys
import time
from typing import NamedTuple

# Lines a brain writes that are not its answer to a move.
NOT_A_MOVE = ("MESSAGE", "DEBUG", "OK", "ERROR", "UNKNOWN")


class Brain:
    """ENGINE is a shell command line; stderr is discarded."""

    def __init__(self, engine):
        self.p = subprocess.Popen(engine, shell=True, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True, bufsize=1)

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def line(self):
        """The next output line, stripped (exits when the brain closed its output)."""
        l = self.p.stdout.readline()
        if not l:
            sys.exit("the engine closed its output")
        return l.strip()

    def start(self, command, rule, turn_ms):
        """`START 15` or `RESTART`, its `OK` awaited (MESSAGE and DEBUG lines skipped), then
        the rule and a per-move limit of TURN_MS with no match clock."""
        self.send(command)
        l = self.line()
        while l.startswith(("MESSAGE", "DEBUG")):
            l = self.line()
        if l != "OK":
            sys.exit(f"{command} answered {l!r}")
        for s in (f"INFO rule {rule}", f"INFO timeout_turn {turn_ms}", "INFO timeout_match 0",
                  "INFO time_left 2147483647"):
            self.send(s)

    def answer(self):
        """The brain's move and the other lines it wrote before it."""
        msgs = []
        while True:
            l = self.line()
            if not l:
                continue
            if l.startswith(NOT_A_MOVE):
                msgs.append(l)
                continue
            return l, msgs

    def send_board(self, stones):
        """The position after `stones` (x, y pairs in the order played) as `BOARD` ... `DONE`:
        1 marks the side to move's stones (the last stone is the opponent's)."""
        self.send("BOARD")
        for i, (x, y) in enumerate(stones):
            self.send(f"{x},{y},{1 if (len(stones) - i) % 2 == 0 else 2}")
        self.send("DONE")


# A mate in a MESSAGE value, as a number far beyond any evaluation.
MATE = 100000


def value(text):
    """A MESSAGE value (`-97`, `-M28`) as a number (a mate as ±MATE), or None."""
    if text is None:
        return None
    if "M" in text:
        return -MATE if text.startswith("-") else MATE
    return int(text)


def ask(brain, moves, clear=False):
    """The brain's move and last reported value (the MESSAGE text, e.g. `-97` or `-M28`) on
    the position after `moves`; with `clear`, the brain forgets its table first."""
    # Rapfi loses a line that arrives while it finishes a search (scripts/delay-info.py): let
    # the last answer's search wind down first.
    time.sleep(0.05)
    if clear:
        brain.send("YXHASHCLEAR")
    brain.send_board(moves)
    move, msgs = brain.answer()
    found = None
    for m in msgs:
        # Rapfi: "Eval -97"; ours: " ev -44".
        r = re.search(r"(?:Eval| ev) (-?\+?M?\d+)", m)
        if r:
            found = r.group(1).replace("+", "")
    return move, found


def sgf_games(path):
    """The games of an SGF file written by `pbrain-tianyuan match --sgf` (c-gomoku-cli layout)."""
    return open(path).read().split("(;")[1:]


def sgf_moves(game):
    """A game's moves as (colour, x, y, comment); the opening's moves say `opening move`."""
    return [(c, ord(m[0]) - 97, ord(m[1]) - 97, note)
            for c, m, note in re.findall(r";([BW])\[(\w\w)\]C\[([^\]]*)\]", game)]


class SgfGame(NamedTuple):
    """One game of a match's SGF seen from the engine NAME's side."""

    we_black: bool
    # NAME lost on the board or otherwise (not a draw, not a win).
    lost: bool
    # The stones (x, y) in the order played, the opening's first.
    cells: list
    # How many of them the opening placed.
    opening: int


def sgf_game(game, name):
    """A game of `sgf_games` as NAME's: its colour, whether it lost, the stones, the opening."""
    we_black = re.search(r"PB\[([^\]]*)\]", game).group(1) == name
    result = re.search(r"RE\[([^\]]*)\]", game).group(1)
    moves = sgf_moves(game)
    return SgfGame(
        we_black=we_black,
        lost=result.startswith("W" if we_black else "B"),
        cells=[(x, y) for _, x, y, _ in moves],
        opening=sum(1 for *_, note in moves if note == "opening move"),
    )
