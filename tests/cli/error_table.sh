#!/usr/bin/env bash
# docs/ERRORS.md is the test: every row of its examples table
#   | class | `ltlkit COMMAND` | `FIRST STDERR LINE` | EXIT |
# is run here with the given binary in place of `ltlkit`, and must exit with EXIT and print exactly
# FIRST STDERR LINE first on stderr (a trailing `...` in the doc means "starts with"), and nothing
# on stdout. `\|` in a cell stands for `|`. The input files the rows name are made here first.
# Usage: bash error_table.sh LTLKIT_BIN SOURCE_DIR (run in a scratch folder)
set -u
bin=$1
src=$2
doc=$src/docs/ERRORS.md
neural=$(dirname "$bin")/ltlkit-neural
fails=0 rows=0 skipped=0

# --- the files and folders the rows refer to, in a fresh folder
rm -rf table && mkdir table && cd table || exit 1
printf '{"alphabet": ["a","b"], "initial": 0, "accepting": [0], "transitions": [[0]]}\n' > p.json
printf 'hello\n' > f.txt
printf '{"alphabet": ["a","b"], "initial": 0, "accepting": [2], "transitions": [[1,0],[2,0],[2,2]]}\n' > d.json
# a.json / b.json: count a (resp. b) modulo 20 over {a,b}, rejecting at count 19.
for which in a b; do
    rows_json="" acc=""
    for ((i = 0; i < 20; i++)); do
        next=$(((i + 1) % 20))
        if [[ $which == a ]]; then rows_json+="[$next,$i]"; else rows_json+="[$i,$next]"; fi
        [[ $i -lt 19 ]] && rows_json+=","
        [[ $i -lt 19 ]] && acc+="$i"
        [[ $i -lt 18 ]] && acc+=","
    done
    printf '{"alphabet": ["a","b"], "initial": 0, "accepting": [%s], "transitions": [%s]}\n' "$acc" "$rows_json" > "$which.json"
done
printf 'last_a\ta,b\tformula\tY a\nbad line without tabs\n' > s.suite
printf 'one\t\tformula\tY a\n' > na.suite
mkdir full && echo keep > full/notes.txt
mkdir noplan && printf '{}\n' > noplan/plan.json
mkdir norun
# r/: a run folder (run.json with its checksum, the default configuration) next to a checkpoint that
# is not one.
mkdir r
python3 - r/run.json <<'PY'
import hashlib, json, sys
h = hashlib.sha256(b"fixture").hexdigest()
o = {"config": {"arch": "global"},
     "identity": {"dfa_sha256": h, "data_sha256": h, "training": h, "evaluation": h},
     "language": "Y a",
     "dfa": {"alphabet": ["a", "b"], "initial": 0, "accepting": [1], "transitions": [[1, 0], [1, 0]]}}
o["sha256"] = hashlib.sha256(json.dumps(o, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
open(sys.argv[1], "w").write(json.dumps(o, indent=2) + "\n")
PY
printf 'not a checkpoint\n' > r/checkpoint.pt
mkdir nometa && echo 'x' > nometa/train.tsv
printf '{"alphabet": ["a","b"], "initial": 0, "initial": 1, "accepting": [1], "transitions": [[1,0],[1,0]]}\n' > dup.json
printf '\xef\xbb\xbfok\ta,b\tformula\tY a\n' > bom.suite
printf '# no language\n' > empty.suite
printf 'nosym\t\tformula\ttrue\n' > nosym.suite
snapshot=$(find . -path ./err.txt -prune -o -print | sort)

pattern='^\|[^|]*\| `(.+)` \| `(.+)` \| ([0-9]+) \|[[:space:]]*$'
while IFS= read -r line; do
    [[ $line =~ $pattern ]] || continue
    cmd=${BASH_REMATCH[1]//\\|/|}
    want=${BASH_REMATCH[2]//\\|/|}
    want_rc=${BASH_REMATCH[3]}
    [[ $cmd == ltlkit* ]] || { echo "FAIL: row command does not start with ltlkit: $cmd"; fails=$((fails + 1)); continue; }
    rows=$((rows + 1))
    sub=${cmd#ltlkit }
    sub=${sub%% *}
    if [[ $sub =~ ^(train|eval|verify|report)$ && ! -x $neural ]]; then
        echo "SKIP (no ltlkit-neural): $cmd"; skipped=$((skipped + 1)); continue
    fi
    out=$(eval "\"\$bin\"${cmd#ltlkit}" 2> err.txt < /dev/null); rc=$?
    got=$(head -n 1 err.txt)
    ok=1
    if [[ $want == *... ]]; then
        [[ $got == "${want%...}"* ]] || ok=0
    else
        [[ $got == "$want" ]] || ok=0
    fi
    if [[ $ok -eq 0 ]]; then
        echo "FAIL [$cmd]: first stderr line"; echo "   got: $got"; echo "  want: $want"; fails=$((fails + 1))
    fi
    if [[ $rc -ne $want_rc ]]; then echo "FAIL [$cmd]: exit $rc, want $want_rc"; fails=$((fails + 1)); fi
    if [[ -n $out ]]; then echo "FAIL [$cmd]: stdout not empty: $out"; fails=$((fails + 1)); fi
    # A failed command writes nothing: the scratch folder is as the setup left it.
    now=$(find . -path ./err.txt -prune -o -print | sort)
    if [[ $now != "$snapshot" ]]; then
        echo "FAIL [$cmd]: wrote files:"; diff <(echo "$snapshot") <(echo "$now") | grep '^>'; fails=$((fails + 1))
        snapshot=$now
    fi
done < "$doc"

if [[ $rows -lt 20 ]]; then echo "FAIL: only $rows rows parsed from $doc"; fails=$((fails + 1)); fi
if [[ $fails -ne 0 ]]; then echo "$fails failure(s) in $rows rows"; exit 1; fi
echo "all $rows rows of docs/ERRORS.md hold ($skipped skipped)"
