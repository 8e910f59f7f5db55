#!/usr/bin/env bash
# The CUDA backend's device check, run on the GPU machine from the repository root after
# bench/gpu/build.sh built the binary here (no Rust there). It loads the hand-written PTX of
# bench/gpu/ (vector add, TMA copies with tensor maps, cluster probe, spin kernel), checks each
# against the CPU, times the vector add beside a device-to-device copy, and checks that the
# watchdog reports a hung kernel by name and exits non-zero. Writes the log to $OUT when set.
set -uo pipefail
bin=${1:-target/gpu-selftest/cuda-selftest}
log=${OUT:-/tmp}/cuda-selftest.log
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader || true
  TILUS_GPU_DIR=bench/gpu "$bin" --ignored --nocapture --test-threads 1 --exact device_selftest device_watchdog
} 2>&1 | tee "$log"
exit "${PIPESTATUS[0]}"
