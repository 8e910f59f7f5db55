// --ptx-override FILE launches a PTX file in place of the lowering's PTX (a hand edit of
// --dump-ptx's output, to time an instruction sequence before the lowering emits it); the
// lowering still runs and decides the launch. It needs the GPU, so on these machines (no GPU)
// every use is a usage error (status 2), and the checks that need no GPU come first. The file
// expects no GPU, so it is skipped where there is one:
// UNSUPPORTED: cuda
//
// An unreadable file is reported before anything else:
// RUN: not tilus-run %s --ptx-override %t.missing.ptx 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: tilus-run %s --ptx-override %t.missing.ptx 2>/dev/null; test $? -eq 2
// MISSING: × cannot read --ptx-override file '{{.*}}missing.ptx': {{.*}}
//
// It cannot run on the interpreter, nor beside --dump-ptx (which launches nothing):
// RUN: not tilus-run %s --ptx-override %s --backend interp 2>&1 | FileCheck %s --check-prefix=INTERP
// INTERP: × --ptx-override runs the kernel on the GPU; it cannot be combined with --backend interp
// RUN: not tilus-run %s --ptx-override %s --dump-ptx 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP: × --ptx-override launches a PTX file; --dump-ptx prints the lowering's PTX without launching
//
// A readable file without a GPU: the backend is missing.
// RUN: not tilus-run %s --ptx-override %s 2>&1 | FileCheck %s --check-prefix=NOGPU
// RUN: tilus-run %s --ptx-override %s 2>/dev/null; test $? -eq 2
// NOGPU: × --ptx-override (launching PTX on the GPU): the CUDA backend is unavailable: {{.*}}
// NOGPU: help: run without --ptx-override on the CPU interpreter

tilus.kernel @empty() warps(1) blocks(affine_map<() -> (1)>) {
}
