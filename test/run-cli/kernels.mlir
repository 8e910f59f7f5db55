// Which kernels run: --kernel NAME, else every kernel of the file that is not another kernel's
// `tilus.reference` (a reference runs as part of checking the kernel that names it). Kernel
// selection problems are usage errors (status 2).
//
// Here @a names @a_ref as its reference, so @a (checked against @a_ref) and @b run, each with
// its own report, and a summary line ends the output.
// RUN: tilus-run %s | FileCheck %s --check-prefix=ALL
// ALL:     kernel: @a (
// ALL-NOT: kernel: @a_ref
// ALL:     kernel: @b (
// ALL-NOT: kernel:
// ALL:     all 2 kernels passed
//
// Flags that name one kernel's parameters need that kernel chosen.
// RUN: not tilus-run %s --arg n=3 2>&1 | FileCheck %s --check-prefix=PERKERNEL
// RUN: tilus-run %s --arg n=3 2>/dev/null; test $? -eq 2
// PERKERNEL: × --arg applies to one kernel, but '{{.*}}kernels.mlir' runs 2 kernels (@a, @b)
// PERKERNEL: help: choose the kernel with --kernel NAME
//
// RUN: tilus-run %s --kernel b | FileCheck %s --check-prefix=B
// RUN: tilus-run %s --kernel @b | FileCheck %s --check-prefix=B
// B: kernel: @b
//
// A reference kernel can also be run on its own.
// RUN: tilus-run %s --kernel a_ref | FileCheck %s --check-prefix=REF
// REF: kernel: @a_ref
//
// RUN: not tilus-run %s --kernel nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: tilus-run %s --kernel nope 2>/dev/null; test $? -eq 2
// UNKNOWN: × --kernel nope: '{{.*}}kernels.mlir' has no kernel named @nope
// UNKNOWN: help: its kernels are: @a, @a_ref, @b
//
// A file without kernels is invalid input (status 1); so is one that does not parse or verify,
// reported as tilus-opt reports it.
// RUN: echo 'func.func @f() { return }' > %t.mlir
// RUN: not tilus-run %t.mlir 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: tilus-run %t.mlir 2>/dev/null; test $? -eq 1
// NONE: × '{{.*}}.mlir' has no tilus.kernel to run
// RUN: echo 'tilus.kernel @k() warps(0) blocks(affine_map<() -> (1)>) {}' > %t.bad.mlir
// RUN: not tilus-run %t.bad.mlir --diagnostic-format=mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: tilus-run %t.bad.mlir 2>/dev/null; test $? -eq 1
// VERIFY: bad.mlir:1:25: error: 'tilus.kernel' op expects warps in [1, 32], but found 0
// RUN: not tilus-run %t.missing.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: × cannot open input file '{{.*}}missing.mlir'
//
// IR lowered past the kernels (by tilus-to-ptx) cannot run; the help says what to give instead.
// RUN: tilus-opt %s --tilus-to-ptx | not tilus-run - 2>&1 | FileCheck %s --check-prefix=LOWERED
// LOWERED: × '<stdin>' has no tilus.kernel to run
// LOWERED: help: this module was lowered to PTX (it holds ptx.entry ops); tilus-run runs kernels before the lowering
//
// --dump-ptx prints one kernel's PTX, so a file with several needs --kernel.
// RUN: not tilus-run %s --dump-ptx 2>&1 | FileCheck %s --check-prefix=DUMPMANY
// DUMPMANY: × --dump-ptx applies to one kernel, but '{{.*}}kernels.mlir' runs 2 kernels (@a, @b)
//
// Passes can run inside tilus-run; a misspelled pass is a usage error found before reading input.
// RUN: tilus-run %s --kernel b --pass-pipeline='builtin.module(canonicalize,cse)' | FileCheck %s --check-prefix=B
// RUN: not tilus-run %s --pass-pipeline='builtin.module(canonicalise)' 2>&1 | FileCheck %s --check-prefix=BADPASS
// RUN: tilus-run %t.never-read.mlir --pass-pipeline='builtin.module(canonicalise)' 2>/dev/null; test $? -eq 2
// BADPASS: × 'canonicalise' does not refer to a registered pass
// BADPASS: help: did you mean 'canonicalize'?
//
// The kernel can come from standard input.
// RUN: tilus-run - --kernel b < %s | FileCheck %s --check-prefix=B

tilus.kernel @a() warps(1) blocks(affine_map<() -> (1)>) attributes {tilus.reference = "a_ref"} {
}

tilus.kernel @a_ref() warps(1) blocks(affine_map<() -> (1)>) {
}

tilus.kernel @b() warps(1) blocks(affine_map<() -> (1)>) {
}
