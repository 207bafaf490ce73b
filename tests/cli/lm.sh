#!/usr/bin/env bash
# `ltlkit lm train|eval|sweep` end to end on a small text: run folder contents, a second train that
# resumes the finished checkpoint and reproduces the perplexity, eval, a resumable sweep with its
# table and figure (and --json), each subcommand's help examples, and one-line errors for bad
# corpora and options.
# Usage: bash lm.sh LTLKIT_BIN SOURCE_DIR (run in a scratch folder)
set -u
bin=$1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# check WANT_RC WANT_FIRST_LINE_PREFIX ARGS...: exit code, empty stdout, first stderr line.
check() {
    local want_rc=$1 want=$2 out rc err
    shift 2
    out=$("$bin" "$@" 2>err.txt < /dev/null); rc=$?
    err=$(head -n 1 err.txt)
    [[ $rc -eq $want_rc ]] || fail "[$*]: exit $rc, want $want_rc"
    [[ -z $out ]] || fail "[$*]: stdout not empty: $out"
    [[ $err == "$want"* ]] || fail "[$*]: first stderr line: got '$err', want '$want...'"
}

rm -rf corpus runs wt && mkdir -p corpus wt
for i in $(seq 1 200); do echo "the quick brown fox $((i % 7)) jumps over the lazy dog number $((i % 5))."; done > corpus/train.txt
for i in $(seq 1 20); do echo "the lazy dog $((i % 3)) jumps over the quick brown fox."; done > corpus/valid.txt
cp corpus/valid.txt corpus/test.txt
: > corpus/empty.txt
small=(--train corpus/train.txt --valid corpus/valid.txt --test corpus/test.txt --layers 1 --d-model 32 --heads 2 --d-ff 64 --context 32 --batch 4 --steps 20 --warmup 5 --log-every 10 --device cpu)

# Train: progress lines on stderr, the summary on stdout, the run folder.
"$bin" lm train "${small[@]}" --arch hybrid-1 --pe rope --out runs/a > out1.txt 2> err1.txt || fail "lm train: exit $?"
grep -q '^step 10/20  loss [0-9.]*  lr [0-9.e+-]*  [0-9]* tok/s  eta [0-9]*s$' err1.txt || fail "no progress line: $(head -n 1 err1.txt)"
grep -q '^valid perplexity [0-9.]* per token' out1.txt || fail "no validation perplexity: $(cat out1.txt)"
for f in run.json checkpoint.pt metrics.jsonl result.json; do [[ -s runs/a/$f ]] || fail "runs/a/$f missing"; done
[[ $(grep -c '"loss"' runs/a/metrics.jsonl) -eq 20 ]] || fail "metrics.jsonl: want one loss line per step"
grep -q "\"sha256\": \"$(sha256sum corpus/train.txt | cut -d' ' -f1)\"" runs/a/run.json || fail "run.json lacks the training file's hash"
grep -q '"vocab_sha256"' runs/a/run.json || fail "run.json lacks the vocabulary hash"
# Training again resumes the final checkpoint: no step runs, the same perplexity.
"$bin" lm train "${small[@]}" --arch hybrid-1 --pe rope --out runs/a > out2.txt 2> err2.txt || fail "lm train (resume): exit $?"
[[ $(head -n 2 out1.txt) == "$(head -n 2 out2.txt)" ]] || fail "resumed run reports another perplexity"
[[ ! -s err2.txt ]] || fail "resumed run trained again: $(cat err2.txt)"
# Eval, on the run's files and on another test file.
"$bin" lm eval runs/a > out3.txt 2>&1 || fail "lm eval: exit $?"
[[ $(head -n 2 out1.txt) == "$(head -n 2 out3.txt)" ]] || fail "lm eval disagrees with lm train"
"$bin" lm eval runs/a --test corpus/train.txt --json > eval.json || fail "lm eval --test: exit $?"
grep -q '"ppl_token"' eval.json || fail "lm eval --json prints no result"
# Longer windows than trained: RoPE can score them; learned positions cannot (one-line error).
"$bin" lm eval runs/a --context 64 --json > eval64.json || fail "lm eval --context 64 (rope): exit $?"
grep -q '"eval_context": 64' eval64.json || fail "lm eval --context 64: eval_context not recorded"
"$bin" lm train "${small[@]}" --arch global --pe learned --out runs/learned > /dev/null 2>&1 || fail "lm train (learned): exit $?"
check 2 "ltlkit: error: --context 64 exceeds the learned positional table of runs/learned (32 rows)" lm eval runs/learned --context 64

# Sweep: runs, table, figure; a second call skips every finished run.
"$bin" lm sweep "${small[@]}" --archs global,local-1,hybrid-1 --pes learned,rope --seeds 2 --quiet --out sw > sweep1.txt 2>&1 || fail "lm sweep: exit $?"
[[ $(ls -d sw/*.seed* | wc -l) -eq 12 ]] || fail "sweep: want 12 run folders"
for f in table.md table.json figure.svg; do [[ -s sw/$f ]] || fail "sweep: $f missing"; done
grep -q '^| hybrid-1 | [0-9.]* ± [0-9.]* (n=2) | [+−][0-9.]* |' sw/table.md || fail "sweep table: $(cat sw/table.md)"
head -c 4 sw/figure.svg | grep -q '<svg' || fail "figure.svg is not SVG"
"$bin" lm sweep "${small[@]}" --archs global,local-1,hybrid-1 --pes learned,rope --seeds 2 --out sw > sweep2.txt 2> sweep2.err || fail "lm sweep (again): exit $?"
[[ $(grep -c '^done already:' sweep2.err) -eq 12 ]] || fail "second sweep retrained runs: $(cat sweep2.err)"
cmp -s sw/table.md <(sed -n '/^|/p' sweep2.txt) || fail "second sweep printed another table"
# --table-only trains nothing: a cell without finished runs stays empty.
"$bin" lm sweep "${small[@]}" --archs global,local-2 --pes learned --seeds 1 --table-only --out sw > sweep3.txt 2>&1 || fail "lm sweep --table-only: exit $?"
[[ ! -e sw/local-2.learned.seed1 ]] || fail "--table-only trained a run"
grep -q '^| local-2 | – | – |' sw/table.md || fail "--table-only table: $(cat sw/table.md)"
# --json: table.json on stdout, and nothing else there (README: every command has --json).
"$bin" lm sweep "${small[@]}" --archs global,local-1,hybrid-1 --pes learned,rope --seeds 2 --table-only --json --out sw \
    > sweep4.json 2>/dev/null || fail "lm sweep --json: exit $?"
cmp -s sweep4.json sw/table.json || fail "lm sweep --json printed something other than table.json: $(head -c 300 sweep4.json)"
python3 -c "import json,sys; c=json.load(open('sweep4.json'))['cells']; assert len(c)==6 and all(x['seeds']==2 for x in c), c" \
    || fail "lm sweep --json: not the 6 cells of 2 seeds"

# Help: each subcommand shows examples of its own (README: every command has an example).
for sub in train eval sweep; do
    "$bin" lm $sub --help > help.txt 2>&1 || fail "lm $sub --help: exit $?"
    grep -q '^Examples:$' help.txt || fail "lm $sub --help has no examples"
    grep -q "^  ltlkit lm $sub " help.txt || fail "lm $sub --help: no 'ltlkit lm $sub' example: $(cat help.txt)"
done
grep -q -- '--json' <("$bin" lm sweep --help) || fail "lm sweep --help lists no --json"

# Errors: one line, exit 2, nothing on stdout.
check 2 "ltlkit: error: corpus/nope.txt: cannot open file" lm train --train corpus/nope.txt --valid corpus/valid.txt --test corpus/test.txt --out runs/x
check 2 "ltlkit: error: corpus/empty.txt: empty corpus" lm train --train corpus/train.txt --valid corpus/empty.txt --test corpus/test.txt --out runs/x
check 2 "ltlkit: error: wt/wiki.train.tokens: cannot open file" lm train --wikitext wt --out runs/x
check 2 "ltlkit: error: no corpus given" lm train --out runs/x
check 2 "ltlkit: error: give either --wikitext DIR or --train/--valid/--test" lm train --wikitext wt --train corpus/train.txt --out runs/x
check 2 "ltlkit: error: --pe: unknown positional encoding 'alibi'" lm train "${small[@]}" --pe alibi --out runs/x
check 2 "ltlkit: error: architecture 'local-0': K must be at least 1" lm train "${small[@]}" --arch local-0 --out runs/x
check 2 "ltlkit: error: corpus/valid.txt: 940 tokens, fewer than --context + 1" lm train --train corpus/valid.txt --valid corpus/valid.txt --test corpus/test.txt --context 4096 --out runs/x
check 2 "ltlkit: error: unknown tokenizer 'bpe'" lm train "${small[@]}" --tokenizer bpe --out runs/x
check 2 "ltlkit: error: the checkpoint in runs/a was trained with another configuration" lm train "${small[@]}" --arch global --out runs/a
check 2 "ltlkit: error: --ks: 'x' is not a window size" lm sweep "${small[@]}" --ks 1,x --out sw2
check 2 "ltlkit: error: --patterns: unknown pattern 'sparse'" lm sweep "${small[@]}" --patterns global,sparse --out sw2
[[ ! -e runs/x/result.json ]] || fail "a failed run wrote result.json"

if [[ $fails -ne 0 ]]; then echo "$fails failure(s)"; exit 1; fi
echo "lm: all checks passed"
