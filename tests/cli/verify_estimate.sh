#!/usr/bin/env bash
# One estimate (neural::estimate_work, neural/calibrate.hh): `verify --estimate N` (sizing cluster
# tasks) and the line `verify` prints before it runs agree.
#  1. A grid the assumed rate puts under the calibration threshold: both are the assumed estimate,
#     the same seconds per run, and say so (measured=no, "a pessimistic estimate").
#  2. A grid over it: both are calibrated here (measured=yes, "measured here"), and their seconds per
#     run are two calibrations of the same models, a few seconds apart: within a factor of 3 (they
#     differed 11-fold when --estimate kept the assumed rate: 164 s against 15 s per run).
# `--max-hours` far below the grid makes verify stop after its estimate (exit 3, nothing written).
# Usage: bash verify_estimate.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
if [[ ! -x $(dirname "$bin")/ltlkit-neural ]]; then
    echo "skip: no ltlkit-neural next to $bin (built without LibTorch)"
    exit 0
fi
rm -rf out

# per_run_seconds FILE: "about 1m07s per run" -> 67.
per_run_seconds() {
    local t
    t=$(sed -n 's/^verify: .*: about \([0-9hms]*\) per run, .*/\1/p' "$1")
    [[ $t =~ ^(([0-9]+)h)?(([0-9]+)m)?([0-9]+)s?$ ]] || { echo "?"; return; }
    echo $((${BASH_REMATCH[2]:-0} * 3600 + ${BASH_REMATCH[4]:-0} * 60 + ${BASH_REMATCH[5]:-0}))
}
value() { sed -n "s/^$1=//p" "$2"; }

check() {  # check NAME WANT_MEASURED ARGS...
    local name=$1 measured=$2
    shift 2
    "$bin" verify 'Y a' --alphabet a,b "$@" --device cpu --estimate 1 > "$name.kv" 2> "$name.err" ||
        { fail "$name: --estimate exited $?: $(cat "$name.err")"; return; }
    "$bin" verify 'Y a' --alphabet a,b "$@" --device cpu --max-hours 0.000001 --out out > /dev/null 2> "$name.say"
    local rc=$?
    [[ $rc == 3 ]] || fail "$name: verify with --max-hours 0.000001 exited $rc, want 3: $(tail -n 1 "$name.say")"
    [[ ! -e out ]] || fail "$name: the refused verify wrote out/"
    local kv say
    kv=$(value seconds_per_run "$name.kv")
    say=$(per_run_seconds "$name.say")
    [[ $(value measured "$name.kv") == "$measured" ]] || fail "$name: --estimate says measured=$(value measured "$name.kv"), want $measured"
    if [[ $measured == no ]]; then
        ((kv >= 2)) || fail "$name: $kv s per run is too small to compare"
        grep -q '^verify: .*(a pessimistic estimate: ' "$name.say" || fail "$name: verify's estimate: $(grep '^verify:' "$name.say")"
        [[ $kv == "$say" ]] || fail "$name: --estimate says $kv s per run, verify $say s"
    else
        grep -q '^verify: .*(measured here: ' "$name.say" || fail "$name: verify's estimate: $(grep '^verify:' "$name.say")"
        [[ $kv =~ ^[0-9]+$ && $say =~ ^[0-9]+$ ]] && ((kv <= 3 * say + 1 && say <= 3 * kv + 1)) ||
            fail "$name: --estimate says $kv s per run, verify $say s: not one estimate"
    fi
    echo "$name: --estimate $kv s per run, verify $say s (measured=$measured)"
}

check small no --archs global --profile first --steps 200 --layers 1 --d-model 16 --heads 2
check quick yes --archs global,local-1 --profile quick

((fails == 0)) && echo "verify_estimate: all passed"
exit $((fails > 0))
