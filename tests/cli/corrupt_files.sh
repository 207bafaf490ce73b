#!/usr/bin/env bash
# Corruption test (docs/DURABILITY.md): a truncated or altered dataset file, meta.json,
# checkpoint.pt, run.json or result.json is reported (exit 2, a message naming the file), never
# silently used (corrupt_verify.sh: the same for a verify folder).
# Usage: bash corrupt_files.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
source "$2/tests/cli/kill_lib.bash"
rm -rf d r v err.txt out.txt


gen=('Y a' --alphabet a,b --train-lengths 1:8 --test-lengths 9:16 --per-length 8 --boundary-per-length 2
     --adversarial-per-family 4 --max-k 1 --quiet)
"$bin" generate "${gen[@]}" --out d || fail "generate exited $?"
cp d/train.tsv train.orig
# Two lines swapped (after the header): still parses, labels still right, only the hash tells.
{ sed -n 1p train.orig; sed -n 3p train.orig; sed -n 2p train.orig; sed -n '4,$p' train.orig; } > d/train.tsv
expect 2 "d/train.tsv: missing or does not match its hash in meta.json" "$bin" generate "${gen[@]}" --out d
expect 2 "d/train.tsv: checksum mismatch (truncated or corrupted); regenerate the dataset" \
    "$bin" train --dataset d --arch local-1 --layers 1 --d-model 8 --heads 2 --steps 2 --quiet --out r
[[ ! -e r/checkpoint.pt ]] || fail "train used a corrupted dataset"
cp train.orig d/train.tsv
bump d/meta.json words
expect 2 "d/meta.json: checksum mismatch (truncated or corrupted); use --force" "$bin" generate "${gen[@]}" --out d
expect 2 "d/meta.json: checksum mismatch (truncated or corrupted); regenerate the dataset" \
    "$bin" train --dataset d --arch local-1 --steps 2 --quiet --out r
"$bin" generate "${gen[@]}" --out d --force || fail "generate --force did not repair the dataset"
"$bin" generate "${gen[@]}" --out d || fail "the repaired dataset does not verify"

# A run: truncated / byte-flipped checkpoint, altered result.json and run.json.
train=('Y a' --alphabet a,b --arch local-1 --layers 1 --d-model 8 --heads 2 --d-ff 16 --batch 8 --steps 20
       --checkpoint-every 10 --train-lengths 1:6 --test-lengths 7:12 --per-length 8 --threads 1 --device cpu --quiet)
"$bin" train "${train[@]}" --out r >/dev/null || fail "train exited $?"
cp r/checkpoint.pt ck.orig
size=$(stat -c %s ck.orig)
head -c $((size / 2)) ck.orig > r/checkpoint.pt
msg="r/checkpoint.pt: checksum mismatch (truncated or corrupted); delete it to restart the run from step 0"
expect 2 "$msg" "$bin" train "${train[@]}" --out r
expect 2 "$msg" "$bin" eval r --test-lengths 7:12 --per-length 8
python3 -c "
import sys; d = bytearray(open('ck.orig', 'rb').read()); d[len(d) // 2] ^= 0x01; open('r/checkpoint.pt', 'wb').write(d)"
expect 2 "$msg" "$bin" train "${train[@]}" --out r
: > r/checkpoint.pt
expect 2 "$msg" "$bin" eval r
cp ck.orig r/checkpoint.pt
bump r/result.json n_star
expect 2 "r/result.json: checksum mismatch (truncated or corrupted); delete it, or rerun" "$bin" eval r
"$bin" train "${train[@]}" --out r >/dev/null || fail "train did not rewrite result.json"
"$bin" eval r --test-lengths 7:12 --per-length 8 >/dev/null || fail "eval after the repair exited $?"
bump r/run.json layers
expect 2 "r/run.json: checksum mismatch (truncated or corrupted); rerun \`ltlkit train\`" "$bin" eval r
"$bin" train "${train[@]}" --out r >/dev/null || fail "train did not rewrite run.json"
"$bin" eval r >/dev/null || fail "eval after rewriting run.json exited $?"

[[ $fails -eq 0 ]] && echo "corrupt_files: all passed"
exit $((fails > 0))
