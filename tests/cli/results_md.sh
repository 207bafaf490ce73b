#!/usr/bin/env bash
# docs/RESULTS.md against the committed run files (docs/results/*/verdicts.json, runs/*/*/*/result.json):
# every generated block and every checked sentence of bench/scripts/results_md.py must agree, and a
# changed number, in a block or in a checked sentence, must be caught (and a block rewritten by --write).
# Usage: bash results_md.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
script=$src/bench/scripts/results_md.py
fail=0
py=python3
[[ -x /usr/bin/python3 ]] && py=/usr/bin/python3

if ! $py "$script" --check --ltlkit "$bin"; then
    echo "FAIL: docs/RESULTS.md differs from the run files (python3 bench/scripts/results_md.py --write rewrites the blocks)"
    fail=1
fi

# A number changed in a generated block is caught, and --write puts it back.
cp "$src/docs/RESULTS.md" drift.md
$py - drift.md <<'PY'
import sys
p = sys.argv[1]
s = open(p, encoding="utf-8").read()
a = s.index("<!-- generated: lc26-cpu-deep-means -->")
i = s.index("53.9 (60.2", a)
s = s[:i] + "60.2 (60.2" + s[i + len("53.9 (60.2"):]
open(p, "w", encoding="utf-8").write(s)
PY
if $py "$script" --check --file drift.md 2> err.txt; then
    echo "FAIL: a changed number in the block lc26-cpu-deep-means was not caught"; fail=1
elif ! grep -q 'block lc26-cpu-deep-means' err.txt; then
    echo "FAIL: the drift message does not name the block:"; cat err.txt; fail=1
fi
$py "$script" --write --file drift.md 2>/dev/null
if ! cmp -s drift.md "$src/docs/RESULTS.md"; then
    echo "FAIL: --write did not restore the block"; fail=1
fi

# A number changed in a checked sentence (LDP-2's seed-2 control, 53.1% in its result.json) is caught.
$py - "$src/docs/RESULTS.md" drift.md <<'PY'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
assert "67.2% and 53.1% on its 64 control pairs" in s
open(sys.argv[2], "w", encoding="utf-8").write(s.replace("67.2% and 53.1% on its 64 control pairs",
                                                         "67.2% and 67.2% on its 64 control pairs"))
PY
if $py "$script" --check --file drift.md 2> err.txt; then
    echo "FAIL: a changed number in the LDP-2 sentence was not caught"; fail=1
elif ! grep -q 'fact ldp-2-controls' err.txt; then
    echo "FAIL: the drift message does not name the sentence:"; cat err.txt; fail=1
fi

# A block marker without its end is an error, not a silent pass.
$py - "$src/docs/RESULTS.md" drift.md <<'PY'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
a = s.index("<!-- generated: evidence-counts -->")
b = s.index("<!-- end -->", a)
open(sys.argv[2], "w", encoding="utf-8").write(s[:b] + s[b + len("<!-- end -->"):])
PY
if $py "$script" --check --file drift.md 2>/dev/null; then
    echo "FAIL: a block without its end marker passed"; fail=1
fi

[[ $fail == 0 ]] && echo "results_md: RESULTS.md agrees with the run files; drift is caught"
exit $fail
