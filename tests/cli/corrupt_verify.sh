#!/usr/bin/env bash
# Corruption test (docs/DURABILITY.md) for a verify folder: a damaged run result.json is reported by
# `report` (exit 2) and evaluated again by `verify` (a warning; the same result, timing aside); a
# damaged plan.json is reported by `report`. Usage: bash corrupt_verify.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
source "$2/tests/cli/kill_lib.bash"
rm -rf v err.txt out.txt


# verify: a damaged result.json is reported by `report` and evaluated again by `verify`.
vargs=('Y a' --alphabet a,b --archs local-1 --profile quick --steps 5 --threads 1 --device cpu)
"$bin" verify "${vargs[@]}" --out v >/dev/null 2>err.txt || fail "verify exited $?: $(cat err.txt)"
res=$(ls v/runs/*/local-1/*/result.json | head -1)
grep -v '"wall_seconds"\|"train_seconds"\|"tokens_per_second"\|"eval_seconds"\|"eval_tokens_per_second"\|"sha256"' "$res" > res.orig
bump "$res" n_star
expect 2 "$res: checksum mismatch (truncated or corrupted); rerun \`ltlkit verify\`" "$bin" report v
"$bin" verify "${vargs[@]}" --out v > vlog.txt 2>err.txt || fail "verify after the damage exited $?: $(cat err.txt)"
grep -q "warning: $res: checksum mismatch (truncated or corrupted); removed, the run is evaluated again" vlog.txt ||
    fail "verify did not warn about $res: $(cat vlog.txt)"
grep -v '"wall_seconds"\|"train_seconds"\|"tokens_per_second"\|"eval_seconds"\|"eval_tokens_per_second"\|"sha256"' "$res" | cmp -s - res.orig ||
    fail "the run evaluated again differs from the original"
"$bin" report v >/dev/null || fail "report after the repair exited $?"
bump v/plan.json seeds
expect 2 "v/plan.json: checksum mismatch (truncated or corrupted)" "$bin" report v

[[ $fails -eq 0 ]] && echo "corrupt_verify: all passed"
exit $((fails > 0))
