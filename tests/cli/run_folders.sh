#!/usr/bin/env bash
# Run folders tell the truth (docs/DURABILITY.md "run.json tells what the folder holds",
# docs/PROTOCOL.md "Training log"):
#  1. a rerun of train with other --test-lengths/--per-length rewrites run.json: its config and
#     identity are result.json's; an eval records its file's settings in run.json "evaluations",
#     and train's next rewrite keeps them;
#  2. eval --dataset of a 16-per-length dataset writes eval-A-B-n16.json (named by its content);
#  3. metrics.jsonl's validation_loss / validation_accuracy equal those computed from `ltlkit score`
#     on the dataset's validation words with the final model; a sampled run logs them too, and a
#     global model trains on after its validation saw lengths training had not.
# The interrupt messages of run folders: tests/cli/run_interrupts.sh.
# Usage: bash run_folders.sh LTLKIT_BIN SOURCE_DIR (run in a scratch folder)
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
rm -rf R D DR G err.txt old-run.json

tiny=('Y a' --alphabet a,b --arch local-1 --layers 1 --d-model 16 --heads 2 --d-ff 32 --batch 16
      --train-lengths 1:10 --threads 1 --device cpu --quiet)

# run.json's and a result file's settings: "A B N identity" of run.json's config / the file's.
settings() {
    python3 - "$@" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
c = j["config"]
print(c["test_min"], c["test_max"], c["per_length"], j["identity"]["evaluation"])
PY
}

# 1. Resume with other evaluation settings, then eval.
"$bin" train "${tiny[@]}" --steps 20 --test-lengths 11:30 --out R >/dev/null 2>err.txt || fail "train R: $(cat err.txt)"
[[ $(settings R/run.json) == "11 30 32 "* ]] || fail "run.json after the first train: $(settings R/run.json)"
"$bin" train "${tiny[@]}" --steps 20 --test-lengths 11:20 --per-length 8 --out R >/dev/null 2>err.txt \
    || fail "train R again: $(cat err.txt)"
[[ $(settings R/run.json) == "11 20 8 "* ]] || fail "run.json after the rerun says $(settings R/run.json), want 11 20 8"
[[ $(settings R/run.json) == "$(settings R/result.json)" ]] \
    || fail "run.json ($(settings R/run.json)) and result.json ($(settings R/result.json)) disagree"
"$bin" eval R --test-lengths 11:15 --per-length 4 >/dev/null 2>err.txt || fail "eval R: $(cat err.txt)"
[[ -f R/eval-11-15-n4.json ]] || fail "no R/eval-11-15-n4.json: $(ls R)"
python3 - R/run.json R/eval-11-15-n4.json R/result.json <<'PY' || fail "run.json's record of the eval"
import json, sys
info, ev, res = (json.load(open(p)) for p in sys.argv[1:4])
e = info["evaluations"]["eval-11-15-n4.json"]
assert (e["test_min"], e["test_max"], e["per_length"]) == (11, 15, 4), e
assert e["identity"] == ev["identity"]["evaluation"] and e["steps_done"] == ev["steps_done"] == 20, (e, ev["identity"])
assert info["config"] == res["config"] and info["identity"] == res["identity"], "run.json is no longer result.json's"
PY
# The checksum is still valid (eval reads run.json back), and another train rerun keeps the record.
"$bin" eval R --test-lengths 11:12 --per-length 2 >/dev/null 2>err.txt || fail "second eval R: $(cat err.txt)"
"$bin" train "${tiny[@]}" --steps 20 --test-lengths 11:30 --out R >/dev/null 2>err.txt || fail "third train R: $(cat err.txt)"
python3 -c "import json,sys; e=json.load(open('R/run.json'))['evaluations']; assert sorted(e)==['eval-11-12-n2.json','eval-11-15-n4.json'], e" \
    || fail "train's rewrite of run.json lost the eval records"
[[ $(settings R/run.json) == "11 30 32 "* && $(settings R/run.json) == "$(settings R/result.json)" ]] \
    || fail "run.json after the third train: $(settings R/run.json)"

# run.json records the model's head layout (Architecture::head_layout: one layer of two 1-local
# heads); a folder written before it did (no "layout", valid checksum) is not rewritten by a rerun
# with the same settings, and gets it with its next rewrite.
python3 -c "import json; l=json.load(open('R/run.json'))['layout']; assert l==[[{'first':0,'count':2,'window':1}]], l" \
    || fail "run.json's layout"
python3 - R/run.json <<'PY' || fail "stripping the layout"
import hashlib, json, sys
j = json.load(open(sys.argv[1]))
del j["layout"], j["sha256"]
j["sha256"] = hashlib.sha256(json.dumps(j, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
open(sys.argv[1], "w").write(json.dumps(j, indent=2, ensure_ascii=False) + "\n")
PY
cp R/run.json old-run.json
"$bin" train "${tiny[@]}" --steps 20 --test-lengths 11:30 --out R >/dev/null 2>err.txt || fail "train R, no layout: $(cat err.txt)"
cmp -s R/run.json old-run.json || fail "a rerun with the same settings rewrote the run.json that had no layout"
"$bin" train "${tiny[@]}" --steps 20 --test-lengths 11:20 --out R >/dev/null 2>err.txt || fail "train R, other lengths: $(cat err.txt)"
python3 -c "import json; assert json.load(open('R/run.json'))['layout']==[[{'first':0,'count':2,'window':1}]]" \
    || fail "run.json's rewrite did not record the layout"

# 2 and 3. A 16-per-length dataset: train on it, eval on it; validation in metrics.jsonl.
"$bin" generate 'Y a' --alphabet a,b --train-lengths 1:10 --test-lengths 41:80 --per-length 16 \
    --boundary-per-length 2 --no-adversarial --out D -q 2>err.txt || fail "generate D: $(cat err.txt)"
"$bin" train --dataset D --arch local-1 --layers 1 --d-model 16 --heads 2 --d-ff 32 --batch 16 --steps 30 \
    --log-every 10 --threads 1 --device cpu --quiet --out DR >/dev/null 2>err.txt || fail "train DR: $(cat err.txt)"
"$bin" eval DR --dataset D --threads 1 --quiet >/dev/null 2>err.txt || fail "eval DR --dataset D: $(cat err.txt)"
[[ -f DR/eval-41-80-n16.json ]] || fail "eval --dataset of 16 per length: $(ls DR)"
ls DR | grep -q -- '-n8' && fail "an -n8 eval file for a 16-per-length dataset: $(ls DR)"
tail -n +2 D/validation.tsv | cut -f1 > valid-words.txt
"$bin" score DR --words valid-words.txt --json > scores.json 2>err.txt || fail "score DR: $(cat err.txt)"
python3 - DR/metrics.jsonl D/validation.tsv scores.json R/metrics.jsonl <<'PY' || fail "validation in metrics.jsonl"
import json, math, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert [l["step"] for l in lines] == [10, 20, 30], lines
for l in lines:
    for k in ("loss", "train_accuracy", "lr", "tokens_per_second", "seconds", "validation_loss", "validation_accuracy"):
        assert k in l, (k, l)
    assert 0 <= l["validation_accuracy"] <= 1 and l["validation_loss"] >= 0, l
labels = [int(x.split("\t")[1]) for x in open(sys.argv[2]).read().split("\n")[1:] if x]
assert len(labels) <= 1024  # the whole split is the validation set
logits = [r["logit"] for r in json.load(open(sys.argv[3]))["results"]]
assert len(logits) == len(labels), (len(logits), len(labels))
acc = sum((z > 0) == (y == 1) for z, y in zip(logits, labels)) / len(labels)
loss = sum(max(z, 0) - z * y + math.log1p(math.exp(-abs(z))) for z, y in zip(logits, labels)) / len(labels)
last = lines[-1]
assert abs(last["validation_accuracy"] - acc) < 1e-5, (last, acc)
assert abs(last["validation_loss"] - loss) < 1e-4 * max(1, loss), (last, loss)
# A sampled run (no dataset) logs validation too.
r = [json.loads(l) for l in open(sys.argv[4])]
assert r and all("validation_loss" in l and "validation_accuracy" in l for l in r), r
PY

# The validation words reach lengths that training has not drawn yet (batch 2: one length per
# step): a global model's attention mask made for them under inference must still train (it
# failed with "Inference tensors cannot be saved for backward" before model.cc made it a normal one).
"$bin" train 'Y a' --alphabet a,b --arch global --layers 2 --d-model 16 --heads 2 --d-ff 32 --batch 2 --steps 10 \
    --train-lengths 39:40 --log-every 1 --test-lengths 41:41 --per-length 2 --threads 1 --device cpu --quiet --out G \
    >/dev/null 2>err.txt || fail "global run with validation every step: $(cat err.txt)"
[[ $(grep -c '"validation_accuracy"' G/metrics.jsonl 2>/dev/null) == 10 ]] || fail "G/metrics.jsonl: $(cat G/metrics.jsonl)"

[[ $fails -eq 0 ]] && echo "run_folders: all passed"
exit $((fails > 0))
