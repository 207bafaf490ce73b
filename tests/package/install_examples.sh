#!/usr/bin/env bash
# The installed package as a user sees it: `cmake --install` into a fresh prefix, every installed
# header includes only installed headers, examples/ configured and built as a separate project with
# find_package(ltlkit), each example run and compared with the installed CLI, and the installed
# Python module imported.
#   bash install_examples.sh BUILD_DIR SOURCE_DIR PYTHON   (in a scratch folder)
set -euo pipefail
build=$(cd "$1" && pwd); src=$(cd "$2" && pwd); python=${3:-}
work=$(pwd)
rm -rf prefix examples-build out
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" > install.log || { cat install.log; fail "cmake --install"; }
inc=prefix/include/ltlkit
[ -f "$inc/automata/dfa.hh" ] || fail "public headers not installed"
[ -f prefix/lib/cmake/ltlkit/ltlkitConfig.cmake ] || fail "no package config"
[ -x prefix/bin/ltlkit ] || fail "ltlkit not installed"
# Internal headers stay out; every include of an installed header is installed too.
for internal in neural/model.hh neural/internal.hh automata/algebra/classes.hh; do
  [ ! -e "$inc/$internal" ] || fail "internal header $internal installed"
done
while IFS= read -r h; do
  for dep in $(sed -n 's/^#include "\(.*\)"$/\1/p' "$h"); do
    [ -f "$inc/$dep" ] || fail "${h#$inc/} includes $dep, which is not installed"
  done
done < <(find "$inc" -name '*.hh')

launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$src/examples" -B examples-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" "${launcher[@]}" > configure.log 2>&1 || { cat configure.log; fail "configure examples"; }
cmake --build examples-build > build.log 2>&1 || { cat build.log; fail "build examples"; }

ltlkit=prefix/bin/ltlkit
mkdir -p out
# classify: every certificate checks, and the classes agree with the CLI.
examples-build/classify_formula 'P(b & Y a)' > out/classify.txt || fail "classify_formula"
"$ltlkit" classify 'P(b & Y a)' --json > out/classify.json
for id in $(sed -n 's/^class \([a-z_]*\): \(yes\|no\)$/\1=\2/p' out/classify.txt); do
  name=${id%=*}; want=$([ "${id#*=}" = yes ] && echo true || echo false)
  grep -q "\"$name\": $want" out/classify.json || fail "class $name: example says ${id#*=}, CLI differs"
done
[ "$(grep -c '^class ' out/classify.txt)" -ge 9 ] || fail "classify_formula printed too few classes"
grep -q '^prediction local-1: fails$' out/classify.txt || fail "prediction local-1"
# The alphabet rule of `ltlkit classify` (docs/SYNTAX.md §5): an inferred single symbol is refused
# with the CLI's exit code and message; an explicit alphabet is taken.
set +e
examples-build/classify_formula 'Y a' > /dev/null 2> out/ya.err; ex=$?
"$ltlkit" classify 'Y a' > /dev/null 2> out/ya-cli.err; cx=$?
set -e
[ "$ex" = 2 ] && [ "$cx" = 2 ] || fail "classify_formula 'Y a' exits $ex, ltlkit classify $cx (want 2 and 2)"
[ "$(sed 's/^classify_formula: //' out/ya.err)" = "$(sed 's/^ltlkit: error: //' out/ya-cli.err)" ] ||
  fail "classify_formula 'Y a' says '$(cat out/ya.err)', the CLI '$(cat out/ya-cli.err)'"
examples-build/classify_formula 'Y a' --alphabet a,b > out/ya.txt || fail "classify_formula 'Y a' --alphabet a,b"
"$ltlkit" classify 'Y a' --alphabet a,b --json > out/ya.json
for id in $(sed -n 's/^class \([a-z_]*\): \(yes\|no\)$/\1=\2/p' out/ya.txt); do
  name=${id%=*}; want=$([ "${id#*=}" = yes ] && echo true || echo false)
  grep -q "\"$name\": $want" out/ya.json || fail "Y a over {a,b}: class $name: example says ${id#*=}, CLI differs"
done
! grep -q FAILS out/classify.txt || fail "a certificate did not check"
# regex -> minimal DFA -> DOT: the same bytes as `ltlkit compile --regex --format dot`.
examples-build/regex_to_dot '(ab)*|b' > out/ab.dot 2> /dev/null || fail "regex_to_dot"
"$ltlkit" compile --regex '(ab)*|b' --format dot > out/ab-cli.dot
cmp out/ab.dot out/ab-cli.dot || fail "regex_to_dot differs from ltlkit compile --format dot"
# balanced dataset: the example checks the balance; the CLI trains on it only if it reads back.
examples-build/balanced_dataset 'Y a' out/data > out/data.txt || { cat out/data.txt; fail "balanced_dataset"; }
grep -q "^train: [1-9][0-9]* words" out/data.txt || { cat out/data.txt; fail "train split"; }
grep -q '^balanced$' out/data.txt || fail "dataset not balanced"
if [ -x examples-build/train_recognizer ]; then
  examples-build/train_recognizer 'Y a' out/run > out/train.txt || fail "train_recognizer"
  grep -q 'mean test accuracy' out/train.txt || fail "train_recognizer output"
  [ -f out/run/result.json ] || fail "no result.json"
  # The installed CLI reads the example's run back (a second route to the same evaluation).
  prefix/bin/ltlkit-neural eval out/run --test-lengths 9:16 > out/eval.txt 2>&1 || { cat out/eval.txt; fail "ltlkit eval of the example's run"; }
fi
if [ -n "$python" ]; then
  PYTHONPATH="$work/prefix/lib/python3/dist-packages" "$python" -c \
    'import ltlkit; assert ltlkit.compile("Y a", alphabet="a,b").accepts("ba")' || fail "installed Python module"
fi
echo "ok: installed, examples built and run"
