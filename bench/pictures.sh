#!/usr/bin/env bash
# Layout pictures and timelines of every example kernel (issue 18), one command each:
#   tilus-opt EXAMPLE --draw-layouts=OUT/NAME/layouts   every register/shared tile + bank conflicts
#   tilus-run EXAMPLE --timeline OUT/NAME/timeline.html  the interpreter run (also when it fails)
# Usage: bash bench/pictures.sh [OUT (default target/pictures)] [svg|text]
# Extra tilus-opt passes before drawing: PIPELINE='builtin.module(...)' bash bench/pictures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-target/pictures}
FORMAT=${2:-svg}
BIN=target/release
[ -x "$BIN/tilus-opt" ] && [ -x "$BIN/tilus-run" ] || cargo build --release --bins -q
pipeline=()
if [ -n "${PIPELINE:-}" ]; then
  pipeline=("--pass-pipeline=$PIPELINE")
fi
for f in examples/*.mlir; do
  name=$(basename "$f" .mlir)
  mkdir -p "$OUT/$name"
  n=$("$BIN/tilus-opt" "$f" "${pipeline[@]}" --draw-layouts="$OUT/$name/layouts" --draw-format="$FORMAT" \
      | grep -c '^wrote' || true)
  if grep -q 'tilus.kernel' "$f"; then
    if TILUS_NO_PROGRESS=1 "$BIN/tilus-run" "$f" --backend interp --timeline "$OUT/$name/timeline.html" \
        >"$OUT/$name/run.log" 2>&1; then
      status=ok
    else
      status="failed (see $OUT/$name/run.log)"
    fi
    echo "$name: $n pictures, timeline $OUT/$name/timeline.html, run $status"
  else
    echo "$name: $n pictures (no kernel to run)"
  fi
done
