#!/usr/bin/env bash
# Resource limits: every construction that can blow up stops with exit 3 and a
# one-line message naming the option that raises it, before anything is written: monitor,
# regex derivatives, DFA files and equiv's product (--max-states), semigroups (--max-elements),
# the sampler's count tables (--max-table-cells), datasets (--max-dataset-bytes) and the memory
# of training and evaluation (--max-memory-gb).
# Usage: bash limits.sh LTLKIT_BIN SOURCE_DIR (run in a scratch folder)
set -u
bin=$1
fails=0
neural=$(dirname "$bin")/ltlkit-neural

# limit FIRST_LINE_PREFIX ARGS...: exit 3, nothing on stdout, the first stderr line starts with
# FIRST_LINE_PREFIX (which names the option).
limit() {
    local want=$1 out rc err
    shift
    out=$("$bin" "$@" 2>err.txt < /dev/null); rc=$?
    err=$(head -n 1 err.txt)
    if [[ $rc -ne 3 ]]; then echo "FAIL [$*]: exit $rc, want 3 ($err)"; fails=$((fails + 1)); fi
    if [[ -n $out ]]; then echo "FAIL [$*]: stdout not empty: $out"; fails=$((fails + 1)); fi
    if [[ $err != "$want"* ]]; then
        echo "FAIL [$*]: first stderr line"; echo "   got: $err"; echo "  want: $want..."
        fails=$((fails + 1))
    fi
    if [[ $(wc -l < err.txt) -ne 1 ]]; then echo "FAIL [$*]: more than one stderr line"; cat err.txt; fails=$((fails + 1)); fi
}
# absent PATH...: the command wrote nothing there.
absent() {
    for p in "$@"; do
        if [[ -e $p ]]; then echo "FAIL: $p was written although the command hit a limit"; fails=$((fails + 1)); fi
    done
}
# mod_dfa FILE SYMBOL_INDEX P: count the symbol mod P over {a,b}, reject at count P-1.
mod_dfa() {
    local file=$1 which=$2 p=$3 i rows="" acc=""
    for ((i = 0; i < p; i++)); do
        local next=$(((i + 1) % p))
        if [[ $which == 0 ]]; then rows+="[$next,$i]"; else rows+="[$i,$next]"; fi
        [[ $i -lt $((p - 1)) ]] && rows+="," && acc+="$i"
        [[ $i -lt $((p - 2)) ]] && acc+=","
    done
    printf '{"alphabet": ["a","b"], "initial": 0, "accepting": [%s], "transitions": [%s]}\n' "$acc" "$rows" > "$file"
}

# --- --max-states on every route to a DFA.
limit "ltlkit: error: the monitor of the formula has more than 100 reachable states; raise --max-states" \
    compile 'Y Y Y Y Y Y Y Y Y a' --alphabet a,b --max-states 100
limit "ltlkit: error: the derivative automaton of the regular expression has more than 50 states; raise --max-states" \
    compile --regex '.*a.......' --alphabet a,b --max-states 50
mod_dfa a20.json 0 20
mod_dfa b20.json 1 20
limit "ltlkit: error: a20.json: the DFA has 20 states, more than --max-states 19; raise --max-states" \
    compile --dfa a20.json --max-states 19
limit "ltlkit: error: a20.json: the DFA has 20 states, more than --max-states 10; raise --max-states" \
    classify --dfa a20.json --max-states 10
# equiv: both sides fit, the product search does not (about 190 pairs before 'aaa...a' differs).
limit "ltlkit: error: comparing A and B builds more than 100 pairs of states; raise --max-states" \
    equiv dfa:a20.json dfa:b20.json --max-states 100
"$bin" equiv dfa:a20.json dfa:b20.json > /dev/null 2>&1
if [[ $? -ne 1 ]]; then echo "FAIL: equiv without the limit should answer 'not equivalent' (exit 1)"; fails=$((fails + 1)); fi
# Suites in generate get --max-states too.
printf 'big\t\tdfa\ta20.json\n' > s.suite
limit "ltlkit: error: " generate --suite s.suite --out suite-out --max-states 5 --no-adversarial
absent suite-out

# --- --max-elements (semigroups).
limit "ltlkit: error: the semigroup has more than 2 elements (raise --max-elements)" monoid --regex '(ab)*' --max-elements 2

# --- --max-table-cells (the sampler's count tables) and --max-dataset-bytes, before writing anything.
limit "ltlkit: error: the count tables would need " generate 'Y a' --alphabet a --out g1 --test-lengths 41:100 --max-table-cells 100
grep -q -- "> --max-table-cells 100; raise --max-table-cells" err.txt || { echo "FAIL: table message"; cat err.txt; fails=$((fails + 1)); }
absent g1
limit "ltlkit: error: the planned dataset would take about " generate 'Y a' --alphabet a --out g2 --max-dataset-bytes 1000000
grep -q -- "> --max-dataset-bytes 1000000; raise --max-dataset-bytes" err.txt || { echo "FAIL: dataset message"; cat err.txt; fails=$((fails + 1)); }
absent g2
# The default limit refuses a dataset of some 10^12 bytes at once.
limit "ltlkit: error: the planned dataset would take about " generate 'Y a' --alphabet a --out g3 --test-lengths 41:1000000 --no-adversarial
absent g3
# A suite: checked as a whole, so not even the first dataset is written.
printf 'one\ta,b\tformula\tY a\ntwo\ta,b\tformula\tP a\n' > two.suite
limit "ltlkit: error: the planned datasets would take about " generate --suite two.suite --out g4 --max-dataset-bytes 3000000
absent g4
mkdir g5
limit "ltlkit: error: the count tables would need " generate --suite two.suite --out g5 --max-table-cells 500
[[ -z $(ls -A g5) ]] || { echo "FAIL: g5 is not empty"; ls -A g5; fails=$((fails + 1)); }
# Just under the limits, the same commands work.
"$bin" generate 'Y a' --alphabet a --out g6 --train-lengths 1:4 --test-lengths 5:8 --per-length 4 --no-adversarial -q \
    --max-table-cells 100000 --max-dataset-bytes 100000 2> err.txt \
    || { echo "FAIL: a small dataset under the limits"; cat err.txt; fails=$((fails + 1)); }

# --- --max-memory-gb and --max-table-cells of train / eval / verify: refused before any training.
if [[ -x $neural ]]; then
    limit "ltlkit: error: the run (global) would need about " train 'Y a' --alphabet a --out r1 --train-lengths 1:20000
    grep -q -- "> --max-memory-gb 16; raise --max-memory-gb" err.txt || { echo "FAIL: memory message"; cat err.txt; fails=$((fails + 1)); }
    absent r1
    limit "ltlkit: error: the run (local-2) would need about " train 'Y a' --alphabet a --arch local-2 --out r2 --batch 100000 --max-memory-gb 1
    absent r2
    limit "ltlkit: error: the count tables would need " train 'Y a' --alphabet a --out r3 --max-table-cells 1000
    absent r3
    # eval: a run folder whose run.json asks for huge test lengths; the checkpoint is never read.
    mkdir r4
    python3 - r4/run.json <<'PY'
import hashlib, json, sys
h = hashlib.sha256(b"fixture").hexdigest()
o = {"config": {"arch": "global"},
     "identity": {"dfa_sha256": h, "data_sha256": h, "training": h, "evaluation": h},
     "language": "Y a", "dfa": {"alphabet": ["a"], "initial": 0, "accepting": [0], "transitions": [[0]]}}
o["sha256"] = hashlib.sha256(json.dumps(o, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
open(sys.argv[1], "w").write(json.dumps(o, indent=2) + "\n")
PY
    limit "ltlkit: error: the evaluation (global) would need about " eval r4 --test-lengths 41:200000
    limit "ltlkit: error: the count tables would need " eval r4 --max-table-cells 100
    absent r4/result.json
    limit "ltlkit: error: a run of hybrid-1 (profile quick) would need about " \
        verify 'Y a' --alphabet a --archs hybrid-1 --max-memory-gb 0.001 --out v1
    absent v1
    limit "ltlkit: error: the count tables would need " verify 'Y a' --alphabet a --archs global --max-table-cells 100 --out v2
    absent v2
else
    echo "SKIP: $neural not built (train / eval / verify limits)"
fi

if [[ $fails -ne 0 ]]; then echo "$fails failure(s)"; exit 1; fi
echo "all limit checks passed"
