#!/usr/bin/env python3
"""Nodes a move of any Gomocup brain: give it positions of an opening file one at a time
(`BOARD` ... `DONE` under `INFO timeout_turn T`, one process) and print, for each, the time
to its answer and its last `MESSAGE` line (the last completed iteration's depth and nodes).

    scripts/nodes-per-move.py ENGINE RULE TURN_MS OPENINGS N [SEED]

ENGINE is a command line (quoted), RULE a Gomocup rule code, OPENINGS a `pos` file of
15x15 openings (`h8i9...`), N the number of positions drawn from it (seeded).
"""
import random
import re
import sys
import time

from brain_io import Brain


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    engine, rule, turn, openings, n = sys.argv[1:6]
    seed = int(sys.argv[6]) if len(sys.argv) > 6 else 5
    lines = [l.strip() for l in open(openings) if l.strip()]
    rng = random.Random(seed)
    brain = Brain(engine)
    send = brain.send
    brain.start("START 15", rule, turn)
    total = 0.0
    for _ in range(int(n)):
        line = rng.choice(lines)
        stones = [(ord(a) - 97, int(b) - 1) for a, b in re.findall(r"([a-z])(\d+)", line)]
        if any(not (0 <= x < 15 and 0 <= y < 15) for x, y in stones):
            sys.exit(f"not a 15x15 opening: {line}")
        send("BOARD")
        for k, (x, y) in enumerate(stones):
            send(f"{x},{y},{1 if (len(stones) - k) % 2 == 0 else 2}")
        t = time.time()
        send("DONE")
        move, msgs = brain.answer()
        dt = time.time() - t
        total += dt
        last = next((m for m in reversed(msgs) if m.startswith("MESSAGE")), "")
        print(f"{dt * 1000:.0f} ms  {move}  {last[:160]}")
    print(f"mean {total / int(n) * 1000:.1f} ms")
    send("END")


if __name__ == "__main__":
    main()
