#!/usr/bin/env python3
"""Time to depth of brains on one position, runs alternating between the brains.

    scripts/time-to-depth.py --rule R --depth D --moves "7,7 8,8 ..." [--runs N] [--memory MIB]
                             [--game G] BIN...

The position is the moves in order, black first (Gomocup x,y), sent as BOARD … DONE with
`INFO max_depth D`, `INFO max_memory` (350 MiB: the table size of a game) and no time
limit to speak of. Prints, per brain, the nodes and the median and smallest time (the `tm`
of the last iteration's MESSAGE line). Alternating the brains run by run keeps a slow
minute of a shared machine from favouring one of them; the nodes must agree when the
brains search alike. With `--game G` each run is one process that searches the position in
G games in a row (`START` before each: a new game, whose tables start empty) and the time of
the last is reported: what a brain that has already played pays at a new game's start.
"""
import argparse
import re
import statistics
import subprocess


def run(binary, commands, games):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for _ in range(games):
        p.stdin.write(commands)
        p.stdin.flush()
        last = None
        for line in p.stdout:
            if line.startswith("MESSAGE depth"):
                last = line
            if re.fullmatch(r"\d+,\d+", line.strip()):
                break
    p.stdin.write("END\n")
    p.stdin.flush()
    p.wait()
    m = re.search(r" n (\d+) .* tm (\d+)", last or "")
    if not m:
        raise SystemExit(f"{binary}: no iteration reported")
    return int(m.group(1)), int(m.group(2))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rule", type=int, default=0)
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--depth", type=int, required=True)
    ap.add_argument("--moves", required=True)
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--memory", type=int, default=350)
    ap.add_argument("--game", type=int, default=1)
    ap.add_argument("brains", nargs="+")
    a = ap.parse_args()
    moves = a.moves.split()
    side = len(moves) % 2  # 0: black to move
    lines = [
        f"START {a.size}",
        f"INFO rule {a.rule}",
        f"INFO max_memory {a.memory << 20}",
        "INFO timeout_turn 1000000",
        "INFO timeout_match 100000000",
        f"INFO max_depth {a.depth}",
        "BOARD",
    ]
    for i, m in enumerate(moves):
        lines.append(f"{m},{1 if i % 2 == side else 2}")
    lines.append("DONE")
    commands = "\n".join(lines) + "\n"
    results = {b: [] for b in a.brains}
    for _ in range(a.runs):
        for b in a.brains:
            results[b].append(run(b, commands, max(1, a.game)))
    for b, rs in results.items():
        times = [t for _, t in rs]
        nodes = sorted({n for n, _ in rs})
        print(f"{b}: nodes {nodes}, median {statistics.median(times)} ms, "
              f"min {min(times)} ms, runs {times}")


if __name__ == "__main__":
    main()
