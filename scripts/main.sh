#!/usr/bin/env bash
# The main job: installs what is needed, builds, then takes one example through
# --fuse-materialization down to the SASS that proves where each intermediate lives:
#   1. the residency decisions (remarks) and the residency report
#   2. motif-compile unfused and fused: PTX -> ptxas (-v) -> cubin -> nvdisasm SASS
#   3. the CPU reference evaluator: fused vs unfused, bitwise
#   4. the SASS signatures, and motif-sass diff of the two
# Usage: scripts/main.sh [examples/<family>.mlir]   (default: examples/softmax.mlir)
#        scripts/main.sh model.mlir  (linalg from scripts/import-onnx.py: imported first)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
example="${1:-$root/examples/softmax.mlir}"
name="$(basename "$example" .mlir)"
out="${MOTIF_OUT:-$root/out/$name}"
bin="$build/bin"
rm -rf "$out"; mkdir -p "$out"
step() { printf '\n== %s\n' "$*"; }

if grep -q 'linalg\.' "$example"; then   # linalg input (docs/import.md): import it first
  step "0. $name: linalg input: --convert-linalg-to-motif"
  "$bin/motif-opt" "$example" --convert-linalg-to-motif -o "$out/imported.mlir"
  echo "imported: $out/imported.mlir ($(grep -c 'motif.kernel "' "$out/imported.mlir") kernel(s))"
  example="$out/imported.mlir"
fi

step "1. $name: --fuse-materialization (remarks: one per intermediate)"
"$bin/motif-opt" "$example" --mlir-print-op-on-diagnostic=false \
  --pass-pipeline="builtin.module(func.func(fuse-materialization,motif-verify-invariants),motif-residency-report)" \
  -o "$out/fused.mlir" 2> "$out/remarks.txt"
sed -n 's/^.*remark: /  /p' "$out/remarks.txt"
echo; echo "fused IR: $out/fused.mlir ($(grep -c 'motif.kernel "' "$out/fused.mlir") kernel(s), was $(grep -c 'motif.kernel "' "$example"))"

step "2. motif-compile: PTX -> ptxas -> SASS (unfused and fused)"
"$bin/motif-compile" "$example" -o "$out/unfused"
"$bin/motif-compile" "$example" -o "$out/fused" --fuse-materialization
for v in unfused fused; do
  for m in "$out/$v"/*.json; do
    python3 - "$m" "$v" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for k in m["kernels"]:
    # a runtime row count: grid x is grid[0] blocks per row (docs/abi.md)
    grid = f"{k['grid'][0]}" + ("/row" if k.get("grid_per_row") else "")
    print(f"  {sys.argv[2]:8} {k['name']:44} grid={grid:<6} block={k['block'][0]:<5} "
          f"regs={k['registers']} smem={k['shared_bytes']}B spills={k['spill_store_bytes']}/{k['spill_load_bytes']}B")
PY
  done
done

step "3. CPU reference evaluator: fused vs unfused on fresh random inputs"
"$bin/motif-opt" "$example" --fuse-materialization -o "$out/fused-plain.mlir" 2>/dev/null
"$bin/motif-equiv" "$example" "$out/fused-plain.mlir" --class=bitwise --trials=2
step "4. SASS: the instructions that prove each residency, and motif-sass diff unfused -> fused"
f="$out/fused/$name.sass"; u="$out/unfused/$name.sass"
"$bin/motif-sass" profile "$f" --ptxas-report "$out/fused/$name.ptxas.txt" | grep -E "^kernel|verdict|memory|count (SHFL|LDG|STG|STS|LDS|BAR)"
echo
"$bin/motif-sass" diff "$u" "$f" --ptxas-report-a "$out/unfused/$name.ptxas.txt" \
  --ptxas-report-b "$out/fused/$name.ptxas.txt" | grep -E "diff|kernels|boundaries|count (LDG|STG|STS|LDS|BAR|SHFL)|spill|verdict (shared|warp|global-store)"

echo; echo "outputs in $out"
