// BROKEN: off-by-one stage index. The producer copies into slot stage + 1 (1-based slots) of
// the 3-slot buffer, so when the stage reaches 2 it slices slot 3 of a !tilus.shared<3x...>.
//
// The user should see an out-of-bounds shared access at the producer's tilus.slice_shared:
// index 3 of dimension 0 is outside [0, 3).
//
// RUN: not tilus-run %s --backend interp 2>&1 | FileCheck %s
// RUN: not tilus-run %s --backend interp --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=LOC
// RUN: tilus-run %s --backend interp >/dev/null 2>&1; test $? -eq 1
// verify-barriers finds it statically:
// RUN: tilus-opt %s --verify-barriers --verify-diagnostics --no-output
//
// CHECK:      × out-of-bounds shared access: index 3 of dimension 0 is outside [0, 3) in tilus.slice_shared
// CHECK:      │       %slot = tilus.slice_shared %buf[%slot_index] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
// CHECK-NEXT: ┬
// CHECK-NEXT: ╰── out-of-bounds shared access
//
// The kernel: y = sum over i < iters of the 32x64 f32 tiles x[32 i : 32 i + 32, :] through a
// 3-stage ring (as @pipeline in test/run/pipeline.mlir). Warp 0 produces with TMA (one thread
// announces 8192 bytes on full[stage], the warp issues the copy), warp 1 consumes from shared
// memory and releases the stage with its 32 arrivals on empty[stage]; both flip their phase
// when the stage wraps to 0.

tilus.kernel @pipeline(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %iters: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {iters = 7 : i32}, tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cS = arith.constant 3 : i32
  %c32 = arith.constant 32 : i32
  %stage_bytes = arith.constant 8192 : i32
  %zero = arith.constant 0.0 : f32
  %rows = arith.muli %iters, %c32 : i32
  %gx = tilus.global_view %x[%rows] : !tilus.ptr<f32> -> !tilus.global<?x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %buf = tilus.shared_tensor : !tilus.shared<3x32x64xf32>
  %full = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
  %empty = mbarrier.alloc counts [32, 32, 32] : !mbarrier.barriers<3>
  // Producer: warp 0.
  threadgroup.single_warp warp(0) {
    %p0 = mbarrier.producer_initial_phase
    %pend:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%stage = %c0, %phase = %p0) -> (i32, i32) : i32 {
      mbarrier.wait %empty[%stage : i32], phase(%phase) : !mbarrier.barriers<3>
      %row = arith.muli %i, %c32 : i32
      // BROKEN: should slice %buf[%stage].
      %slot_index = arith.addi %stage, %c1 : i32
      // LOC: .mlir:[[#@LINE+1]]:15: error: out-of-bounds shared access: index 3 of dimension 0 is outside [0, 3) in tilus.slice_shared
      %slot = tilus.slice_shared %buf[%slot_index] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
      threadgroup.single_thread {
        mbarrier.arrive_expect_tx %full[%stage : i32], %stage_bytes : !mbarrier.barriers<3>
      }
      // expected-error@+1 {{off-by-one stage: the copy lands in buffer slot (k mod 3) + 1 but signals barriers#0[k mod 3]}}
      tma.global_to_shared %gx[%row, %c0 : i32, i32], %slot, %full[%stage : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<3>
      %s1 = arith.addi %stage, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %cS : i32
      %ns = arith.select %wrap, %c0, %s1 : i32
      %flip = arith.xori %phase, %c1 : i32
      %np = arith.select %wrap, %flip, %phase : i32
      scf.yield %ns, %np : i32, i32
    }
  }
  // Consumer: warp 1.
  threadgroup.single_warp warp(1) {
    %q0 = mbarrier.consumer_initial_phase
    %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x64xf32>
    %cend:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%stage = %c0, %phase = %q0, %acc = %acc0) -> (i32, i32, !tilus.reg<32x64xf32>) : i32 {
      mbarrier.wait %full[%stage : i32], phase(%phase) : !mbarrier.barriers<3>
      %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
      %v = tilus.load_shared %slot : !tilus.shared<32x64xf32> -> !tilus.reg<32x64xf32>
      mbarrier.arrive %empty[%stage : i32] : !mbarrier.barriers<3>
      %acc2 = tilus.add %acc, %v : (!tilus.reg<32x64xf32>, !tilus.reg<32x64xf32>) -> !tilus.reg<32x64xf32>
      %s1 = arith.addi %stage, %c1 : i32
      %cwrap = arith.cmpi eq, %s1, %cS : i32
      %ns = arith.select %cwrap, %c0, %s1 : i32
      %flip = arith.xori %phase, %c1 : i32
      %np = arith.select %cwrap, %flip, %phase : i32
      scf.yield %ns, %np, %acc2 : i32, i32, !tilus.reg<32x64xf32>
    }
    tilus.store_global %cend#2, %gy[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
  }
  threadgroup.sync
  tilus.free_shared %buf : !tilus.shared<3x32x64xf32>
}
