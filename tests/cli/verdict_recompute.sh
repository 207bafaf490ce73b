#!/usr/bin/env bash
# Every verdict of the committed verify folders (docs/results: the four grids, the LC25 near-miss
# grid and every finished sweep level) recomputed from the run files by tests/cli/verdict_recompute.py,
# independently of neural/verify/verdict.cc, with 0 differences; and a tampered copy (a run file or a
# verdict edited) is caught, naming the cell.
# Usage: bash verdict_recompute.sh LTLKIT_BIN SOURCE_DIR
set -u
src=$2
fail() { echo "verdict_recompute: $*" >&2; exit 1; }
script=$src/tests/cli/verdict_recompute.py
dirs=()
for d in "$src"/docs/results/*/ "$src"/docs/results/sweep/level-*/; do
  [[ -f $d/plan.json && -f $d/verdicts.json ]] && dirs+=("${d%/}")
done
(( ${#dirs[@]} >= 7 )) || fail "expected at least 7 committed verify folders, found ${#dirs[@]}"
python3 "$script" "${dirs[@]}" > out.txt 2>&1 || fail "committed verdicts differ: $(tail -5 out.txt)"
cells=$(awk '{s += $3} END {print s}' out.txt)
(( cells >= 450 )) || fail "only $cells judged cells recomputed: $(cat out.txt)"

# Tampering: a copy of the sweep's level 0, then one edit at a time.
rm -rf L && cp -r "$src/docs/results/sweep/level-0" L
python3 "$script" L > /dev/null || fail "the copy differs before any edit"
python3 - <<'PY' || fail "could not edit the copy"
import glob, json
# A confirmed recognizer's successful runs turned into failures of the random test.
v = json.load(open("L/verdicts.json"))
cell = next(x for x in v if x["verdict"] == "confirmed" and x["evidence"] == "success")
plan = json.load(open("L/plan.json"))
dirs = {l["name"]: l["dir"] for l in plan["languages"]}
for r in plan["runs"]:
    if r["language"] == dirs[cell["language"]] and r["arch"] == cell["arch"]:
        path = "L/" + r["rundir"] + "/result.json"
        j = json.load(open(path)); j["success"] = False
        json.dump(j, open(path, "w"))
open("cell.txt", "w").write(cell["language"] + ":" + cell["arch"])
PY
python3 "$script" L > out2.txt 2>&1 && fail "an edited result.json went unnoticed"
grep -q "$(cat cell.txt): recomputed ('not_reproduced', '4', 'no_success')" out2.txt || fail "the edited cell is not named: $(cat out2.txt)"
# A probe.json removed: the probed cell falls back to contradicted.
probe=$(ls L/runs/*/*/*/probe.json | head -1)
[[ -n $probe ]] || fail "level 0 has no probe.json"
rm "$probe"
python3 "$script" L > out3.txt 2>&1 && fail "a removed probe.json went unnoticed"
grep -q "recomputed ('contradicted', '5', 'passes_adversarial'), verdicts.json ('confirmed', '6', 'probe_failure')" out3.txt ||
  fail "the unprobed cell is not recomputed as contradicted: $(cat out3.txt)"
echo "verdict_recompute: $(wc -l < out.txt) folders, $cells cells recomputed, tampering caught"
