#!/usr/bin/env bash
# Runs every test of the workspace on a fresh machine, doing its own set-up.
#
# 1. Installs MLIR 22 (`mlir-opt`, for the compatibility corpus) and LLVM 22 (`FileCheck`, to run
#    the lit suite a second time with LLVM's FileCheck) when they are missing and apt is usable.
#    Without them those checks are reported as ignored, never silently passed.
# 2. Finds `ptxas` (CUDA 13.x) for the PTX checks (`passes/tests/ptxas.rs`): `$PTXAS`, or
#    `ptxas` on PATH, or the cached one, or else fetches it once from the `nvidia-cuda-nvcc`
#    wheel on PyPI (`pip download`, only `bin/ptxas` is kept) into
#    `${XDG_CACHE_HOME:-$HOME/.cache}/tilus/ptxas`. With a ptxas, the PTX tests must assemble
#    (TILUS_REQUIRE_PTXAS=1); without one they say so and skip the assembly step.
# 3. Builds the binaries once in release (the test harnesses run them) and runs `cargo test`.
# 4. Runs the lit suite again with LLVM's FileCheck, which must give the same verdicts.
# 5. Installs Chromium (Debian's `chromium`) when no headless browser is found and apt is
#    usable, for the test that opens a `tilus-run --timeline` page (`test/tests/timeline_browser.rs`);
#    without a browser that test is reported as ignored with the reason.
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

if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 \
    && ! command -v google-chrome >/dev/null 2>&1 && [ -z "${CHROMIUM:-}" ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "test.sh: installing chromium (headless browser for the timeline test)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || echo "test.sh: warning: could not install chromium; the timeline browser test will be ignored"
  else
    echo "test.sh: warning: no chromium and no apt as root; the timeline browser test will be ignored"
  fi
fi

PTXAS_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/tilus/ptxas"

# Downloads the nvidia-cuda-nvcc 13.x wheel and keeps only bin/ptxas, in $PTXAS_CACHE/bin.
fetch_ptxas() {
  if ! python3 -m pip --version >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      echo "test.sh: installing python3-pip to fetch ptxas"
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-pip >/dev/null) || true
    fi
  fi
  command -v python3 >/dev/null 2>&1 || return 1
  local tmp whl
  tmp="$(mktemp -d)"
  python3 -m pip download --quiet --no-deps --only-binary=:all: \
      --platform "manylinux2014_$(uname -m)" --python-version 3.11 \
      'nvidia-cuda-nvcc>=13,<14' -d "$tmp" || { rm -rf "$tmp"; return 1; }
  whl="$(ls "$tmp"/nvidia_cuda_nvcc-*.whl 2>/dev/null | head -n 1)"
  [ -n "$whl" ] || { rm -rf "$tmp"; return 1; }
  python3 - "$whl" "$PTXAS_CACHE/bin/ptxas" <<'PY' || { rm -rf "$tmp"; return 1; }
import os, shutil, sys, zipfile
whl, dest = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(whl) as z:
    name = next(n for n in z.namelist() if n.endswith("/bin/ptxas"))
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with z.open(name) as src, open(dest + ".tmp", "wb") as dst:
        shutil.copyfileobj(src, dst)
os.chmod(dest + ".tmp", 0o755)
os.replace(dest + ".tmp", dest)
PY
  rm -rf "$tmp"
  "$PTXAS_CACHE/bin/ptxas" --version >/dev/null
}

if [ -z "${PTXAS:-}" ]; then
  if command -v ptxas >/dev/null 2>&1; then
    PTXAS="$(command -v ptxas)"
  elif [ -x "$PTXAS_CACHE/bin/ptxas" ]; then
    PTXAS="$PTXAS_CACHE/bin/ptxas"
  else
    echo "test.sh: fetching ptxas (nvidia-cuda-nvcc 13.x wheel) into $PTXAS_CACHE"
    if fetch_ptxas; then
      PTXAS="$PTXAS_CACHE/bin/ptxas"
    else
      echo "test.sh: warning: could not fetch ptxas; the PTX tests will skip assembling"
    fi
  fi
fi
if [ -n "${PTXAS:-}" ]; then
  export PTXAS TILUS_REQUIRE_PTXAS=1
  echo "test.sh: ptxas: $PTXAS ($("$PTXAS" --version | grep -o 'release [0-9.]*'))"
fi

cargo build --release --workspace --bins
cargo test --release --workspace

if [ -x "$LLVM_BIN/FileCheck" ]; then
  echo "test.sh: lit suite again with LLVM FileCheck"
  FILECHECK="$LLVM_BIN/FileCheck" cargo test --release -p tilus-tests --test lit
fi
