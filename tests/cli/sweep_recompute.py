#!/usr/bin/env python3
"""Recomputes a sweep's per-stratum x architecture table from its folders, independently of
neural/verify/sweep_report.cc, and compares it with sweep.json and sweep.md (tests/cli/sweep.sh).

From languages.json (stratum, architectures and predictions of every language) and each level's
cells.txt and verdicts.json (what `ltlkit verify` judged), a cell's final verdict is that of the
highest level whose cells.txt lists it and whose verdicts.json judged it (verdict not "pending")
on every run that level's plan.json plans for the cell (a report written while the level still
trains judges some cells on fewer runs: those are not the level's verdicts yet); it has real evidence when that verdicts.json entry says so (`real_evidence`). Per stratum and
architecture: cells, predictions, verdicts, evidence kinds of the judged cells, real evidence and
its share. Usage: sweep_recompute.py SWEEP_DIR; exit 1 with one line per difference.
"""
import collections
import json
import os
import re
import sys


def level_cells(path):
    cells = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                cells.append(line)
    return cells


def recompute(d):
    langs = json.load(open(os.path.join(d, "languages.json"), encoding="utf-8"))
    levels = []
    level = 0
    while os.path.exists(os.path.join(d, f"level-{level}", "cells.txt")):
        cells = set(level_cells(os.path.join(d, f"level-{level}", "cells.txt")))
        vpath = os.path.join(d, f"level-{level}", "verdicts.json")
        verdicts = {}
        if os.path.exists(vpath):
            for v in json.load(open(vpath, encoding="utf-8")):
                verdicts[v["language"] + ":" + v["arch"]] = v
        planned = collections.Counter()
        ppath = os.path.join(d, f"level-{level}", "plan.json")
        if os.path.exists(ppath):
            for r in json.load(open(ppath, encoding="utf-8"))["runs"]:
                planned[r["language"] + ":" + r["arch"]] += 1
        for cell in list(verdicts):
            if verdicts[cell].get("runs", 0) < planned[cell]:
                del verdicts[cell]
        levels.append((cells, verdicts))
        level += 1
    rows = collections.OrderedDict()
    for lang in langs:
        for arch in lang["archs"]:
            cell = lang["name"] + ":" + arch
            final = None
            for cells, verdicts in levels:
                v = verdicts.get(cell)
                if cell in cells and v is not None and v["verdict"] != "pending":
                    final = v
            row = rows.setdefault((lang["stratum"], arch), {
                "cells": 0, "judged": 0, "real_evidence": 0,
                "predictions": collections.Counter(), "verdicts": collections.Counter(),
                "evidence": collections.Counter()})
            row["cells"] += 1
            row["predictions"][lang["predictions"].get(arch, "unknown")] += 1
            row["verdicts"][final["verdict"] if final else "pending"] += 1
            if final:
                row["judged"] += 1
                row["evidence"][final["evidence"]] += 1
                row["real_evidence"] += bool(final["real_evidence"])
    for row in rows.values():
        row["share"] = row["real_evidence"] / row["cells"]
    return rows


def counts_text(c):
    return ", ".join(f"{k} {n}" for k, n in sorted(c.items())) or "–"


def main():
    d = sys.argv[1]
    rows = recompute(d)
    report = json.load(open(os.path.join(d, "sweep.json"), encoding="utf-8"))
    errors = []
    table = {(r["stratum"], r["arch"]): r for r in report["table"]}
    if set(table) != set(rows):
        errors.append(f"rows: sweep.json has {sorted(table)}, recomputed {sorted(rows)}")
    for key, mine in rows.items():
        theirs = table.get(key)
        if theirs is None:
            continue
        for field in ("cells", "judged", "real_evidence"):
            if theirs[field] != mine[field]:
                errors.append(f"{key} {field}: sweep.json {theirs[field]}, recomputed {mine[field]}")
        for field in ("predictions", "verdicts", "evidence"):
            if dict(theirs[field]) != dict(mine[field]):
                errors.append(f"{key} {field}: sweep.json {theirs[field]}, recomputed {dict(mine[field])}")
        if abs(theirs["real_evidence_share"] - mine["share"]) > 1e-12:
            errors.append(f"{key} share: sweep.json {theirs['real_evidence_share']}, recomputed {mine['share']}")
    # sweep.md's table rows: | stratum | arch | cells | predictions | verdicts | evidence | real (share) |
    md = open(os.path.join(d, "sweep.md"), encoding="utf-8").read()
    md_rows = {}
    for line in md.splitlines():
        m = re.match(r"^\| ([^|*]+?) \| ([^|]+?) \| (\d+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \| (\d+) \(([^)]*)\) \|$", line)
        if m:
            md_rows[(m.group(1), m.group(2))] = m.groups()[2:]
    for key, mine in rows.items():
        got = md_rows.get(key)
        want = (str(mine["cells"]), counts_text(mine["predictions"]), counts_text(mine["verdicts"]),
                counts_text(mine["evidence"]), str(mine["real_evidence"]), f"{100 * mine['share']:.1f}%")
        if got != want:
            errors.append(f"sweep.md row {key}: {got}, recomputed {want}")
    total_cells = sum(r["cells"] for r in rows.values())
    total_real = sum(r["real_evidence"] for r in rows.values())
    if not report["summary"].startswith(f"real evidence: {total_real} of {total_cells} cells"):
        errors.append(f"summary '{report['summary']}', recomputed {total_real} of {total_cells}")
    for e in errors:
        print("sweep_recompute:", e)
    if not errors:
        print(f"sweep_recompute: {len(rows)} rows agree ({total_real} of {total_cells} cells with real evidence)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
