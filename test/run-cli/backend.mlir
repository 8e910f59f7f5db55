// Backends: `auto` (default) runs on the GPU when the CUDA backend opens and the kernel lowers,
// else on the interpreter, and says which on standard error; `interp` is the CPU interpreter;
// `cuda`, --compare-backends and --bench need a GPU: without one they are usage errors
// (status 2), before the file is even read. These tests run on machines without a GPU.
//
// RUN: not tilus-run %s --backend cuda 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: tilus-run %s --backend cuda 2>/dev/null; test $? -eq 2
// RUN: not tilus-run %t.does-not-exist.mlir --backend cuda 2>&1 | FileCheck %s --check-prefix=CUDA
// CUDA: × --backend cuda: the CUDA backend is unavailable: {{.*}}
// CUDA: help: run on the CPU interpreter with --backend interp (or auto)
//
// RUN: not tilus-run %s --compare-backends 2>&1 | FileCheck %s --check-prefix=COMPARE
// RUN: tilus-run %s --compare-backends 2>/dev/null; test $? -eq 2
// COMPARE: × --compare-backends (the GPU against the interpreter): the CUDA backend is unavailable: {{.*}}
// COMPARE: help: check against a reference kernel (--reference) or a file (--expect) instead
//
// RUN: not tilus-run %s --bench 2>&1 | FileCheck %s --check-prefix=BENCH
// RUN: tilus-run %s --bench 2>/dev/null; test $? -eq 2
// BENCH: × --bench (timing on the GPU): the CUDA backend is unavailable: {{.*}}
//
// --compare-backends and --bench cannot run on the interpreter alone.
// RUN: not tilus-run %s --backend interp --compare-backends 2>&1 | FileCheck %s --check-prefix=INTERP-COMPARE
// RUN: tilus-run %s --backend interp --bench 2>/dev/null; test $? -eq 2
// INTERP-COMPARE: × --compare-backends runs the kernel on the GPU; it cannot be combined with --backend interp
//
// RUN: not tilus-run %s --backend metal 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: invalid value 'metal' for '--backend <BACKEND>'
// BAD: [possible values: auto, interp, cuda]
//
// RUN: tilus-run %s 2>&1 | FileCheck %s --check-prefix=AUTO
// AUTO: tilus-run: no usable GPU (the CUDA backend is unavailable: {{.*}}); running on the CPU interpreter
// AUTO: backend: interp

tilus.kernel @empty() warps(1) blocks(affine_map<() -> (1)>) {
}
