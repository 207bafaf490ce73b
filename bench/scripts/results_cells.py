#!/usr/bin/env python3
"""Per-cell summary of a verify folder's verdicts.json, as docs/RESULTS.md tabulates it.

    python3 bench/scripts/results_cells.py docs/results/lc26-cpu/verdicts.json [--archs a,b,...]

One Markdown row per (language, architecture) cell, in the order of verdicts.json: the prediction,
the verdict with its mark ("at the ceiling": rule 1a, "not fitted": rules 1 and 1b;
docs/PROTOCOL.md), how many runs fit (training accuracy >= the fit threshold) and how many of those
succeeded, the range of training accuracy, the cell's ceiling on the training and test
distributions (k-local cells; "–" where none exists), the mean accuracy on random test words and on
the adversarial pairs over every finished run, and the best N*. Reads only verdicts.json, so it
agrees with report.md by construction.
"""
import json
import sys


def pct(x):
    return "–" if x is None else f"{100 * x:.1f}"


def main(argv):
    if len(argv) < 2:
        sys.exit("usage: results_cells.py VERDICTS_JSON [--archs a,b,...]")
    cells = json.load(open(argv[1], encoding="utf-8"))
    archs = None
    if len(argv) >= 4 and argv[2] == "--archs":
        archs = argv[3].split(",")
    print("| language | arch | prediction | verdict | fit / runs | successes / fit | train % (min–max) "
          "| ceiling train / test % | random % | adv % | best N* |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for c in cells:
        if archs and c["arch"] not in archs:
            continue
        runs = c.get("all_runs", [])
        train = [r["train_accuracy"] for r in runs if r.get("train_accuracy") is not None]
        advs = [r["adversarial_accuracy"] for r in runs if r.get("adversarial_accuracy") is not None]
        fit = sum(1 for r in runs if not r.get("failed_to_fit"))
        nstar = max((r.get("n_star") or 0 for r in runs), default=0)
        mark = {"at_the_ceiling": " (at the ceiling)", "not_fitted": " (not fitted)"}.get(c.get("mark"), "")
        verdict = c["verdict"] + mark
        ceiling = c.get("ceiling") or {}
        ceiling_s = ("–" if ceiling.get("train") is None and ceiling.get("test") is None
                     else f"{pct(ceiling.get('train'))} / {pct(ceiling.get('test'))}")
        rnd = c.get("random_accuracy") or {}
        train_s = f"{pct(min(train))}–{pct(max(train))}" if train else "–"
        adv_s = pct(sum(advs) / len(advs)) if advs else "–"
        print(f"| {c['language']} | {c['arch']} | {c['prediction']} | {verdict} | {fit}/{len(runs)} "
              f"| {c['successes']}/{c['fitted']} | {train_s} | {ceiling_s} | {pct(rnd.get('mean'))} | {adv_s} | {nstar} |")


if __name__ == "__main__":
    main(sys.argv)
