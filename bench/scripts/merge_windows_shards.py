#!/usr/bin/env python3
"""Merge the outputs of `bench_windows_table ... --shard I/N` (one file per shard) into one table:
rows in their global order, and one summary line with the counts summed and the longest shard's
time. Usage: merge_windows_shards.py SHARD.md [SHARD.md ...] > TABLE.md"""
import re
import sys

HEADER = "| # | states | DFA | definite | k | local_k | hybrid_k |\n|---|---|---|---|---|---|---|\n"
SUMMARY = re.compile(
    r"Summary: (\d+) definite and (\d+) further locally R-trivial minimal DFAs with <= (\d+) states over (\d+) "
    r"letters(?: \([^)]*\))?; k = 2\.\.(\d+): local_k yes (\d+), no (\d+), unknown (\d+); hybrid_k yes (\d+), no (\d+), "
    r"unknown (\d+); certificates failing re-verification: (\d+); "
    r"(?:yes without a re-verifiable formula \(over the formula cap\): (\d+); )?([\d.]+) s")


def main(paths):
    groups, sums, shape, secs = {}, None, None, []
    for path in paths:
        current = None
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = SUMMARY.match(line.strip())
                if m:
                    vals = [int(x) for x in m.groups()[:12]]
                    if shape is None:
                        shape = vals[2:5]
                    elif shape != vals[2:5]:
                        sys.exit(f"merge_windows_shards: {path}: another table (states, letters, k) than the first file")
                    counts = vals[:2] + vals[5:12] + [int(m.group(13) or 0)]
                    sums = counts if sums is None else [a + b for a, b in zip(sums, counts)]
                    secs.append(float(m.group(14)))
                    continue
                if not line.startswith("| ") or line.startswith("| # ") or line.startswith("|---"):
                    continue
                num = line.split("|")[1].strip()
                if num:
                    current = int(num)
                    if current in groups:
                        sys.exit(f"merge_windows_shards: {path}: row {current} appears in two shards")
                    groups[current] = []
                if current is None:
                    sys.exit(f"merge_windows_shards: {path}: a continuation line before any numbered row")
                groups[current].append(line)
        if sums is None or not secs:
            sys.exit(f"merge_windows_shards: {path}: no summary line (an unfinished shard?)")
    missing = [r for r in range(1, max(groups) + 1) if r not in groups]
    if missing:
        sys.exit(f"merge_windows_shards: rows missing from every shard, first {missing[0]} ({len(missing)} in all)")
    out = [HEADER]
    for r in sorted(groups):
        out.extend(groups[r])
    d, l, st, sym, kmax = sums[0], sums[1], shape[0], shape[1], shape[2]
    out.append(f"\nSummary: {d} definite and {l} further locally R-trivial minimal DFAs with <= {st} states over "
               f"{sym} letters; k = 2..{kmax}: local_k yes {sums[2]}, no {sums[3]}, unknown {sums[4]}; hybrid_k yes "
               f"{sums[5]}, no {sums[6]}, unknown {sums[7]}; certificates failing re-verification: {sums[8]}; "
               f"yes without a re-verifiable formula (over the formula cap): {sums[9]}; {len(secs)} shards, longest {max(secs):.0f} s, {sum(secs):.0f} s in all\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
