#!/usr/bin/env python3
"""Drive Adam Goucher's lifelib (PyPI: python-lifelib) for the engines-vs-peers
experiment: read an RLE, advance it, time the advance, write the result.

usage: lifelib_run.py RULE GENERATIONS RUNS INPUT.rle OUTPUT.lif|-

Prints one JSON line: version, best_seconds (lowest of RUNS advances),
population, bounding_box [x, y, w, h]. The final pattern is written as RLE
to OUTPUT as Life 1.06 (skipped with '-', for patterns too large to list).
lifelib compiles its C++ for a rule on first use (about a minute).
"""
import json
import sys
import time

import lifelib


def main():
    rule, gens, runs, src, dst = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
    sess = lifelib.load_rules(rule.replace("/", "").lower())
    lt = sess.lifetree(memory=4000)
    with open(src) as f:
        text = f.read()
    body = "".join(l for l in text.splitlines() if l and not l.startswith("#") and not l.startswith("x"))
    start = lt.pattern(body)
    best, out = None, None
    for _ in range(max(runs, 1)):
        # A fresh tree each run, so no run reuses another's memoised results.
        lt = sess.lifetree(memory=4000)
        p = lt.pattern(body)
        t = time.perf_counter()
        q = p.advance(gens)
        pop = q.population
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
        out = q
    if dst != "-":
        with open(dst, "w") as f:
            f.write("#Life 1.06\n")
            for x, y in out.coords():
                f.write(f"{x} {y}\n")
    print(json.dumps({
        "version": getattr(lifelib, "__version__", "unknown"),
        "best_seconds": best,
        "population": pop,
        "bounding_box": list(out.bounding_box or [0, 0, 0, 0]),
        "start_population": start.population,
    }))


if __name__ == "__main__":
    main()
