#!/usr/bin/env bash
# Stored runs are bound to what produced them (language, configuration, data): nothing is reused
# under another identity, an output folder has one writer at a time, a checksum cannot be switched
# off by renaming its key, and a refused command changes nothing on disk. Settings left to the
# device's defaults are recorded in run.json; given ones leave no such record.
# Usage: bash run_identity.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
source "$2/tests/cli/kill_lib.bash"
neural=$(dirname "$bin")/ltlkit-neural
if [[ ! -x $neural ]]; then echo "run_identity: skipped (no ltlkit-neural)"; exit 0; fi
rm -rf ./* .claims 2>/dev/null

tiny=(--d-model 8 --heads 2 --d-ff 8 --batch 8 --train-lengths 1:6 --test-lengths 7:9 --per-length 4 --quiet)
tree_sum() { find "$1" -type f ! -name .lock -print0 | sort -z | xargs -0 sha256sum; }

# 1. train: another language into the same folder is refused before anything is written.
"$bin" train 'Y a' --alphabet a,b --steps 3 --layers 1 "${tiny[@]}" --out R > /dev/null 2> err.txt || fail "train Y a: $(cat err.txt)"
before=$(tree_sum R)
expect 2 "R holds a run of another language ('Y a'); use another --out, or delete that folder to start over" \
    "$bin" train 'Y b' --alphabet a,b --steps 3 --layers 1 "${tiny[@]}" --out R
[[ $(tree_sum R) == "$before" ]] || fail "a refused train changed R"
# ... and another training configuration too, naming what differs.
expect 2 "R holds a run of another training configuration: layers 1 (now 2); use another --out, or delete that folder to start over" \
    "$bin" train 'Y a' --alphabet a,b --steps 3 "${tiny[@]}" --layers 2 --out R
[[ $(tree_sum R) == "$before" ]] || fail "a refused train changed R"
# The same run again: already finished, nothing trained or rewritten.
"$bin" train 'Y a' --alphabet a,b --steps 3 --layers 1 "${tiny[@]}" --out R > out.txt 2> err.txt || fail "rerun: $(cat err.txt)"
grep -q "already finished" err.txt || fail "a finished run was not reported as already finished: $(cat err.txt)"
[[ $(tree_sum R) == "$before" ]] || fail "rerunning a finished run changed R"
# More steps continue the checkpoint and replace the result.
"$bin" train 'Y a' --alphabet a,b --steps 5 --layers 1 "${tiny[@]}" --out R > /dev/null 2> err.txt || fail "5 steps: $(cat err.txt)"
grep -q '"steps_done": 5' R/result.json || fail "the run was not continued to 5 steps"
[[ $(grep -c '"step"' R/metrics.jsonl) -ge 2 ]] || fail "metrics.jsonl has no training curve: $(cat R/metrics.jsonl)"

# 2. eval writes its own file and leaves result.json alone.
res_before=$(sha256sum < R/result.json)
"$bin" eval R --test-lengths 10:12 --per-length 4 > out.txt 2> err.txt || fail "eval: $(cat err.txt)"
[[ -f R/eval-10-12-n4.json ]] || fail "eval did not write R/eval-10-12-n4.json: $(ls R)"
[[ $(sha256sum < R/result.json) == "$res_before" ]] || fail "eval rewrote result.json"

# 3. A renamed checksum key is no checksum: refused, not read unchecked.
sed 's/"sha256"/"sha257"/' R/run.json > run.tmp && mv run.tmp R/run.json
expect 2 "R/run.json: no checksum (key \"sha256\" missing): written by an older ltlkit or edited; ..." \
    "$bin" eval R --test-lengths 10:12 --per-length 4

# 4. verify: a folder holds one verification. The same language name with another formula, or
# another setting (steps), is refused without touching the folder (never reused, never dropped);
# in another folder the other language and the other steps are runs of other identities.
printf 'lang\ta,b\tformula\tY a\n' > one.suite
printf 'lang\ta,b\tformula\tP a\n' > two.suite
vargs=(--archs local-1 --profile quick --steps 3 --threads 1 --device cpu)
# refused PATTERN CMD...: CMD exits 2 and its last stderr line (after the cost line) matches PATTERN.
refused() {
    local pattern=$1
    shift
    "$@" >out.txt 2>err.txt
    local rc=$?
    [[ $rc -eq 2 ]] || fail "'$*' exited $rc, want 2: $(tail -1 err.txt)"
    tail -1 err.txt | grep -q -- "^ltlkit: error: $pattern" || fail "'$*': last stderr line '$(tail -1 err.txt)' lacks '$pattern'"
}
"$bin" verify --suite one.suite "${vargs[@]}" --out X > out.txt 2> v1.txt || fail "verify one: $(cat v1.txt)"
plan_before=$(sha256sum < X/plan.json)
results_before=$(sha256sum < X/results.jsonl)
refused "X holds a verification in which the language 'lang' has another minimal DFA" \
    "$bin" verify --suite two.suite "${vargs[@]}" --out X
refused "X holds a verification with other settings: steps 3 (now 4)" \
    "$bin" verify --suite one.suite --archs local-1 --profile quick --steps 4 --threads 1 --device cpu --out X
[[ $(sha256sum < X/plan.json) == "$plan_before" && $(sha256sum < X/results.jsonl) == "$results_before" ]] ||
    fail "a refused verify changed X's plan or results"
"$bin" verify --suite one.suite "${vargs[@]}" --out X > out.txt 2> v1b.txt || fail "verify one again: $(cat v1b.txt)"
grep -q "1 already finished, 0 to train" v1b.txt || fail "the same verify did not reuse its run: $(grep runs v1b.txt)"
"$bin" verify --suite two.suite "${vargs[@]}" --out Y > out.txt 2> v2.txt || fail "verify two: $(cat v2.txt)"
"$bin" verify --suite one.suite --archs local-1 --profile quick --steps 4 --threads 1 --device cpu --out Z \
    > out.txt 2> v3.txt || fail "verify steps 4: $(cat v3.txt)"
grep -q '"steps_done":4' Z/results.jsonl || fail "the report does not hold the 4-step run"
idx=$(basename X/runs/lang/local-1/*) idy=$(basename Y/runs/lang/local-1/*) idz=$(basename Z/runs/lang/local-1/*)
[[ $idx != "$idy" && $idx != "$idz" && $idy != "$idz" ]] ||
    fail "runs of another language or other steps share an identity: $idx $idy $idz"

# 5. report refuses to merge shards of different verifications.
"$bin" verify --suite two.suite "${vargs[@]}" --out S0 > /dev/null 2>&1 || fail "verify S0"
"$bin" verify --suite two.suite --archs local-1 --profile quick --steps 4 --threads 1 --device cpu --out S1 \
    > /dev/null 2>&1 || fail "verify S1"
expect 2 "S1 holds another verification than S0: run 1 differs ..." "$bin" report S0 S1 --out M

# 6. One writer per folder: a second verify on the same --out exits at once, naming the holder.
# The holder is held right after it takes the lock (the lock gate, docs/DURABILITY.md "Test
# gates") for as long as the test needs: the second one cannot find the folder free, and since the
# holder never goes on by itself, the second returning at all shows it did not wait for the lock.
printf 'slow\ta,b\tformula\tY a\n' > slow.suite
rm -f gate-L gate-L.reached gate-G gate-G.reached
LTLKIT_TEST_GATE_LOCKED=$PWD/gate-L "$bin" verify --suite slow.suite --archs global --profile quick --steps 100000 \
    --accept-cost --threads 1 --device cpu --out L > /dev/null 2>&1 &
holder=$!
wait_until 300 test -e gate-L.reached || fail "the first verify did not take the lock of L within 300 s"
"$bin" verify --suite slow.suite --archs global --profile quick --steps 100000 --accept-cost --threads 1 --device cpu --out L \
    > out.txt 2> err.txt
rc=$?
[[ $rc -eq 2 ]] || fail "a second verify on a busy folder exited $rc, want 2"
grep -q "L is in use by another process (ltlkit verify, pid $holder, since " err.txt ||
    fail "the second verify does not name the holder: $(cat err.txt)"
kill -0 "$holder" 2>/dev/null || fail "the holder of L ended before the second verify returned"
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
# The lock dies with its holder (kill -9 included): the folder is free again.
"$bin" verify --suite slow.suite --archs global --profile quick --steps 2 --threads 1 --device cpu --out L2 \
    > /dev/null 2>&1 || fail "verify L2"
# generate: held after taking the lock until the second one has been refused, then let go.
LTLKIT_TEST_GATE_LOCKED=$PWD/gate-G "$bin" generate 'Y a' --alphabet a,b --out G --train-lengths 1:10 \
    --test-lengths 11:400 --per-length 400 > /dev/null 2>&1 &
gen=$!
wait_until 300 test -e gate-G.reached || fail "the first generate did not take the lock of G within 300 s"
"$bin" generate 'Y a' --alphabet a,b --out G --train-lengths 1:10 --test-lengths 11:400 --per-length 400 \
    > /dev/null 2> err.txt
rc=$?
[[ $rc -eq 2 ]] && grep -q "G is in use by another process (ltlkit generate, pid $gen" err.txt ||
    fail "a second generate on a busy folder: exit $rc, $(cat err.txt)"
touch gate-G
wait "$gen" || fail "the first generate failed ($?) after a second one was refused"

# 7. Stale claims of a killed verify are cleaned by the next one.
mkdir -p L2/.claims/12345-1 && touch L2/.claims/12345-1/0
"$bin" verify --suite slow.suite --archs global --profile quick --steps 2 --threads 1 --device cpu --out L2 \
    > /dev/null 2>&1 || fail "verify L2 again"
[[ ! -e L2/.claims ]] || fail "stale claims were left in L2/.claims"

# Device defaults: --per-length left out takes the CPU default and run.json says so; the same run
# with the value given has the same identity and no "defaults" record.
notiny=()
for x in "${tiny[@]}"; do [[ $x == --per-length || $x == 4 ]] || notiny+=("$x"); done
"$bin" train 'Y a' --alphabet a,b --steps 2 --layers 1 "${notiny[@]}" --device cpu --out D1 >/dev/null 2>err.txt \
    || fail "train with defaults: $(cat err.txt)"
"$bin" train 'Y a' --alphabet a,b --steps 2 --layers 1 "${notiny[@]}" --device cpu --per-length 32 --out D2 \
    >/dev/null 2>err.txt || fail "train with --per-length 32: $(cat err.txt)"
python3 - D1/run.json D2/run.json <<'PY' || fail "device defaults in run.json"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["defaults"] == {"device": "cpu", "per_length": 32}, a.get("defaults")
assert "defaults" not in b, b["defaults"]
assert a["config"]["per_length"] == 32 and a["identity"] == b["identity"], (a["config"], a["identity"], b["identity"])
PY

[[ $fails -eq 0 ]] && echo "run_identity: all passed"
exit $((fails > 0))
