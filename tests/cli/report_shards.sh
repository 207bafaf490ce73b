#!/usr/bin/env bash
# `ltlkit report` names missing shards (docs/CLUSTER.md, "Merge, and missing shards") without a
# cluster: shards of `verify --shard i/3` where one never ran and one failed before planning give
# exit 1, one "ltlkit: missing:" line per shard and the same lines in report.md; once every shard
# has run, exit 0 and the merged files of a single verify (timing aside). Also: `verify --estimate`
# counts the runs that verify then plans.
# Usage: bash report_shards.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
rm -rf one s0 s1 s2 t0 merged mixed suite.txt ./*.txt ./*.digest
printf 'last-a\ta,b\tformula\tY a\nfirst-a\ta,b\tformula\tP(a & !P true)\n' > suite.txt
args=(--suite suite.txt --profile tiny --archs global,local-1 --steps 20 --threads 1 --device cpu)

"$bin" verify "${args[@]}" --out one >/dev/null 2>one-err.txt || fail "verify: $(cat one-err.txt)"
"$bin" verify "${args[@]}" --estimate 3 > est.txt || fail "verify --estimate exited $?"
planned=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["runs"]))' one/plan.json)
grep -qx "runs=$planned" est.txt || fail "--estimate: $(grep runs= est.txt), plan.json has $planned runs"
grep -qx 'runs_per_shard=2' est.txt || fail "--estimate 3 of 4 runs: $(grep runs_per_shard est.txt)"
grep -qx 'task_time_limit=0:05:00' est.txt || fail "--estimate: $(grep task_time_limit est.txt)"
[[ -e one/shard.json ]] && fail "an unsharded verify wrote shard.json"

"$bin" verify "${args[@]}" --out s0 --shard 0/3 >/dev/null 2>err.txt || fail "shard 0: $(cat err.txt)"
# Shard 1 fails while planning (a file where its datasets go); shard 2 never runs.
mkdir -p s1 && touch s1/data
"$bin" verify "${args[@]}" --out s1 --shard 1/3 >/dev/null 2>err.txt && fail "shard 1 did not fail"
"$bin" report s0 s1 s2 --out merged >out.txt 2>err.txt
rc=$?
[[ $rc == 1 ]] || fail "report with missing shards: exit $rc, want 1: $(cat err.txt)"
grep -qx "ltlkit: missing: shard 1/3 (s1): no plan.json, its task failed before planning; 1 of 1 runs missing" err.txt \
    || fail "shard 1 not named: $(cat err.txt)"
grep -qx "ltlkit: missing: shard 2/3: no folder given holds it (its task did not start, or its folder was not passed to report); 1 of 1 runs missing" err.txt \
    || fail "shard 2 not named: $(cat err.txt)"
grep -qx "ltlkit: missing: s2: no plan.json and no shard.json (its task failed before starting, or it is no verify folder)" err.txt \
    || fail "folder s2 not named: $(cat err.txt)"
[[ $(grep -c '^ltlkit: missing: ' err.txt) == 3 ]] || fail "not 3 missing lines: $(cat err.txt)"
grep -q '^- \*\*Missing:\*\* shard 1/3 (s1)' merged/report.md || fail "report.md does not name shard 1"
grep -q '2 of 4 runs finished' out.txt || fail "summary: $(tail -1 out.txt)"

rm s1/data
"$bin" verify "${args[@]}" --out s1 --shard 1/3 >/dev/null 2>err.txt || fail "shard 1 again: $(cat err.txt)"
"$bin" verify "${args[@]}" --out s2 --shard 2/3 >/dev/null 2>err.txt || fail "shard 2: $(cat err.txt)"
"$bin" report s0 s1 s2 --out merged >out.txt 2>err.txt || fail "complete report exited $?: $(cat err.txt)"
grep -q 'Missing' merged/report.md && fail "complete report.md still says Missing"
# Mixed splits are refused.
"$bin" verify "${args[@]}" --out t0 --shard 0/2 >/dev/null 2>err.txt || fail "shard 0/2: $(cat err.txt)"
"$bin" report s0 t0 --out mixed >/dev/null 2>err.txt && fail "report of shards of two splits succeeded"
grep -q "^ltlkit: error: t0 is shard 0/2 but s0 is one of 3 shards" err.txt || fail "mixed splits: $(head -1 err.txt)"

digest_tree one | grep -E '^(plan\.json|results\.jsonl|verdicts\.json|report\.md|report\.html|figures/)' > one.digest
digest_tree merged | grep -E '^(plan\.json|results\.jsonl|verdicts\.json|report\.md|report\.html|figures/)' > merged.digest
diff one.digest merged.digest || fail "merged shards differ from one verify (timing aside)"

[[ $fails -eq 0 ]] && echo "report_shards: all passed"
exit $((fails > 0))
