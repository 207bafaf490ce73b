#!/usr/bin/env bash
# `ltlkit generate`: files of docs/SYNTAX.md §11, balance and labels (checked with awk, independently of the
# C++ reader), byte-for-byte reproducibility, verified reruns, --force, bad ranges, formats, suites.
# Usage: bash generate.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
source "$2/tests/cli/kill_lib.bash"  # fail, signal_at_line

rm -rf d1 d2 d3 dj df ds dp dint suite.txt
small=(--train-lengths 1:6 --test-lengths 7:12 --per-length 8 --boundary-per-length 2 --adversarial-per-family 4)

# Σ*a as a formula (Y a); words over {a,b}.
"$bin" generate 'Y a' --alphabet a,b --out d1 "${small[@]}" --seed 5 >out.txt 2>err.txt || fail "generate exited $?: $(cat err.txt)"
for f in meta.json train.tsv validation.tsv test.tsv boundary.tsv; do
    [[ -f d1/$f ]] || fail "d1/$f missing"
done
# Labels agree with the language (last letter a); train has min(4, 2^(n-1)) words per length and label.
awk -F'\t' 'FNR > 1 { want = (substr($1, length($1), 1) == "a") ? 1 : 0; if ($2 != want) { print "bad label: " $0; exit 1 } }' \
    d1/train.tsv d1/test.tsv d1/boundary.tsv || fail "label disagrees with Σ*a"
awk -F'\t' 'FNR > 1 { c[length($1) " " $2]++ } END { for (n = 1; n <= 6; n++) for (l = 0; l <= 1; l++) {
    want = 2 ^ (n - 1); if (want > 4) want = 4; if (c[n " " l] != want) { print "length " n " label " l ": " c[n " " l]; bad = 1 } } exit bad }' \
    d1/train.tsv || fail "train is not balanced"
# Train and test share no word; validation and train neither.
[[ -z $(tail -n +2 d1/train.tsv | cut -f1 | sort | comm -12 - <(tail -n +2 d1/validation.tsv | cut -f1 | sort)) ]] || fail "train ∩ validation"
[[ -z $(tail -n +2 d1/train.tsv | cut -f1 | sort | comm -12 - <(tail -n +2 d1/test.tsv | cut -f1 | sort)) ]] || fail "train ∩ test"
grep -q '"count_method": "log-double"' d1/meta.json || fail "meta.json lacks count_method"
grep -q '"train_lengths": "1:6"' d1/meta.json || fail "meta.json lacks the train range"
# Boundary lines have a pair column; every TSV file starts with its column names.
awk -F'\t' 'NF != 3 { exit 1 }' d1/boundary.tsv || fail "boundary.tsv lines need word, label, pair"
[[ $(head -n 1 d1/train.tsv) == $'word\tlabel' && $(head -n 1 d1/boundary.tsv) == $'word\tlabel\tpair' ]] \
    || fail "TSV header lines: $(head -n 1 d1/train.tsv) / $(head -n 1 d1/boundary.tsv)"
# The boundary split's stated lengths hold its words (an edit makes a partner one longer or shorter).
python3 - d1 <<'PY' || fail "boundary lengths in meta.json"
import json, sys
meta = json.load(open(sys.argv[1] + "/meta.json"))
lo, hi = map(int, meta["splits"]["boundary"]["lengths"].split(":"))
lengths = [len(l.split("\t")[0]) for l in open(sys.argv[1] + "/boundary.tsv").read().splitlines()[1:]]
assert lo == min(lengths) and hi == max(lengths), (lo, hi, min(lengths), max(lengths))
PY

# Same arguments: same bytes in another folder; rerun into the same folder writes nothing.
"$bin" generate 'Y a' --alphabet a,b --out d2 "${small[@]}" --seed 5 >/dev/null 2>&1 || fail "second generate"
diff -r d1 d2 >/dev/null || fail "same seed gave different files"
before=$(stat -c %i d1/test.tsv)
"$bin" generate 'Y a' --alphabet a,b --out d1 "${small[@]}" --seed 5 >out.txt 2>err.txt || fail "rerun exited $?"
grep -q unchanged out.txt || fail "rerun did not report unchanged: $(cat out.txt)"
[[ $(stat -c %i d1/test.tsv) == "$before" ]] || fail "rerun rewrote test.tsv"
# Other arguments into the same folder: refused (exit 2) unless --force.
"$bin" generate 'Y a' --alphabet a,b --out d1 "${small[@]}" --seed 6 >/dev/null 2>err.txt
rc=$?
[[ $rc -eq 2 ]] || fail "different args without --force: exit $rc, want 2"
grep -q -- '--force' err.txt || fail "refusal does not mention --force: $(cat err.txt)"
"$bin" generate 'Y a' --alphabet a,b --out d1 "${small[@]}" --seed 6 --force >/dev/null 2>&1 || fail "--force failed"
cmp -s d1/test.tsv d2/test.tsv && fail "seed 6 gave the same test set as seed 5"

# Bad ranges: one line on stderr, exit 2.
for r in 5:3 a:b 1: ''; do
    "$bin" generate 'Y a' --alphabet a,b --out d3 --train-lengths "$r" >/dev/null 2>err.txt
    rc=$?
    [[ $rc -eq 2 ]] || fail "--train-lengths '$r': exit $rc, want 2"
    [[ $(wc -l <err.txt) -eq 1 ]] || fail "--train-lengths '$r': $(wc -l <err.txt) stderr lines"
    grep -q '^ltlkit: error:' err.txt || fail "--train-lengths '$r': $(cat err.txt)"
done
"$bin" generate 'Y a' --alphabet a,b --out d3 --format csv >/dev/null 2>&1 && fail "--format csv accepted"

# Formats: jsonl and flare hold the same words as tsv.
"$bin" generate 'Y a' --alphabet a,b --out dj "${small[@]}" --seed 5 --format jsonl >/dev/null 2>&1 || fail "jsonl"
"$bin" generate 'Y a' --alphabet a,b --out df "${small[@]}" --seed 5 --format flare >/dev/null 2>&1 || fail "flare"
[[ -f dj/train.jsonl && -f df/train/main.tok && -f df/train/labels.txt ]] || fail "format files missing"
diff <(tail -n +2 d2/train.tsv | cut -f2) df/train/labels.txt >/dev/null || fail "flare labels differ from tsv"
diff <(tail -n +2 d2/train.tsv | cut -f1 | sed 's/./& /g; s/ $//') df/train/main.tok >/dev/null || fail "flare words differ from tsv"

# Adversarial sets (one per architecture predicted to fail): every pair has two different labels.
ls d2/adversarial-*.tsv >/dev/null 2>&1 || fail "no adversarial set for Σ*a (global must fail: not R-trivial)"
for f in d2/adversarial-*.tsv; do
    [[ -e $f ]] || continue
    awk -F'\t' 'FNR > 1 { l[$3] = l[$3] $2 } END { for (p in l) if (l[p] != "01" && l[p] != "10") { print p; exit 1 } }' "$f" \
        || fail "$f: a pair without two different labels"
done

# A suite: one folder per language.
printf 'last-a\ta,b\tformula\tY a\n# comment\nab-star\ta,b\tregex\t(ab)*\n' >suite.txt
"$bin" generate --suite suite.txt --out ds "${small[@]}" >/dev/null 2>err.txt || fail "suite: $(cat err.txt)"
[[ -f ds/last-a/test.tsv && -f ds/ab-star/test.tsv ]] || fail "suite folders missing"
# (ab)* has no word of odd length: shortfalls recorded.
grep -q '"shortfalls"' ds/ab-star/meta.json || fail "no shortfalls in meta.json"
awk -F'\t' 'FNR > 1 && length($1) % 2 == 1 && $2 == 1 { exit 1 }' ds/ab-star/train.tsv || fail "(ab)* labels"

# --progress into a pipe: plain lines, never the same percentage twice, the last one 100%.
"$bin" generate 'Y a' --alphabet a,b --out dp "${small[@]}" --progress >/dev/null 2>err.txt || fail "--progress"
grep -q $'\r' err.txt && fail "--progress into a file writes carriage returns"
[[ $(tail -n 1 err.txt) == "Y a: 100% "* ]] || fail "--progress: last line $(tail -n 1 err.txt)"
[[ -z $(cut -d' ' -f3 err.txt | sort | uniq -d) ]] || fail "--progress repeats a percentage: $(cat err.txt)"

# Ctrl-C: one line saying where it stopped and how to go on, exit 130; the rerun starts over.
# SIGINT at the first progress line (signal_at_line, tests/cli/kill_lib.bash), not after a delay:
# the line comes at 0 % of some 290 M symbols, so the signal always finds the work under way.
big=('Y a' --alphabet a,b --out dint --test-lengths 41:6000 --per-length 16 --boundary-per-length 1 --no-adversarial --progress)
signal_at_line INT '^Y a: [0-9]+% ' "$bin" generate "${big[@]}"
[[ $rc == 130 ]] || fail "SIGINT: exit $rc, want 130: $(cat int-err.txt)"
grep -q '^ltlkit: interrupted: stopped generating dint at [0-9]*%; rerun the same command' int-err.txt \
    || fail "SIGINT message: $(cat int-err.txt)"
signal_at_line INT '^Y a: [0-9]+% ' "$bin" generate "${big[@]}"
cp int-err.txt err.txt
[[ $rc == 130 ]] || fail "rerun after SIGINT: exit $rc (refused?): $(cat err.txt)"


# Sized by content: byte-identical adversarial files are one file (hard links), the reader reads
# each; a split without one label is warned about on stderr and in meta.json.
rm -rf dl dw
"$bin" generate 'Y a' --alphabet a,b --out dl "${small[@]}" >/dev/null 2>err.txt || fail "generate dl: $(cat err.txt)"
inodes=$(stat -c %i dl/adversarial-*.tsv | sort -u | wc -l)
sums=$(sha256sum dl/adversarial-*.tsv | awk '{ print $1 }' | sort -u | wc -l)
[[ $inodes == "$sums" ]] || fail "adversarial files: $inodes files on disk for $sums distinct contents"
"$bin" generate --regex '(ab)*' --alphabet a,b --out dw --per-length 16 --test-lengths 41:44 -q >/dev/null 2>err.txt ||
    fail "generate (ab)*: $(cat err.txt)"
grep -q '^ltlkit: warning: dw: the validation split has no accepted (positive) word' err.txt || fail "no missing-label warning: $(cat err.txt)"
python3 -c 'import json, sys; m = json.load(open("dw/meta.json")); assert any("validation split has no accepted" in w for w in m["warnings"])' ||
    fail "meta.json has no warning"
"$bin" generate 'Y a' --alphabet a,b --out dl "${small[@]}" 2>err.txt | grep -q unchanged || fail "linked dataset not verified unchanged"

if [[ $fails -gt 0 ]]; then echo "$fails failure(s)"; exit 1; fi
echo "generate: all checks passed"
