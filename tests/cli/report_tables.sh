#!/usr/bin/env bash
# `ltlkit report` writes the verdict grid as verdicts.csv and verdicts.tex beside report.md
# (docs/RESULTS.md "Tables for a paper"). On a copy of the committed grid docs/results/lc25-cpu
# (global and lstm: no ceiling whose time limit could make its report depend on the machine's
# load): the CSV parses (python3 csv, RFC 4180), has one row per cell of verdicts.json in its order,
# and every number equals verdicts.json's (to the CSV's 4 decimals); the .tex is a booktabs tabular
# with one row per cell, balanced braces and math shifts; and report.md, report.html and
# verdicts.json are the committed ones byte for byte (the date aside). Then a tiny verify of a
# language named with CSV and LaTeX specials: the name reads back from the CSV as written and is
# escaped in the .tex.
# Usage: bash report_tables.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf grid out.txt err.txt odd suite.txt verify.log
cp -r "$src/docs/results/lc25-cpu" grid
rm -f grid/verdicts.csv grid/verdicts.tex

"$bin" report grid >out.txt 2>err.txt || fail "report exited $?: $(cat err.txt)"
grep -qx "Tables: grid/verdicts.csv, grid/verdicts.tex" out.txt || fail "stdout does not name the tables: $(tail -2 out.txt)"
for f in report.md report.html verdicts.json; do
    diff -q -I 'Generated ' "$src/docs/results/lc25-cpu/$f" "grid/$f" >/dev/null || fail "$f differs from the committed one"
done

check_tables() {
python3 - "$1/verdicts.json" "$1/verdicts.csv" "$1/verdicts.tex" "$2" <<'PY'

import csv, json, re, sys
verdicts = json.load(open(sys.argv[1]))
with open(sys.argv[2], newline="") as f:
    rows = list(csv.DictReader(f, strict=True))
bad = []
if len(rows) != len(verdicts):
    bad.append(f"{len(rows)} CSV rows, {len(verdicts)} cells in verdicts.json")
def num(s):
    return None if s == "" else float(s)
def same(a, b, what, row):
    if (a is None) != (b is None) or (a is not None and abs(a - b) > 0.00005 + 1e-9):
        bad.append(f"row {row} {what}: csv {a}, verdicts.json {b}")
pending = 0
for i, (r, v) in enumerate(zip(rows, verdicts), 1):
    for key, want in (("language", v["language"]), ("architecture", v["arch"]), ("prediction", v["prediction"]),
                      ("verdict", v["verdict"])):
        if r[key] != want:
            bad.append(f"row {i} {key}: {r[key]!r}, verdicts.json {want!r}")
    if v["verdict"] == "pending":
        pending += 1
    elif r["rule"] != v["rule_id"]:
        bad.append(f"row {i} rule {r['rule']!r}, verdicts.json {v['rule_id']!r}")
    if int(r["fitted"]) != v["fitted"] or int(r["successes"]) != v["successes"]:
        bad.append(f"row {i} fitted/successes")
    if int(r["runs_finished"]) != len(v["all_runs"]):
        bad.append(f"row {i} runs_finished {r['runs_finished']}, {len(v['all_runs'])} runs")
    pct = lambda x: None if x is None else 100 * x
    same(num(r["ours_mean_fitted"]), pct(v["mean_accuracy"]), "ours_mean_fitted", i)
    same(num(r["ours_mean_all_runs"]), pct(v["random_accuracy"] and v["random_accuracy"]["mean"]), "ours_mean_all_runs", i)
    mean = [p for p in v.get("published", []) if p["statistic"] == "mean"]
    same(num(r["paper_mean"]), mean[0]["paper"] if mean else None, "paper_mean", i)
    same(num(r["difference"]), mean[0]["difference"] if mean else None, "difference", i)
    if mean and r["paper_source"] != mean[0]["source"]:
        bad.append(f"row {i} paper_source")
    if not r["evidence"]:
        bad.append(f"row {i}: no evidence kind")
if sys.argv[4] == "grid" and (pending == len(rows) or all(r["ours_mean_fitted"] == "" for r in rows)
                              or all(r["difference"] == "" for r in rows)):
    bad.append("the grid exercises no finished, fitted or compared cell")

tex = open(sys.argv[3]).read()
body = "\n".join(l for l in tex.splitlines() if not l.lstrip().startswith("%"))
depth = 0
for ch in re.sub(r"\\[{}]", "", body):  # escaped braces are text
    depth += {"{": 1, "}": -1}.get(ch, 0)
    if depth < 0:
        bad.append("tex: a } closes nothing")
        break
if depth != 0:
    bad.append(f"tex: {depth} unclosed braces")
if len(re.findall(r"(?<!\\)\$", body)) % 2:
    bad.append("tex: an odd number of $")
lines = body.splitlines()
for rule in ("\\toprule", "\\midrule", "\\bottomrule"):
    if rule not in lines:
        bad.append(f"tex: no {rule}")
if not (lines[0].startswith("\\begin{tabular}{") and lines[-1] == "\\end{tabular}"):
    bad.append("tex: not one tabular")
cols = len(re.match(r"\\begin\{tabular\}\{(\w+)\}", lines[0]).group(1))
data = [l for l in lines if l.endswith("\\\\")]
if len(data) != len(verdicts) + 1:  # the header and one line per cell
    bad.append(f"tex: {len(data) - 1} data rows, {len(verdicts)} cells")
for l in data:
    if len(re.split(r"(?<!\\)&", l)) != cols:
        bad.append(f"tex: {l!r} has not {cols} columns")
        break
if sys.argv[4] == "odd":
    if rows[0]["language"] != 'Σ*a,"odd"&50%_x{1}':
        bad.append(f"csv: the name reads back as {rows[0]['language']!r}")
    if '$\\Sigma^*$a,"odd"\\&50\\%\\_x\\{1\\} & global' not in body:
        bad.append("tex: the name is not escaped as $\\Sigma^*$a,\"odd\"\\&50\\%\\_x\\{1\\}")
if lines.index("\\bottomrule") != len(lines) - 2 or lines.index("\\toprule") != 1:
    bad.append("tex: rules out of place")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
}
check_tables grid grid || fail "the committed grid's tables against its verdicts.json"

printf 'Σ*a,"odd"&50%%_x{1}\ta,b\tformula\tY a\n' >suite.txt
"$bin" verify --suite suite.txt --profile tiny --archs global,local-1 --steps 20 --threads 1 --device cpu --out odd \
    >verify.log 2>&1 || fail "verify exited $?: $(tail -3 verify.log)"
check_tables odd odd || fail "the tables of a language named with specials"

# A LaTeX installation, where there is one, compiles the table.
if command -v pdflatex >/dev/null; then
    printf '\\documentclass{article}\\usepackage[utf8]{inputenc}\\usepackage{booktabs}\\begin{document}\n\\input{grid/verdicts.tex}\n\\end{document}\n' >doc.tex
    pdflatex -interaction=nonstopmode -halt-on-error doc.tex >latex.log 2>&1 || fail "pdflatex: $(grep -m1 '^!' latex.log)"
fi

[[ $fails == 0 ]] && echo "report_tables: all checks passed"
exit $((fails > 0))
