// --dump-ptx lowers the chosen kernel with the tilus-to-ptx pipeline and prints the PTX on
// standard output, without running anything (no GPU needed, whatever --backend says).
//
// RUN: tilus-run %S/../../examples/vector_add.mlir --dump-ptx | FileCheck %s
// RUN: tilus-run %S/../../examples/vector_add.mlir --dump-ptx --backend cuda | FileCheck %s
// CHECK: .version 8.7
// CHECK-NEXT: .target sm_90a
// CHECK-NEXT: .address_size 64
// CHECK: .visible .entry vector_add(
// CHECK-NEXT: .param .u64 vector_add_param_0,
// CHECK: .param .u32 vector_add_param_3
// CHECK: .maxntid 128, 1, 1
// CHECK: ret;
//
// Only the chosen kernel is lowered and printed.
// RUN: tilus-run %S/../../examples/reduction.mlir --kernel block_sum --dump-ptx | FileCheck %s --check-prefix=ONE
// ONE: .entry block_sum(
// ONE-NOT: .entry row_sum
//
// A kernel that does not lower is reported against the source (status 1).
// RUN: not tilus-run %s --kernel bad --dump-ptx 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: tilus-run %s --kernel bad --dump-ptx 2>/dev/null; test $? -eq 1
// BAD: lower-tiles: a register tensor as a block argument (passed by a branch) is not lowered; yield it from the region instead
// BAD: × --dump-ptx: kernel @bad cannot be lowered to PTX (see above)
// A region of blocks that never reaches a yield has no registers to give its tile result:
// RUN: not tilus-run %s --kernel no_yield --dump-ptx 2>&1 | FileCheck %s --check-prefix=NOYIELD
// NOYIELD: lower-tiles: no block of this scf.execute_region yields its results

// (A register tensor passed to a block of an `scf.execute_region` by a branch is not lowered:
// its registers join only at the region's yields.)
tilus.kernel @bad(%p: !tilus.ptr<f32>, %i: i32) warps(1) blocks(affine_map<(d0, d1) -> (1)>) {
  %g = tilus.global_view %p[%i] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %c0 = arith.constant 0 : i32
  %t = tilus.load_global %g[%c0] : !tilus.global<?xf32> -> !tilus.reg<32xf32>
  %first = arith.cmpi eq, %i, %c0 : i32
  %r = scf.execute_region -> !tilus.reg<32xf32> {
    cf.cond_br %first, ^bb1(%t : !tilus.reg<32xf32>), ^bb2
  ^bb1(%a: !tilus.reg<32xf32>):
    scf.yield %a : !tilus.reg<32xf32>
  ^bb2:
    %d = tilus.add %t, %t : (!tilus.reg<32xf32>, !tilus.reg<32xf32>) -> !tilus.reg<32xf32>
    scf.yield %d : !tilus.reg<32xf32>
  }
  tilus.store_global %r, %g[%c0] : !tilus.reg<32xf32>, !tilus.global<?xf32>
}

tilus.kernel @no_yield(%x: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %v = scf.execute_region -> !tilus.reg<32xf32> {
    cf.br ^spin
  ^spin:
    cf.br ^spin
  }
  tilus.store_global %v, %gx[%c0] : !tilus.reg<32xf32>, !tilus.global<32xf32>
}
