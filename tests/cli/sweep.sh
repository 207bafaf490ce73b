#!/usr/bin/env bash
# `ltlkit sweep` end to end on a tiny case (2 strata x 1 language, profile tiny, 2 levels;
# docs/PROTOCOL.md "Sweeps"): the cost is the first line; a sweep interrupted (SIGINT to the sweep
# alone, passed on to its verify) resumes without training its finished runs again and ends with the
# files of an uninterrupted sweep; --shard 0/2 and 1/2 train disjoint runs that together are the
# uninterrupted sweep's, and merge into its verdicts; the report's per-stratum x architecture table
# is recomputed from the level folders' verdicts.json by tests/cli/sweep_recompute.py and agrees
# (which a tampered verdicts.json makes it not); --suite runs a suite file's languages; bad
# requests get a one-line error and exit 2.
# Usage: bash sweep.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
rm -rf ref ext int sh tampered partial q five err*.txt
args=(sweep --strata rt_definite,none --per-stratum 1 --profile tiny --levels 2 --threads 1 --device cpu)

# The digest of a sweep folder without the files that name the folder (command.txt, the report's
# title) or that are per process; timing fields are left out by digest_tree.
sweep_digest() {
    (cd "$1" && digest_tree . | grep -v -e '/command.txt' -e 'sweep.md' -e 'sweep.json' -e '/shard-' -e 'report.html' \
        -e 'report.md' -e 'verdicts.tex' -e 'verdicts.csv' -e 'results.jsonl' -e 'figures/' -e 'RUNS.md' -e 'plan.json')
}

# 1. Uninterrupted; the cost is said first.
"$bin" "${args[@]}" --out ref >out-ref.txt 2>err-ref.txt || fail "sweep exited $?: $(tail -3 err-ref.txt)"
head -1 err-ref.txt | grep -q '^sweep: cost: 2 languages, [0-9]* cells; level 0 estimated [0-9.]* \(s\|min\|h\) of CPU, at most ' \
    || fail "first line is not the cost: $(head -1 err-ref.txt)"
tail -1 out-ref.txt | grep -q '^real evidence: [0-9]* of [0-9]* cells' || fail "last line: $(tail -1 out-ref.txt)"
[[ -f ref/level-0/verdicts.json && -f ref/sweep.md && -f ref/sweep.json ]] || fail "ref: report files missing"
cells0=$(grep -vc '^#' ref/level-0/cells.txt)
[[ $cells0 -ge 6 ]] || fail "level 0 has $cells0 cells, want >= 6 (2 languages x global, local-1, hybrid-1)"
python3 "$src/tests/cli/sweep_recompute.py" ref || fail "ref: the report's table does not recompute"
# Rerunning a finished sweep trains nothing.
"$bin" "${args[@]}" --out ref >/dev/null 2>err-again.txt || fail "rerun exited $?"
grep -q 'level 0 complete' err-again.txt || fail "rerun of a finished sweep: $(grep '^sweep:' err-again.txt)"
grep -q 'training (' err-again.txt && fail "rerun of a finished sweep trained again"

# More levels extend a finished sweep (its levels are not trained again); fewer are refused.
rm -rf ext && cp -r ref ext
"$bin" sweep --strata rt_definite,none --per-stratum 1 --profile tiny --levels 3 --threads 1 --device cpu --out ext >/dev/null 2>err-ext.txt || fail "--levels 3 on a 2-level sweep exited $?: $(tail -2 err-ext.txt)"
grep -q 'level 0 complete' err-ext.txt || fail "extended sweep: level 0 not found complete: $(grep '^sweep:' err-ext.txt | head -3)"
grep -q '"levels": 3' ext/sweep-config.json || fail "extended sweep: sweep-config.json still records $(grep -o '"levels": [0-9]*' ext/sweep-config.json)"
diff <(cd ref && find level-0 level-1 -name result.json -exec sha256sum {} + | sort) \
     <(cd ext && find level-0 level-1 -name result.json -exec sha256sum {} + | sort) >/dev/null \
    || fail "extending the sweep changed the runs of its levels 0 and 1"

# 2. Interrupted while level 0 trains its third run, then resumed.
"$bin" "${args[@]}" --out int >/dev/null 2>err-int.txt &
pid=$!
wait_until 120 grep -q '\[3/[0-9]*\] .*: training' err-int.txt 2>/dev/null || fail "sweep: not at run 3 after 120 s"
kill -INT "$pid" 2>/dev/null || fail "the sweep finished before the SIGINT"
wait "$pid"
rc=$?
[[ $rc == 130 ]] || fail "sweep after SIGINT: exit $rc, want 130: $(tail -2 err-int.txt)"
[[ "$(tail -1 err-int.txt)" == "ltlkit: interrupted: level 0: ltlkit verify exited with code 130 (interrupted); its finished runs are kept: rerun the same command to resume" ]] \
    || fail "SIGINT message: $(tail -1 err-int.txt)"
finished=$(find int/level-0/runs -name result.json | sort)
n=$(echo "$finished" | grep -c result.json)
[[ $n -ge 2 ]] || fail "$n runs finished before the SIGINT, want >= 2"
before=$(for f in $finished; do stat -c '%Y.%N %i' "$f"; sha256sum "$f"; done)
"$bin" "${args[@]}" --out int >/dev/null 2>err-resume.txt || fail "resume exited $?: $(tail -2 err-resume.txt)"
grep -q "profile tiny: [0-9]* runs, $n already finished" err-resume.txt \
    || fail "resume: not $n runs already finished: $(grep 'already finished' err-resume.txt | head -1)"
after=$(for f in $finished; do stat -c '%Y.%N %i' "$f"; sha256sum "$f"; done)
[[ "$before" == "$after" ]] || fail "resume rewrote finished runs"
diff <(sweep_digest ref) <(sweep_digest int) >/dev/null || fail "int: files differ from the uninterrupted sweep"
python3 "$src/tests/cli/sweep_recompute.py" int >/dev/null || fail "int: the report's table does not recompute"

# 3. Shards: 0/2, 1/2 (level 0 complete, level 1's shard 1), 0/2 again (level 1's shard 0).
for i in 0 1 0; do
    "$bin" "${args[@]}" --shard $i/2 --out sh >/dev/null 2>err-sh$i.txt || fail "shard $i/2 exited $?: $(tail -2 err-sh$i.txt)"
done
grep -q 'waits for the other shards' err-sh1.txt || fail "shard 1/2: did not wait for level 1's shard 0"
for L in 0 1; do
    s0=$(cd sh/level-$L/shard-0 && find runs -name result.json | sed 's#-[0-9a-f]*/result.json##' | sort)
    s1=$(cd sh/level-$L/shard-1 && find runs -name result.json | sed 's#-[0-9a-f]*/result.json##' | sort)
    all=$(cd ref/level-$L && find runs -name result.json | sed 's#-[0-9a-f]*/result.json##' | sort)
    [[ -n "$s0" && -n "$s1" ]] || fail "level $L: a shard trained nothing"
    [[ -z "$(comm -12 <(echo "$s0") <(echo "$s1"))" ]] || fail "level $L: the shards share runs"
    [[ "$(sort <(echo "$s0") <(echo "$s1"))" == "$all" ]] || fail "level $L: the shards' runs are not the sweep's"
done
verdicts() { python3 -c 'import json,sys; print(sorted((v["language"],v["arch"],v["verdict"],v["evidence"],v["runs"]) for v in json.load(open(sys.argv[1]))))' "$1"; }
for L in 0 1; do
    [[ "$(verdicts sh/level-$L/verdicts.json)" == "$(verdicts ref/level-$L/verdicts.json)" ]] \
        || fail "level $L: merged shard verdicts differ from the uninterrupted sweep's"
done
python3 "$src/tests/cli/sweep_recompute.py" sh >/dev/null || fail "sh: the report's table does not recompute"
"$bin" sweep --report sh >out-report.txt 2>&1 || fail "--report exited $?"
[[ "$(tail -1 out-report.txt)" == "$(tail -1 out-ref.txt)" ]] || fail "--report summary differs: $(tail -1 out-report.txt)"
"$bin" sweep --report sh --json >out-json.txt 2>err-json.txt || fail "--report --json exited $?: $(tail -1 err-json.txt)"
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert a == b, "differs"' \
    out-json.txt sh/sweep.json || fail "--report --json is not sweep.json"

# 4. The recomputation can fail: a verdict changed after the report was written.
cp -r ref tampered
python3 - tampered <<'EOF'
import json, sys
d = sys.argv[1]
escalated = {l.strip() for l in open(d + "/level-1/cells.txt") if l.strip() and not l.startswith("#")}
v = json.load(open(d + "/level-0/verdicts.json"))
x = next(x for x in v if x["language"] + ":" + x["arch"] not in escalated)  # judged finally at level 0
x["real_evidence"] = not x["real_evidence"]
x["verdict"] = "confirmed" if x["verdict"] != "confirmed" else "inconclusive"
json.dump(v, open(d + "/level-0/verdicts.json", "w"))
EOF
python3 "$src/tests/cli/sweep_recompute.py" tampered >/dev/null && fail "a tampered verdicts.json still recomputes"

# A report written while a level still trains (`ltlkit report` on the level's folder) judges some
# cells on fewer runs than planned: the sweep's report and the recomputation leave those pending at
# that level (the cell keeps its verdict of the level below), and agree with each other.
rm -rf partial && cp -r ref partial
cell=$(python3 - partial <<'EOF'
import json, sys
d = sys.argv[1]
v = json.load(open(d + "/level-1/verdicts.json"))
x = next(x for x in v if x["verdict"] != "pending" and x["runs"] > 1)
x["runs"] = 1  # as if only its first run had finished
x["all_runs"] = x.get("all_runs", [])[:1]
json.dump(v, open(d + "/level-1/verdicts.json", "w"))
print(x["language"] + ":" + x["arch"])
EOF
) || fail "partial: no level-1 cell judged on several runs"
"$bin" sweep --report partial >out-partial.txt 2>&1 || fail "--report on a partial level exited $?: $(tail -1 out-partial.txt)"
grep -q "^| $cell | .* → 1:none | escalated to level 1 (not finished yet)" partial/sweep.md \
    || fail "partial: $cell is not pending at level 1: $(grep "^| $cell |" partial/sweep.md | head -1)"
python3 "$src/tests/cli/sweep_recompute.py" partial >/dev/null || fail "partial: the report's table does not recompute"

# 5. A suite file's languages, the architectures given.
printf 'last-a\ta,b\tformula\tY a\n' > q.suite
"$bin" sweep --suite q.suite --archs global,local-1 --profile tiny --levels 1 --out q >out-q.txt 2>err-q.txt \
    || fail "--suite exited $?: $(tail -2 err-q.txt)"
python3 -c 'import json; l=json.load(open("q/languages.json")); assert [(x["name"], x["archs"], x["predictions"]) for x in l] == [("last-a", ["global", "local-1"], {"global": "fails", "local-1": "recognizes"})], l' \
    || fail "--suite: languages.json"
python3 "$src/tests/cli/sweep_recompute.py" q >/dev/null || fail "q: the report's table does not recompute"
printf 'last-a\ta,b\tformula\tY b\n' > q.suite
"$bin" sweep --suite q.suite --archs global,local-1 --profile tiny --levels 1 --out q >/dev/null 2>err-q2.txt
[[ $? == 2 ]] && grep -q "holds a sweep with other settings (suite_sha256" err-q2.txt || fail "an edited suite resumed: $(tail -1 err-q2.txt)"

# 5b. Levels 4 and 5 train level 3's models from new seeds (docs/PROTOCOL.md "Sweeps"): the level-2
# sweep extended to five levels; its cells that stay without evidence reach level 4, whose verify
# gets --seed 4 and trains seeds 4..6 only, while the levels below keep seeds 1..3.
rm -rf five && cp -r ref five
"$bin" sweep --strata rt_definite,none --per-stratum 1 --profile tiny --levels 5 --threads 1 --device cpu --out five >/dev/null 2>err-five.txt \
    || fail "--levels 5 exited $?: $(tail -2 err-five.txt)"
if [[ -f five/level-4/cells.txt ]]; then
    grep -q -- ' --seed 4$' five/level-4/command.txt || fail "level 4's verify: $(cat five/level-4/command.txt)"
    l4=$(find five/level-4/runs -mindepth 3 -maxdepth 3 -type d -printf '%f\n' | sed 's/-.*//' | sort -u | tr '\n' ' ')
    [[ "$l4" == "seed4 seed5 seed6 " ]] || fail "level 4 trained the seeds '$l4', want seed4 seed5 seed6"
    l3=$(find five/level-3/runs -mindepth 3 -maxdepth 3 -type d -printf '%f\n' | sed 's/-.*//' | sort -u | tr '\n' ' ')
    [[ "$l3" == "seed1 seed2 seed3 " ]] || fail "level 3 trained the seeds '$l3', want seed1 seed2 seed3"
    python3 "$src/tests/cli/sweep_recompute.py" five >/dev/null || fail "five: the report's table does not recompute"
else
    fail "no cell reached level 4 (the tiny profile fits every cell): the new-seeds level is untested"
fi

# 6. Bad requests: one line, exit 2.
check_bad() {
    local want=$1
    shift
    "$bin" "$@" >/dev/null 2>err-bad.txt
    local rc=$?
    [[ $rc == 2 && $(wc -l <err-bad.txt) == 1 ]] && grep -q -- "$want" err-bad.txt || fail "$* : exit $rc, $(cat err-bad.txt)"
}
check_bad "unknown stratum 'nope'" sweep --strata nope --out bad1
check_bad "holds a sweep with other settings (per_stratum: 1 there, 2 now)" sweep --strata rt_definite,none --per-stratum 2 --profile tiny --levels 2 --out ref
check_bad "--archs is for --suite sweeps" sweep --archs global --out bad2
check_bad "levels: 2 there, 1 now; more levels extend a sweep, fewer do not" sweep --strata rt_definite,none --per-stratum 1 --profile tiny --levels 1 --out ref
check_bad "--level 5: expected 0..1" "${args[@]}" --level 5 --out bad3

[[ $fails -eq 0 ]] && echo "sweep: all passed"
exit $((fails > 0))
