// Backends: `auto` (default) runs on the GPU when one is usable and says so on standard
// error when it falls back to the interpreter; `interp` is the CPU interpreter; `cuda` and
// --compare-backends need the CUDA backend, which is not built yet: status 2, before the
// file is even read.
//
// RUN: not tilus-run %s --backend cuda 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: tilus-run %s --backend cuda 2>/dev/null; test $? -eq 2
// RUN: not tilus-run %t.does-not-exist.mlir --backend cuda 2>&1 | FileCheck %s --check-prefix=CUDA
// CUDA: × --backend cuda: the CUDA backend is not available yet in this build
// CUDA: help: run on the CPU interpreter with --backend interp (or auto)
//
// RUN: not tilus-run %s --compare-backends 2>&1 | FileCheck %s --check-prefix=COMPARE
// RUN: tilus-run %s --compare-backends 2>/dev/null; test $? -eq 2
// COMPARE: × --compare-backends: comparing the interpreter with the GPU needs the CUDA backend, which is not available yet
//
// RUN: not tilus-run %s --backend metal 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: invalid value 'metal' for '--backend <BACKEND>'
// BAD: [possible values: auto, interp, cuda]
//
// RUN: tilus-run %s 2>&1 | FileCheck %s --check-prefix=AUTO
// AUTO: tilus-run: no usable GPU backend in this build; running on the CPU interpreter
// AUTO: backend: interp

tilus.kernel @empty() warps(1) blocks(affine_map<() -> (1)>) {
}
