#!/usr/bin/env python3
"""The window answers (local_k, hybrid_k for k = 2..4) of two ltlkit binaries at default settings,
side by side: counts of yes / no / unknown with each, every answer that differs, and the largest
CPU time of one classify (docs/PERFORMANCE.md, "Letters that act alike").

    window_answers_diff.py OLD_LTLKIT NEW_LTLKIT random COUNT SEED   (random DFAs, 2-3 letters, 3-8 states)
    window_answers_diff.py OLD_LTLKIT NEW_LTLKIT dir PATH             (every *.json DFA in PATH)

Exits 1 when an answer differs, 2 on a bad request or a classify that fails.
"""
import glob
import json
import os
import random
import subprocess
import sys
import tempfile


def random_dfas(count, seed, tmp):
    rng = random.Random(seed)
    for i in range(count):
        s, q = rng.choice([2, 3]), rng.randint(3, 8)
        d = {"alphabet": list("abc"[:s]), "initial": 0,
             "accepting": [x for x in range(q) if rng.randint(0, 1)],
             "transitions": [[rng.randrange(q) for _ in range(s)] for _ in range(q)]}
        path = os.path.join(tmp, "random-%d.json" % i)
        with open(path, "w") as f:
            json.dump(d, f)
        yield path


def answers(binary, path):
    t0 = os.times()
    out = subprocess.run([binary, "classify", "--dfa", path, "--max-k", "4", "--json"], capture_output=True, text=True)
    t1 = os.times()
    if out.returncode != 0:
        raise RuntimeError("%s classify --dfa %s: %s" % (binary, path, out.stderr.strip().splitlines()[-1:]))
    j = json.loads(out.stdout)
    a = {("local_k", k): v for k, v in j["local_k"].items()}
    a.update({("hybrid_k", k): v for k, v in j["hybrid_k"].items()})
    return a, t1.children_user + t1.children_system - t0.children_user - t0.children_system


def main(argv):
    if len(argv) < 4 or argv[2] not in ("random", "dir") or (argv[2] == "random" and len(argv) != 5):
        print("window_answers_diff.py: usage: OLD NEW random COUNT SEED | OLD NEW dir PATH", file=sys.stderr)
        return 2
    old, new = argv[0], argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        if argv[2] == "random":
            try:
                count, seed = int(argv[3]), int(argv[4])
            except ValueError:
                print("window_answers_diff.py: COUNT and SEED must be integers", file=sys.stderr)
                return 2
            paths = list(random_dfas(count, seed, tmp))
        else:
            paths = sorted(glob.glob(os.path.join(argv[3], "*.json")))
            if not paths:
                print("window_answers_diff.py: no *.json DFA in %s" % argv[3], file=sys.stderr)
                return 2
        counts = {"old": {}, "new": {}}
        worst = {"old": 0.0, "new": 0.0}
        differ = 0
        for path in paths:
            got = {}
            for name, binary in (("old", old), ("new", new)):
                try:
                    got[name], cpu = answers(binary, path)
                except (RuntimeError, ValueError, KeyError) as e:
                    print("window_answers_diff.py: %s" % e, file=sys.stderr)
                    return 2
                worst[name] = max(worst[name], cpu)
                for v in got[name].values():
                    counts[name][v] = counts[name].get(v, 0) + 1
            for key in sorted(got["old"]):
                if got["old"][key] != got["new"].get(key):
                    differ += 1
                    print("%s %s:%s %s -> %s" % (os.path.basename(path), key[0], key[1], got["old"][key], got["new"].get(key)))
    for name in ("old", "new"):
        c = counts[name]
        print("%s: %d yes / %d no / %d unknown window cells, CPU max %.2f s" %
              (name, c.get("yes", 0), c.get("no", 0), c.get("unknown", 0), worst[name]))
    print("%d inputs, %d answers differ" % (len(paths), differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
