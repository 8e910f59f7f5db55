# Shared by bench/gpu.sh and bench/gpu_norm.sh (sourced): `check LABEL ARGS...` runs
# `$bin ARGS... --timeout 20`, appends the full output to $log, and prints one line to
# $results: exit status, seconds, the compare/check verdicts and any --bench figures.
check() {
  local label=$1
  shift
  local t0 t1 rc o
  t0=$(date +%s%N)
  o=$("$bin" "$@" --timeout 20 2>&1)
  rc=$?
  t1=$(date +%s%N)
  {
    echo "== $label: $bin $*"
    echo "$o"
    echo "rc=$rc"
  } >>"$log"
  local cmp b
  cmp=$(echo "$o" | grep -E '^(compare|check) ' | sed -E 's/^(compare|check) //; s/ \(max abs err ([^,]*), max rel err ([^;]*);.*$/ abs \1 rel \2/' | tr '\n' ';')
  b=$(echo "$o" | grep -E '^bench: (median|[0-9.]+ GB/s)' | sed -E 's/^bench: //; s/ \(.*//' | tr '\n' ' ')
  local ms=$(((t1 - t0) / 1000000))
  printf '%-44s rc=%d %3d.%01ds  %s%s\n' "$label" "$rc" $((ms / 1000)) $((ms % 1000 / 100)) "$cmp" "$b" | tee -a "$results"
}
