#!/usr/bin/env bash
# Malformed formulas given to `ltlkit fragment`: exit code 2, nothing on stdout, and the first
# stderr line exactly `ltlkit: error: LINE:COL: ...` (docs/SYNTAX.md §2; columns in characters).
# Usage: bash parse_errors.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
fails=0

check() {  # check FORMULA EXPECTED_FIRST_LINE
    local formula=$1 want=$2 out err rc
    out=$("$bin" fragment "$formula" 2>err.txt); rc=$?
    err=$(head -n 1 err.txt)
    if [[ $rc -ne 2 ]]; then echo "FAIL [$formula]: exit $rc, want 2"; fails=$((fails + 1)); fi
    if [[ -n $out ]]; then echo "FAIL [$formula]: stdout not empty: $out"; fails=$((fails + 1)); fi
    if [[ $err != "$want" ]]; then
        echo "FAIL [$formula]: first stderr line"; echo "   got: $err"; echo "  want: $want"
        fails=$((fails + 1))
    fi
}

check 'a && b'   "ltlkit: error: 1:3: expected '&' for conjunction; '&&' is not an operator"
check 'a || b'   "ltlkit: error: 1:3: expected '|' for disjunction; '||' is not an operator"
check 'a => b'   "ltlkit: error: 1:3: expected '->' for implication; '=>' is not an operator"
check 'Y<=0 a'   "ltlkit: error: 1:4: expected a window k >= 1 after 'Y<=', found 0"
check 'P (a & b' "ltlkit: error: 1:9: expected ')' to close the '(' at 1:3, found end of input"
check 'a & b)'   "ltlkit: error: 1:6: unbalanced ')': no '(' to close"
check '¬¬a ∧ %'  "ltlkit: error: 1:7: expected a formula or an operator, found unknown character '%'"
check $'a &\n  (b |' "ltlkit: error: 2:7: expected a formula (symbol, true, false, '(' or a prefix operator), found end of input"
check '   '      "ltlkit: error: 1:4: expected a formula, found an empty input"
# Operators of other logics: the ltlkit spelling, or why there is none.
check 'O a'      "ltlkit: error: 1:1: found 'O': ltlkit writes 'once' as P (strict: 'P a' holds when a held at an earlier position; 'O a' is 'a | P a') (docs/SYNTAX.md)"
check 'a U b'    "ltlkit: error: 1:3: found 'U': a future-time operator (until) that ltlkit does not have: formulas are evaluated at the end of the word and look back; the past counterpart is S (since) (docs/SYNTAX.md)"
# A regular expression or a lower-case operator given as a formula: the hint says what to write.
check '(ab)*'    "ltlkit: error: 1:5: expected a formula or an operator, found unknown character '*' (a regular expression? formulas have no '*': give a regular expression with --regex, docs/SYNTAX.md §7)"
check 'a+'       "ltlkit: error: 1:2: expected a formula or an operator, found unknown character '+' (a regular expression? formulas have no '+': give a regular expression with --regex, docs/SYNTAX.md §7)"
check 'y a'      "ltlkit: error: 1:3: expected an operator or end of formula, found symbol 'a' (operators are upper-case: 'y' is a symbol; did you mean 'Y'?)"
check 'h(a | b)' "ltlkit: error: 1:2: expected an operator or end of formula, found '(' (operators are upper-case: 'h' is a symbol; did you mean 'H'?)"
check 'a s b'    "ltlkit: error: 1:3: expected an operator or end of formula, found symbol 's' (operators are upper-case: 's' is a symbol; did you mean 'S'?)"
check '(p !a'    "ltlkit: error: 1:4: expected an operator or ')' to close the '(' at 1:1, found '!' (operators are upper-case: 'p' is a symbol; did you mean 'P'?)"
# ...and no hint where the symbol is not an operator's letter.
check 'x a'      "ltlkit: error: 1:3: expected an operator or end of formula, found symbol 'a'"
check '~a'       "ltlkit: error: 1:1: expected '!' for negation; '~' is not an operator"

# The caret lines follow: the offending line, then a caret under the character column.
"$bin" fragment '¬¬a ∧ %' 2>err.txt >/dev/null
if [[ $(sed -n 2p err.txt) != '  ¬¬a ∧ %' || $(sed -n 3p err.txt) != '        ^' ]]; then
    echo "FAIL: caret display"; cat err.txt; fails=$((fails + 1))
fi

# Regex classes and counts (docs/SYNTAX.md §7): malformed ones through `compile --regex`, the same
# first line (and exit 2, nothing on stdout); well-formed ones compile.
check_regex() {  # check_regex REGEX ALPHABET EXPECTED_FIRST_LINE
    local out rc err
    out=$("$bin" compile --regex "$1" ${2:+--alphabet "$2"} --format text 2>err.txt); rc=$?
    err=$(head -n 1 err.txt)
    if [[ $rc -ne 2 || -n $out || $err != "$3" ]]; then
        echo "FAIL [regex $1]: exit $rc"; echo "   got: $err"; echo "  want: $3"; fails=$((fails + 1))
    fi
}
check_regex 'a{3,2}' '' "ltlkit: error: 1:6: the count {3,2} at 1:2 has its minimum above its maximum"
check_regex '[ab' '' "ltlkit: error: 1:4: expected ']' to close the class '[' at 1:1, found end of input"
check_regex '[^a]b' '' "ltlkit: error: 1:2: '[^...]' is the complement relative to the alphabet, which is not given: pass the alphabet (--alphabet a,b,...)"
check_regex 'a{x}' '' "ltlkit: error: 1:3: expected a count after '{' (r{n}, r{m,n} or r{m,}), found 'x'"
check_regex '[ax]' 'a,b' "ltlkit: error: 1:3: expected a symbol of the alphabet or ']' in the class '[' at 1:1, found 'x'"
if ! "$bin" equiv 'regex:[^a]b{2}' 'regex:(b|c)bb' --alphabet a,b,c > /dev/null; then
    echo "FAIL: [^a]b{2} is not (b|c)bb over a,b,c"; fails=$((fails + 1))
fi

# A well-formed formula still works, and a batch with one bad line prints nothing on stdout.
if [[ $("$bin" fragment 'P(b & Y<=3 a)') != 'LTL[P,Y<=3]' ]]; then echo "FAIL: good formula"; fails=$((fails + 1)); fi
printf 'Y a\nP b\na & & b\n' > batch.txt
out=$("$bin" fragment --input batch.txt 2>err.txt); rc=$?
if [[ $rc -ne 2 || -n $out || $(head -n 1 err.txt) != "ltlkit: error: batch.txt:3:5: expected a formula (symbol, true, false, '(' or a prefix operator), found '&'" ]]; then
    echo "FAIL: batch error (rc=$rc, out=$out)"; cat err.txt; fails=$((fails + 1))
fi

if [[ $fails -ne 0 ]]; then echo "$fails failure(s)"; exit 1; fi
echo "parse_errors: all checks passed"
