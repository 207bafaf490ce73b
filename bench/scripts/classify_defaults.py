#!/usr/bin/env python3
"""`ltlkit classify` with its default options on the languages users bring: wall time, peak memory
and window answers, per family of inputs (docs/PERFORMANCE.md, "classify with default options").

    python3 bench/scripts/classify_defaults.py [--bin build/cli/ltlkit] [--count 40] [--seed 1]
                                               [--families random,definite,lrt,formulas,formula-dfas]

Families (each input is run as its own process, as a user runs it):
  random        random complete DFAs, 2..12 states over 2..4 letters (classify minimizes them)
  definite      "the last d letters decide" DFAs (d = 1, 2; 2..3 letters) with random acceptance
  lrt           locally R-trivial DFAs that are neither definite nor R-trivial as a rule: 2..3 phases, each
                a "last d letters" automaton (d = 1, 2), some transitions moving on to the next phase (every
                SCC lies in one phase, whose loops end in the state's own last letters, so no two states of
                an SCC share a loop word); 2..4 letters, random acceptance
  formulas      random formulas of LTL[P,Y], LTL[P,Y<=2] and LTL[Y<=k] over 2..4 letters, as formulas
  formula-dfas  the same formulas compiled to DFA JSON first, so no input formula certifies a window
  dir:PATH      every *.json DFA in PATH, in name order (e.g. dir:bench/data/window-unknowns, the random
                locally R-trivial DFAs whose window questions stay unknown at the default budget)
Inputs whose minimal DFA has more than 12 states are skipped (the target is stated for <= 12).
Prints one table row per family (median / p90 / max of wall seconds and peak resident MiB, how many
exceeded 5 s or 500 MiB, the window answers) and the five slowest inputs with the command that
reruns each. The reference column is the target of the issue: 5 s and 500 MiB per input.
"""
import argparse
import glob
import json
import os
import random
import subprocess
import sys
import tempfile
import time

LETTERS = "abcd"


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))] if xs else float("nan")


def run(cmd):
    """Runs cmd; returns (wall seconds, peak resident MiB, exit code, stdout)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024.0, p.returncode, out


def random_dfa(rng):
    n, s = rng.randint(2, 12), rng.randint(2, 4)
    return {"alphabet": list(LETTERS[:s]), "initial": 0,
            "accepting": [q for q in range(n) if rng.random() < 0.5],
            "transitions": [[rng.randrange(n) for _ in range(s)] for _ in range(n)]}


def definite_dfa(rng):
    s = rng.randint(2, 3)
    d = 2 if s == 2 else rng.randint(1, 2)
    # states: the words of length <= d (the last d letters, or the whole word while shorter)
    words = [""]
    for length in range(1, d + 1):
        words += [w + c for w in words if len(w) == length - 1 for c in LETTERS[:s]]
    index = {w: i for i, w in enumerate(words)}
    trans = [[index[(w + c)[-d:]] for c in LETTERS[:s]] for w in words]
    return {"alphabet": list(LETTERS[:s]), "initial": 0,
            "accepting": [i for i in range(len(words)) if rng.random() < 0.5], "transitions": trans}


def lrt_dfa(rng):
    s = rng.randint(2, 4)
    phases = rng.randint(2, 3)
    d = 1 if s >= 3 or rng.random() < 0.5 else 2
    words = [""]
    for length in range(1, d + 1):
        words += [w + c for w in words if len(w) == length - 1 for c in LETTERS[:s]]
    index = {w: i for i, w in enumerate(words)}
    m = len(words)
    trans = []
    for ph in range(phases):
        for w in words:
            row = []
            for c in LETTERS[:s]:
                target = index[(w + c)[-d:]]
                if ph + 1 < phases and rng.random() < 0.25:
                    row.append((ph + 1) * m + target)  # on to the next phase, same suffix
                else:
                    row.append(ph * m + target)
            trans.append(row)
    n = len(trans)
    return {"alphabet": list(LETTERS[:s]), "initial": 0,
            "accepting": [q for q in range(n) if rng.random() < 0.5], "transitions": trans}


def random_formula(rng, letters, ops, depth):
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(letters + ["true"] if rng.random() < 0.1 else letters)
    op = rng.choice(ops)
    if op in ("&", "|"):
        return "(%s %s %s)" % (random_formula(rng, letters, ops, depth - 1), op, random_formula(rng, letters, ops, depth - 1))
    return "%s(%s)" % (op, random_formula(rng, letters, ops, depth - 1))


def formula_input(rng):
    s = rng.randint(2, 4)
    letters = list(LETTERS[:s])
    k = rng.randint(2, 3)
    ops = rng.choice([["!", "&", "|", "P", "Y"], ["!", "&", "|", "P", "Y<=%d " % k], ["!", "&", "|", "Y<=%d " % k]])
    return random_formula(rng, letters, ops, rng.randint(2, 4)), ",".join(letters)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/cli/ltlkit")
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--families", default="random,definite,lrt,formulas,formula-dfas")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="classify_defaults.")
    rows, slow = [], []
    for family in a.families.split(","):
        rng = random.Random("%s/%d" % (family, a.seed))
        files = sorted(glob.glob(os.path.join(family[4:], "*.json"))) if family.startswith("dir:") else None
        walls, rss, states, answers, over_t, over_m, failed, tried = [], [], [], {}, 0, 0, 0, 0
        while len(walls) < (len(files) if files is not None else a.count) and tried < 50 * a.count:
            tried += 1
            if files is not None:
                if tried > len(files):
                    break
                cmd = [a.bin, "classify", "--dfa", files[tried - 1], "--json"]
            elif family in ("random", "definite", "lrt"):
                dfa = {"random": random_dfa, "definite": definite_dfa, "lrt": lrt_dfa}[family](rng)
                path = os.path.join(tmp, "%s-%d.json" % (family, tried))
                with open(path, "w") as f:
                    json.dump(dfa, f)
                cmd = [a.bin, "classify", "--dfa", path, "--json"]
            elif family in ("formulas", "formula-dfas"):
                text, alphabet = formula_input(rng)
                cmd = [a.bin, "classify", text, "--alphabet", alphabet, "--json"]
                if family == "formula-dfas":
                    path = os.path.join(tmp, "f-%d.json" % tried)
                    c = subprocess.run([a.bin, "compile", text, "--alphabet", alphabet, "--format", "json"],
                                       capture_output=True, text=True)
                    if c.returncode != 0:
                        continue
                    with open(path, "w") as f:
                        f.write(c.stdout)
                    cmd = [a.bin, "classify", "--dfa", path, "--json"]
            else:
                sys.exit("classify_defaults: unknown family '%s'" % family)
            wall, mib, code, out = run(cmd)
            if code != 0:
                failed += 1
                print("classify_defaults: exit %d: %s" % (code, " ".join(cmd)), file=sys.stderr)
                continue
            j = json.loads(out)
            if j["states"] > 12:
                continue
            walls.append(wall)
            rss.append(mib)
            states.append(j["states"])
            over_t += wall > 5
            over_m += mib > 500
            for kind in ("local_k", "hybrid_k"):
                for k, v in j[kind].items():
                    answers.setdefault(v, 0)
                    answers[v] += 1
            slow.append((wall, mib, family, " ".join("'%s'" % x if " " in x or "(" in x else x for x in cmd)))
        rows.append((family, len(walls), min(states, default=0), max(states, default=0), walls, rss, over_t, over_m,
                     answers, failed))
    print("| family | inputs | minimal states | wall median / p90 / max (s) | peak MiB median / max | > 5 s | > 500 MiB "
          "| window answers yes / no / unknown | errors |")
    print("|---|---|---|---|---|---|---|---|---|")
    for family, n, lo, hi, walls, rss, ot, om, ans, failed in rows:
        print("| %s | %d | %d–%d | %.2f / %.2f / %.2f | %.0f / %.0f | %d | %d | %d / %d / %d | %d |" % (
            family, n, lo, hi, percentile(walls, 0.5), percentile(walls, 0.9), max(walls, default=0),
            percentile(rss, 0.5), max(rss, default=0), ot, om, ans.get("yes", 0), ans.get("no", 0),
            ans.get("unknown", 0), failed))
    print("\nSlowest inputs (target: 5 s, 500 MiB each):")
    for wall, mib, family, cmd in sorted(slow, reverse=True)[:5]:
        print("  %.2f s, %.0f MiB (%s): %s" % (wall, mib, family, cmd))
    print("(DFA files kept in %s)" % tmp)


if __name__ == "__main__":
    main()
