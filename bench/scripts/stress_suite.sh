#!/usr/bin/env bash
# The test suite under load (issue 42; docs/PERFORMANCE.md "Suite under load"): runs the `make test`
# selection of ctest (every test but those labelled long or cuda) N times while a CPU burner keeps
# two busy loops per core running, counts the failures of each test over the N rounds, prints a
# table (test, failures, rounds) and exits 1 when any test failed in any round.
#
#   bash bench/scripts/stress_suite.sh [-n N] [-R REGEX] [-j JOBS] [-b BUILD] [--no-burner]
#
#   -n N        rounds (default 5)
#   -R REGEX    ctest -R filter (default: the whole `make test` selection)
#   -j JOBS     ctest -j (default: nproc, as `make test`)
#   -b BUILD    the build folder (default build), configured and built beforehand
#   --no-burner the same rounds without the load (for a comparison)
#
# Each round's ctest output is kept in BUILD/stress/round-K.log and its failures in
# BUILD/stress/round-K.failed; the burner's processes are this script's children, ended on exit.
set -u
rounds=5
filter=""
jobs=$(nproc)
build=build
burner=1
while (($#)); do
    case $1 in
        -n) rounds=$2; shift 2 ;;
        -R) filter=$2; shift 2 ;;
        -j) jobs=$2; shift 2 ;;
        -b) build=$2; shift 2 ;;
        --no-burner) burner=0; shift ;;
        -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "stress_suite.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "stress_suite.sh: -n $rounds: expected a positive number" >&2; exit 2; }
[[ -f $build/CTestTestfile.cmake ]] || { echo "stress_suite.sh: $build is not a configured build folder" >&2; exit 2; }
build=$(cd "$build" && pwd)
mkdir -p "$build/stress"

pids=()
stop_burner() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    pids=()
}
trap stop_burner EXIT
trap 'exit 130' INT TERM
if ((burner)); then
    for ((i = 0; i < 2 * $(nproc); i++)); do
        bash -c 'while :; do :; done' &
        pids+=($!)
    done
    echo "burner: ${#pids[@]} busy loops on $(nproc) cores"
fi

selection=(-LE '^(long|cuda)$')
[[ -n $filter ]] && selection+=(-R "$filter")
declare -A failed
declare -a names
t0=$SECONDS
for ((k = 1; k <= rounds; k++)); do
    log=$build/stress/round-$k.log
    start=$SECONDS
    (cd "$build" && ctest "${selection[@]}" --output-on-failure -j "$jobs" --timeout 900) > "$log" 2>&1
    rc=$?
    # "N/M Test #I: NAME ....   Passed" and the failures' "***Failed", "***Timeout", "Exception" lines.
    sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \(.*[^ .]\) \.*[ *]*\(Passed\|\*\*\*Failed\|\*\*\*Timeout\|\*\*\*Exception\|Failed\|Exception\|Not Run\).*/\2\t\1/p' "$log" \
        > "$build/stress/round-$k.status"
    n=$(wc -l < "$build/stress/round-$k.status")
    # A failing ctest whose failure no test line shows (a crash of ctest itself) still counts.
    if ((rc != 0)) && ! grep -qv '^Passed' "$build/stress/round-$k.status"; then
        printf 'ctest exited %d\t(ctest itself)\n' "$rc" >> "$build/stress/round-$k.status"
    fi
    grep -v '^Passed' "$build/stress/round-$k.status" | cut -f2 > "$build/stress/round-$k.failed"
    nfail=$(wc -l < "$build/stress/round-$k.failed")
    echo "round $k/$rounds: $n tests, $nfail failed, $((SECONDS - start)) s (log: $log)"
    while IFS=$'\t' read -r status name; do
        [[ -v failed[$name] ]] || { failed[$name]=0; names+=("$name"); }
        [[ $status == Passed ]] || failed[$name]=$((failed[$name] + 1))
    done < "$build/stress/round-$k.status"
done
stop_burner

total=0
printf '\n%-50s %8s %7s\n' "test" "failures" "rounds"
for name in "${names[@]}"; do
    printf '%-50s %8d %7d\n' "$name" "${failed[$name]}" "$rounds"
    total=$((total + failed[$name]))
done
echo "${#names[@]} tests × $rounds rounds$( ((burner)) && echo " beside $((2 * $(nproc))) busy loops"): $total failures" \
     "in $((SECONDS - t0)) s"
((${#names[@]} > 0)) || { echo "stress_suite.sh: no test ran (filter '$filter')" >&2; exit 2; }
exit $((total > 0))
