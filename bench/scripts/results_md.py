#!/usr/bin/env python3
"""docs/RESULTS.md from the committed run files: regenerate its generated blocks, or check them.

    python3 bench/scripts/results_md.py --write [--ltlkit build/cli/ltlkit]   # rewrite the blocks
    python3 bench/scripts/results_md.py --check [--ltlkit build/cli/ltlkit]   # exit 1 on any drift

A generated block is the text between a line `<!-- generated: NAME -->` and the next `<!-- end -->`;
NAME picks the generator below, which reads only the committed files of docs/results/GRID/
(verdicts.json, written by `ltlkit report` from the runs; runs/*/*/*/result.json; the published
TSVs of examples/). Blocks named `ceiling-*` call `ltlkit ceiling` (exact, a second or two) and need
--ltlkit; without it they are left as they are and said to be unchecked.

Numbers that stay in prose are *facts*: each generator of FACTS renders a sentence fragment from the
run files, and --check fails when RESULTS.md (whitespace-normalised, so a fragment may span lines)
does not contain it word for word. So a statement cannot drift from the runs: change a run file and
the check names the block or sentence that no longer matches. Python standard library only
(works with /usr/bin/python3). Test: tests/cli/results_md.sh.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
from collections import Counter, OrderedDict

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GRIDS = ["lc25-cpu", "lc26-cpu", "lc25-cpu-deep", "lc26-cpu-deep", "lc25-cpu-labels", "lc26-cpu-labels"]
EVIDENCE_KINDS = ["success", "controls_failed", "no_success", "at_the_ceiling", "forced_pairs", "length_failure",
                  "informative_pairs", "flat_fit", "untested", "not_fitted", "passes_adversarial"]
LC26_ARCHS = ["local-1", "local-2", "local-4", "hybrid-1", "hybrid-2", "hybrid-4", "global"]
PRETTY = {"SIGMA*A": "Σ*a", "SIGMA*AB": "Σ*ab", "ASIGMA*": "aΣ*", "SUBSEQ-AB": "Σ*aΣ*bΣ*", "(AB)*": "(ab)*",
          "FACTOR-AB": "Σ*abΣ*", "RDP-1-C": "RDP-1-C", "DYCK-2-BOUNDED": "bounded Dyck-2"}


class Drift(Exception):
    pass


# ---------------------------------------------------------------- loading

_cache = {}


def grid_dir(grid):
    return os.path.join(ROOT, "docs", "results", grid)


def verdicts(grid):
    key = ("verdicts", grid)
    if key not in _cache:
        with open(os.path.join(grid_dir(grid), "verdicts.json"), encoding="utf-8") as f:
            _cache[key] = json.load(f)
    return _cache[key]


def cell(grid, language, arch):
    for c in verdicts(grid):
        if c["language"] == language and c["arch"] == arch:
            return c
    raise Drift(f"{grid}/verdicts.json has no cell {language}:{arch}")


def results(grid):
    """Every finished run of a grid: (language, arch, seed index) -> result.json."""
    key = ("results", grid)
    if key not in _cache:
        out = {}
        for path in sorted(glob.glob(os.path.join(grid_dir(grid), "runs", "*", "*", "*", "result.json"))):
            with open(path, encoding="utf-8") as f:
                r = json.load(f)
            m = re.match(r"seed(\d+)-", os.path.basename(os.path.dirname(path)))
            if not m:
                raise Drift(f"{path}: run folder not named seedN-...")
            out[(r["language"], r["config"]["arch"], int(m.group(1)))] = r
        _cache[key] = out
    return _cache[key]


def published(tsv):
    """examples/NAME.published.tsv: (language, arch, statistic) -> the value as written."""
    out = {}
    with open(os.path.join(ROOT, "examples", tsv), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or line.startswith("language\t") or not line.strip():
                continue
            lang, arch, stat, value = line.rstrip("\n").split("\t")[:4]
            out[(lang, arch, stat)] = value
    return out


def suite(name):
    out = OrderedDict()
    with open(os.path.join(ROOT, "examples", name), encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                lang, alphabet, kind, text = line.rstrip("\n").split("\t")
                out[lang] = (alphabet, kind, text)
    return out


# ---------------------------------------------------------------- formatting

def pct(x, digits=1):
    return "–" if x is None else f"{100 * x:.{digits}f}"


def judged(grid):
    """Cells with a prediction and at least one finished run (the LSTM has no prediction)."""
    return [c for c in verdicts(grid) if c["prediction"] != "unknown" and c["runs"] > 0]


def mean(xs):
    return sum(xs) / len(xs)


def adv_runs(c):
    return [r["adversarial_accuracy"] for r in c["all_runs"] if r.get("adversarial_accuracy") is not None]


def set_kind(c):
    a = c.get("adversarial") or {}
    if a.get("control"):
        return "control"
    return a.get("kind") or ""


def verdict_counts(grid_cells):
    """'N confirmed (k success, ...), ...' over cells, by verdict then evidence kind."""
    by_verdict = OrderedDict()
    for v in ["confirmed", "inconclusive", "not_reproduced", "contradicted", "evidence", "pending"]:
        by_verdict[v] = Counter()
    for c in grid_cells:
        by_verdict.setdefault(c["verdict"], Counter())[c["evidence"]] += 1
    parts = []
    for v, kinds in by_verdict.items():
        n = sum(kinds.values())
        if n == 0 and v not in ("confirmed", "contradicted"):
            continue
        inner = ", ".join(f"{k} `{e}`" for e, k in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
                          if e != "none")
        parts.append(f"**{n} {v.replace('_', ' ')}**" + (f" ({inner})" if inner else ""))
    return ", ".join(parts)


# ---------------------------------------------------------------- blocks

def block_evidence_counts():
    head = "| grid | judged cells | real evidence | " + " | ".join(f"`{k}`" for k in EVIDENCE_KINDS) + " |"
    rows = [head, "|---|---|---|" + "---|" * len(EVIDENCE_KINDS)]
    for g in GRIDS:
        cells = judged(g)
        kinds = Counter(c["evidence"] for c in cells)
        unknown = set(kinds) - set(EVIDENCE_KINDS)
        if unknown:
            raise Drift(f"{g}: evidence kinds the table has no column for: {sorted(unknown)}")
        real = sum(1 for c in cells if c["real_evidence"])
        rows.append(f"| {g} | {len(cells)} | {real} | " + " | ".join(str(kinds[k]) for k in EVIDENCE_KINDS) + " |")
    return rows


def means_row(c):
    ours = (c.get("random_accuracy") or {}).get("mean")
    pub = [p for p in c.get("published") or [] if p["statistic"] == "mean"]
    if not pub or ours is None:
        return pct(ours)
    p = pub[0]
    return f"{100 * ours:.1f} / {p['paper']:.1f} ({p['difference']:+.1f})" + (" FAR" if p["far"] else "")


def block_means(grid, archs):
    langs = list(OrderedDict.fromkeys(c["language"] for c in verdicts(grid)))
    rows = ["| language | " + " | ".join(archs) + " |", "|---|" + "---|" * len(archs)]
    for lang in langs:
        rows.append(f"| {lang} | " + " | ".join(means_row(cell(grid, lang, a)) for a in archs) + " |")
    return rows


def block_cells(grid):
    rows = ["| language | arch | prediction | verdict | evidence | fit / runs | successes / fit | train % (min–max) "
            "| ceiling train / test % | random % | adversarial or control % (pairs) | best N* |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in verdicts(grid):
        if c["runs"] == 0:
            continue
        runs = c["all_runs"]
        train = [r["train_accuracy"] for r in runs if r.get("train_accuracy") is not None]
        fit = sum(1 for r in runs if not r.get("failed_to_fit"))
        advs = adv_runs(c)
        pairs = sorted({r["adversarial_pairs"] for r in runs if r.get("adversarial_pairs")})
        kind = set_kind(c)
        adv_s = "–" if not advs else (f"{pct(mean(advs))}" + (f" ({'/'.join(map(str, pairs))}, {kind})" if pairs
                                                                 else f" ({kind})" if kind else ""))
        ceiling = c.get("ceiling") or {}
        ceil_s = ("–" if ceiling.get("train") is None and ceiling.get("test") is None
                  else f"{pct(ceiling.get('train'))} / {pct(ceiling.get('test'))}")
        train_s = f"{pct(min(train))}–{pct(max(train))}" if train else "–"
        nstar = max((r.get("n_star") or 0 for r in runs), default=0)
        rows.append(f"| {c['language']} | {c['arch']} | {c['prediction']} | {c['verdict']} | {c['evidence']} "
                    f"| {fit}/{len(runs)} | {c['successes']}/{c['fitted']} | {train_s} | {ceil_s} "
                    f"| {pct((c.get('random_accuracy') or {}).get('mean'))} | {adv_s} | {nstar} |")
    return rows


def block_verdicts(grid):
    cells = [c for c in verdicts(grid) if c["runs"] > 0]
    return [f"Verdicts of the {len(cells)} cells with a finished run (docs/results/{grid}/verdicts.json, verdict "
            f"and evidence kind): " + verdict_counts(cells) + "."]


def block_lc25_maxmean():
    pub = published("lc25.published.tsv")
    rows = ["| language | global: ours max / mean ± sd | LC25 | lstm: ours max / mean ± sd | LC25 |",
            "|---|---|---|---|---|"]
    for lang in suite("lc25.suite"):
        parts = []
        for arch in ["global", "lstm"]:
            ra = cell("lc25-cpu", lang, arch)["random_accuracy"]
            parts.append(f"{pct(ra['max'])} / {pct(ra['mean'])} ± {pct(ra['sd'])}")
            parts.append(f"{pub[(lang, arch, 'max')]} / {pub[(lang, arch, 'mean')]} ± {pub[(lang, arch, 'sd')]}")
        rows.append(f"| {lang} | " + " | ".join(parts) + " |")
    return rows


def standing(base, deep):
    d = {(c["language"], c["arch"]): c for c in verdicts(deep) if c["runs"] > 0}
    return [d.get((c["language"], c["arch"]), c) for c in verdicts(base) if c["runs"] > 0]


def block_standing(base, deep):
    cells = standing(base, deep)
    return [f"Standing verdicts of the {len(cells)} cells of {base} (each cell's verdict in docs/results/{base}, "
            f"replaced by docs/results/{deep}'s where that grid trained the cell; `python3 "
            f"bench/scripts/standing_verdicts.py docs/results/{base} docs/results/{deep}` lists them): "
            + verdict_counts(cells) + "."]


def deep_ceiling(c):
    ceiling = c.get("ceiling") or {}
    if ceiling.get("train") is None:
        return "–"
    return f"{100 * ceiling['train']:.2f} / {100 * ceiling['test']:.2f}"


def paper_mean(c):
    pub = [p for p in c.get("published") or [] if p["statistic"] == "mean"]
    return f"{pub[0]['paper']:.1f}" if pub else "–"


def block_deep_runs(grid, seeds=None):
    rows = ["| cell | seed | stopped at | training | random test mean | balanced | N* | adversarial or control "
            "(pairs, kind) | ceiling (train / test, 5 layers) | paper |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for (lang, arch, seed), r in sorted(results(grid).items(),
                                         key=lambda kv: (order(grid, kv[0][0], kv[0][1]), kv[0][2])):
        if seeds and seed not in seeds:
            continue
        c = cell(grid, lang, arch)
        adv = "–" if r.get("adversarial_accuracy") is None else \
            f"{pct(r['adversarial_accuracy'])}% ({r['adversarial_pairs']}, {set_kind(c)})"
        rows.append(f"| {lang} {arch} | seed{seed} | {r['steps_done']:,} | {pct(r['train_accuracy'])}% "
                    f"| {pct(r['mean_accuracy'])}% | {pct(r.get('balanced_accuracy'))}% | {r['n_star']} | {adv} "
                    f"| {deep_ceiling(c)} | {paper_mean(c)} |")
    return rows


def order(grid, lang, arch):
    for i, c in enumerate(verdicts(grid)):
        if c["language"] == lang and c["arch"] == arch:
            return i
    return 10 ** 6


def block_deep_means(grid):
    rows = ["| cell | prediction | fitted | random mean | adversarial or control: mean (seed 1, 2, 3) | kind "
            "| ceiling (train / test) | paper | verdict (evidence) |",
            "|---|---|---|---|---|---|---|---|---|"]
    for c in verdicts(grid):
        if c["runs"] == 0:
            continue
        advs = adv_runs(c)
        adv_s = "–" if not advs else f"{pct(mean(advs))} ({', '.join(pct(a) for a in advs)})"
        rows.append(f"| {PRETTY.get(c['language'], c['language'])} {c['arch']} | {c['prediction']} "
                    f"| {c['fitted']}/{c['runs']} | {pct(c['random_accuracy']['mean'])} | {adv_s} | {set_kind(c)} "
                    f"| {deep_ceiling(c)} | {paper_mean(c)} | {c['verdict']} ({c['evidence']}) |")
    return rows


def run_ceiling(ltlkit, regex, alphabet, per_length):
    out = subprocess.run([ltlkit, "ceiling", "--regex", regex, "--alphabet", alphabet, "--arch", "local-1",
                          "--layers", "1", "--distribution", "test", "--lengths", "41:500",
                          "--per-length", str(per_length), "--json"],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise Drift(f"ltlkit ceiling --regex '{regex}' failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def block_ceiling_constant(ltlkit):
    """The best constant answer on the evaluation's test sample, at the committed runs' 16 words per
    length and at the ceiling table's 512 (`ltlkit ceiling` reports it beside every ceiling)."""
    per = sorted({r["config"]["per_length"] for g in ("lc26-cpu", "lc26-cpu-deep") for r in results(g).values()})
    if per != [16]:
        raise Drift(f"the LC26 grids' runs use {per} test words per length, the block assumes 16")
    rows = ["| language | best constant answer, 16 words per length (committed runs) | 512 words per length "
            "(the ceiling table) |", "|---|---|---|"]
    for lang, (alphabet, kind, text) in suite("lc26.suite").items():
        if kind != "regex":
            raise Drift(f"lc26.suite: {lang} is not a regex")
        vals = []
        for n in (16, 512):
            j = run_ceiling(ltlkit, text, alphabet, n)
            vals.append(f"{100 * j['constant_accuracy']:.1f}% ({'accept' if j['constant_label'] == 1 else 'reject'})")
        rows.append(f"| {lang} | {vals[0]} | {vals[1]} |")
    return rows


def ceiling_json(ltlkit, regex, alphabet, arch, layers, *extra):
    out = subprocess.run([ltlkit, "ceiling", "--regex", regex, "--alphabet", alphabet, "--arch", arch,
                          "--layers", str(layers), "--json", *extra], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise Drift(f"ltlkit ceiling --regex '{regex}' --arch {arch} failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def ceiling_text(j, digits=2):
    if j["exact"]:
        return f"{100 * j['value']:.{digits}f}"
    return f"{100 * j['lower']:.{digits}f}–{100 * j['upper']:.{digits}f}"


def uniform_sample_ceiling(ltlkit, regex, alphabet, arch, layers, scratch):
    """The best accuracy on one 512-per-length uniform test sample (`ltlkit generate`, seed 1): a
    finite sample lets a classifier beat the distribution's ceiling by its overfit."""
    data = os.path.join(scratch, "uniform")
    if not os.path.isdir(data):
        out = subprocess.run([ltlkit, "generate", "--regex", regex, "--alphabet", alphabet, "--train-lengths", "1:2",
                              "--test-lengths", "41:500", "--per-length", "512", "--no-adversarial", "--quiet",
                              "--out", data], capture_output=True, text=True, check=False)
        if out.returncode != 0:
            raise Drift(f"ltlkit generate --regex '{regex}' failed: {out.stderr.strip()}")
    out = subprocess.run([ltlkit, "ceiling", "--arch", arch, "--layers", str(layers), "--dataset", data, "--json"],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise Drift(f"ltlkit ceiling --dataset failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


NEAR_MISS_SAMPLES = 3  # the sample verify draws (seeded by the suite's name) and two more


def block_ceiling_near_miss(ltlkit):
    """LC26's local numbers against the 5-layer ceilings on our uniform test words and on LC25's
    near-miss words. A number proves other test words only when it is above a ceiling by more than
    a finite sample can: above the uniform distribution's ceiling *and* the best on one uniform
    sample, and above the best of three near-miss samples (the one `verify --test-distribution lc25`
    draws, seeded by the suite's name, and two seeded by NAME#2, NAME#3)."""
    import shutil
    import tempfile
    lc26 = suite("lc26.suite")
    pub = published("lc26.published.tsv")
    rows = ["| language | arch | LC26 | uniform test words: ceiling / best on a 512-per-length sample "
            "| LC25 near misses, 512 per length: verify's sample (max of 3 samples) | LC26 above |",
            "|---|---|---|---|---|---|"]
    for lang, archs in [("(AB)*", ["local-1", "local-2", "local-4"]), ("FACTOR-AB", ["local-1", "local-2"])]:
        alphabet, _, text = lc26[lang]
        scratch = tempfile.mkdtemp(prefix="results_md-")
        try:
            for arch in archs:
                uni = ceiling_json(ltlkit, text, alphabet, arch, 5, "--distribution", "test")
                paper = float(pub[(lang, arch, "mean")])
                uni_s, uni_top = ceiling_text(uni), 100 * uni["upper"]
                if paper > uni_top:  # only then can the sample's overfit matter
                    samp = uniform_sample_ceiling(ltlkit, text, alphabet, arch, 5, scratch)
                    uni_s += f" / {ceiling_text(samp)}"
                    uni_top = max(uni_top, 100 * samp["upper"])
                near = [ceiling_json(ltlkit, text, alphabet, arch, 5, "--distribution", "lc25", "--name",
                                     lang if i == 0 else f"{lang}#{i + 1}") for i in range(NEAR_MISS_SAMPLES)]
                near_top = max(100 * j["upper"] for j in near)
                above = [name for name, top in (("uniform", uni_top), ("near misses", near_top)) if paper > top]
                rows.append(f"| {lang} | {arch} | {pub[(lang, arch, 'mean')]} | {uni_s} | {ceiling_text(near[0])} "
                            f"({near_top:.2f}) | {' and '.join(above) if above else '–'} |")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return rows


SWEEP = "sweep"


def counts_text(d):
    return ", ".join(f"{k} {v}" for k, v in sorted(d.items())) if d else "–"


def block_sweep_strata(sweep=SWEEP):
    """A committed sweep's table per stratum and architecture, from its sweep.json (which
    `ltlkit sweep --report` rebuilds from the level folders; tests/cli/sweep_recompute.py checks
    that rebuild independently)."""
    path = os.path.join(grid_dir(sweep), "sweep.json")
    if not os.path.exists(path):
        raise Drift(f"{path}: missing (ltlkit sweep --report {grid_dir(sweep)})")
    j = json.load(open(path, encoding="utf-8"))
    rows = ["| stratum | arch | cells | judged | predictions | verdicts | evidence | real evidence (of cells / of judged) |",
            "|---|---|---|---|---|---|---|---|"]
    def row(name, arch, t):
        judged_n = t["judged"]
        of_judged = f"{pct(t['real_evidence'] / judged_n)}%" if judged_n else "–"
        share = f"{t['real_evidence']} ({pct(t['real_evidence'] / t['cells'])}% / {of_judged})"
        return (f"| {name} | {arch} | {t['cells']} | {judged_n} | {counts_text(t['predictions'])} | "
                f"{counts_text(t['verdicts'])} | {counts_text(t['evidence'])} | {share} |")
    for t in j["table"]:
        rows.append(row(t["stratum"], t["arch"], t))
    rows.append(row("**all**", "", j["total"]))
    return rows


def block_regrid(frozen, retrained):
    """A frozen grid against the same grid trained again by today's protocol (controls and per-pair
    outputs for every run, the 4,000-word fit check): verdicts kept and changed, recognizer
    confirmations and their controls, and every changed cell."""
    old = {(c["language"], c["arch"]): c for c in verdicts(frozen) if c["runs"] > 0}
    new = {(c["language"], c["arch"]): c for c in verdicts(retrained) if c["runs"] > 0}
    both = [k for k in old if k in new]
    if not both:
        raise Drift(f"{retrained}: no cell in common with {frozen}")
    changed = [k for k in both if (old[k]["verdict"], old[k]["evidence"]) != (new[k]["verdict"], new[k]["evidence"])]
    flips = [k for k in both if old[k]["verdict"] != new[k]["verdict"]]
    def recognizers(cells):
        rec = [c for c in cells if c["prediction"] == "recognizes"]
        return (sum(1 for c in rec if c["verdict"] == "confirmed"), len(rec),
                sum(1 for c in rec if c["evidence"] == "controls_failed"))
    ro, rn = recognizers(old[k] for k in both), recognizers(new[k] for k in both)
    runs = [r for k in both for r in new[k]["all_runs"]]
    with_pairs = sum(1 for r in runs if r.get("adversarial_pairs"))
    rows = [f"{len(both)} cells in both grids ({retrained}: {len(runs)} runs, {with_pairs} with stored per-pair "
            f"outputs): the verdict is the same in {len(both) - len(flips)} and the evidence kind too in "
            f"{len(both) - len(changed)}. Recognizer predictions confirmed: {ro[0]} of {ro[1]} in {frozen} (no control "
            f"pairs: its recognizers were judged on boundary pairs, {ro[2]} failing them), {rn[0]} of {rn[1]} in "
            f"{retrained}, where {rn[2]} failed their controls.", ""]
    if changed:
        rows += ["| language | arch | prediction | " + frozen + " | " + retrained + " |", "|---|---|---|---|---|"]
        for k in changed:  # in the frozen grid's order
            o, n = old[k], new[k]
            rows.append(f"| {k[0]} | {k[1]} | {o['prediction']} | {o['verdict']} ({o['evidence']}) | "
                        f"{n['verdict']} ({n['evidence']}) |")
    return rows


BLOCKS = {
    "ceiling-near-miss": lambda o: None if not o.ltlkit else block_ceiling_near_miss(o.ltlkit),
    "evidence-counts": lambda o: block_evidence_counts(),
    "sweep-strata": lambda o: block_sweep_strata(),
    "sweep-star-free-strata": lambda o: block_sweep_strata("sweep-star-free"),
    "lc26-cpu-means": lambda o: block_means("lc26-cpu", LC26_ARCHS),
    "lc26-cpu-verdicts": lambda o: block_verdicts("lc26-cpu"),
    "lc26-cpu-cells": lambda o: block_cells("lc26-cpu"),
    "lc25-cpu-maxmean": lambda o: block_lc25_maxmean(),
    "lc25-cpu-means": lambda o: block_means("lc25-cpu", ["global", "lstm"]),
    "lc25-cpu-verdicts": lambda o: block_verdicts("lc25-cpu"),
    "lc25-cpu-lc25-cells": lambda o: block_cells("lc25-cpu-lc25"),
    "lc25-cpu-cells": lambda o: block_cells("lc25-cpu"),
    "lc26-cpu-deep-seed1": lambda o: block_deep_runs("lc26-cpu-deep", seeds={1}),
    "lc26-cpu-deep-means": lambda o: block_deep_means("lc26-cpu-deep"),
    "lc26-cpu-deep-verdicts": lambda o: block_verdicts("lc26-cpu-deep"),
    "lc26-standing": lambda o: block_standing("lc26-cpu", "lc26-cpu-deep"),
    "lc25-cpu-deep-runs": lambda o: block_deep_runs("lc25-cpu-deep"),
    "lc25-cpu-deep-means": lambda o: block_deep_means("lc25-cpu-deep"),
    "lc25-standing": lambda o: block_standing("lc25-cpu", "lc25-cpu-deep"),
    "ceiling-constant": lambda o: None if not o.ltlkit else block_ceiling_constant(o.ltlkit),
    "lc26-regrid": lambda o: block_regrid("lc26-cpu", "lc26-cpu-labels"),
    "lc25-regrid": lambda o: block_regrid("lc25-cpu", "lc25-cpu-labels"),
    "lc26-cpu-labels-verdicts": lambda o: block_verdicts("lc26-cpu-labels"),
    "lc25-cpu-labels-verdicts": lambda o: block_verdicts("lc25-cpu-labels"),
    "lc26-cpu-labels-cells": lambda o: block_cells("lc26-cpu-labels"),
    "lc25-cpu-labels-cells": lambda o: block_cells("lc25-cpu-labels"),
}


# ---------------------------------------------------------------- facts (numbers in prose)

def run_of(grid, lang, arch, seed):
    r = results(grid).get((lang, arch, seed))
    if r is None:
        raise Drift(f"{grid}: no finished run {lang}:{arch} seed {seed}")
    return r


def fact_factor_hybrid2():
    # Σ*abΣ* under hybrid-2, deep grid: exact on random words at every seed, controls per seed.
    c = cell("lc26-cpu-deep", "FACTOR-AB", "hybrid-2")
    rs = [run_of("lc26-cpu-deep", "FACTOR-AB", "hybrid-2", s) for s in (1, 2, 3)]
    nstar = sorted({r["n_star"] for r in rs})
    ctl = ", ".join(f"{pct(r['adversarial_accuracy'])}%" for r in rs)
    return [f"Σ*abΣ* under hybrid-2 is exact on random words at all three seeds (N* {'/'.join(map(str, nstar))}), "
            f"but its control pairs ({rs[0]['adversarial_pairs']} per run) score {ctl} at seeds 1, 2, 3",
            f"the cell is `{c['verdict']}` (`{c['evidence']}`)"]


def fact_ldp2():
    rs = {s: run_of("lc25-cpu-deep", "LDP-2", "global", s) for s in (1, 2)}
    c = cell("lc25-cpu-deep", "LDP-2", "global")
    return [f"LDP-2 under global fits at seeds 1 and 2 ({pct(rs[1]['train_accuracy'])}% and "
            f"{pct(rs[2]['train_accuracy'])}% on the training lengths) with random test means "
            f"{pct(rs[1]['mean_accuracy'])}% and {pct(rs[2]['mean_accuracy'])}% (N* {rs[1]['n_star']} and "
            f"{rs[2]['n_star']}), and scores {pct(rs[1]['adversarial_accuracy'])}% and "
            f"{pct(rs[2]['adversarial_accuracy'])}% on its {rs[1]['adversarial_pairs']} control pairs",
            f"the cell is `{c['verdict']}` (`{c['evidence']}`)"]


def fact_sigma_a_hybrid2():
    c = cell("lc26-cpu-deep", "SIGMA*A", "hybrid-2")
    advs = adv_runs(c)
    return [f"Σ*a hybrid-2 scores {pct(advs[0])}% on its adversarial pairs at seed 1 and {pct(mean(advs))}% as the mean "
            f"of its three seeds"]


def fact_changes():
    cf = {g: sum(1 for c in judged(g) if c["evidence"] == "controls_failed") for g in GRIDS}
    flat = sum(1 for c in judged("lc26-cpu-deep") if c["evidence"] == "flat_fit")
    return [f"{cf['lc25-cpu'] + cf['lc26-cpu']} recognizer confirmations of the two `cpu` grids and "
            f"{cf['lc25-cpu-deep']} of lc25-cpu-deep rested on the random test alone and fail their controls",
            f"{flat} of the deep LC26 grid's {len(judged('lc26-cpu-deep'))} cells are flat fits"]


def fact_grid_sizes():
    out = []
    for g, n in [("lc26-cpu", "168"), ("lc25-cpu", "66")]:
        got = len(results(g))
        out.append(f"all {got} runs")
        if str(got) != n:
            raise Drift(f"{g}: {got} finished runs, the headings say {n}")
    deep = len(results("lc26-cpu-deep"))
    out.append(f"LC26's deep grid is complete: {deep} of {deep} runs")
    return out


def fact_lc25_deep_done():
    done = len(results("lc25-cpu-deep"))
    cells = len([c for c in verdicts("lc25-cpu-deep") if c["runs"] > 0])
    return [f"{done} of the {cells * 3} runs of LC25's four deep cells are finished"]


def fact_lc26_cpu_runs():
    cells = verdicts("lc26-cpu")
    rec = [c for c in cells if c["prediction"] == "recognizes"]
    two = sum(1 for c in rec if c["successes"] >= 2)
    three = sum(1 for c in rec if c["successes"] == 3)
    fitfail = [c for c in cells if c["prediction"] == "fails" and c["fitted"] > 0]
    exact = [(c, r) for c in fitfail for r in c["all_runs"] if r["n_star"] == 500]
    cells_exact = len({(c["language"], c["arch"]) for c, _ in exact})
    odd = sorted(r["adversarial_accuracy"] for c, r in exact if r["adversarial_accuracy"] != 0.5)
    odd_cells = sorted({f"{c['language']} {c['arch']}" for c, r in exact if r["adversarial_accuracy"] != 0.5})
    if odd_cells != ["RDP-1-C hybrid-4"]:
        raise Drift(f"the runs exact on random words but off 50% on their pairs are in {odd_cells}")
    cf = sum(1 for c in rec if c["evidence"] == "controls_failed")
    return [f"Predicted recognizers: {two} of the {len(rec)} cells succeed in at least 2 of 3 seeds** ({three} in 3 of 3",
            f"Predicted failures that fit the training lengths fail to generalize, as in the papers** — {len(fitfail)} cells",
            f"In {cells_exact} of those {len(fitfail)} cells at least one run is exact",
            f"{len(exact)} runs in all; their adversarial accuracy is 50.0% "
            f"({' and '.join(pct(a) + '%' for a in odd)} in two runs of RDP-1-C hybrid-4)",
            f"Under today's rules {cf} of the {two} also fail their boundary pairs"]


def fact_parity_deep():
    rs = [run_of("lc25-cpu-deep", "PARITY", "global", k) for k in (1, 2)]
    return [f"8,000 steps, training accuracy {pct(rs[0]['train_accuracy'])}%",
            f"(the whole {rs[1]['steps_done']:,}-step budget, training accuracy {pct(rs[1]['train_accuracy'])}%)"]


FACTS = {
    "parity-deep": fact_parity_deep,
    "lc26-cpu-runs": fact_lc26_cpu_runs,
    "factor-ab-hybrid-2": fact_factor_hybrid2,
    "ldp-2-controls": fact_ldp2,
    "sigma-a-hybrid-2-adversarial": fact_sigma_a_hybrid2,
    "evidence-changes": fact_changes,
    "grid-sizes": fact_grid_sizes,
    "lc25-deep-done": fact_lc25_deep_done,
}


# ---------------------------------------------------------------- driver

BEGIN = re.compile(r"^( *)<!-- generated: ([a-z0-9-]+) -->$")
END = "<!-- end -->"


def process(text, opts):
    """(new text, [problems], [unchecked blocks])"""
    lines = text.split("\n")
    out, problems, unchecked, seen = [], [], [], set()
    i = 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        out.append(lines[i])
        i += 1
        if not m:
            continue
        indent, name = m.group(1), m.group(2)
        end = indent + END
        j = i
        while j < len(lines) and lines[j] != end:
            if BEGIN.match(lines[j]):
                break
            j += 1
        if j >= len(lines) or lines[j] != end:
            problems.append(f"block {name} (line {i}): no `{END}` before the next block or the end")
            out.extend(lines[i:j])
            i = j
            continue
        new = lines[i:j]
        if name not in BLOCKS:
            problems.append(f"block {name} (line {i}): no such generator (known: {', '.join(sorted(BLOCKS))})")
        else:
            seen.add(name)
            try:
                made = BLOCKS[name](opts)
            except Drift as e:
                problems.append(f"block {name}: {e}")
                made = False
            if made is None:
                unchecked.append(name)
            elif made is not False:
                made = [indent + x if x else x for x in made]
                if made != new:
                    problems.append(f"block {name} (line {i}): differs from what the run files give")
                new = made
        out.extend(new)
        out.append(end)
        i = j + 1
    for name in sorted(set(BLOCKS) - seen):
        problems.append(f"block {name}: not in RESULTS.md (a `<!-- generated: {name} -->` line is missing)")
    flat = " ".join(text.split())
    for name, fn in FACTS.items():
        try:
            said = fn(opts) if fn.__code__.co_argcount else fn()
            if said is None:
                unchecked.append(f"fact {name}")
                continue
            for s in said:
                if " ".join(s.split()) not in flat:
                    problems.append(f"fact {name}: RESULTS.md does not say \"{s}\"")
        except Drift as e:
            problems.append(f"fact {name}: {e}")
    return "\n".join(out), problems, unchecked


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 when a block or fact differs from the run files")
    mode.add_argument("--write", action="store_true", help="rewrite the generated blocks in place")
    ap.add_argument("--ltlkit", help="the ltlkit binary, for the blocks that call `ltlkit ceiling`")
    ap.add_argument("--file", default=os.path.join(ROOT, "docs", "RESULTS.md"))
    opts = ap.parse_args()
    with open(opts.file, encoding="utf-8") as f:
        text = f.read()
    new, problems, unchecked = process(text, opts)
    for name in unchecked:
        print(f"results_md: {name if name.startswith('fact ') else 'block ' + name} not checked (needs --ltlkit)",
              file=sys.stderr)
    if opts.write:
        if new != text:
            tmp = opts.file + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(new)
            os.replace(tmp, opts.file)
        rest = [p for p in problems if not p.endswith("differs from what the run files give")]
        for p in rest:
            print(f"results_md: {p}", file=sys.stderr)
        sys.exit(1 if rest else 0)
    for p in problems:
        print(f"results_md: {opts.file}: {p}", file=sys.stderr)
    if problems:
        print(f"results_md: {len(problems)} difference(s); `python3 bench/scripts/results_md.py --write` rewrites "
              "the blocks, facts are prose to correct by hand", file=sys.stderr)
        sys.exit(1)
    print(f"results_md: {len(BLOCKS) + len(FACTS) - len(unchecked)} blocks and facts agree with the run files"
          + (f" ({len(unchecked)} not checked without --ltlkit)" if unchecked else ""))


if __name__ == "__main__":
    main()
