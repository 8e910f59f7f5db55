// Argument errors are usage errors: a report naming the parameter (pointing at it in the
// signature where it has one) on standard error, nothing on standard output, exit status 2.
//
// A parameter without a value (neither --arg nor tilus.args):
// RUN: not tilus-run %s 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: tilus-run %s 2>/dev/null; test $? -eq 2
// MISSING:      × no value for parameter 'm' (i32)
// MISSING:      tilus.kernel @copy_rows(%src: !tilus.ptr<f16>, %dst: !tilus.ptr<f16>, %m: i32, %scale: f32)
// MISSING:      ╰── m: i32 needs a value
// MISSING:      help: pass --arg m=64, or give a default in the kernel's attributes: tilus.args = {m = 64 : i32}
//
// A name the kernel does not have:
// RUN: not tilus-run %s --arg m=4 --arg nope=1 2>&1 | FileCheck %s --check-prefix=EXTRA
// RUN: tilus-run %s --arg m=4 --arg nope=1 2>/dev/null; test $? -eq 2
// EXTRA: × --arg nope=1: kernel @copy_rows has no parameter 'nope'
// EXTRA: help: the parameters are: src: !tilus.ptr<f16>, dst: !tilus.ptr<f16>, m: i32, scale: f32
//
// Values that do not parse or do not fit:
// RUN: not tilus-run %s --arg m=abc 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: × --arg m=abc: 'abc' is not an integer (i32 expected)
// RUN: not tilus-run %s --arg m=4294967296 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: tilus-run %s --arg m=4294967296 2>/dev/null; test $? -eq 2
// RANGE: × --arg m=4294967296: 4294967296 does not fit i32 (range -2147483648 to 2147483647)
// RUN: not tilus-run %s --arg m=2 --arg scale=fast 2>&1 | FileCheck %s --check-prefix=FLOAT
// FLOAT: × --arg scale=fast: 'fast' is not a number (f32 expected)
//
// Scalars and buffers are set by different flags:
// RUN: not tilus-run %s --arg m=2 --arg src=3 2>&1 | FileCheck %s --check-prefix=PTR-ARG
// PTR-ARG: × --arg src=3: 'src' is a pointer parameter (!tilus.ptr<f16>); set its buffer with --input src=random|zeros|ones|FILE.npy
// RUN: not tilus-run %s --arg m=2 --input m=zeros 2>&1 | FileCheck %s --check-prefix=SCALAR-INPUT
// SCALAR-INPUT: × --input m=zeros: 'm' is a scalar parameter (i32), not a buffer; use --arg m=VALUE
// RUN: not tilus-run %s --arg m=2 --arg m=3 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: × --arg gives 'm' more than once
// RUN: not tilus-run %s --arg m=2 --output nope=%t.npy 2>&1 | FileCheck %s --check-prefix=OUTPUT
// OUTPUT: × --output nope={{.*}}: kernel @copy_rows has no parameter 'nope'
//
// A flag value without '=' is rejected by the argument parser itself (also status 2).
// RUN: not tilus-run %s --arg m 2>&1 | FileCheck %s --check-prefix=NO-EQUALS
// RUN: tilus-run %s --arg m 2>/dev/null; test $? -eq 2
// NO-EQUALS: error: invalid value 'm' for '--arg <NAME=VALUE>': expected NAME=VALUE, found 'm'
//
// Nothing goes to standard output.
// RUN: not tilus-run %s --arg nope=1 2>/dev/null | FileCheck %s --allow-empty --check-prefix=NOTHING
// NOTHING-NOT: {{.}}
//
// With every value given, it runs.
// RUN: tilus-run %s --arg m=3 --arg scale=0.5 | FileCheck %s --check-prefix=OK
// OK: args: m=3 scale=0.5
// OK: output dst: f16[3, 64]

tilus.kernel @copy_rows(%src: !tilus.ptr<f16>, %dst: !tilus.ptr<f16>, %m: i32, %scale: f32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.args = {scale = 1.0 : f32}, tilus.outputs = ["dst"]} {
  %c0 = arith.constant 0 : i32
  %gs = tilus.global_view %src[%m] : !tilus.ptr<f16> -> !tilus.global<?x64xf16>
  %gd = tilus.global_view %dst[%m] : !tilus.ptr<f16> -> !tilus.global<?x64xf16>
  %t = tilus.load_global %gs[%c0, %c0] : !tilus.global<?x64xf16> -> !tilus.reg<4x64xf16>
  tilus.store_global %t, %gd[%c0, %c0] : !tilus.reg<4x64xf16>, !tilus.global<?x64xf16>
}
