#!/usr/bin/env bash
# Strict input: numbers out of range, negative counts, nan, unknown devices, empty option values,
# duplicate JSON keys, byte order marks, empty suites and directories are refused with the exit
# codes of docs/ERRORS.md, before anything is written; errors escape control bytes, keep UTF-8
# whole, print at most one bounded line of context; suite errors say FILE:LINE.
# Usage: bash strict_input.sh LTLKIT_BIN SOURCE_DIR (run in a scratch folder)
set -u
bin=$1
neural=$(dirname "$bin")/ltlkit-neural
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
export LC_ALL=C.UTF-8

rm -rf strict && mkdir strict && cd strict || exit 1
snapshot() { find . -path ./err.txt -prune -o -path ./out.txt -prune -o -print | sort; }

# check WANT_RC WANT_FIRST_LINE_PREFIX ARGS...: exit code, first stderr line, one stderr line at
# most (three with a caret display), empty stdout, and no file or folder created or changed.
check() {
    local want_rc=$1 want=$2 rc before after
    shift 2
    before=$(snapshot)
    "$bin" "$@" >out.txt 2>err.txt < /dev/null
    rc=$?
    after=$(snapshot)
    [[ $rc -eq $want_rc ]] || fail "[$*]: exit $rc, want $want_rc"
    [[ -s out.txt ]] && fail "[$*]: stdout not empty: $(head -c 200 out.txt)"
    [[ $(head -n 1 err.txt) == "$want"* ]] || { fail "[$*]: first stderr line"; echo "   got: $(head -n 1 err.txt)"; echo "  want: $want..."; }
    [[ $(wc -l < err.txt) -le 3 ]] || fail "[$*]: $(wc -l < err.txt) stderr lines"
    [[ $before == "$after" ]] || { fail "[$*]: wrote files"; diff <(echo "$before") <(echo "$after") | grep '^[<>]'; }
}

# --- Numbers: no saturation, no wrap-around, no octal/hex, no nan; bounds named.
small=(--alphabet a,b --train-lengths 1:3 --test-lengths 4:5 --per-length 2 --boundary-per-length 1 --no-adversarial)
check 2 "ltlkit: error: --seed: '99999999999999999999999' is out of range" generate 'Y a' --out g --seed 99999999999999999999999
check 2 "ltlkit: error: --per-length: must be at least 1, not '-1'" generate 'Y a' --out g --per-length -1
check 2 "ltlkit: error: --boundary-per-length: expected a whole number >= 0, not '-1'" generate 'Y a' --out g --boundary-per-length -1
check 2 "ltlkit: error: --seed: expected a whole number >= 0, not '0x10'" generate 'Y a' --out g --seed 0x10
check 2 "ltlkit: error: --seed: expected a whole number >= 0, not '1e3'" generate 'Y a' --out g --seed 1e3
check 2 "ltlkit: error: --seed: expected a whole number >= 0, not ' 5'" generate 'Y a' --out g --seed ' 5'
check 2 "ltlkit: error: --max-states: expected a whole number >= 0, not '-'" compile 'Y a' --max-states -
check 2 "ltlkit: error: --max-states: expected a whole number >= 0, not ''" compile 'Y a' --max-states ''
check 2 "ltlkit: error: --max-states: '18446744073709551616' is out of range" compile 'Y a' --max-states 18446744073709551616
check 2 "ltlkit: error: --max-k: " classify 'Y a' --max-k 99999999999
check 2 "ltlkit: error: --max-elements: expected a whole number >= 0, not '1.5'" monoid 'Y a' --max-elements 1.5
# Leading zeros are decimal, not octal: --seed 010 makes the dataset of --seed 10.
"$bin" generate 'Y a' "${small[@]}" --out s010 --seed 010 -q || fail "--seed 010 refused"
"$bin" generate 'Y a' "${small[@]}" --out s10 --seed 10 -q || fail "--seed 10 refused"
"$bin" generate 'Y a' "${small[@]}" --out s8 --seed 8 -q || fail "--seed 8 refused"
cmp -s s010/meta.json s10/meta.json || fail "--seed 010 is not --seed 10"
cmp -s s010/test.tsv s8/test.tsv && fail "--seed 010 was read as octal 8"
# An empty value of a named option is not "not given"; the empty word stays a word.
check 2 "ltlkit: error: --out: expected a value, not an empty string" generate 'Y a' --out ''
check 2 "ltlkit: error: --output: expected a value, not an empty string" compile 'Y a' -o ''
check 2 "ltlkit: error: --alphabet: empty alphabet: list its symbols" compile 'Y a' --alphabet ''
[[ $("$bin" accepts 'P a' --alphabet a,b '' a 2>/dev/null) == $'\t0\na\t1' ]] || fail "the empty word is not accepted as a word"

# --- Duplicate JSON keys, named with their position, in every JSON ltlkit reads.
printf '{"alphabet": ["a","b"], "initial": 0, "initial": 1, "accepting": [1], "transitions": [[1,0],[1,0]]}\n' > dup.json
check 2 'ltlkit: error: dup.json:1:39: duplicate key "initial" (a key may appear only once in an object)' compile --dfa dup.json
check 2 'ltlkit: error: dup.json:1:39: duplicate key "initial"' equiv dfa:dup.json 'Y a'
"$bin" classify 'Y a' --alphabet a,b --certificates certs > /dev/null || fail "classify --certificates"
sed '/"initial"/p' certs/definite.json > dupcert.json
check 2 'ltlkit: error: dupcert.json:8:5: duplicate key "initial" in the object at /dfa' check-certificate dupcert.json
"$bin" generate 'Y a' "${small[@]}" --out ds -q || fail "generate ds"
sed -i '2p' ds/meta.json  # "generator" twice; the checksum of the deduplicated content still matches
check 2 'ltlkit: error: ds/meta.json:3:3: duplicate key "generator"' generate 'Y a' "${small[@]}" --out ds -q

# --- Error output: control bytes escaped, UTF-8 whole, one bounded line of context.
check 2 "ltlkit: error: 1:4: expected a formula or an operator, found unknown character '\\x1b'" compile $'P(a\x1b[31m)'
grep -q $'\x1b' err.txt && fail "ESC echoed raw: $(cat -A err.txt)"
[[ $(sed -n 2p err.txt) == '  P(a\x1b[31m)' ]] || fail "context line: $(sed -n 2p err.txt)"
printf 'P(a\0b)\n' > nul.txt
check 2 "ltlkit: error: nul.txt:1:4: expected a formula or an operator, found unknown character '\\x00'" compile --input nul.txt
printf '{"alphabet": ["\xe2\x82"], "initial": 0}' > half.json
check 2 "ltlkit: error: half.json:1:17: malformed JSON: " compile --dfa half.json
iconv -f UTF-8 -t UTF-8 err.txt > /dev/null 2>&1 || fail "error is not valid UTF-8: $(cat -A err.txt)"
grep -q 'last read: .*\\xe2\\x82' err.txt || fail "half a character not escaped: $(cat -A err.txt)"
# A 120 KB line: the message, the context and the caret stay short; the caret still points at '&&'.
{ printf 'P('; for ((i = 0; i < 30000; i++)); do printf 'a | '; done; printf 'a &&b)\n'; } > long.txt
check 2 "ltlkit: error: long.txt:1:120005: expected '&' for conjunction" compile --input long.txt --alphabet a,b
[[ $(wc -c < err.txt) -lt 1200 ]] || fail "a 120 KB line is echoed: $(wc -c < err.txt) bytes"
context=$(sed -n 2p err.txt) caret=$(sed -n 3p err.txt)
[[ ${context:$((${#caret} - 1)):2} == '&&' ]] || fail "caret not under '&&': $(sed -n 2,3p err.txt)"
word=$(printf 'a%.0s' {1..120000})b
check 2 "ltlkit: error: word 'aaaa" accepts 'Y a' --alphabet a "$word"
[[ $(wc -c < err.txt) -lt 1200 ]] || fail "a 120 KB word is echoed: $(wc -c < err.txt) bytes"
grep -q "…a*b': symbol 'b' is not in the alphabet {a}$" err.txt || fail "end of a long message lost: $(tail -c 100 err.txt)"

# --- Suites: FILE:LINE on every error, BOM and empty suites refused.
printf 'ok\ta,b\tformula\tY a\nbad\ta,b\tformula\tP(a &&b)\n' > formula.suite
check 2 "ltlkit: error: formula.suite:2:21: expected '&' for conjunction" generate --suite formula.suite --out x
[[ $(sed -n 2p err.txt) == $'  bad\ta,b\tformula\tP(a &&b)' && $(sed -n 3p err.txt) == $'     \t   \t       \t    ^' ]] ||
    fail "suite caret display: $(sed -n 2,3p err.txt | cat -A)"
printf 'ok\ta,b\tformula\tY a\nd\ta,b\tdfa\tdup.json\n' > dfa.suite
check 2 "ltlkit: error: dfa.suite:2: language 'd': dup.json:1:39: duplicate key \"initial\"" generate --suite dfa.suite --out x
printf 'big\ta,b\tformula\tY Y Y Y Y Y Y Y Y Y a\n' > big.suite
check 3 "ltlkit: error: big.suite:1: language 'big': the monitor of the formula has more than 100 reachable states; raise --max-states" \
    generate --suite big.suite --out x --max-states 100
printf 'nosym\t\tformula\ttrue\n' > nosym.suite
check 2 "ltlkit: error: nosym.suite:1:7: no alphabet for the formula of language 'nosym'" generate --suite nosym.suite --out x
printf '\xef\xbb\xbfok\ta,b\tformula\tY a\n' > bom.suite
check 2 "ltlkit: error: bom.suite:1:1: the file starts with a UTF-8 byte order mark (BOM); save it without one" generate --suite bom.suite --out x
printf '\xef\xbb\xbfY a\n' > bom.txt
check 2 "ltlkit: error: bom.txt:1:1: the file starts with a UTF-8 byte order mark" compile --input bom.txt
check 2 "ltlkit: error: bom.txt:1:1: the file starts with a UTF-8 byte order mark" accepts 'Y a' --words bom.txt
printf '\xef\xbb\xbf{"alphabet": ["a"], "initial": 0, "accepting": [], "transitions": [[0]]}' > bom.json
check 2 "ltlkit: error: bom.json:1:1: the file starts with a UTF-8 byte order mark" compile --dfa bom.json
printf '# nothing here\n\n' > empty.suite
check 2 "ltlkit: error: empty.suite: no language in the suite" generate --suite empty.suite --out x

# --- A directory where a file is expected: an I/O error (exit 4) saying so.
mkdir adir
check 4 "ltlkit: error: adir: is a directory, not a file" compile --dfa adir
check 4 "ltlkit: error: adir: is a directory, not a file" check-certificate adir
check 4 "ltlkit: error: adir: is a directory, not a file" compile --input adir
check 4 "ltlkit: error: adir: is a directory, not a file" equiv --input adir
check 4 "ltlkit: error: adir: is a directory, not a file" accepts 'Y a' --words adir
check 4 "ltlkit: error: language B: adir: is a directory, not a file" equiv 'Y a' dfa:adir
check 4 "ltlkit: error: adir: is a directory, not a file" generate --suite adir --out x

# --- The neural commands (where ltlkit-neural is built): refused at parse time, nothing written.
if [[ -x $neural ]]; then
    check 2 "ltlkit: error: --max-memory-gb: expected a finite number, not 'nan'" train 'Y a' --out t --max-memory-gb nan
    check 2 "ltlkit: error: --lr: expected a finite number, not 'inf'" train 'Y a' --out t --lr inf
    check 2 "ltlkit: error: --lr: must be a positive number, not '0'" train 'Y a' --out t --lr 0
    check 2 "ltlkit: error: --threads: must be at least 1, not '0'" train 'Y a' --out t --threads 0
    check 2 "ltlkit: error: --steps: must be at least 0, not '-5'" train 'Y a' --out t --steps -5
    check 2 "ltlkit: error: --batch: must be at least 2, not '1'" train 'Y a' --out t --batch 1
    check 2 "ltlkit: error: --seed: '99999999999999999999999' is out of range" train 'Y a' --out t --seed 99999999999999999999999
    check 2 "ltlkit: error: --device: unknown value 'bogus' (expected auto, cpu or cuda)" train 'Y a' --out t --device bogus
    check 2 "ltlkit: error: --pe: unknown value 'bogus'" train 'Y a' --out t --pe bogus
    check 2 "ltlkit: error: --out: expected a value, not an empty string" train 'Y a' --out ''
    check 2 "ltlkit: error: --d-model 65 must be a multiple of --heads 8" train 'P a' --alphabet a,b --out t --d-model 65 --heads 8
    check 2 "ltlkit: error: --fit-target must be in (0, 1]" train 'P a' --alphabet a,b --out t --fit-check-every 10 --fit-target 1.5
    check 2 "ltlkit: error: --fit-check-words: must be at least 2, not '1'" train 'P a' --alphabet a,b --out t --fit-check-words 1
    [[ -e t ]] && { echo "FAIL: a refused training wrote t/"; fails=$((fails + 1)); }
    check 2 "ltlkit: error: cell 'nope:global': no language named 'nope' in the suite" verify 'Y a' --alphabet a,b --out v --only nope:global
    check 2 "ltlkit: error: cell 'Y a:local-3': local-3 is not among --archs" verify 'Y a' --alphabet a,b --out v --archs global --only 'Y a:local-3'
    check 2 "ltlkit: error: cell 'Y a': expected LANGUAGE:ARCH" verify 'Y a' --alphabet a,b --out v --only 'Y a'
    check 2 "ltlkit: error: no-such-file: cannot open file for reading" verify 'Y a' --alphabet a,b --out v --cells no-such-file
    [[ -e v ]] && { echo "FAIL: a refused verify wrote v/"; fails=$((fails + 1)); }
    check 2 "ltlkit: error: --steps: must be at least 1, not '-5'" verify 'Y a' --out v --steps -5
    check 2 "ltlkit: error: --device: unknown value 'bogus' (expected auto, cpu or cuda)" verify 'Y a' --out v --device bogus
    check 2 "ltlkit: error: --threads: must be at least 1, not '0'" verify 'Y a' --out v --threads 0
    check 2 "ltlkit: error: --seeds: must be at least 1, not '0'" verify 'Y a' --out v --seeds 0
    check 2 "ltlkit: error: --max-memory-gb: expected a finite number, not 'inf'" verify 'Y a' --out v --max-memory-gb inf
    check 2 "ltlkit: error: --shard expects i/n with 0 <= i < n, got '1/0'" verify 'Y a' --alphabet a,b --out v --shard 1/0
    check 2 "ltlkit: error: --shard: expected a value, not an empty string" verify 'Y a' --out v --shard ''
    check 2 "ltlkit: error: empty.suite: no language in the suite" verify --suite empty.suite --out v
    check 2 "ltlkit: error: formula.suite:2:21: expected '&' for conjunction" verify --suite formula.suite --out v
    check 4 "ltlkit: error: adir: is a directory, not a file" verify --suite adir --out v
    check 2 "ltlkit: error: --device: unknown value 'bogus'" eval norun --device bogus
    check 2 "ltlkit: error: --per-length: must be at least 1, not '-1'" eval norun --per-length -1
    check 2 'ltlkit: error: ds/meta.json:3:3: duplicate key "generator"' train --dataset ds --out t
else
    echo "SKIP: neural commands (no ltlkit-neural)"
fi

if [[ $fails -gt 0 ]]; then echo "$fails failure(s)"; exit 1; fi
echo "strict_input.sh: all passed"
