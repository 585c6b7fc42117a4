#!/bin/bash
# Measure what the Life census of the 7x6 box would cost, without running it:
# a shard that owns no work unit (the set-up every shard pays: the three-row
# family, about 2.2 GB, and the spot checks), then a few shards of
# `lifesearch census 7 6 --shard K/N` on one and two threads. Writes
# data/census-7x6-cost.csv (one row per run) and data/census-7x6-slurm.csv
# (the extrapolation: CPU time of the whole census, and the wall time of a
# Slurm array on NODES nodes of CORES cores). Book: Part IV, "An exhaustive
# orphan census", section "7x6: what it would cost".
#
#   cargo build --release && scripts/census-7x6-cost.sh
set -euo pipefail
BIN="${BIN:-target/release/lifesearch}"
N="${N:-256}"
SHARDS="${SHARDS:-1 171}"
CORES="${CORES:-32}"
OUT="${OUT:-data}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
run() { # label k n threads
    /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$BIN" census 7 6 --shard "$2/$3" --threads "$4" --json > "$tmp/out.json"
    python3 - "$1" "$4" "$tmp/out.json" "$tmp/time" >> "$tmp/rows.csv" <<'PY'
import json, sys
kind, threads, out, tm = sys.argv[1:]
c = json.load(open(out))
wall, user, system, kb = open(tm).read().split()[-4:]
cpu = float(user) + float(system)
print(f"{kind},{c['shard_k']},{c['shard_n']},{threads},{c['classes_top']},{c['units']},{c['tests']},{cpu:.2f},{wall},{int(kb) * 1024}")
PY
}
echo "kind,shard_k,shard_n,threads,classes,units,tests,cpu_seconds,wall_seconds,peak_rss_bytes" > "$tmp/rows.csv"
# Units are dealt round-robin and a 7x6 census has 16,384 of them, so shard
# 20000/20000 owns none: it pays the set-up alone.
run setup 20000 20000 1
for k in $SHARDS; do run shard "$k" "$N" 1; done
run shard 86 "$N" 2
python3 - "$tmp/rows.csv" "$CORES" "$OUT" <<'PY'
import csv, sys
rows, cores, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
r = list(csv.DictReader(open(rows)))
# CPU seconds (user + system), not wall: the machine may be shared.
setup = [float(x["cpu_seconds"]) for x in r if x["kind"] == "setup"][0]
one = [x for x in r if x["kind"] == "shard" and x["threads"] == "1"]
# Meet time per class-pair test on one thread, over the measured shards.
per_test = sum(float(x["cpu_seconds"]) - setup for x in one) / sum(int(x["tests"]) for x in one)
n_classes = int(r[0]["classes"])  # three-row classes (one family serves both halves)
total_tests = 64 * n_classes * (n_classes + 1) // 2
meet_cpu = per_test * total_tests
with open(f"{out}/census-7x6-cost.csv", "w") as f:
    f.write(open(rows).read())
with open(f"{out}/census-7x6-slurm.csv", "w") as f:
    f.write("nodes,cores_per_node,shards,setup_cpu_seconds,meet_cpu_hours,total_cpu_hours,ns_per_test,wall_hours\n")
    # One machine like this one (two cores, one shard), one 32-core node, and
    # Slurm arrays of four tasks per node, one after another (a lost task
    # costs a quarter of a node's share).
    for nodes, cores_here in ((1, 2), (1, cores), (16, cores), (64, cores), (256, cores)):
        shards = 1 if nodes == 1 else 4 * nodes
        # Assumes the meet scales linearly with threads (its units share
        # nothing but the read-only family) and a set-up as dear as on one thread.
        wall = shards / nodes * setup + meet_cpu / nodes / cores_here
        f.write(f"{nodes},{cores_here},{shards},{setup:.1f},{meet_cpu / 3600:.2f},{(meet_cpu + shards * setup) / 3600:.2f},{per_test * 1e9:.3f},{wall / 3600:.3f}\n")
PY
echo "wrote $OUT/census-7x6-cost.csv and $OUT/census-7x6-slurm.csv"
