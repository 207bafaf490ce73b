#!/usr/bin/env python3
"""Recomputes every verdict of verify folders from their run files, independently of
neural/verify/verdict.cc, and compares each with the folder's verdicts.json.

The rules are docs/PROTOCOL.md "Verdict" (rules 1-7 and the evidence kinds), read from:
plan.json (each language's name, folder and predictions per architecture, with its adversarial
set's marking), every listed run's result.json, and its probe.json when verify probed it. The
one input taken from verdicts.json itself is a cell's training ceiling (rule 1a), which
`ltlkit ceiling` computes and tests/cli check independently. The Clopper-Pearson bounds of the
flat-fit test (rule 7) are computed here from binomial tail sums by bisection, not from the beta
function verdict.cc uses.

Usage: verdict_recompute.py DIR [DIR...]  (each a verify folder, e.g. a sweep's level-N)
Prints one line per folder; exit 1 with one line per cell whose verdict, rule, evidence or
real_evidence differs, 2 on unreadable input.
"""
import functools
import json
import math
import os
import sys

PASS = 0.99          # kPairSetPass: a pair set passes at >= 99%
FAILURE_ORDER = ["length_failure", "informative_pairs", "probe_failure", "forced_pairs", "flat_fit", "untested"]
CONFIRMING = {"length_failure", "informative_pairs", "probe_failure", "forced_pairs"}


def die(msg):
    print(f"verdict_recompute.py: {msg}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        die(f"{path}: {e}")


def log_binom_pmf(k, n, p):
    if p <= 0:
        return 0.0 if k == 0 else -math.inf
    if p >= 1:
        return 0.0 if k == n else -math.inf
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def log_sum(terms):
    m = max(terms)
    if m == -math.inf:
        return -math.inf
    return m + math.log(sum(math.exp(t - m) for t in terms))


def binom_cdf(k, n, p):
    """P(X <= k) for X ~ Binomial(n, p), summed in log space over the shorter tail."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if k <= n // 2:
        return min(1.0, math.exp(log_sum([log_binom_pmf(i, n, p) for i in range(k + 1)])))
    return max(0.0, 1.0 - math.exp(log_sum([log_binom_pmf(i, n, p) for i in range(k + 1, n + 1)])))


def bisect(f, lo=0.0, hi=1.0):
    """The p in [lo, hi] where the decreasing f crosses 0."""
    for _ in range(64):
        mid = 0.5 * (lo + hi)
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13:
            break
    return 0.5 * (lo + hi)


@functools.lru_cache(maxsize=None)
def clopper_pearson(k, n, confidence):
    if n <= 0:
        return 0.0, 1.0
    k = max(0, min(k, n))
    a = (1 - confidence) / 2
    # lower: P(X >= k; p) = a, i.e. 1 - cdf(k-1) = a; upper: cdf(k; p) = a.
    lower = 0.0 if k == 0 else bisect(lambda p: a - (1 - binom_cdf(k - 1, n, p)))
    upper = 1.0 if k == n else bisect(lambda p: binom_cdf(k, n, p) - a)
    return lower, upper


def interval(acc, n, confidence):
    if n <= 0:
        return 0.0, 1.0
    return clopper_pearson(int(math.floor(acc * n + 0.5)), n, confidence)


def words_in(r, lo, hi):
    labels = r.get("per_length_labels") or {}
    words = 0
    for n, c in labels.items():
        if lo <= int(n) <= hi:
            words += c["accepted"][0] + c["rejected"][0]  # [words, right answers] per label
    if words == 0:
        per = r["config"]["per_length"]
        words = sum(per for n in (r.get("per_length_accuracy") or {}) if lo <= int(n) <= hi)
    return words


def degrades_with_length(r):
    fit = r["config"]["fit_words"]
    if fit > 0 and r["train_accuracy"] >= 1 - 0.5 / fit:
        return True
    train_low = interval(r["train_accuracy"], fit, 0.999)[0]
    for b, acc in (r.get("bin_accuracy") or {}).items():
        if "-" not in b:
            continue
        lo, hi = (int(x) for x in b.split("-", 1))
        if interval(acc, words_in(r, lo, hi), 0.999)[1] < train_low:
            return True
    return False


def failure_kind(r, kind, arch):
    if r["success"]:
        adv = r.get("adversarial_accuracy")
        if adv is None:
            return "untested"
        if adv >= PASS:
            probe = r.get("_probe")
            return "probe_failure" if probe is not None and probe.get("first_wrong") is not None else "passes_adversarial"
        if kind == "":  # unmarked: by the architecture's window (local-k forced, others informative)
            kind = "forced" if arch.startswith("local-") else "informative"
        return "informative_pairs" if kind == "informative" else "forced_pairs"
    return "length_failure" if degrades_with_length(r) else "flat_fit"


def judge(prediction, arch, runs, kind, ceiling_train):
    """(verdict, rule_id, evidence) of a cell with at least one finished run."""
    theory = not arch.startswith("lstm") and all(
        r["config"]["pe"] == "none" and r["config"]["strict"] for r in runs)
    if not theory:
        prediction = "unknown"
    fitted = [r for r in runs if not r["failed_to_fit"]]
    if not fitted:
        if prediction != "fails":
            return "inconclusive", "1", "not_fitted"
        if ceiling_train is not None and ceiling_train < 0.99:
            return "confirmed", "1a", "at_the_ceiling"
        return "inconclusive", "1b", "not_fitted"
    if prediction == "unknown":
        return "evidence", "2", "none"
    if prediction == "recognizes":
        measured_pass = unmeasured_pass = shortcut = False
        for r in fitted:
            if not r["success"]:
                continue
            control = r.get("adversarial_accuracy")
            if control is None:
                control = r.get("boundary_accuracy")
            if control is None:
                unmeasured_pass = True
            elif control >= PASS:
                measured_pass = True
            else:
                shortcut = True
        if measured_pass:
            return "confirmed", "3", "success"
        if unmeasured_pass:
            return "confirmed", "3", "success_no_controls"
        if shortcut:
            return "not_reproduced", "4", "controls_failed"
        return "not_reproduced", "4", "no_success"
    kinds = {failure_kind(r, kind, arch) for r in fitted}
    if "passes_adversarial" in kinds:
        return "contradicted", "5", "passes_adversarial"
    for k in FAILURE_ORDER:
        if k in kinds:
            return ("confirmed", "6", k) if k in CONFIRMING else ("inconclusive", "7", k)
    return "inconclusive", "7", "flat_fit"


def flatten_config(cfg):
    """result.json's config as the few fields the rules read (nested or flat layouts)."""
    flat = {}
    for part in ("model", "training", "evaluation", "runtime"):
        if isinstance(cfg.get(part), dict):
            flat.update(cfg[part])
    flat.update({k: v for k, v in cfg.items() if not isinstance(v, dict)})
    return {"pe": flat.get("pe", "none"), "strict": flat.get("strict", True),
            "fit_words": flat.get("fit_words", 0), "per_length": flat.get("per_length", 0)}


def recompute(d):
    plan = load(os.path.join(d, "plan.json"))
    verdicts = load(os.path.join(d, "verdicts.json"))
    by_cell = {(v["language"], v["arch"]): v for v in verdicts}
    langs = {l["dir"]: l for l in plan["languages"]}
    runs = {}
    for r in plan["runs"]:
        path = os.path.join(d, r["rundir"], "result.json")
        if not os.path.exists(path):
            continue
        res = load(path)
        res["config"] = flatten_config(res["config"])
        probe_path = os.path.join(d, r["rundir"], "probe.json")
        if os.path.exists(probe_path):
            res["_probe"] = load(probe_path)
        runs.setdefault((langs[r["language"]]["name"], r["arch"]), []).append(res)
    differences, judged = [], 0
    for lang in plan["languages"]:
        for a in lang["archs"]:
            cell = (lang["name"], a["arch"])
            v = by_cell.get(cell)
            if v is None:
                continue
            rs = runs.get(cell, [])
            if not rs:
                if v["verdict"] != "pending" and v.get("runs", 0) != 0:
                    differences.append(f"{d}: {cell[0]}:{cell[1]}: no finished run, verdicts.json says {v['verdict']}")
                continue
            judged += 1
            got = judge(a["prediction"], a["arch"], rs, a.get("adversarial_kind", ""), v["ceiling"]["train"])
            want = (v["verdict"], v["rule_id"], v["evidence"])
            if got != want or v["real_evidence"] != (got[0] == "confirmed"):
                differences.append(f"{d}: {cell[0]}:{cell[1]}: recomputed {got}, verdicts.json {want} "
                                   f"(real_evidence {v['real_evidence']})")
    return judged, differences


def main():
    if len(sys.argv) < 2:
        die("usage: verdict_recompute.py DIR [DIR...]")
    bad = []
    for d in sys.argv[1:]:
        judged, diffs = recompute(d)
        print(f"verdict_recompute: {d}: {judged} judged cells, {len(diffs)} differ")
        bad += diffs
    for line in bad:
        print(line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
