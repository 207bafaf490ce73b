#!/usr/bin/env bash
# The default window budget reaches the routes that answer (docs/WINDOWS.md §5b, docs/PERFORMANCE.md
# "Shares of the budget"). Six hybrid_k:2 cells of the windows table's random locally R-trivial
# DFAs that the equal shares of half the budget left unknown: the sink-state and closed-set routes
# (§3c–§3d) answer them, but only with more than an equal share. At default settings (asked as
# `classify --max-k 4`, whose window questions share the work) each must be "yes", and its
# certificate must re-verify through `check-certificate` (which compiles the formula back and
# compares it with the DFA): the test fails if a change of the shares starves those routes again
# (main before the change answers all six unknown), and cannot pass with a wrong answer. The budget
# is counted in work, not time, so the answers do not depend on the machine's load.
# Usage: bash window_shares.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# name  letters  rows of δ (one digit per letter)  accepting states
cells=(
    "4-4-6 abcd 1102,2322,2222,0320 2"
    "4-4-19 abcd 1112,1111,3201,1003 3"
    "4-4-82 abcd 0121,1111,3133,1010 1"
    "6-3-3 abc 121,111,013,345,241,041 1"
    "6-3-15 abc 121,111,023,453,000,403 0,2,4"
    "6-3-44 abc 112,113,144,333,545,145 2,3,4,5"
)
for cell in "${cells[@]}"; do
    read -r name letters rows accepting <<<"$cell"
    python3 - "$name.json" "$letters" "$rows" "$accepting" <<'PY'
import json, sys
path, letters, rows, acc = sys.argv[1:]
json.dump({"alphabet": list(letters), "initial": 0, "accepting": [int(x) for x in acc.split(",")],
           "transitions": [[int(c) for c in r] for r in rows.split(",")]}, open(path, "w"))
PY
    rm -rf "certs-$name"
    "$bin" classify --dfa "$name.json" --max-k 4 --json --certificates "certs-$name" >"$name.out" 2>"$name.err" ||
        { fail "$name: classify exited $?: $(head -c 300 "$name.err")"; continue; }
    answer=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hybrid_k"]["2"])' "$name.out") ||
        { fail "$name: no hybrid_k in classify --json"; continue; }
    [[ $answer == yes ]] || fail "$name: hybrid_k:2 is '$answer' at the default budget, expected yes"
    "$bin" check-certificate "certs-$name/hybrid_k-2.json" >"$name.check" 2>&1 ||
        fail "$name: the hybrid_k:2 certificate does not re-verify: $(tail -n 1 "$name.check")"
done

[[ $fails -eq 0 ]] || { echo "$fails failure(s)"; exit 1; }
echo "window_shares: ${#cells[@]} cells answered yes at the default budget, every certificate re-verified"
