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
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    engine, rule, turn, openings, n = sys.argv[1:6]
    seed = int(sys.argv[6]) if len(sys.argv) > 6 else 5
    lines = [l.strip() for l in open(openings) if l.strip()]
    rng = random.Random(seed)
    p = subprocess.Popen(engine, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def answer():
        msgs = []
        while True:
            l = p.stdout.readline()
            if not l:
                sys.exit("the engine closed its output")
            l = l.strip()
            if not l:
                continue
            if l.startswith(("MESSAGE", "DEBUG", "OK", "ERROR", "UNKNOWN")):
                msgs.append(l)
                continue
            return l, msgs

    send("START 15")
    answer_ok = p.stdout.readline().strip()
    while answer_ok.startswith(("MESSAGE", "DEBUG")):
        answer_ok = p.stdout.readline().strip()
    if answer_ok != "OK":
        sys.exit(f"START answered {answer_ok!r}")
    send(f"INFO rule {rule}")
    send(f"INFO timeout_turn {turn}")
    send("INFO timeout_match 0")
    send("INFO time_left 2147483647")
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
        move, msgs = answer()
        dt = time.time() - t
        total += dt
        last = next((m for m in reversed(msgs) if m.startswith("MESSAGE")), "")
        print(f"{dt * 1000:.0f} ms  {move}  {last[:160]}")
    print(f"mean {total / int(n) * 1000:.1f} ms")
    send("END")


if __name__ == "__main__":
    main()
