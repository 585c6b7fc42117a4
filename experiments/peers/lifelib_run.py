#!/usr/bin/env python3
"""Drive Adam Goucher's lifelib (PyPI: python-lifelib) for the engines-vs-peers
experiment: read an RLE, advance it, time the advance, write the result.

usage: lifelib_run.py RULE GENERATIONS RUNS MIN_TOTAL MAX_RUNS INPUT.rle OUTPUT.lif|-

Advances at least RUNS times, then again while the advances add up to less
than MIN_TOTAL seconds (at most MAX_RUNS in all; none past the first when one
takes over 10 s). Prints one JSON line: version, best_seconds (the lowest), runs,
population, bounding_box [x, y, w, h]. The final pattern is written as RLE
to OUTPUT as Life 1.06 (skipped with '-', for patterns too large to list).
lifelib compiles its C++ for a rule on first use (about a minute).
"""
import json
import sys
import time

import lifelib


def main():
    rule, gens, runs = sys.argv[1], int(sys.argv[2]), max(int(sys.argv[3]), 1)
    min_total, max_runs = float(sys.argv[4]), int(sys.argv[5])
    src, dst = sys.argv[6], sys.argv[7]
    sess = lifelib.load_rules(rule.replace("/", "").lower())
    lt = sess.lifetree(memory=4000)
    with open(src) as f:
        text = f.read()
    body = "".join(l for l in text.splitlines() if l and not l.startswith("#") and not l.startswith("x"))
    start = lt.pattern(body)
    best, out, done, total = None, None, 0, 0.0
    while not (done >= runs and (total >= min_total or done >= max_runs)):
        if 0 < done < runs and best > 10.0:
            break
        done += 1
        # A fresh tree each run, so no run reuses another's memoised results.
        lt = sess.lifetree(memory=4000)
        p = lt.pattern(body)
        t = time.perf_counter()
        q = p.advance(gens)
        pop = q.population
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
        total += dt
        out = q
    if dst != "-":
        with open(dst, "w") as f:
            f.write("#Life 1.06\n")
            for x, y in out.coords():
                f.write(f"{x} {y}\n")
    print(json.dumps({
        "version": getattr(lifelib, "__version__", "unknown"),
        "best_seconds": best,
        "runs": done,
        "population": pop,
        "bounding_box": list(out.bounding_box or [0, 0, 0, 0]),
        "start_population": start.population,
    }))


if __name__ == "__main__":
    main()
