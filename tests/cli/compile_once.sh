#!/usr/bin/env bash
# A grid compiles and classifies each language once, whatever --threads (docs/ARCHITECTURE.md, verify's
# stages): `verify --threads 2` plans in its own process and starts worker processes that read
# plan.json and the datasets, never the command line. The test-only trace (base/trace.hh) counts the
# compilations, classifications and workers of the verify and every process it started; a rerun on
# the finished folder compiles each language at most once more and starts no worker; --threads 1 and
# --threads 2 give the same verdicts.
# Usage: bash compile_once.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
source "$src/tests/cli/kill_lib.bash"
rm -rf T1 T2 trace*.txt
printf 'last-a\ta,b\tformula\tY a\nfirst-a\ta,b\tformula\tP(a & !P true)\ncontains-ab\ta,b,c\tformula\tP(b & Y a)\n' > three.suite
vargs=(--suite three.suite --archs global,local-1 --profile tiny --device cpu --accept-cost)

count() { grep -c -x -- "$2" "$1"; }

LTLKIT_TEST_TRACE=$PWD/trace2.txt "$bin" verify "${vargs[@]}" --threads 2 --out T2 >/dev/null 2>err2.txt ||
    fail "verify --threads 2 exited $?: $(tail -2 err2.txt)"
[[ -s trace2.txt ]] || fail "no trace written (LTLKIT_TEST_TRACE)"
for lang in last-a first-a contains-ab; do
    n=$(count trace2.txt "compile $lang")
    [[ $n == 1 ]] || fail "--threads 2: $lang compiled $n times, want 1: $(sort trace2.txt | uniq -c | tr '\n' ';')"
done
n=$(grep -c '^classify ' trace2.txt)
[[ $n == 3 ]] || fail "--threads 2: $n classifications, want 3 (one per language)"
w=$(grep -c '^worker ' trace2.txt)
[[ $w == 2 ]] || fail "--threads 2: $w worker processes traced, want 2"

# A rerun on the finished folder: nothing to train, no worker, each language compiled at most once.
LTLKIT_TEST_TRACE=$PWD/trace2b.txt "$bin" verify "${vargs[@]}" --threads 2 --out T2 >/dev/null 2>err2b.txt ||
    fail "rerun exited $?: $(tail -2 err2b.txt)"
grep -q "already finished, 0 to train" err2b.txt || fail "rerun: $(grep 'to train' err2b.txt)"
[[ $(grep -c '^worker ' trace2b.txt) == 0 ]] || fail "a rerun with nothing to train started workers"
for lang in last-a first-a contains-ab; do
    n=$(count trace2b.txt "compile $lang")
    [[ $n -le 1 ]] || fail "rerun: $lang compiled $n times"
done

# --threads 1: the same compilations, no worker, the same verdicts.
LTLKIT_TEST_TRACE=$PWD/trace1.txt "$bin" verify "${vargs[@]}" --threads 1 --out T1 >/dev/null 2>err1.txt ||
    fail "verify --threads 1 exited $?: $(tail -2 err1.txt)"
[[ $(grep -c '^worker ' trace1.txt) == 0 ]] || fail "--threads 1 started workers"
[[ "$(grep -v '^worker ' trace1.txt | sort)" == "$(grep -v '^worker ' trace2.txt | sort)" ]] ||
    fail "--threads 1 and 2 compile or classify differently"
verdicts() { python3 -c 'import json,sys; print(sorted((v["language"],v["arch"],v["verdict"]) for v in json.load(open(sys.argv[1]))))' "$1"; }
[[ "$(verdicts T1/verdicts.json)" == "$(verdicts T2/verdicts.json)" ]] || fail "--threads 1 and 2 give other verdicts"

((fails == 0)) && echo "compile_once: 3 languages, --threads 2: $(wc -l < trace2.txt) traced events ($(grep -c '^worker ' trace2.txt) workers), each language compiled and classified once"
exit $((fails > 0))
