#!/usr/bin/env bash
# Runs every test of the workspace on a fresh machine, doing its own set-up.
#
# 1. Installs MLIR 22 (`mlir-opt`, for the compatibility corpus) and LLVM 22 (`FileCheck`, to run
#    the lit suite a second time with LLVM's FileCheck) when they are missing and apt is usable.
#    Without them those checks are reported as ignored, never silently passed.
# 2. Builds the binaries once in release (the test harnesses run them) and runs `cargo test`.
# 3. Runs the lit suite again with LLVM's FileCheck, which must give the same verdicts.
set -euo pipefail
cd "$(dirname "$0")/.."

LLVM_BIN=/usr/lib/llvm-22/bin
if [ ! -x "$LLVM_BIN/mlir-opt" ] || [ ! -x "$LLVM_BIN/FileCheck" ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "test.sh: installing mlir-22-tools and llvm-22-tools"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mlir-22-tools llvm-22-tools >/dev/null) \
      || echo "test.sh: warning: could not install MLIR/LLVM 22 tools; mlir-opt checks will be ignored"
  else
    echo "test.sh: warning: no MLIR/LLVM 22 tools and no apt as root; mlir-opt checks will be ignored"
  fi
fi

cargo build --release --workspace --bins
cargo test --release --workspace

if [ -x "$LLVM_BIN/FileCheck" ]; then
  echo "test.sh: lit suite again with LLVM FileCheck"
  FILECHECK="$LLVM_BIN/FileCheck" cargo test --release -p tilus-tests --test lit
fi
