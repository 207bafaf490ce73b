#!/usr/bin/env bash
# The tables of docs/SYNTAX.md, read from the file itself, hold for this version:
# - section 4: every formula equals its regex, and every pair of formulas is equivalent
#   (`ltlkit equiv`, over {a,b});
# - section 6: every translation of a NuSMV past operator (non-strict: the current position counts)
#   agrees, on every word over {a,b} up to length 6, with that operator's definition evaluated here
#   in Python at the EOS position, independently of ltlkit.
# Usage: bash syntax_examples.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
doc=$src/docs/SYNTAX.md
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# section N: the table rows ("| `...") of "## N." up to the next "## ".
rows() { awk -v n="## $1." 'index($0, n) == 1 { on = 1; next } on && /^## / { exit } on && /^\| `/' "$doc"; }
# The first backticked text of a table cell, with "\|" unescaped.
code() { sed -E 's/\\\|/\x01/g' <<<"$1" | awk -F'|' -v c="$2" '{ print $(c + 1) }' | sed -E 's/^[^`]*`([^`]*)`.*$/\1/; s/\x01/|/g'; }

n=0
while IFS= read -r row; do
    formula=$(code "$row" 1)
    other=$(code "$row" 2)
    [[ -n $formula && -n $other ]] || { fail "unreadable row: $row"; continue; }
    if "$bin" fragment "$other" >/dev/null 2>&1; then  # none of the regexes of the table parses as a formula
        rhs=$other           # a formula
    else
        rhs="regex:$other"   # a regex
    fi
    out=$("$bin" equiv "$formula" "$rhs" --alphabet a,b 2>&1)
    [[ $? == 0 ]] || fail "SYNTAX.md §4: '$formula' vs '$rhs': $out"
    n=$((n + 1))
done < <(rows 4)
[[ $n -ge 20 ]] || fail "only $n rows in section 4"

# Section 6: rows whose first column is a NuSMV past operator with φ (and ψ).
words=$(python3 -c '
import itertools
for n in range(7):
    for w in itertools.product("ab", repeat=n): print("".join(w))')
m=0
while IFS= read -r row; do
    theirs=$(code "$row" 1)
    ours=$(code "$row" 3)
    [[ $theirs =~ ^(Y|Z|O|H)\ φ$ || $theirs =~ ^φ\ (S|T)\ ψ$ ]] || continue
    ours_ab=$(sed 's/φ/a/g; s/ψ/b/g' <<<"$ours")
    got=$(printf '%s\n' "$words" | "$bin" accepts "$ours_ab" --alphabet a,b --words - | cut -f2 | tr -d '\n')
    want=$(printf '%s\n' "$words" | python3 -c '
import sys
op = sys.argv[1]
def at(w, i, s): return i <= len(w) and w[i - 1] == s   # positions 1..n+1; no symbol at EOS
def holds(w):
    i = len(w) + 1
    a = lambda j: at(w, j, "a")
    b = lambda j: at(w, j, "b")
    if op == "Y φ": return i > 1 and a(i - 1)
    if op == "Z φ": return i == 1 or a(i - 1)
    if op == "O φ": return any(a(j) for j in range(1, i + 1))
    if op == "H φ": return all(a(j) for j in range(1, i + 1))
    if op == "φ S ψ": return any(b(j) and all(a(l) for l in range(j + 1, i + 1)) for j in range(1, i + 1))
    if op == "φ T ψ": return all(b(j) or any(a(l) for l in range(j + 1, i + 1)) for j in range(1, i + 1))
    raise SystemExit("unknown operator " + op)
print("".join("1" if holds(w) else "0" for w in sys.stdin.read().split("\n")[:-1]))' "$theirs")
    [[ -n $got && $got == "$want" ]] || fail "SYNTAX.md §6: '$theirs' is not '$ours_ab' (ltlkit $got, definition $want)"
    m=$((m + 1))
done < <(rows 6)
[[ $m -ge 6 ]] || fail "only $m operator rows checked in section 6"

[[ $fails == 0 ]] && echo "syntax_examples: all passed ($n equivalences, $m operators)"
exit $((fails > 0))
