#!/usr/bin/env python3
"""Scores a trained run on a certificate's word family far beyond the test lengths.

A contradicted cell (docs/RESULTS.md) is a run predicted to fail that passed its random test and its
adversarial set, both at the protocol's test lengths. The failure prediction is about a family
x·p^r·y / x·p^r·z whose membership differs for every r while the architecture cannot separate the
two words for r large enough (docs/WINDOWS.md §2): this script asks the trained model about the
family at growing r and prints, per r, both words' lengths and logits and whether the model answers
both right, then the first length at which it does not.

    bench/scripts/family_probe.py --ltlkit build/cli/ltlkit RUNDIR --family x,p,y,z [--r 20,40,...]
    bench/scripts/family_probe.py --ltlkit build/cli/ltlkit RUNDIR --certificate CERT.json

The family comes from --family (words letter by letter, '' for the empty word) or from a
certificate written by `ltlkit classify --certificates` (its "family"; x2, e and q are not read).
Exit 0 when it printed the table (whatever the model did), 2 on bad input.
"""
import argparse
import json
import subprocess
import sys
import tempfile


def die(msg):
    print(f"family_probe.py: {msg}", file=sys.stderr)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rundir")
    ap.add_argument("--ltlkit", default="build/cli/ltlkit")
    ap.add_argument("--family", help="x,p,y,z (each a word, possibly empty)")
    ap.add_argument("--certificate", help="a certificate JSON with a \"family\"")
    ap.add_argument("--r", default="10,20,40,60,80,100,150,200,300,500,1000,1500",
                    help="comma-separated r values (default: up to 1500)")
    a = ap.parse_args()
    if bool(a.family) == bool(a.certificate):
        die("give exactly one of --family and --certificate")
    if a.family is not None:
        parts = a.family.split(",")
        if len(parts) != 4:
            die(f"--family {a.family!r}: expected x,p,y,z")
        x, p, y, z = parts
    else:
        try:
            fam = json.load(open(a.certificate))["family"]
            x, p, y, z = (fam[k] for k in ("x", "p", "y", "z"))
        except (OSError, ValueError, KeyError, TypeError) as e:
            die(f"{a.certificate}: no readable \"family\" ({e})")
        if any("<" in w for w in (x, p, y, z)):
            die(f"{a.certificate}: the family has loop markers; give --family instead")
    if not p:
        die("the period p is empty")
    try:
        rs = [int(v) for v in a.r.split(",")]
    except ValueError:
        die(f"--r {a.r!r}: expected comma-separated integers")
    words = []
    for r in rs:
        words += [x + p * r + y, x + p * r + z]
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write("\n".join(words) + "\n")
        f.flush()
        out = subprocess.run([a.ltlkit, "score", a.rundir, "--words", f.name, "--json"],
                             capture_output=True, text=True)
    if out.returncode != 0:
        die(f"ltlkit score failed: {out.stderr.strip()}")
    results = json.loads(out.stdout)["results"]
    print("r\tlength_y\tlogit_y\tlabel_y\tlength_z\tlogit_z\tlabel_z\tboth_right")
    first_wrong = None
    for i, r in enumerate(rs):
        u, v = results[2 * i], results[2 * i + 1]
        right = u["accepted"] == u["label"] and v["accepted"] == v["label"]
        if not right and first_wrong is None:
            first_wrong = i
        print(f"{r}\t{len(words[2 * i])}\t{u['logit']:.4f}\t{int(u['label'])}\t"
              f"{len(words[2 * i + 1])}\t{v['logit']:.4f}\t{int(v['label'])}\t{int(right)}")
    if first_wrong is not None:
        print(f"first r where the model errs: {rs[first_wrong]} (lengths {len(words[2 * first_wrong])} and "
              f"{len(words[2 * first_wrong + 1])})")
    else:
        print(f"the model separates the family at every r up to {max(rs)}")


if __name__ == "__main__":
    main()
