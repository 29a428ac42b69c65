#!/usr/bin/env bash
# Compares the interpreter's benchmarks (bench_test.go) between a baseline commit and the working
# tree, in one run on one machine: both test binaries are built first, then run alternately, and
# the median of each side's runs and their ratio are printed (docs/performance.md).
#
#   internal/gsmodel/bench_compare.sh BASE_COMMIT [RUNS]
#
# The baseline tree gets this tree's bench_test.go, in whichever directory held the package then
# (test/gsmodel before the move to internal/gsmodel); it uses only the package's exported face.
set -euo pipefail
base=${1:?usage: bench_compare.sh BASE_COMMIT [RUNS]}
runs=${2:-5}
root=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$root" archive "$base" | tar -x -C "$work"
pkg=internal/gsmodel
[ -d "$work/$pkg" ] || pkg=test/gsmodel
cp "$root/internal/gsmodel/bench_test.go" "$work/$pkg/"
(cd "$work" && go test -c -o "$work/base.test" "./$pkg")
(cd "$root" && go test -c -o "$work/new.test" ./internal/gsmodel)
for _ in $(seq "$runs"); do
  for side in base new; do
    (cd "$root/internal/gsmodel" && "$work/$side.test" -test.run '^$' -test.bench . -test.benchtime 3x) |
      awk -v side="$side" '/^Benchmark/ { print side, $1, $3 }' >>"$work/results"
  done
done
# Median per side and benchmark: sort the runs by side, name and figure, then take the middle.
sort -k1,1 -k2,2 -k3,3n "$work/results" | awk -v runs="$runs" '
  { key = $1 " " $2; n[key]++; fig[key, n[key]] = $3; if ($1 == "base") names[$2] = 1 }
  END {
    for (k in n) med[k] = (n[k] % 2) ? fig[k, (n[k] + 1) / 2] : (fig[k, n[k] / 2] + fig[k, n[k] / 2 + 1]) / 2
    printf "%-28s %14s %14s %8s  (median of %d alternating runs, ns per op)\n", "benchmark", "baseline", "this tree", "speedup", runs
    for (b in names) printf "%-28s %14.0f %14.0f %7.2fx\n", b, med["base " b], med["new " b], med["base " b] / med["new " b]
  }'
