#!/usr/bin/env bash
# Builds the CUDA backend's device check here (the GPU machine has no Rust toolchain) and puts
# the test binary at target/gpu-selftest/cuda-selftest, the path bench/gpu/selftest.sh runs.
# Carry `target/gpu-selftest` to the GPU machine (device tool: carry=["target/gpu-selftest"]).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(cargo test --release -p tilus-run --test cuda --no-run --message-format=json 2>/dev/null \
  | grep -o '"executable":"[^"]*"' | grep '/cuda-' | tail -1 | cut -d'"' -f4)
[ -x "$bin" ] || { echo "build.sh: no test binary built" >&2; exit 1; }
mkdir -p target/gpu-selftest
cp "$bin" target/gpu-selftest/cuda-selftest
echo "built $bin -> target/gpu-selftest/cuda-selftest"
