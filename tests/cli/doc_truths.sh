#!/usr/bin/env bash
# One truth per rule: what the documents say about the success rules, the profiles and the fit
# check is what the code defines (neural/run.hh SuccessRule, kFitThreshold, kMinFitWords;
# neural/verify/profiles.cc), read from `ltlkit verify --list-profiles --markdown`:
#  1. docs/PROTOCOL.md's profile table ("## Profiles") is that table, line for line;
#  2. PROTOCOL's "Success" line and README's sentence list each rule's profiles as the table does,
#     with the rule's words as the code says them, and `train --help` says them too;
#  3. every listed profile checks the fit on at least the protocol's words, and PROTOCOL's and
#     README's sentences about the fit check name that number and the threshold;
#  4. `verify --help` lists the profiles of the table and names the default profile's rule as the
#     table does;
#  5. docs/PROTOCOL.md's legend of the summary marks is `ltlkit report --legend --markdown`, and the
#     text and Markdown legends agree.
# Usage: bash doc_truths.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
if [[ ! -x $(dirname "$bin")/ltlkit-neural ]]; then
    echo "skip: no ltlkit-neural next to $bin (built without LibTorch)"
    exit 0
fi
protocol=$src/docs/PROTOCOL.md
readme=$src/README.md

"$bin" verify --list-profiles --markdown > table.md 2> err.txt || fail "verify --list-profiles --markdown: $(cat err.txt)"
"$bin" verify --list-profiles > table.txt 2> err.txt || fail "verify --list-profiles: $(cat err.txt)"
[[ $(grep -c '^[a-z]' table.txt) == $(($(wc -l < table.md) - 2)) ]] || fail "the text and Markdown tables list different profiles"

# 1. The table in PROTOCOL.md.
awk '/^## Profiles/ { on = 1; next } on && /^\|/ { print; seen = 1; next } seen { exit }' "$protocol" > doc-table.md
diff doc-table.md table.md > table.diff || fail "docs/PROTOCOL.md's profile table is not \`ltlkit verify --list-profiles --markdown\`: $(cat table.diff)"

# The rows: profile name, success column ("`bins99`: every ..."), fit column ("4,000 words < 99%: ...").
col() { awk -F' \\| ' -v c="$1" 'NR > 2 { gsub(/^\| |`/, "", $1); print $c }' table.md; }
mapfile -t names < <(col 1)
mapfile -t success < <(col 6)
mapfile -t fit < <(col 7)
[[ ${#names[@]} -ge 5 ]] || fail "the table has ${#names[@]} profiles"
declare -A by_rule describe
for i in "${!names[@]}"; do
    rule=${success[$i]%%:*}
    rule=${rule//\`/}
    describe[$rule]=${success[$i]#*: }
    by_rule[$rule]+="${by_rule[$rule]:+, }\`${names[$i]}\`"
done
[[ -n ${by_rule[exact]:-} && -n ${by_rule[bins99]:-} ]] || fail "the table names no profile for a rule: ${!by_rule[*]}"

# 2. PROTOCOL "Evaluation": "`exact`, 100% at every test length (profiles `cpu`, ...".
text=$(tr '\n' ' ' < "$protocol" | tr -s ' ')
readme_text=$(tr '\n' ' ' < "$readme" | tr -s ' ')
for rule in "${!by_rule[@]}"; do
    want="\`$rule\`, ${describe[$rule]} (profiles ${by_rule[$rule]}"
    [[ $text == *"$want"* ]] || fail "docs/PROTOCOL.md does not say: $want"
    # README: "`exact` (100% at every test length) for `cpu`, ..."
    want="\`$rule\` (${describe[$rule]}) for ${by_rule[$rule]}"
    [[ $readme_text == *"$want"* ]] || fail "README.md does not say: $want"
done
# `train`'s default, in its --help and in README.
help=$("$bin" train --help 2>&1 | tr '\n' ' ' | tr -s ' ')
[[ $help == *"exact (default: ${describe[exact]})"* && $help == *"bins99 (${describe[bins99]}"* ]] ||
    fail "train --help does not describe the rules as the code does: $(grep -o 'exact (default[^|]*' <<< "$help")"
[[ $readme_text == *"\`train\` judges a run by \`exact\` (${describe[exact]}) by default"* ]] ||
    fail "README.md does not say train's default rule as the code does"
# No document says the old, wrong words.
for f in "$readme" "$protocol"; do
    grep -n 'every test length at >= 99%\|every test length >= 99%' "$f" && fail "$f still says exact is >= 99%"
done

# 3. The fit check: every listed profile's sample and threshold ("4,000 words, accuracy < 0.99: ...").
least=
threshold=
for f in "${fit[@]}"; do
    n=${f%% words*}
    n=${n//,/}
    [[ $n =~ ^[0-9]+$ ]] || { fail "fit column: $f"; continue; }
    ((n >= 4000)) || fail "a profile checks the fit on $n words, under the protocol's 4,000: $f"
    [[ -z $least || $n -lt $least ]] && least=$n
    t=${f#*< }
    t=${t%%:*}
    [[ -z $threshold || $threshold == "$t" ]] || fail "the profiles' fit thresholds differ: $threshold, $t"
    threshold=$t
done
grouped=$(sed -E ':a;s/^([0-9]+)([0-9]{3})/\1,\2/;ta' <<< "$least")  # 4000 -> 4,000
[[ $text == *"Every profile trains on lengths 1..40 and checks the fit on $grouped fresh words"* ]] ||
    fail "docs/PROTOCOL.md's Profiles sentence does not say $grouped fit words"
[[ $text == *"the model answers at least $grouped fresh words"*"At an accuracy < $threshold the run is \`failed_to_fit\`"* ]] ||
    fail "docs/PROTOCOL.md's Fit check does not say at least $grouped words, accuracy < $threshold"
[[ $readme_text == *"every profile checks the fit on $grouped fresh words (accuracy < $threshold: \`failed_to_fit\`)"* ]] ||
    fail "README.md does not say the fit check as the code does: $grouped words, accuracy < $threshold"

# 4. `verify --help`: the profiles, in the table's order, and the default's rule in the table's words.
vhelp=$("$bin" verify --help 2>&1 | tr '\n' ' ' | tr -s ' ')
listed=$(IFS='|'; echo "${names[*]}")
[[ $vhelp == *"--profile $listed "* ]] || fail "verify --help does not list the table's profiles: $listed"
if [[ $vhelp =~ \(default:\ ([a-z-]+),\ judged\ by\ ([a-z0-9]+):\ ([^\;]*)\; ]]; then
    def=${BASH_REMATCH[1]} def_rule=${BASH_REMATCH[2]} def_words=${BASH_REMATCH[3]}
    for i in "${!names[@]}"; do
        [[ ${names[$i]} == "$def" ]] || continue
        want_rule=${success[$i]%%:*}
        want_rule=${want_rule//\`/}
        [[ $def_rule == "$want_rule" && $def_words == "${describe[$want_rule]}" ]] ||
            fail "verify --help: default $def judged by $def_rule ($def_words); the table: $want_rule (${describe[$want_rule]:-})"
        def=
    done
    [[ -z $def ]] || fail "verify --help's default profile $def is not in the table"
else
    fail "verify --help does not name the default profile and its rule: $(grep -o 'default: [^;]*' <<< "$vhelp" | head -n 1)"
fi

# 5. The summary marks: PROTOCOL's legend table is the code's.
"$bin" report --legend --markdown > legend.md 2> err.txt || fail "report --legend --markdown: $(cat err.txt)"
"$bin" report --legend > legend.txt 2> err.txt || fail "report --legend: $(cat err.txt)"
[[ $(wc -l < legend.txt) -ge 3 && $(wc -l < legend.txt) == $(($(wc -l < legend.md) - 2)) ]] ||
    fail "the text and Markdown legends list different marks"
while IFS=$'\t' read -r mark id words; do
    grep -qxF "| \`$mark\` | \`$id\` | $words |" legend.md || fail "legend.md lacks $mark $id"
done < legend.txt
awk '/^\| mark \| evidence \| legend \|/ { on = 1 } on && /^\|/ { print; next } on { exit }' "$protocol" > doc-legend.md
diff doc-legend.md legend.md > legend.diff ||
    fail "docs/PROTOCOL.md's legend of the summary marks is not \`ltlkit report --legend --markdown\`: $(cat legend.diff)"

if ((fails)); then
    echo "$fails failure(s)"
    exit 1
fi
echo "ok: ${#names[@]} profiles, $(wc -l < legend.txt) marks; docs/PROTOCOL.md, README.md, train --help and verify --help agree with the code"
