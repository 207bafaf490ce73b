#!/usr/bin/env bash
# The kill and shard tests compare run folders through digest_tree (tests/cli/kill_lib.bash), which
# first checks every embedded "sha256" (docs/DURABILITY.md). This checks the checker: a committed run
# whose result.json holds 46.927542227000004 (the writer's shortest-digits text that Python's repr
# writes as 46.927542227) must pass, and the same folder with one digit changed must not.
# Usage: bash digest_tree.sh LTLKIT_BIN SOURCE_DIR
set -u
src=$2
source "$src/tests/cli/kill_lib.bash"
run=$src/docs/results/lc26-cpu-deep/runs/SIGMA_A-f33eecfb/local-2/seed1-lr0.001-4ee6c669
grep -q '46\.927542227000004' "$run/result.json" || fail "the fixture lost its long float: $run/result.json"
digest_tree "$run" > good.digest 2>err.txt || fail "a committed run fails its checksum: $(cat err.txt)"
rm -rf copy && mkdir copy && cp "$run/result.json" "$run/run.json" copy/
digest_tree copy > /dev/null 2>err.txt || fail "the copy fails its checksum: $(cat err.txt)"
sed -i 's/46\.927542227000004/46.927542227000005/' copy/result.json
digest_tree copy > /dev/null 2>err.txt && fail "a changed digit passed the checksum"
grep -q "bad embedded sha256 in result.json" err.txt || fail "changed digit: $(cat err.txt)"
[[ $fails -eq 0 ]] && echo "digest_tree: all passed"
exit $((fails > 0))
