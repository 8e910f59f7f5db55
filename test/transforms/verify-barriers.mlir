// verify-barriers accepts correct mbarrier protocols, for every trip count: the hand-written
// examples (each barrier array proved, none skipped) and a 3-stage TMA ring whose prologue
// fills min(iters, 3) stages and whose loop refills stage i % 3 with tile i + 3 while there is
// one. The interpreter runs the ring on trip counts below, at and above the stage count
// (1, 2, 3, 4, 24) without deadlock or race, matching what the check proves for all of them.
//
// RUN: tilus-opt %s --verify-barriers --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=RING
// RING: (S) 1 num-barriers
// RING: (S) 0 num-skipped
// RUN: tilus-run %s --arg iters=1 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg iters=2 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg iters=3 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg iters=4 --schedule random --seed 2 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg iters=24 --schedule random --seed 5 | FileCheck %s --check-prefix=INTERP
// INTERP-NOT: ×
// INTERP: output y: f32[32, 64]
//
// The examples, with the number of barrier arrays each declares:
// RUN: tilus-opt %S/../../examples/hopper_matmul_v0_tma.mlir --verify-barriers --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --verify-barriers --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: tilus-opt %S/../../examples/hopper_matmul_v2_pipeline.mlir --verify-barriers --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: tilus-opt %S/../../examples/thread_groups.mlir --verify-barriers --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: tilus-opt %S/../../examples/hopper_matmul_v3_warp_specialized.mlir --verify-barriers --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: tilus-opt %S/../../examples/blackwell_matmul_tcgen05.mlir --verify-barriers --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREE
// RUN: tilus-opt %S/../../examples/mbarrier_loop.mlir --verify-barriers --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREE
// ONE: (S) 1 num-barriers
// ONE: (S) 0 num-skipped
// TWO: (S) 2 num-barriers
// TWO: (S) 0 num-skipped
// THREE: (S) 3 num-barriers
// THREE: (S) 0 num-skipped
//
// A phase the check does not model (test/run/broken/unwaited-prefetch.mlir computes it as
// andi(divsi(i, 2), 1)) makes its barrier array skipped, not guessed at, and the kernel passes:
// RUN: tilus-opt %S/../run/broken/unwaited-prefetch.mlir --verify-barriers --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=SKIP
// SKIP: (S) 0 num-barriers
// SKIP: (S) 1 num-skipped
//
// It is the first step of tilus-to-ptx:
// RUN: tilus-opt %s --tilus-to-ptx --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTX
// PTX: VerifyBarriers
// PTX-NEXT: (S) 1 num-barriers

tilus.kernel @ring(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %iters: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {iters = 7 : i32}, tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cS = arith.constant 3 : i32
  %c32 = arith.constant 32 : i32
  %bytes = arith.constant 8192 : i32
  %zero = arith.constant 0.0 : f32
  %rows = arith.muli %iters, %c32 : i32
  %gx = tilus.global_view %x[%rows] : !tilus.ptr<f32> -> !tilus.global<?x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %buf = tilus.shared_tensor : !tilus.shared<3x32x64xf32>
  %bars = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
  %npre = arith.minsi %iters, %cS : i32
  threadgroup.single_thread {
    scf.for %s = %c0 to %npre step %c1 : i32 {
      %row = arith.muli %s, %c32 : i32
      %slot = tilus.slice_shared %buf[%s] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
      mbarrier.arrive_expect_tx %bars[%s : i32], %bytes : !mbarrier.barriers<3>
      tma.global_to_shared %gx[%row, %c0 : i32, i32], %slot, %bars[%s : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<3>
    }
  }
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x64xf32>
  %p0 = mbarrier.consumer_initial_phase
  %res:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %stage = %c0, %phase = %p0) -> (!tilus.reg<32x64xf32>, i32, i32) : i32 {
    mbarrier.wait %bars[%stage : i32], phase(%phase) : !mbarrier.barriers<3>
    %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
    %v = tilus.load_shared %slot : !tilus.shared<32x64xf32> -> !tilus.reg<32x64xf32>
    %acc2 = tilus.add %acc, %v : (!tilus.reg<32x64xf32>, !tilus.reg<32x64xf32>) -> !tilus.reg<32x64xf32>
    threadgroup.sync
    %j = arith.addi %i, %cS : i32
    %more = arith.cmpi slt, %j, %iters : i32
    threadgroup.single_thread {
      scf.if %more {
        %row = arith.muli %j, %c32 : i32
        mbarrier.arrive_expect_tx %bars[%stage : i32], %bytes : !mbarrier.barriers<3>
        tma.global_to_shared %gx[%row, %c0 : i32, i32], %slot, %bars[%stage : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<3>
      }
    }
    %s1 = arith.addi %stage, %c1 : i32
    %wrap = arith.cmpi eq, %s1, %cS : i32
    %ns = arith.select %wrap, %c0, %s1 : i32
    %flip = arith.xori %phase, %c1 : i32
    %np = arith.select %wrap, %flip, %phase : i32
    scf.yield %acc2, %ns, %np : !tilus.reg<32x64xf32>, i32, i32
  }
  tilus.store_global %res#0, %gy[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
  tilus.free_shared %buf : !tilus.shared<3x32x64xf32>
}
