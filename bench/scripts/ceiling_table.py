#!/usr/bin/env python3
"""The "Ceilings of the local models" table of docs/RESULTS.md, regenerated with `ltlkit ceiling`.

    python3 bench/scripts/ceiling_table.py build/cli/ltlkit [--suite examples/lc26.suite]
        [--published examples/lc26.published.tsv] [--archs local-1,local-2,local-4] [--time-limit 600]

For every language of the suite and every local architecture: the 2-layer ceiling on the training
distribution 1..40 (the `cpu` grid's model), the 5-layer ceiling on training 1..40, the 5-layer
ceiling on the evaluation's random test words 41..500 (mean over lengths), and the published
number beside it. Values are percents (with as many digits as it takes for a value below 100 not to
print as 100); "a–b" marks bounds (the exact programme was over its state budget); the last column
is each cell's CPU time. --time-limit 0 (the default) leaves the state budget alone to decide, so
the table does not depend on the machine's load. --raw FILE keeps every JSON answer.
"""
import argparse
import json
import os
import resource
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
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(args, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        sys.exit(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    j = json.loads(p.stdout)
    j["wall"] = time.monotonic() - t0
    j["cpu"] = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
    return j


def pct(x, digits):
    # Enough digits that a value below 100 never prints as 100.
    text = f"{100 * x:.{digits}f}"
    while x < 1 and float(text) >= 100 and digits < 8:
        digits += 1
        text = f"{100 * x:.{digits}f}"
    return text


def fmt(j, digits):
    if j["exact"]:
        return pct(j["value"], digits)
    return f"{pct(j['lower'], digits)}–{pct(j['upper'], digits)}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ltlkit")
    ap.add_argument("--suite", default="examples/lc26.suite")
    ap.add_argument("--published", default="examples/lc26.published.tsv")
    ap.add_argument("--archs", default="local-1,local-2,local-4")
    ap.add_argument("--raw", help="also write every answer of `ltlkit ceiling --json` here, one per line")
    ap.add_argument("--time-limit", type=float, default=0)  # 0: the state budget alone decides (load-independent)
    a = ap.parse_args()
    pub = read_published(a.published) if os.path.exists(a.published) else {}
    raw = open(a.raw, "w", encoding="utf-8") if a.raw else None
    print("| language | arch | 2 layers, train 1–40 | 5 layers, train 1–40 | 5 layers, test 41–500 | published "
          "| CPU seconds (2 / 5 / 5) |")
    print("|---|---|---:|---:|---:|---:|---|")
    for lang in read_suite(a.suite):
        for arch in a.archs.split(","):
            c2 = ceiling(a.ltlkit, lang, arch, 2, "training", "1:40", a.time_limit)
            c5 = ceiling(a.ltlkit, lang, arch, 5, "training", "1:40", a.time_limit)
            t5 = ceiling(a.ltlkit, lang, arch, 5, "test", "41:500", a.time_limit)
            if raw:
                for j in (c2, c5, t5):
                    raw.write(json.dumps({**j, "language": lang[0], "spec": j["language"]}) + "\n")
                raw.flush()
            print(f"| {lang[0]} | {arch} | {fmt(c2, 2)} | {fmt(c5, 2)} | {fmt(t5, 2)} | {pub.get((lang[0], arch), '–')} "
                  f"| {c2['cpu']:.2f} / {c5['cpu']:.2f} / {t5['cpu']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
