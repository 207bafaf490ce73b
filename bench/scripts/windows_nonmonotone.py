#!/usr/bin/env python3
"""Languages of the window tables whose membership is not monotone in k.

Reads tables written by bench_windows_table (docs/windows_table_*.md) and lists every DFA whose
local_k or hybrid_k answer is "yes" for some k and "no" for a larger k (LTL[Y<=k] and LTL[P,Y<=k]
are not monotone in k), with a count per table and per pattern of answers.

    bench/scripts/windows_nonmonotone.py docs/windows_table_2x4.md docs/windows_table_2x4_lrt.md ...

Output: one line per such DFA: table, row, DFA, fragment, answers for k = 2..K; then the counts.
Exit status 1 when a table has a malformed row.
"""
import re
import sys
from collections import Counter

CELL_START = re.compile(r" \| (?=yes|no|\*\*unknown|—)")


def answer(cell):
    cell = cell.strip()
    if cell.startswith("yes"):
        return "yes"
    if cell.startswith("no"):
        return "no"
    if cell.startswith("**unknown"):
        return "unknown"
    if cell.startswith("—"):
        return None
    raise ValueError("cell '%s'" % cell[:40])


def rows(path):
    """Yields (row number, states, DFA, definite, {k: (local, hybrid)}) per DFA of the table."""
    current = None
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.startswith("| ") or line.startswith("| #"):
                continue
            head = [x.strip() for x in line.split("|", 6)[1:6]]
            if len(head) < 5 or not head[4].isdigit():
                continue
            rest = line.split("|", 6)[6]
            # rest = " local | hybrid |": the hybrid cell starts at the first " | " followed by an answer.
            m = CELL_START.search(rest, 1)
            if not m:
                raise ValueError("%s:%d: cannot split the local_k and hybrid_k cells" % (path, lineno))
            local, hybrid = rest[: m.start()], rest[m.end():].rstrip().rstrip("|")
            k = int(head[4])
            if head[0]:
                if current:
                    yield current
                current = (int(head[0]), head[1], head[2], head[3], {})
            if current is None:
                raise ValueError("%s:%d: a continuation row before the first DFA" % (path, lineno))
            current[4][k] = (answer(local), answer(hybrid))
    if current:
        yield current


def non_monotone(answers):
    """k < k' with answers yes at k and no at k'."""
    ks = sorted(answers)
    return any(answers[k] == "yes" and answers[k2] == "no" for i, k in enumerate(ks) for k2 in ks[i + 1:])


def main(paths):
    total = Counter()
    patterns = Counter()
    for path in paths:
        n = 0
        for row, states, dfa, definite, by_k in rows(path):
            n += 1
            for idx, name in ((0, "local_k"), (1, "hybrid_k")):
                ans = {k: v[idx] for k, v in by_k.items() if v[idx] is not None}
                if non_monotone(ans):
                    seq = " ".join("%d:%s" % (k, ans[k]) for k in sorted(ans))
                    print("%s\t%d\t%s states\t%s\t%s\t%s" % (path, row, states, dfa, name, seq))
                    total[(path, name)] += 1
                    patterns[(name, seq)] += 1
        total[(path, "rows")] = n
    print()
    for path in paths:
        print("%s: %d DFAs; non-monotone: local_k %d, hybrid_k %d" % (
            path, total[(path, "rows")], total[(path, "local_k")], total[(path, "hybrid_k")]))
    for (name, seq), c in sorted(patterns.items()):
        print("pattern %s %s: %d" % (name, seq, c))
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        sys.exit(main(sys.argv[1:]))
    except (OSError, ValueError) as e:
        print("windows_nonmonotone.py: error: %s" % e, file=sys.stderr)
        sys.exit(1)
