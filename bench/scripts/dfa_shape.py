#!/usr/bin/env python3
"""The SCC shape of minimal DFAs (docs/WINDOWS.md §10, Theorem 10.8): for each DFA JSON file
(docs/CLASSES.md's DFA format, as in bench/data/window-unknowns/), its states, SCCs, bottom SCCs,
whether the initial state lies in a bottom SCC (then the DFA is strongly connected and, by
Corollary 10.7, hybrid_k = local_k), and whether every SCC that is not a bottom SCC is a single
state (Theorem 10.8's shape: hybrid_k reduces to local_k of the bottom residuals).

Usage: dfa_shape.py FILE.json [FILE.json ...]   (one line per file, then the count of each shape)
"""
import json
import sys


def sccs(n, succ):
    """Tarjan's algorithm, iterative: the SCCs as lists of states."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in range(n):
        if root in index:
            continue
        work = [(root, iter(sorted(succ[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(succ[w]))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out


def shape(dfa):
    rows = dfa["transitions"]
    n = len(rows)
    succ = [set(r) for r in rows]
    comps = sccs(n, succ)
    cid = {v: i for i, c in enumerate(comps) for v in c}
    bottom = [all(cid[w] == i for v in c for w in succ[v]) for i, c in enumerate(comps)]
    transient_sccs = [c for i, c in enumerate(comps) if not bottom[i]]
    return {
        "states": n,
        "sccs": len(comps),
        "bottom_sccs": sum(bottom),
        "largest_transient_scc": max((len(c) for c in transient_sccs), default=0),
        "initial_in_bottom": bottom[cid[dfa["initial"]]],
        "partially_ordered_transient": all(len(c) == 1 for c in transient_sccs),
    }


def main(paths):
    if not paths:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    counts = {"strongly connected": 0, "Theorem 10.8 shape": 0, "other": 0}
    for path in paths:
        try:
            with open(path) as f:
                s = shape(json.load(f))
        except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
            print(f"dfa_shape.py: {path}: not a DFA JSON file ({e})", file=sys.stderr)
            return 2
        kind = ("strongly connected" if s["initial_in_bottom"]
                else "Theorem 10.8 shape" if s["partially_ordered_transient"] else "other")
        counts[kind] += 1
        print(f"{path}: {s['states']} states, {s['sccs']} SCCs ({s['bottom_sccs']} bottom), "
              f"largest transient SCC {s['largest_transient_scc']}: {kind}")
    print("; ".join(f"{k}: {v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
