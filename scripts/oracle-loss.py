#!/usr/bin/env python3
"""How much win chance each build's moves give away, judged by an oracle brain: a paired,
replayable measure of move choice on the positions of a match's games.

    scripts/oracle-loss.py SGF NAME ORACLE ORACLE_NODES NODES CACHE BUILD [BUILD ...]
        [--rule R] [--games N] [--within V]

SGF is a match's `--sgf` file (15x15), NAME our engine's name in it (`PB`/`PW`): the
positions are every one of its games' positions with NAME to move after the opening (the
first N games, default all). ORACLE is a brain command line (run Rapfi through
`scripts/delay-info.py 0 …`, which starts it in its own folder); each BUILD a brain command
line (quoted), given every position by `BOARD` under `INFO max_node NODES`. CACHE is a JSON
file that keeps every answer (keyed by the brain's command line, the rule, the node limit and
the position), so a second run, or a build that plays mostly the same moves, asks only
what is new. Every brain forgets its table before each position (`YXHASHCLEAR`), so each
answer depends on the position alone.

The oracle values each position P (at ORACLE_NODES); positions it values beyond ±V (default
600: a win chance outside about 5–95 %) are left out, the decided ones with them. For each
build's move m it then values P + m (the opponent to move), and the build's **win chance
after its move** is `1 − 1 / (1 + exp(−v / 200))` of that value
(Rapfi's scale; a mate counts 0 or 1). Printed: per build the mean win chance over the
positions, and for each build after the first, the paired difference to the first over the
positions where their moves differ, with its standard error (positions of one game are not
independent, so the error is, if anything, too small), and that difference spread over all the
positions.

For diagnosis only: nothing in the project depends on a peer.
"""
import json
import math
import os
import statistics
import sys
from brain_io import MATE, Brain, ask, sgf_game, sgf_games, value

def win_chance(v):
    """The side to move's win chance for a value on the 200-per-e scale."""
    if v >= MATE:
        return 1.0
    if v <= -MATE:
        return 0.0
    return 1.0 / (1.0 + math.exp(-v / 200.0))


class Judge:
    """A brain under a node limit, started at its first question, whose answers (move, value)
    are kept in the cache."""

    def __init__(self, cmd, nodes, rule, cache, save):
        self.cmd, self.nodes, self.rule = cmd, nodes, rule
        self.cache, self.save = cache, save
        self.brain = None

    def ask(self, moves):
        k = f"{self.cmd} {self.rule} {self.nodes}|{key(moves)}"
        if k not in self.cache:
            if self.brain is None:
                self.brain = Brain(self.cmd)
                self.brain.start("START 15", self.rule, 1000000)
                self.brain.send(f"INFO max_node {self.nodes}")
            self.cache[k] = list(ask(self.brain, moves, clear=True))
            self.save()
        return self.cache[k]

    def close(self):
        if self.brain is not None:
            self.brain.send("END")


def positions(sgf, name, games):
    """Every position (moves so far) of the first `games` games with `name` to move."""
    out = []
    for g in sgf_games(sgf)[:games]:
        game = sgf_game(g, name)
        for ply in range(game.opening, len(game.cells)):
            if ply % 2 == (0 if game.we_black else 1):
                out.append(game.cells[:ply])
    return out


def key(moves):
    return " ".join(f"{x},{y}" for x, y in moves)


def main():
    args = sys.argv[1:]
    opts = {"--rule": "0", "--games": str(10**9), "--within": "600"}
    for flag in opts:
        if flag in args:
            i = args.index(flag)
            if i + 1 >= len(args):
                sys.exit(__doc__)
            opts[flag] = args[i + 1]
            del args[i : i + 2]
    rule, games, within = opts["--rule"], int(opts["--games"]), int(opts["--within"])
    if len(args) < 7:
        sys.exit(__doc__)
    sgf, name, oracle_cmd, oracle_nodes, nodes, cache_path, *builds = args
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}

    def save():
        json.dump(cache, open(cache_path + ".tmp", "w"))
        os.replace(cache_path + ".tmp", cache_path)

    oracle = Judge(oracle_cmd, oracle_nodes, rule, cache, save)

    def oracle_value(moves):
        return value(oracle.ask(moves)[1])

    all_positions = positions(sgf, name, games)
    # The positions the oracle calls open.
    kept = [p for p in all_positions if (v := oracle_value(p)) is not None and abs(v) <= within]
    print(f"{len(kept)} of {len(all_positions)} positions kept (the others valued beyond "
          f"±{within} by the oracle)", flush=True)
    chances = {}
    played = {}
    for b in builds:
        judge = Judge(b, nodes, rule, cache, save)
        chances[b], played[b] = [], []
        for p in kept:
            move = judge.ask(p)[0]
            x, y = map(int, move.split(","))
            v = oracle_value(p + [(x, y)])
            chances[b].append(None if v is None else 1.0 - win_chance(v))
            played[b].append(move)
        judge.close()
        got = [c for c in chances[b] if c is not None]
        if not got:
            sys.exit("no position kept: nothing to compare")
        print(f"{b}: mean win chance after its move {statistics.mean(got):.4f} over "
              f"{len(got)} positions", flush=True)
    oracle.close()
    base = builds[0]
    for b in builds[1:]:
        both = [(c0, cb, m0, mb) for c0, cb, m0, mb in
                zip(chances[base], chances[b], played[base], played[b])
                if c0 is not None and cb is not None]
        diffs = [cb - c0 for c0, cb, m0, mb in both if m0 != mb]
        if len(diffs) < 2:
            print(f"{b}: {len(diffs)} positions with another move than {base}")
            continue
        mean = statistics.mean(diffs)
        se = statistics.stdev(diffs) / math.sqrt(len(diffs))
        total = mean * len(diffs) / len(both)
        print(f"{b} against {base}: another move in {len(diffs)} of {len(both)} positions, "
              f"there {mean:+.4f} ± {se:.4f} win chance (± 1 s.e.), over all positions "
              f"{total:+.4f}", flush=True)


if __name__ == "__main__":
    main()
