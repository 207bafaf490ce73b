#!/usr/bin/env bash
# The ceilings against trained runs: no committed local run of the LC26 `cpu` grid
# (docs/results/lc26-cpu/results.jsonl, 2 layers) beats its receptive-field ceiling beyond sampling
# error, neither on its fit check (training distribution 1..40, 1000 words drawn 32 per length) nor
# on its random test words (41..500, the evaluation's per-length sample, mean over lengths).
# Sampling error: 4 standard errors of the run's estimate, the fit check's computed as a cluster
# sample (one length per 32 words) from the optimal classifier's per-length accuracies.
# Usage: bash ceiling_runs.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
src=$2
python3 - "$bin" "$src" <<'PY'
import json, math, subprocess, sys

bin_, src = sys.argv[1], sys.argv[2]
suite = {}
for line in open(f"{src}/examples/lc26.suite", encoding="utf-8"):
    if line.strip() and not line.startswith("#"):
        name, alphabet, kind, text = line.rstrip("\n").split("\t")
        suite[name] = (alphabet, kind, text)

cache = {}
def ceiling(lang, arch, layers, dist, lengths, per_length):
    key = (lang, arch, layers, dist, lengths, per_length)
    if key not in cache:
        alphabet, kind, text = suite[lang]
        args = [bin_, "ceiling", "--arch", arch, "--layers", str(layers), "--distribution", dist, "--lengths", lengths,
                "--per-length", str(per_length), "--alphabet", alphabet, "--json"]
        args += ["--regex", text] if kind == "regex" else (["--dfa", text] if kind == "dfa" else [text])
        p = subprocess.run(args, capture_output=True, text=True, check=True)
        cache[key] = json.loads(p.stdout)
    return cache[key]

fails = runs = at_ceiling = below = 0
worst = 0.0
for line in open(f"{src}/docs/results/lc26-cpu/results.jsonl", encoding="utf-8"):
    r = json.loads(line)
    c = r["config"]
    if not c["arch"].startswith("local-"):
        continue
    runs += 1
    tr = ceiling(r["language"], c["arch"], c["layers"], "training", f"{c['train_min']}:{c['train_max']}", 512)
    te = ceiling(r["language"], c["arch"], c["layers"], "test", f"{c['test_min']}:{c['test_max']}", c["per_length"])
    assert tr["exact"] and te["exact"], (r["language"], c["arch"])
    cv = tr["value"]
    rows = [x for x in tr["per_length_rows"] if x["share"] > 0]
    var_between = sum(x["share"] * (x["accuracy"] - cv) ** 2 for x in rows)
    se_fit = math.sqrt(var_between / (c["fit_words"] / c["batch"]) + cv * (1 - cv) / c["fit_words"])
    tv = te["value"]
    se_test = math.sqrt(tv * (1 - tv) / (c["per_length"] * (c["test_max"] - c["test_min"] + 1)))
    excess = r["train_accuracy"] - cv
    worst = max(worst, excess / max(se_fit, 1e-12))
    below += cv < 0.99
    if cv < 0.99 and r["train_accuracy"] >= cv - 4 * se_fit:
        at_ceiling += 1
    if r["train_accuracy"] > cv + 4 * se_fit + 1e-9:
        fails += 1
        print(f"FAIL: {r['language']} {c['arch']} seed {c['seed']}: fit accuracy {r['train_accuracy']:.4f} > ceiling {cv:.4f} + 4 x {se_fit:.4f}")
    if r["mean_accuracy"] > tv + 4 * se_test + 1e-9:
        fails += 1
        print(f"FAIL: {r['language']} {c['arch']} seed {c['seed']}: test accuracy {r['mean_accuracy']:.4f} > ceiling {tv:.4f} + 4 x {se_test:.4f}")
assert runs == 72, runs
print(f"{runs} local runs; none above its ceiling beyond 4 standard errors (largest excess of a fit accuracy: "
      f"{worst:.2f} SE); {below} runs have a training ceiling below 99%, {at_ceiling} of them fit to within 4 SE of it")
sys.exit(1 if fails else 0)
PY
