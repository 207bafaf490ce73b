#!/usr/bin/env bash
# Bad input to compile / accepts / equiv: exit code 2 (3 for a limit), nothing
# on stdout, and a first stderr line `ltlkit: error: ...` that says what and where.
# Usage: bash bad_input.sh LTLKIT_BIN SOURCE_DIR (run in a scratch folder)
set -u
bin=$1
fails=0

# check WANT_RC WANT_FIRST_LINE_PREFIX ARGS...
check() {
    local want_rc=$1 want=$2 out rc err
    shift 2
    out=$("$bin" "$@" 2>err.txt < /dev/null); rc=$?
    err=$(head -n 1 err.txt)
    if [[ $rc -ne $want_rc ]]; then echo "FAIL [$*]: exit $rc, want $want_rc"; fails=$((fails + 1)); fi
    if [[ -n $out ]]; then echo "FAIL [$*]: stdout not empty: $out"; fails=$((fails + 1)); fi
    if [[ $err != "$want"* ]]; then
        echo "FAIL [$*]: first stderr line"; echo "   got: $err"; echo "  want: $want..."
        fails=$((fails + 1))
    fi
}

# Malformed formulas (docs/SYNTAX.md §2 positions) through every command.
check 2 "ltlkit: error: 1:9: expected ')'" compile 'P (a & b'
check 2 "ltlkit: error: 1:3: expected '&'" accepts 'a && b' ab
check 2 "ltlkit: error: 1:4: expected a window k >= 1" equiv 'Y<=0 a' 'Y a'
check 2 "ltlkit: error: 1:4: expected a window k >= 1 after 'Y<=', found 0 (in language B)" equiv 'Y a' 'Y<=0 a'
# A symbol outside the declared alphabet points at the symbol; no symbol at all asks for --alphabet.
check 2 "ltlkit: error: 2:5: symbol 'c' is not in the alphabet {a,b}" compile $'P(a &\n  Y c)' --alphabet a,b
check 2 "ltlkit: error: the formula has no symbol" compile 'P true'
check 2 "ltlkit: error: alphabet 'a,,b': empty symbol" compile 'Y a' --alphabet a,,b
check 2 "ltlkit: error: alphabet 'a,b,a': symbol 'a' appears twice" compile 'Y a' --alphabet a,b,a
# Malformed regex.
check 2 "ltlkit: error: 1:" compile --regex '(ab'
# DFA files: partial, malformed, out of range, unreadable.
printf '{"alphabet": ["a","b"], "initial": 0, "accepting": [1], "transitions": [[1,0],[1]]}' > partial.json
check 2 "ltlkit: error: partial.json: DFA JSON: state 1 has no transition on symbol 'b'" compile --dfa partial.json
printf '{"alphabet": ["a"],\n "initial": 0\n "accepting": []}' > malformed.json
check 2 "ltlkit: error: malformed.json:3:12: malformed JSON" compile --dfa malformed.json
printf '{"alphabet": ["a"], "initial": 0, "accepting": [4], "transitions": [[0]]}' > range.json
check 2 "ltlkit: error: range.json: DFA JSON: accepting state 4 is not a state" accepts --dfa range.json a
check 2 "ltlkit: error: nope.json: cannot open file for reading" compile --dfa nope.json
check 2 "ltlkit: error: language B: nope.json: cannot open" equiv 'Y a' dfa:nope.json
printf '{"alphabet": ["a","b"], "initial": 0, "accepting": [1], "transitions": [[1,0],[1,0]]}' > ab.json
check 2 "ltlkit: error: ab.json: symbol 'b' of the DFA is not in the given alphabet" compile --dfa ab.json --alphabet a,c
# Words with symbols outside the alphabet: nothing printed, not even for the good words before.
check 2 "ltlkit: error: word 'abc': symbol 'c' is not in the alphabet {a,b}" accepts 'P(b & Y a)' ab abc
check 2 "ltlkit: error: word 'b0 b2': symbol 'b2'" accepts 'P(b0 & Y b1)' 'b0 b1' 'b0 b2'
# Language selection and usage errors (CLI11's own errors also exit 2).
check 2 "ltlkit: error: no language given" compile
check 2 "ltlkit: error: give exactly one of FORMULA, --regex and --dfa" compile 'Y a' --regex a
check 2 "ltlkit: error: " compile 'Y a' --format svg
check 2 "ltlkit: error: " compile 'Y a' --bogus
check 2 "ltlkit: error: " compile 'Y a' --max-states lots
check 2 "ltlkit: error: give two languages" equiv 'Y a'
check 2 "ltlkit: error: language A is empty" equiv 'regex:' 'Y a'
# Batch input: a bad line stops everything before any output, with its line number.
printf 'Y a\nH a\nP(b &\n' > batch.txt
check 2 "ltlkit: error: batch.txt:3:6: expected a formula" compile --input batch.txt --format json --alphabet a,b
check 2 "ltlkit: error: missing.txt: cannot open file for reading" compile --input missing.txt
printf 'Y a\tH a\nY a\n' > pairs.txt
check 2 "ltlkit: error: pairs.txt:2: expected two languages separated by a tab" equiv --input pairs.txt
# A construction over --max-states stops with exit 3 and names the option.
check 3 "ltlkit: error: the monitor of the formula has more than 100 reachable states; raise --max-states" \
    compile 'Y Y Y Y Y Y Y Y Y a' --alphabet a,b --max-states 100

# The caret display follows a parse error.
"$bin" compile $'P(a &\n  Y c)' --alphabet a,b 2>err.txt >/dev/null
if [[ $(sed -n 2p err.txt) != '    Y c)' || $(sed -n 3p err.txt) != '      ^' ]]; then
    echo "FAIL: caret display"; cat err.txt; fails=$((fails + 1))
fi

# Bare `ltlkit`: exit 2, nothing on stdout, the error line, then exactly the commands of
# `ltlkit --help` (name and description, one line each; CLI11 formats that list independently).
out=$("$bin" 2>err.txt < /dev/null); rc=$?
listed=$(sed -n '2,$p' err.txt | grep '^  ' | tr -s ' ')
helped=$("$bin" --help | sed -n '/^Subcommands:/,$p' | grep '^  ' | tr -s ' ')
if [[ $rc -ne 2 || -n $out || $(head -n 1 err.txt) != "ltlkit: error: no command given; the commands are:" ]]; then
    echo "FAIL: bare ltlkit (rc=$rc, out=$out)"; cat err.txt; fails=$((fails + 1))
fi
if [[ -z $listed || $listed != "$helped" ]]; then
    echo "FAIL: bare ltlkit lists other commands than --help"; diff <(echo "$listed") <(echo "$helped"); fails=$((fails + 1))
fi
if [[ $(grep -c '^  ' err.txt) -lt 10 || $(tail -n 1 err.txt) != "Run 'ltlkit COMMAND --help'"* ]]; then
    echo "FAIL: bare ltlkit: short list or no pointer to --help"; cat err.txt; fails=$((fails + 1))
fi

# A misspelt option names the command and its closest option (docs/ERRORS.md); one with no near
# option points at --help; a stray positional argument keeps CLI11's message.
check 2 "ltlkit: error: unknown option '--alphabt' for 'classify' (did you mean --alphabet?)" classify 'P a' --alphabt a,b
check 2 "ltlkit: error: unknown option '--alphabt' for 'classify' (did you mean --alphabet?)" classify 'P a' --alphabt=a,b
check 2 "ltlkit: error: unknown option '--max-state' for 'compile' (did you mean --max-states?)" compile 'P a' --max-state 3
check 2 "ltlkit: error: unknown option '--per-lenght' for 'generate' (did you mean --per-length?)" generate 'Y a' --out x --per-lenght 3
check 2 "ltlkit: error: unknown option '--chek' for 'accepts' (did you mean --check?)" accepts 'P a' ab --chek
check 2 "ltlkit: error: unknown option '--frobnicate' for 'classify' (see 'ltlkit classify --help' for the options)" classify 'P a' --frobnicate
check 2 "ltlkit: error: unknown option '--bogus' (see 'ltlkit --help' for the options)" --bogus
check 2 "ltlkit: error: '--alphabet' is an option of a command: write the command first (ltlkit COMMAND --alphabet ...)" --alphabet a,b
check 2 "ltlkit: error: The following argument was not expected: extra" fragment 'P a' extra
# Arguments after `--` are not options: a formula that starts with '--' is not taken for one.
check 2 "ltlkit: error: The following argument was not expected: --alphabt" fragment 'P a' -- --alphabt

if [[ $fails -gt 0 ]]; then echo "$fails failure(s)"; exit 1; fi
echo "bad_input.sh: all passed"
