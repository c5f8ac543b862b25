#!/usr/bin/env python3
"""Every position of a recorded game valued by a Gomocup brain: where a game was lost.

    scripts/game-values.py SGF GAME ENGINE TURN_MS RULE

SGF is a file written by `pbrain-tianyuan match --sgf` (c-gomoku-cli layout, 15x15), GAME the
game's number in it (1-based), ENGINE the valuing brain's command line (quoted; Rapfi as
`"cd ../shared/peers/rapfi && ./pbrain-rapfi"`, it reads its config from its folder), TURN_MS
its time a position, RULE a Gomocup rule code. Each position from the end of the opening on is
sent as `BOARD` ... `DONE` after `RESTART`; one line a position: the number of stones, the side
to move, the brain's value from its last `MESSAGE` turned to black's view (`ev N` for ours,
`Eval N` for Rapfi's; a mate score is printed as the brain wrote it, from the mover's view),
its move, and the move played in the game and by whom.
"""
import re
import sys

from brain_io import Brain, sgf_games, sgf_moves


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    sgf, game, engine, turn, rule = sys.argv[1:6]
    g = sgf_games(sgf)[int(game) - 1]
    moves = sgf_moves(g)
    black = re.search(r"PB\[([^\]]*)\]", g).group(1)
    white = re.search(r"PW\[([^\]]*)\]", g).group(1)
    brain = Brain(engine)
    send = brain.send
    brain.start("START 15", rule, turn)
    start = sum(1 for m in moves if m[3] == "opening move")
    for k in range(start, len(moves) + 1):
        if k > start:
            brain.start("RESTART", rule, turn)
        brain.send_board([(x, y) for _, x, y, _ in moves[:k]])
        l, msgs = brain.answer()
        last = next((m for m in reversed(msgs) if m.startswith("MESSAGE")), "")
        to_move = "B" if k % 2 == 0 else "W"
        found = re.search(r"(?:\bev|Eval) ([-+]?\w+)", last)
        value = found.group(1) if found else "?"
        if re.fullmatch(r"[-+]?\d+", value):
            value = str(int(value) if to_move == "B" else -int(value))
        played = "-"
        if k < len(moves):
            c, x, y, _ = moves[k]
            played = f"{x},{y} by {black if c == 'B' else white}"
        print(f"{k:3d} {to_move} black's value {value:>7}  move {l:6s} played {played}",
              flush=True)
    send("END")


if __name__ == "__main__":
    main()
