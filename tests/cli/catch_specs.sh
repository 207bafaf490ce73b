#!/usr/bin/env bash
# Every Catch2 test lands in ctest exactly once, under the right label, and no spec is registered
# that matches nothing (CatchAddTests warns "contains no tests!" for one): for each test executable
# built, Catch's own listing per spec is compared with what ctest registered (tests/CMakeLists.txt).
# Usage: bash catch_specs.sh LTLKIT_BIN SOURCE_DIR (the build folder is two levels above the binary)
set -u
tests_dir=$(cd "$(dirname "$1")/../tests" && pwd) || exit 1
fails=0 checked=0

# count_catch BIN SPEC: how many tests Catch lists for SPEC
count_catch() { "$1" --list-test-names-only "$2" | grep -c .; }
# count_ctest NAME LABEL|"": how many tests ctest has for executable NAME (with LABEL, or with none)
ctest_list() { (cd "$tests_dir" && ctest -N "$@" | sed -n 's/^ *Test *#[0-9]*: //p'); }
all=$(ctest_list)
long=$(ctest_list -L '^long$')
cuda=$(ctest_list -L '^cuda$')
includes=$(grep -o 'include("[^"]*_include-[^"]*")' "$tests_dir/CTestTestfile.cmake")

for exe in "$tests_dir"/test_*; do
    [[ -x $exe && -f $exe ]] || continue
    name=$(basename "$exe")
    prefix="^$name:"
    n_long=$(count_catch "$exe" '[long]~[cuda]')
    n_cuda=$(count_catch "$exe" '[cuda]')
    n_rest=$(count_catch "$exe" '~[long]~[cuda]')
    c_long=$(grep -c "$prefix" <<< "$long")
    c_cuda=$(grep -c "$prefix" <<< "$cuda")
    c_all=$(grep -c "$prefix" <<< "$all")
    c_rest=$((c_all - c_long - c_cuda))
    specs=$(grep -c "/${name}_include-" <<< "$includes")
    want_specs=$((1 + (n_long > 0) + (n_cuda > 0)))
    if [[ $n_long -ne $c_long || $n_cuda -ne $c_cuda || $n_rest -ne $c_rest ]]; then
        echo "FAIL $name: Catch lists $n_rest/$n_long/$n_cuda (plain/long/cuda), ctest has $c_rest/$c_long/$c_cuda"
        fails=$((fails + 1))
    fi
    if [[ $specs -ne $want_specs ]]; then
        echo "FAIL $name: $specs specs registered, want $want_specs (an empty one warns 'contains no tests!')"
        fails=$((fails + 1))
    fi
    checked=$((checked + 1))
done

if [[ $checked -eq 0 ]]; then echo "FAIL: no test executable in $tests_dir"; exit 1; fi
if [[ $fails -ne 0 ]]; then echo "$fails failure(s)"; exit 1; fi
echo "catch_specs: $checked executables registered exactly"
