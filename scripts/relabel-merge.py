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

A forgotten shard would look like records the relabelling dropped, so the merge refuses to
write when, for some shard count n up to 16, one residue class i of the in-range records'
line numbers (`relabel --shard i/n` takes the lines i, i+n, …) has 20 or more records and
fewer than a quarter of the share relabelled over all of them. (Not "none": a position that
opens two games has one key, so a missing shard's records are still matched where another
shard relabelled the same position.) A complete set's classes sit near the overall share
(about 70 %), and a class of 20 at under 17 % is a chance of about 10^-7.
"""
import sys

# In-range records a residue class must hold before its share relabelled is judged, and the
# fraction of the overall share below which its shard is taken as missing (the module's text).
MISSING_SHARD_MIN = 20
MISSING_SHARD_FRACTION = 0.25
MAX_SHARDS = 16


def missing_shard(in_range, replaced_at):
    """The first `(i, n)` whose residue class has enough in-range records and far too few
    relabelled."""
    if not in_range:
        return None
    share = len(replaced_at) / len(in_range)
    for n in range(2, MAX_SHARDS + 1):
        total = [0] * n
        found = [0] * n
        for index in in_range:
            total[index % n] += 1
        for index in replaced_at:
            found[index % n] += 1
        for i in range(n):
            if (
                total[i] >= MISSING_SHARD_MIN
                and found[i] < MISSING_SHARD_FRACTION * share * total[i]
            ):
                return i, n
    return None


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
    # Line numbers count the non-empty lines, as `relabel --shard` does.
    lines = [line for line in open(orig) if line.strip()]
    in_range, replaced_at = [], []
    for index, line in enumerate(lines):
        fields = line.split()
        if len(fields) == 5 and lo <= len(fields[2]) // 2 <= hi:
            in_range.append(index)
            if tuple(fields[:4]) in new:
                replaced_at.append(index)
    gap = missing_shard(in_range, replaced_at)
    if gap is not None:
        sys.exit(
            f"few of the in-range records of shard {gap[0]}/{gap[1]} are in the relabelled "
            f"files ({sum(1 for k in replaced_at if k % gap[1] == gap[0])} of "
            f"{sum(1 for k in in_range if k % gap[1] == gap[0])}, against "
            f"{len(replaced_at)} of {len(in_range)} over all): is its output missing? "
            "(nothing written)"
        )
    kept = replaced = dropped = 0
    with open(out, "w") as w:
        for line in lines:
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
