#!/usr/bin/env python3
"""The standing verdict of every cell of a paper's grid: the `cpu` grid's verdict, replaced by the
deep grid's where the deep grid trained the cell (docs/RESULTS.md, "Standing verdicts").

    python3 bench/scripts/standing_verdicts.py docs/results/lc26-cpu docs/results/lc26-cpu-deep \
        [--json OUT.json]

Reads only the two folders' verdicts.json (written by `ltlkit verify` / `ltlkit report`); prints a
Markdown table (one row per cell of the first grid) and a count line, and with --json writes the
rows as JSON (temporary file, then rename). A deep cell whose runs are not all finished yet is
shown with its finished runs and the deep verdict is used only when it is not `pending`.
"""
import argparse
import json
import os
import sys
from collections import Counter


def load(folder):
    path = os.path.join(folder, "verdicts.json")
    try:
        with open(path, encoding="utf-8") as f:
            cells = json.load(f)
    except OSError as e:
        sys.exit(f"standing_verdicts: cannot read {path}: {e.strerror}")
    except json.JSONDecodeError as e:
        sys.exit(f"standing_verdicts: {path}:{e.lineno}:{e.colno}: not JSON: {e.msg}")
    if not isinstance(cells, list):
        sys.exit(f"standing_verdicts: {path}: expected a list of cells")
    return {(c["language"], c["arch"]): c for c in cells}


def trained(cells):
    """The cells with at least one run in the plan (a grid run with --cells lists the others with none)."""
    return {k: c for k, c in cells.items() if c["runs"] > 0}


def category(c):
    """The verdict with the rule's mark, as the report prints it."""
    if c is None:
        return ""
    mark = c.get("mark")
    v = c["verdict"]
    if mark == "at_the_ceiling":
        return f"{v} (at the ceiling, rule 1a)"
    if mark == "not_fitted":
        return f"{v} (not fitted, rule {c['rule_id']})"
    return f"{v} (rule {c['rule_id']})"


def runs_text(c):
    if c is None:
        return ""
    return f"{c['fitted']}/{c['runs']} fitted"


def pct(x):
    return "–" if x is None else f"{100 * x:.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base", help="the grid every cell of which is listed (e.g. docs/results/lc26-cpu)")
    ap.add_argument("deep", help="the grid that supersedes it where it has the cell")
    ap.add_argument("--json", help="also write the rows as JSON to this file")
    a = ap.parse_args()
    base, deep = load(a.base), trained(load(a.deep))
    unknown = [k for k in deep if k not in base]
    if unknown:
        sys.exit(f"standing_verdicts: {a.deep} has cells that {a.base} lacks: {unknown[:3]}")
    rows = []
    print("| language | arch | prediction | `cpu` (2 layers) | deep (5 layers) | standing verdict | mean acc. | adversarial |")
    print("|---|---|---|---|---|---|---|---|")
    for key, b in base.items():
        d = deep.get(key)
        use = d if d is not None else b
        adv = use.get("adversarial_mean_accuracy")
        rows.append({
            "language": key[0], "arch": key[1], "prediction": b["prediction"],
            "cpu": {"verdict": b["verdict"], "rule_id": b["rule_id"], "mark": b.get("mark"),
                    "fitted": b["fitted"], "runs": b["runs"]},
            "deep": None if d is None else {"verdict": d["verdict"], "rule_id": d["rule_id"], "mark": d.get("mark"),
                                            "fitted": d["fitted"], "runs": d["runs"]},
            "standing": {"from": "deep" if use is d else "cpu", "verdict": use["verdict"],
                         "rule_id": use["rule_id"], "mark": use.get("mark"),
                         "mean_accuracy": use.get("mean_accuracy"), "adversarial_mean_accuracy": adv},
        })
        deep_text = "" if d is None else f"{category(d)}, {runs_text(d)}"
        print(f"| {key[0]} | {key[1]} | {b['prediction']} | {category(b)}, {runs_text(b)} | {deep_text} | "
              f"{category(use)} | {pct(use.get('mean_accuracy'))} | {pct(adv)} |")
    counts = Counter(category_key(r["standing"]) for r in rows)
    print()
    print("standing: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1])))
    if a.json:
        tmp = a.json + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
            f.write("\n")
        os.replace(tmp, a.json)


def category_key(s):
    if s["mark"] == "at_the_ceiling":
        return s["verdict"] + " at the ceiling"
    if s["mark"] == "not_fitted":
        return s["verdict"] + " not fitted"
    return s["verdict"]


if __name__ == "__main__":
    main()
