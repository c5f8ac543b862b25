#!/usr/bin/env python3
"""When did a lost game become a threat-space loss? For each game NAME lost in a match's SGF
file: the first of its moves after which the opponent, to move, has a VCT (our df-pn solver,
`solve --kind vct --threat-limit 1`, NODES nodes a position), that VCT's length, and how
many of the cells within two of a stone would have left the opponent without one (each
looked at for NODES_ALT nodes).

    scripts/vct-gap.py SGF NAME BINARY [NODES [NODES_ALT]]

SGF is a match's `--sgf` file (15x15 freestyle), BINARY a `pbrain-tianyuan` (defaults: NODES
and NODES_ALT 150000; node limits, not time, so that the answer does not depend on the
machine's load: 75 lost games took about two minutes here). One line per lost game, then a
summary: the median VCT length, the median plies from that move to the game's end, and in how
many games some move avoided the VCT there ("0 of 80": the game was lost before, by a quiet
move after which every answer loses to threats). A solver that runs out of nodes finds no win:
a smaller NODES_ALT counts more moves as safe than they are.
For diagnosis only.
"""
import re
import statistics
import subprocess
import sys

from brain_io import sgf_game, sgf_games

SIZE = 15


def note(x, y):
    return f"{chr(97 + x)}{SIZE - y}"


def solve(binary, lines, nodes):
    """`solve --kind vct` on move lists: {line number: (outcome, line)}."""
    r = subprocess.run([binary, "solve", "--kind", "vct", "--threat-limit", "1", "--nodes",
                        str(nodes), "--time-ms", "600000", "--rule", "freestyle", "-"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    out = {}
    for row in r.stdout.splitlines():
        m = re.match(r"line(\d+) (\S+) line=(\S+)", row)
        if m:
            out[int(m.group(1))] = (m.group(2), m.group(3))
    return out


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    sgf, name, binary = sys.argv[1:4]
    nodes = int(sys.argv[4]) if len(sys.argv) > 4 else 150000
    nodes_alt = int(sys.argv[5]) if len(sys.argv) > 5 else 150000
    lengths, to_end, avoidable, lost = [], [], 0, 0
    for g in sgf_games(sgf):
        game = sgf_game(g, name)
        if not game.lost:
            continue
        lost += 1
        we_black, cells, opening = game.we_black, game.cells, game.opening
        ours = [j for j in range(opening, len(cells)) if (j % 2 == 0) == we_black]
        after = solve(binary, [",".join(note(*c) for c in cells[:j + 1]) for j in ours], nodes)
        first = next((j for i, j in enumerate(ours) if after.get(i + 1, ("",))[0] == "win"), None)
        if first is None:
            print(f"lost in {len(cells)} plies: no VCT found after any of our moves")
            continue
        line = after[ours.index(first) + 1][1]
        plies = len(line.split(","))
        prefix = cells[:first]
        taken = set(prefix)
        near = sorted({(x, y) for sx, sy in prefix for x in range(sx - 2, sx + 3)
                       for y in range(sy - 2, sy + 3)
                       if 0 <= x < SIZE and 0 <= y < SIZE and (x, y) not in taken})
        base = ",".join(note(*c) for c in prefix)
        alt = solve(binary, [f"{base},{note(*c)}" for c in near], nodes_alt)
        safe = [note(*c) for i, c in enumerate(near) if alt.get(i + 1, ("",))[0] != "win"]
        lengths.append(plies)
        to_end.append(len(cells) - first)
        avoidable += bool(safe)
        print(f"lost in {len(cells)} plies: after our ply {first} ({note(*cells[first])}) a "
              f"VCT of {plies} plies; {len(safe)} of {len(near)} moves avoid one {safe[:6]}",
              flush=True)
    if lengths:
        print(f"{lost} lost games, {len(lengths)} with a VCT: median length "
              f"{statistics.median(lengths)} plies, {statistics.median(to_end)} plies from that "
              f"move to the end; some move avoided it in {avoidable}")


if __name__ == "__main__":
    main()
