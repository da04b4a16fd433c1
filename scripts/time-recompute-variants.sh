#!/usr/bin/env bash
# On the GPU machine (sourced by scripts/gpu-call40.sh after gpu-env.sh): per shape of
# .recvar (scripts/make-recompute-variants.sh), hint-variants.py checks every rule-6 variant bit for bit
# against its recompute=false base, then times them; the bf16 defaults named in $TRITON_SHAPES are timed
# again with Triton's softmax. Appends to $logs/recompute-variants.txt; sets status=1 on a failure.
for d in .recvar/*/; do
  name=$(basename "$d"); variants=""
  for v in "$d"recompute*; do variants="$variants $v"; done
  echo "== $name: base (recompute=false) against$variants" | tee -a "$logs/recompute-variants.txt"
  timeout 90 python3 scripts/hint-variants.py "$d/base" $variants --rounds 3 2>&1 | tee -a "$logs/recompute-variants.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  case " ${TRITON_SHAPES:-} " in *" $name "*)
    echo "== $name: the default with Triton" | tee -a "$logs/recompute-variants.txt"
    timeout 60 python3 scripts/hint-variants.py "$d/recompute" --triton-softmax --rounds 3 2>&1 \
      | tee -a "$logs/recompute-variants.txt";;
  esac
done
