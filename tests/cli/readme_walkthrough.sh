#!/usr/bin/env bash
# The command block of README.md ("## Commands"), read from README.md itself so that the two cannot
# drift: every command runs, and its comment means what it says (the words and labels it lists,
# the exit code, the fragment, the number of monoid elements, the files). The neural commands run
# as written too (the README sizes them to seconds on a CPU), each within a time bound, and say
# their cost before they start. Also checks the README's claim that every command has --help with
# an example and --json.
# Usage: bash readme_walkthrough.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf certs data runs results
neural=0
[[ -x $(dirname "$bin")/ltlkit-neural ]] && neural=1

mapfile -t block < <(awk '/^## Commands/ { c = 1; next } c && /^```bash/ { on = 1; next } on && /^```/ { exit } on' "$src/README.md")
[[ ${#block[@]} -ge 10 ]] || fail "README.md: the command block has ${#block[@]} lines"
# The block calls the binary `ltlkit`: the README says where it is and how to put it on PATH, and
# that is where the build puts it.
intro=$(awk '/^## Commands/ { c = 1; next } c && /^```bash/ { exit } c' "$src/README.md" | tr '\n' ' ')
[[ $intro == *'`build/cli/ltlkit`'* && $intro == *'export PATH="$PWD/build/cli:$PATH"'* ]] ||
    fail "README.md's Commands section does not say the binary is build/cli/ltlkit and how to put it on PATH"
[[ $bin == */cli/ltlkit ]] || fail "the binary under test is $bin, not BUILD/cli/ltlkit as README says"

ran=0
for line in "${block[@]}"; do
    [[ -z $line ]] && continue
    cmd=${line%%  #*}                     # the comment starts at two spaces and '#'
    comment=""
    [[ $cmd != "$line" ]] && comment=${line#*  # }
    cmd=${cmd%"${cmd##*[! ]}"}            # trailing spaces
    eval "args=($cmd)"
    [[ ${args[0]} == ltlkit ]] || { fail "not an ltlkit command: $line"; continue; }
    sub=${args[1]}
    rest=("${args[@]:1}")
    case $sub in
        train | eval | verify | report | score)
            ((neural)) || { echo "skip (no ltlkit-neural): $cmd"; continue; } ;;
    esac
    # "a few minutes each on 2 cores as written": far less here. Bounded in CPU seconds (user +
    # system, the command's and its children's), which a loaded machine does not inflate as it
    # does wall time; the wall time is printed for the README's stated costs.
    start_ms=$(date +%s%3N)
    TIMEFORMAT='%U %S'
    { time out=$("$bin" "${rest[@]}" 2>err.txt); } 2> cpu.txt
    rc=$?
    unset TIMEFORMAT
    ms=$(($(date +%s%3N) - start_ms))
    printf 'time: %d.%03d s: %s\n' $((ms / 1000)) $((ms % 1000)) "$cmd"
    cpu=$(awk '{printf "%d", $1 + $2}' cpu.txt)
    ((cpu <= 120)) || fail "took $cpu s of CPU: $cmd"
    if [[ $sub =~ ^(train|eval|verify)$ ]]; then
        grep -q "^$sub: .*about .* on this CPU" err.txt || grep -q "^$sub: .*about .* on this GPU" err.txt ||
            fail "$sub said no cost estimate before starting: $(head -n 1 err.txt)"
    fi
    ran=$((ran + 1))
    want_rc=0
    [[ $comment =~ exit\ ([0-9]+) ]] && want_rc=${BASH_REMATCH[1]}
    [[ $rc == "$want_rc" ]] || { fail "exit $rc, want $want_rc: $cmd ($(head -n 1 err.txt))"; continue; }
    grep -q '^ltlkit: note: alphabet inferred' err.txt && [[ $cmd == *--alphabet* ]] && fail "note despite --alphabet: $cmd"
    case $sub in
        compile)
            [[ $cmd == *"--format dot"* ]] && { [[ $out == digraph* ]] || fail "compile --format dot: $(head -c 60 <<<"$out")"; }
            # "minimal DFA of Σ*abΣ*": the language really is Σ*abΣ*.
            [[ $comment == *"Σ*abΣ*"* ]] && { "$bin" equiv "${args[2]}" 'regex:.*ab.*' --alphabet a,b >/dev/null || fail "$cmd is not Σ*abΣ*"; } ;;
        accepts)
            # "abba 1, aab 1, ba 0": exactly these lines, in this order.
            want=$(grep -oE '[a-z]+ [01]' <<<"${comment%%(*}" | tr ' ' '\t')
            [[ $out == "$want" ]] || fail "accepts printed '$out', the comment says '$want'" ;;
        equiv)
            [[ $comment == equivalent* ]] && { [[ $out == equivalent ]] || fail "equiv printed '$out'"; } ;;
        fragment)
            [[ $out == "${comment%% *}" ]] || fail "fragment printed '$out', the comment says '${comment%% *}'" ;;
        classify)
            if [[ $cmd == *--json* ]]; then
                python3 -c 'import json, sys; j = json.loads(sys.argv[1]); assert {"classes", "predictions", "certificates"} <= set(j)' "$out" \
                    || fail "classify --json output"
            else
                grep -q '^predictions:' <<<"$out" && grep -q 'because' <<<"$out" || fail "classify: no predictions with reasons"
            fi
            [[ $cmd == *--certificates* ]] && { ls certs/*.json >/dev/null 2>&1 || fail "no certificate files"; } ;;
        ceiling)
            # "82.66%: ...": the ceiling the command prints.
            [[ $comment =~ ^([0-9.]+%) ]] && { grep -q "^ceiling: ${BASH_REMATCH[1]} (exact)" <<<"$out" || fail "ceiling: $(grep ^ceiling <<<"$out")"; } ;;
        check-certificate)
            [[ $comment == *holds* ]] && { [[ $out == holds:* ]] || fail "check-certificate printed '$out'"; } ;;
        monoid)
            [[ $comment =~ \(([0-9]+)\ elements\) ]] && { [[ $out == *": ${BASH_REMATCH[1]} elements,"* ]] || fail "monoid: $(head -n 1 <<<"$out")"; } ;;
        generate)
            dir=${args[$((${#args[@]} - 1))]}
            for split in train validation test boundary; do [[ -f $dir/$split.tsv ]] || fail "generate: no $dir/$split.tsv"; done
            ls "$dir"/adversarial-*.tsv >/dev/null 2>&1 || fail "generate: no adversarial split in $dir" ;;
        train)
            [[ -f runs/x/result.json ]] || fail "train wrote no runs/x/result.json" ;;
        eval)
            [[ -f runs/x/result.json ]] || fail "eval: no runs/x/result.json"
            # the file the comment names
            f=$(grep -oE 'runs/x/eval-[^ ]+\.json' <<<"$comment")
            [[ -z $f || -f $f ]] || fail "eval wrote no $f" ;;
        verify)
            dir=${args[$((${#args[@]} - 1))]}
            [[ -f $dir/report.md && -f $dir/plan.json ]] || fail "verify wrote no report in $dir" ;;
        report)
            [[ -f ${args[2]}/report.md ]] || fail "report wrote no ${args[2]}/report.md" ;;
        score)
            # "a header line, then per word ...": the header, then one line of 4 fields per word
            words=$((${#args[@]} - 3))
            [[ $(head -n 1 <<<"$out") == $'word\tlogit\taccepted\tlabel' ]] || fail "score's first line: $(head -n 1 <<<"$out")"
            [[ $(tail -n +2 <<<"$out" | awk -F'\t' 'NF == 4' | wc -l) == "$words" ]] || fail "score printed: $out" ;;
    esac
done
[[ $ran -ge 14 || ( $ran -ge 9 && $neural == 0 ) ]] || fail "only $ran commands of the README ran"

# "Every command has --help with an example and --json output."
commands=$("$bin" --help | awk '/^Subcommands:/ { on = 1; next } on && NF { print $1 }')
[[ -n $commands ]] || fail "no subcommands in ltlkit --help"
for c in $commands; do
    if [[ $c =~ ^(train|eval|verify|report|lm)$ ]] && ((!neural)); then continue; fi
    help=$("$bin" "$c" --help 2>&1) || fail "$c --help exited $?"
    grep -q 'Example' <<<"$help" || fail "$c --help has no example"
    grep -q -- '--json' <<<"$help" || fail "$c has no --json"
done

[[ $fails == 0 ]] && echo "readme_walkthrough: all passed"
exit $((fails > 0))
