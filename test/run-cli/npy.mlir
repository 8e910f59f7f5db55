// .npy files: --output writes buffers after the run (f16 as '<f2', i32 as '<i4'), --input
// reads a buffer's starting contents, --expect compares a buffer after the run with a file.
//
// Round trip: write the inputs and the output, then feed the inputs back and expect the output.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tilus-run %s --seed 3 --output x=%t/x.npy --output idx=%t/idx.npy --output y=%t/y.npy > %t/run1
// RUN: tilus-run %s --input x=%t/x.npy --input idx=%t/idx.npy --expect y=%t/y.npy | FileCheck %s
// CHECK: inputs: x={{.*}}x.npy idx={{.*}}idx.npy y=zeros (seed 0)
// CHECK: check y vs {{.*}}y.npy: ok (max abs err 0, max rel err 0; atol 1e-2, rtol 1e-2)
//
// The same run's output written and expected at once (written first, then checked).
// RUN: tilus-run %s --output y=%t/same.npy --expect y=%t/same.npy | FileCheck %s --check-prefix=SAME
// SAME: check y vs {{.*}}same.npy: ok
//
// Other inputs (another seed) give another y: the check fails with status 1 and says where.
// RUN: not tilus-run %s --seed 4 --expect y=%t/y.npy > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=MISMATCH < %t/out
// RUN: FileCheck %s --check-prefix=MISMATCH-ERR < %t/err
// RUN: tilus-run %s --seed 4 --expect y=%t/y.npy >/dev/null 2>&1; test $? -eq 1
// MISMATCH: check y vs {{.*}}y.npy: MISMATCH: {{[0-9]+}} of 96 elements differ; first at [{{[0-9]+}}, {{[0-9]+}}]: got {{.*}}, expected {{.*}} (max abs err {{.*}}, max rel err {{.*}}; atol 1e-2, rtol 1e-2)
// MISMATCH-ERR: × check failed: 'y' differs from {{.*}}y.npy
//
// A file of the wrong shape or dtype is a usage error (status 2) naming the parameter.
// RUN: tilus-run %s --arg n=4 --output x=%t/x4.npy > /dev/null
// RUN: not tilus-run %s --input x=%t/x4.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: tilus-run %s --input x=%t/x4.npy 2>/dev/null; test $? -eq 2
// SHAPE: × --input x={{.*}}x4.npy: parameter 'x' needs shape [3, 32] (f16[3, 32]), but the file holds shape [4, 32]
// SHAPE: ╰── x: !tilus.ptr<f16>
// RUN: not tilus-run %s --input x=%t/idx.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: × --input x={{.*}}idx.npy: parameter 'x' holds f16 (stored as '<f2'), but the file holds '<i4'
// RUN: not tilus-run %s --expect y=%t/x4.npy 2>&1 | FileCheck %s --check-prefix=EXPECT-SHAPE
// EXPECT-SHAPE: × --expect y={{.*}}x4.npy: buffer 'y' has shape [3, 32] (f16[3, 32]), but the file holds shape [4, 32]
// RUN: not tilus-run %s --input x=%t/missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: × --input x={{.*}}missing.npy: cannot read '{{.*}}missing.npy': {{.*}}
// RUN: echo 'not an array' > %t/junk.npy
// RUN: not tilus-run %s --input x=%t/junk.npy 2>&1 | FileCheck %s --check-prefix=JUNK
// JUNK: × --input x={{.*}}junk.npy: '{{.*}}junk.npy' is not a .npy file
//
// The output file is replaced atomically: no temporary file is left behind.
// RUN: ls -a %t | FileCheck %s --check-prefix=NO-TMP
// NO-TMP-NOT: tmp

// y[i, :] = x[i, :] + idx[i, :] (as f16).
tilus.kernel @add_index(%x: !tilus.ptr<f16>, %idx: !tilus.ptr<i32>, %y: !tilus.ptr<f16>, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.args = {n = 3 : i32}, tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<f16> -> !tilus.global<?x32xf16>
  %gi = tilus.global_view %idx[%n] : !tilus.ptr<i32> -> !tilus.global<?x32xi32>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f16> -> !tilus.global<?x32xf16>
  %tx = tilus.load_global %gx[%c0, %c0] : !tilus.global<?x32xf16> -> !tilus.reg<4x32xf16>
  %ti = tilus.load_global %gi[%c0, %c0] : !tilus.global<?x32xi32> -> !tilus.reg<4x32xi32>
  %tf = tilus.cast %ti : !tilus.reg<4x32xi32> to !tilus.reg<4x32xf16>
  %s = tilus.add %tx, %tf : (!tilus.reg<4x32xf16>, !tilus.reg<4x32xf16>) -> !tilus.reg<4x32xf16>
  tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<4x32xf16>, !tilus.global<?x32xf16>
}
