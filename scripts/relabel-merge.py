#!/usr/bin/env python3
"""A record set with the records of some stone counts replaced by their relabelled versions.

    scripts/relabel-merge.py ORIGINAL OUT MIN_STONES MAX_STONES RELABELLED...

ORIGINAL is a `datagen` set, RELABELLED the outputs (one per shard, any order) of
`pbrain-tianyuan relabel ORIGINAL --min-stones MIN_STONES --max-stones MAX_STONES --shard i/n`.
OUT gets ORIGINAL's records in ORIGINAL's order (`tune` holds out whole games for validation,
so a game's records must stay together): those with MIN_STONES..=MAX_STONES stones replaced by
their relabelled line, or dropped where the relabelling left them out (its search found a
forced result), every other record unchanged. A record is matched by its rule, size, stones
and result.
"""
import sys


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    orig, out = sys.argv[1], sys.argv[2]
    lo, hi = int(sys.argv[3]), int(sys.argv[4])
    new = {}
    for path in sys.argv[5:]:
        for line in open(path):
            fields = line.split()
            if len(fields) == 5:
                new[tuple(fields[:4])] = line
    kept = replaced = dropped = 0
    with open(out, "w") as w:
        for line in open(orig):
            fields = line.split()
            if len(fields) != 5:
                continue
            if lo <= len(fields[2]) // 2 <= hi:
                if tuple(fields[:4]) in new:
                    w.write(new[tuple(fields[:4])])
                    replaced += 1
                else:
                    dropped += 1
            else:
                w.write(line)
                kept += 1
    print(f"{kept} kept, {replaced} replaced, {dropped} dropped (decided), {len(new)} relabelled read")


if __name__ == "__main__":
    main()
