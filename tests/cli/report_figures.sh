#!/usr/bin/env bash
# The report's figures read as drawn (docs/RESULTS.md "Figures"), checked from the SVG numbers on a
# 2 × 2 grid (two languages, global and local-1, a tiny verify) and on the committed
# docs/results/lc26-cpu figures (8 languages × 7 architectures): every SVG parses; every text lies
# inside its viewBox (a glyph taken as 0.6 × the font size wide, the figures' own assumption is
# not used: the bound is recomputed here); the tick labels of every axis are distinct, also for a
# run whose loss stays within 0.01..0.05 (it read "0.0 0.0 0.0") and one whose loss reaches 0; and
# no legend box meets a plot area.
# Usage: bash report_figures.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf v suite.txt verify.log err.txt
printf 'last-a\ta,b\tformula\tY a\nfirst-a\ta,b\tformula\tP(a & !P true)\n' >suite.txt
"$bin" verify --suite suite.txt --profile tiny --archs global,local-1 --steps 20 --threads 1 --device cpu --out v \
    >verify.log 2>&1 || fail "verify exited $?: $(tail -3 verify.log)"

# Two runs' logs rewritten: a loss that stays small (a linear axis labelled it "0.0 0.0 0.0") and
# one that reaches 0 (no logarithm).
logs=(v/runs/*/*/*/metrics.jsonl)
[[ ${#logs[@]} -ge 2 ]] || fail "not two training logs: ${logs[*]}"
python3 - "${logs[0]}" "${logs[1]}" <<'PY'
import json, sys
for path, losses in ((sys.argv[1], [0.047, 0.031, 0.022, 0.012]), (sys.argv[2], [0.69, 0.2, 0.0, 0.0])):
    lines = [json.loads(l) for l in open(path)]
    with open(path, "w") as f:
        for i, l in enumerate(lines):
            l["loss"] = losses[min(i, len(losses) - 1)]
            f.write(json.dumps(l) + "\n")
PY
"$bin" report v >/dev/null 2>err.txt || fail "report exited $?: $(cat err.txt)"

# Also the committed 8 × 7 grid's figures (every marker and dash pattern of seven architectures).
committed=("$src"/docs/results/lc26-cpu/figures/*.svg)
python3 - v/figures/nstar.svg v/figures/accuracy.svg v/report.html "${committed[@]}" <<'PY' || fail "figure geometry"
import re, sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
CHAR = 0.6  # em per glyph, an upper bound for sans-serif text of these names
bad = []
svgs = [(p, open(p).read()) for p in sys.argv[1:3] + sys.argv[4:]]
html = open(sys.argv[3]).read()
svgs += [("report.html svg %d" % i, s) for i, s in enumerate(re.findall(r"<svg\b.*?</svg>", html, re.S))]
curves = sum("training curve" in s for _, s in svgs)
if curves != 4:
    bad.append(f"{curves} training curves in report.html, want 4")

def text_of(e):
    return "".join(e.itertext()) if e.find(NS + "title") is None else (e.text or "")

def text_box(e):
    x, y, size = float(e.get("x")), float(e.get("y")), float(e.get("font-size", 16))
    w = CHAR * size * len(text_of(e))
    anchor = e.get("text-anchor", "start")
    x0 = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
    return (x0, y - 0.8 * size, x0 + w, y + 0.25 * size)

def shape_box(e):
    tag = e.tag.replace(NS, "")
    if tag == "text":
        return text_box(e)
    if tag == "line":
        xs, ys = [float(e.get("x1")), float(e.get("x2"))], [float(e.get("y1")), float(e.get("y2"))]
    elif tag == "circle":
        cx, cy, r = (float(e.get(k)) for k in ("cx", "cy", "r"))
        xs, ys = [cx - r, cx + r], [cy - r, cy + r]
    elif tag == "rect":
        x, y = float(e.get("x", 0)), float(e.get("y", 0))
        xs, ys = [x, x + float(e.get("width"))], [y, y + float(e.get("height"))]
    elif tag == "path":  # M/L x y pairs, H x, V y
        xs, ys = [], []
        for cmd, args in re.findall(r"([MLHV])([^MLHV]*)", e.get("d")):
            v = [float(a) for a in re.findall(r"-?\d+(?:\.\d+)?", args)]
            if cmd == "H":
                xs += v
            elif cmd == "V":
                ys += v
            else:
                xs += v[0::2]
                ys += v[1::2]
    else:  # polygon points
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", e.get("points"))]
        xs, ys = nums[0::2], nums[1::2]
    return (min(xs), min(ys), max(xs), max(ys))

def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

for name, s in svgs:
    try:
        root = ET.fromstring(s)
    except ET.ParseError as err:
        bad.append(f"{name}: not XML: {err}")
        continue
    if root.get("viewBox") is None or root.find(NS + "g[@class='graph']") is not None:
        continue  # Graphviz's DFA picture: not drawn by the report
    vx, vy, vw, vh = (float(v) for v in root.get("viewBox").split())
    for t in root.iter(NS + "text"):
        x0, y0, x1, y1 = text_box(t)
        if x0 < vx - 0.5 or y0 < vy - 0.5 or x1 > vx + vw + 0.5 or y1 > vy + vh + 0.5:
            bad.append(f"{name}: text {text_of(t)!r} at ({x0:.0f},{y0:.0f})-({x1:.0f},{y1:.0f}) outside the viewBox {vw}x{vh}")
    # Tick labels: texts of one group (the figure, or a panel's <g>) outside the legend on one
    # row (same y, three or more) or one column (same x and anchor, three or more) are distinct.
    groups = [root] + [g for g in root.iter(NS + "g") if g.get("class") != "legend"]
    for g in groups:
        texts = [t for t in g if t.tag == NS + "text"]
        rows, cols = {}, {}
        for t in texts:
            rows.setdefault((t.get("y"), t.get("font-size"), t.get("fill")), []).append(text_of(t))
            cols.setdefault((t.get("x"), t.get("text-anchor"), t.get("fill")), []).append(text_of(t))
        for key, labels in list(rows.items()) + list(cols.items()):
            if len(labels) >= 2 and len(set(labels)) != len(labels) and root.get("aria-label") != "N* heatmap":
                bad.append(f"{name}: tick labels repeat: {labels}")
    plots = [shape_box(r) for r in root.iter(NS + "rect") if r.get("class") == "plot"]
    legends = [g for g in root.iter(NS + "g") if g.get("class") == "legend"]
    if "training curve" in s or "accuracy versus" in s:
        if not plots or not legends:
            bad.append(f"{name}: no plot area or no legend marked")
    for g in legends:
        boxes = [shape_box(e) for e in g.iter() if e is not g and e.tag != NS + "title"]
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        for p in plots:
            if overlap(box, p):
                bad.append(f"{name}: the legend {box} overlaps the plot area {p}")
    if "training curve" in s:
        loss = [text_of(t) for t in root.iter(NS + "text") if t.get("fill") == "#D55E00" and t.get("x") != None
                and not any(t in list(g.iter()) for g in legends)]
        if len(loss) < 2 or len(set(loss)) != len(loss):
            bad.append(f"{name}: loss axis labels {loss}")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY

[[ $fails == 0 ]] && echo "report_figures: all checks passed"
exit $((fails > 0))
