#!/usr/bin/env python3
"""Where the games we lost were lost: every position of a lost game with us to move, judged by
an oracle brain and by ours, each at a fixed node count.

    scripts/where-lost.py SGF NAME ORACLE ORACLE_NODES OURS OUR_NODES [RULE]

SGF is a match's `--sgf` file (15x15), NAME our engine's name in it (`PB`/`PW`), ORACLE and
OURS brain command lines (quoted; run Rapfi through `scripts/delay-info.py 0 …`, which starts
it in its own folder), RULE a Gomocup rule code (default 0). Each brain gets every position by
`BOARD` under `INFO max_node`, one process each. One line per lost game:

    B 8:64/36* 10:-M28/21 …

our colour, then for each of our turns from the first after the opening
`ply:oracle/ours`, both values for us (the side to move) as each brain's last MESSAGE gave
them (`-M28`: mated in 28 plies), `*` where the oracle's move is not the one we played. The
summary gives, over the lost games, the first ply at which the oracle judged us at -300 or
worse, how many plies after the oracle our brain first saw its forced loss, and how the
forced loss came: `sudden` when the oracle first announced it right after one move of ours
(with its reply) from a position it judged at -150 or better, `gradual` when it already
judged that position worse.

The values are each engine's own scale (Rapfi's and ours both aim at a win rate of
1 / (1 + exp(-v / 200))). For diagnosis only: nothing in the project depends on a peer.
"""
import statistics
import sys

from brain_io import MATE, Brain, ask, sgf_game, sgf_games, value

LOST_AT = -300
# The oracle's value before the move into its forced win above which the loss was sudden.
SUDDEN_ABOVE = -150


def main():
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    sgf, name, oracle_cmd, oracle_nodes, ours_cmd, our_nodes = sys.argv[1:7]
    rule = sys.argv[7] if len(sys.argv) > 7 else "0"
    brains = []
    for cmd, nodes in ((oracle_cmd, oracle_nodes), (ours_cmd, our_nodes)):
        b = Brain(cmd)
        b.start("START 15", rule, 1000000)
        b.send(f"INFO max_node {nodes}")
        brains.append(b)
    lost_at, late = [], []
    came = {"sudden": 0, "gradual": 0}
    for g in sgf_games(sgf):
        game = sgf_game(g, name)
        if not game.lost:
            continue
        us_black, moves, opening = game.we_black, game.cells, game.opening
        cells = []
        first = {"lost": None, "oracle_mate": None, "our_mate": None}
        previous = None
        for ply in range(opening, len(moves)):
            if ply % 2 != (0 if us_black else 1):
                continue
            (o_move, o_val), (_, u_val) = (ask(b, moves[:ply]) for b in brains)
            played = "%d,%d" % moves[ply]
            cells.append(f"{ply}:{o_val}/{u_val}{'' if o_move == played else '*'}")
            ov, uv = value(o_val), value(u_val)
            if first["lost"] is None and ov is not None and ov <= LOST_AT:
                first["lost"] = ply
            if first["oracle_mate"] is None and ov == -MATE:
                first["oracle_mate"] = ply
                if previous is not None:
                    came["sudden" if previous > SUDDEN_ABOVE else "gradual"] += 1
            previous = ov
            if first["our_mate"] is None and uv == -MATE:
                first["our_mate"] = ply
        print(("B " if us_black else "W ") + " ".join(cells), flush=True)
        if first["lost"] is not None:
            lost_at.append(first["lost"])
        if first["oracle_mate"] is not None and first["our_mate"] is not None:
            late.append(first["our_mate"] - first["oracle_mate"])
    for b in brains:
        b.send("END")
    if lost_at:
        print(f"lost games judged at {LOST_AT} or worse: {len(lost_at)}, from ply "
              f"{min(lost_at)}, median {statistics.median(lost_at)}")
    if late:
        print(f"our forced loss seen after the oracle's by {statistics.mean(late):.1f} plies "
              f"on average over {len(late)} games (0 in {late.count(0)})")
    if came["sudden"] + came["gradual"]:
        print(f"forced loss after one move from {SUDDEN_ABOVE} or better: {came['sudden']}; "
              f"from worse: {came['gradual']}")


if __name__ == "__main__":
    main()
