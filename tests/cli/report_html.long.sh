#!/usr/bin/env bash
# `ltlkit verify` end to end on a small language with worker processes, then the report checked in
# headless Chromium (it renders, the verdict grid is in the DOM, a screenshot is taken), and
# shards merged with `ltlkit report` give the same verdicts. Usage: bash report_html.long.sh LTLKIT SRC
set -euo pipefail
LTLKIT=$1
work=$(pwd)
rm -rf "$work"/v "$work"/s0 "$work"/s1 "$work"/m

"$LTLKIT" verify 'Y a' --alphabet a,b --archs local-1,global --profile quick --steps 60 --threads 2 \
  --out "$work/v" > verify.log
cat verify.log
for f in report.html report.md verdicts.json results.jsonl plan.json; do test -s "$work/v/$f"; done
grep -q "Report: $work/v/report.html" verify.log
test "$(wc -l < "$work/v/results.jsonl")" -eq 2

# Headless Chromium: the page renders and the grid is in the DOM with one cell per architecture.
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then echo "chromium is not installed"; exit 1; fi
profile=$(mktemp -d)
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
       --disable-sync --no-first-run --user-data-dir="$profile")
timeout 180 "$CHROMIUM" "${flags[@]}" --dump-dom "file://$work/v/report.html" > dom.html 2> chromium.log
grep -q 'id="verdict-grid"' dom.html
test "$(grep -o 'class="cell v-' dom.html | wc -l)" -eq 2
grep -q '<polyline' dom.html
timeout 180 "$CHROMIUM" "${flags[@]}" --window-size=1280,1600 --screenshot="$work/report.png" \
  "file://$work/v/report.html" 2>> chromium.log
test -s "$work/report.png"
rm -rf "$profile"

# Two shards into two folders, merged: the same verdicts as the single run.
"$LTLKIT" verify 'Y a' --alphabet a,b --archs local-1,global --profile quick --steps 60 --threads 1 \
  --shard 0/2 --out "$work/s0" > s0.log
"$LTLKIT" verify 'Y a' --alphabet a,b --archs local-1,global --profile quick --steps 60 --threads 1 \
  --shard 1/2 --out "$work/s1" > s1.log
"$LTLKIT" report "$work/s0" "$work/s1" --out "$work/m" > merge.log
cmp "$work/m/verdicts.json" "$work/v/verdicts.json"
# Rerunning the finished verification trains nothing.
"$LTLKIT" verify 'Y a' --alphabet a,b --archs local-1,global --profile quick --steps 60 --out "$work/v" > again.log 2>&1
grep -q "2 already finished, 0 to train" again.log
echo "report_html: ok"
