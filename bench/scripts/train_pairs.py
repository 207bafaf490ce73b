#!/usr/bin/python3
"""Whole training runs of ltlkit against Python PyTorch, in interleaved pairs (docs/PERFORMANCE.md,
"Training cost").

Per architecture and pair: one `ltlkit train` of a `cpu`-profile run (2 layers x d 32 x 4 heads,
d_ff 64, batch 32, lr 1e-3, STEPS steps, lengths 1..40, Sigma*a over {a,b} sampled exactly from its
DFA, checkpoints every 500 steps) and one run of bench/scripts/train_ref.py with the same model,
batch, steps and lengths (Debian's python3-torch: the same libtorch). The order alternates (AB, BA,
AB, ...) so that load from other work on a shared machine hits both sides alike. Both use one
thread. Reported per pair: the training seconds each side measures around its step loop (ltlkit:
result.json's train_seconds, which include its checkpoints; Python: train_ref.py's "seconds") and
the CPU seconds of each whole process (rusage: start-up, import torch, and ltlkit's small
evaluation included); the ratio is Python / ltlkit, so > 1 means ltlkit is faster. Medians last.

  bench/scripts/train_pairs.py [--pairs 3] [--archs global,local-1,hybrid-1] [--steps 2000]
                               [--layers 2] [--ltlkit build/cli/ltlkit] [--python /usr/bin/python3]
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd):
    """(stdout, CPU seconds of the process)."""
    before = child_cpu()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cpu = child_cpu() - before
    if p.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr[-2000:]))
    return p.stdout, cpu


def ltlkit_side(a, arch, tmp, i):
    out = os.path.join(tmp, "%s-%d" % (arch, i))
    cmd = [a.ltlkit, "train", "--regex", ".*a", "--alphabet", "a,b", "--arch", arch, "--layers", str(a.layers),
           "--d-model", "32", "--heads", "4", "--d-ff", "64", "--batch", "32", "--lr", "1e-3", "--steps",
           str(a.steps), "--seed", str(i + 1), "--threads", "1", "--device", "cpu", "--test-lengths", "41:41",
           "--per-length", "2", "--checkpoint-every", "500", "--log-every", "500", "--quiet", "--json",
           "--out", out]
    text, cpu = run(cmd)
    r = json.loads(text)
    shutil.rmtree(out, ignore_errors=True)
    return r["train_seconds"], cpu


def python_side(a, arch):
    cmd = [a.python, os.path.join(HERE, "train_ref.py"), "--arch", arch, "--threads", "1", "--steps", str(a.steps),
           "--warmup", "0", "--batch", "32", "--layers", str(a.layers), "--d-model", "32", "--heads", "4",
           "--d-ff", "64", "--device", "cpu"]
    text, cpu = run(cmd)
    return json.loads(text.strip().splitlines()[-1])["seconds"], cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--archs", default="global,local-1,hybrid-1")
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--ltlkit", default=os.path.join(HERE, "..", "..", "build", "cli", "ltlkit"))
    ap.add_argument("--python", default="/usr/bin/python3")
    a = ap.parse_args()
    if not os.access(a.ltlkit, os.X_OK):
        sys.exit("train_pairs.py: %s is not an executable (build ltlkit first, or give --ltlkit)" % a.ltlkit)
    print("%d steps x batch 32, %d layers x d 32 x 4 heads, d_ff 64, one thread; load average at start %.1f"
          % (a.steps, a.layers, os.getloadavg()[0]))
    print("%-9s %4s %5s %12s %12s %7s %12s %12s %7s" % ("arch", "pair", "order", "ltlkit s", "python s", "ratio",
                                                        "ltlkit CPU", "python CPU", "ratio"))
    with tempfile.TemporaryDirectory(prefix="train_pairs.") as tmp:
        for arch in a.archs.split(","):
            ratios, cpu_ratios = [], []
            for i in range(a.pairs):
                first_ltlkit = i % 2 == 0
                if first_ltlkit:
                    lt = ltlkit_side(a, arch, tmp, i)
                    py = python_side(a, arch)
                else:
                    py = python_side(a, arch)
                    lt = ltlkit_side(a, arch, tmp, i)
                ratios.append(py[0] / lt[0])
                cpu_ratios.append(py[1] / lt[1])
                print("%-9s %4d %5s %12.2f %12.2f %7.2f %12.2f %12.2f %7.2f" % (
                    arch, i + 1, "LP" if first_ltlkit else "PL", lt[0], py[0], ratios[-1], lt[1], py[1],
                    cpu_ratios[-1]), flush=True)
            print("%-9s median ratio (python / ltlkit): training seconds %.2f, process CPU %.2f" % (
                arch, statistics.median(ratios), statistics.median(cpu_ratios)), flush=True)
    print("load average at end %.1f (%s)" % (os.getloadavg()[0], time.strftime("%H:%M")))


if __name__ == "__main__":
    main()
