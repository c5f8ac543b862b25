#!/usr/bin/env python3
"""Averages the evaluation networks of weight files fitted from one starting network.

    scripts/average-networks.py OUT IN [IN ...]

Each IN is a weight file written by `pbrain-tianyuan tune` (src/eval/weights/README.md). The
files must agree on every line but the network's (`net bias`, `net out`, `net threats`,
`net cells …`): fits that kept the tables and fitted only the network. OUT gets those common
lines and, per network weight, the mean of the files' weights (the integer weights rounded to
the nearest, ties to even; `net out`'s as floats). Averaging is meant for fits that started
from the same network (a fine-tune of the built-in one: `tune … --network` with the file
compiled in), whose hidden units still correspond; networks fitted from random weights do not
average.
"""
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, paths = sys.argv[1], sys.argv[2:]
    files = []
    for path in paths:
        with open(path) as f:
            files.append(f.read().split("\n"))
    if len({len(f) for f in files}) != 1:
        sys.exit("the files differ in their number of lines")
    result = []
    for i, line in enumerate(files[0]):
        lines = [f[i] for f in files]
        if all(other == line for other in lines):
            result.append(line)
            continue
        tokens = [other.split() for other in lines]
        if tokens[0][:1] != ["net"] or len(tokens[0]) < 2:
            sys.exit(f"line {i + 1} differs outside the network: {line[:40]!r}")
        # `net bias|out|threats v…`, or `net cells <role> <colour> v…`.
        head = 4 if tokens[0][1] == "cells" else 2
        if any(len(t) != len(tokens[0]) or t[:head] != tokens[0][:head] for t in tokens):
            sys.exit(f"line {i + 1} is not the same weights in every file")
        values = []
        for j in range(head, len(tokens[0])):
            column = [t[j] for t in tokens]
            if tokens[0][1] == "out":
                values.append(repr(sum(float(x) for x in column) / len(files)))
            else:
                values.append(str(round(sum(int(x) for x in column) / len(files))))
        result.append(" ".join(tokens[0][:head] + values))
    with open(out, "w") as f:
        f.write("\n".join(result))


if __name__ == "__main__":
    main()
