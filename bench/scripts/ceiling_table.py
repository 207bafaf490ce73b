#!/usr/bin/env python3
"""The "Ceilings of the local models" table of docs/RESULTS.md, regenerated with `ltlkit ceiling`.

    python3 bench/scripts/ceiling_table.py build/cli/ltlkit [--suite examples/lc26.suite]
        [--published examples/lc26.published.tsv] [--archs local-1,local-2,local-4] [--time-limit 600]

For every language of the suite and every local architecture: the 2-layer ceiling on the training
distribution 1..40 (the `cpu` grid's model), the 5-layer ceiling on training 1..40, the 5-layer
ceiling on the evaluation's random test words 41..500 (mean over lengths), and the published
number beside it. Values are percents; "a–b" marks bounds (the exact programme was over budget),
and each cell's run time in seconds is in the last column.
"""
import argparse
import json
import os
import subprocess
import sys
import time


def read_suite(path):
    out = []
    for line in open(path, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        name, alphabet, kind, text = line.rstrip("\n").split("\t")
        out.append((name, alphabet, kind, text))
    return out


def read_published(path):
    pub = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or line.startswith("language\t") or not line.strip():
            continue
        lang, arch, stat, value, _ = line.rstrip("\n").split("\t", 4)
        if stat == "mean":
            pub[(lang, arch)] = value
    return pub


def ceiling(bin_, lang, arch, layers, dist, lengths, time_limit):
    name, alphabet, kind, text = lang
    args = [bin_, "ceiling", "--arch", arch, "--layers", str(layers), "--distribution", dist, "--lengths", lengths,
            "--time-limit", str(time_limit), "--json"]
    if kind == "regex":
        args += ["--regex", text]
    elif kind == "dfa":
        args += ["--dfa", text]
    else:
        args += [text]
    if alphabet:
        args += ["--alphabet", alphabet]
    t0 = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        sys.exit(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    j = json.loads(p.stdout)
    j["wall"] = time.monotonic() - t0
    return j


def fmt(j, digits):
    if j["exact"]:
        return f"{100 * j['value']:.{digits}f}"
    return f"{100 * j['lower']:.{digits}f}–{100 * j['upper']:.{digits}f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ltlkit")
    ap.add_argument("--suite", default="examples/lc26.suite")
    ap.add_argument("--published", default="examples/lc26.published.tsv")
    ap.add_argument("--archs", default="local-1,local-2,local-4")
    ap.add_argument("--time-limit", type=float, default=600)
    a = ap.parse_args()
    pub = read_published(a.published) if os.path.exists(a.published) else {}
    print("| language | arch | 2 layers, train 1–40 | 5 layers, train 1–40 | 5 layers, test 41–500 | published "
          "| seconds (2 / 5 / 5) |")
    print("|---|---|---:|---:|---:|---:|---|")
    for lang in read_suite(a.suite):
        for arch in a.archs.split(","):
            c2 = ceiling(a.ltlkit, lang, arch, 2, "training", "1:40", a.time_limit)
            c5 = ceiling(a.ltlkit, lang, arch, 5, "training", "1:40", a.time_limit)
            t5 = ceiling(a.ltlkit, lang, arch, 5, "test", "41:500", a.time_limit)
            print(f"| {lang[0]} | {arch} | {fmt(c2, 2)} | {fmt(c5, 2)} | {fmt(t5, 2)} | {pub.get((lang[0], arch), '–')} "
                  f"| {c2['wall']:.2f} / {c5['wall']:.2f} / {t5['wall']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
