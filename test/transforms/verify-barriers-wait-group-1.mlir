// verify-barriers accepts the release pattern of a consumer that keeps one wgmma group in
// flight: after `wgmma.wait_group 1` only the MMA of the current stage may still read shared
// memory, so the consumer releases the *previous* stage (the one the retired MMA read), from
// iteration 1 on (`scf.if k >= 1`), and waits for the last group after the loop. The kernel is
// the warp-specialized 3-stage Hopper matmul v1 (pipeline{stages=3},warp-specialize without
// setmaxnreg, canonicalized) with that consumer. The check reads the release as made for
// iteration k - 1 (stage (k + 2) mod 3 from k = 1 is stage k mod 3 of iterations k < T - 1)
// after the waits of iteration k, and proves both barriers for every trip count; the
// interpreter agrees on random schedules.
//
// RUN: tilus-opt %s --verify-barriers --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// PROVED: (S) 2 num-barriers
// PROVED: (S) 0 num-skipped
// RUN: for t in 1 2 3 4 5 8 23; do \
// RUN:   tilus-run %s --arg m=128 --arg n=128 --arg k=$((64 * t)) --schedule random --seed $t > %t.out 2>&1 \
// RUN:     && grep "check c vs reference @matmul_ref: ok" %t.out > /dev/null && echo "trips=$t: ok" || { echo "FAILED trips=$t"; cat %t.out; exit 1; }; \
// RUN: done | FileCheck %s --check-prefix=INTERP
// INTERP-NOT: FAILED
// INTERP-COUNT-7: trips={{[0-9]+}}: ok
//
// Broken: the current stage released after `wait_group 1` (its MMA is the one in flight).
// The check reports the release, and the interpreter sees the refill overwrite the stage the
// MMA still reads.
// RUN: sed -e 's/mbarrier.arrive %10\[.prev : i32\]/mbarrier.arrive %10[%arg2 : i32]/' -e 's/arith.cmpi sge, %arg0, %c1_i32/arith.cmpi sge, %arg0, %c0_i32/' %s > %t.current.mlir
// RUN: not tilus-opt %t.current.mlir --verify-barriers -o /dev/null --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=CURRENT
// CURRENT: error: this releases a stage while a wgmma.mma may still be reading it: 1 MMA group is not retired by wgmma.wait_group
// CURRENT: note: this MMA reads shared memory asynchronously, from the stage released here
// RUN: not tilus-run %t.current.mlir --arg k=640 --schedule random --seed 1 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: tma.global_to_shared writes shared memory {{.*}} that an unfinished wgmma.mma still reads
//
// Broken: the previous stage released in iteration 0 too (the guard is k >= 0): one release too many, of
// a stage nobody filled; the check reports the stage offset, the interpreter the race it
// causes (the producer refills a stage that is still being read).
// RUN: sed -e 's/arith.cmpi sge, %arg0, %c1_i32/arith.cmpi sge, %arg0, %c0_i32/' %s > %t.noguard.mlir
// RUN: not tilus-opt %t.noguard.mlir --verify-barriers -o /dev/null --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=NOGUARD
// NOGUARD: error: off-by-one stage: this op uses barriers#1[(k + 2) mod 3] in iteration k, but the stage of the other side is k mod 3
// RUN: not tilus-run %t.noguard.mlir --arg k=640 --schedule random --seed 1 2>&1 | FileCheck %s --check-prefix=RACE

#map = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 128, d4 ceildiv 128)>
#map1 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 64, d4 ceildiv 64)>
module {
  tilus.kernel @hopper_matmul_v1(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32) warps(5) blocks(#map) attributes {tilus.args = {k = 128 : i32, m = 256 : i32, n = 128 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
    %c3_i32 = arith.constant 3 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %c128_i32 = arith.constant 128 : i32
    %c32768_i32 = arith.constant 32768 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tilus.block_id x
    %1 = tilus.block_id y
    %2 = arith.muli %0, %c128_i32 : i32
    %3 = arith.muli %1, %c128_i32 : i32
    %4 = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
    %5 = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
    %6 = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
    %7 = tilus.shared_tensor : !tilus.shared<3x128x64xf16, swizzle = 128B>
    %8 = tilus.shared_tensor : !tilus.shared<3x128x64xf16, swizzle = 128B>
    %9 = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
    %10 = mbarrier.alloc counts [128, 128, 128] : !mbarrier.barriers<3>
    %11 = arith.ceildivsi %k, %c64_i32 : i32
    threadgroup.single_warp warp(4) {
      %12 = mbarrier.producer_initial_phase
      %13:2 = scf.for %arg0 = %c0_i32 to %11 step %c1_i32 iter_args(%arg1 = %c0_i32, %arg2 = %12) -> (i32, i32)  : i32 {
        mbarrier.wait %10[%arg1 : i32], phase(%arg2) : !mbarrier.barriers<3>
        %14 = arith.muli %arg0, %c64_i32 : i32
        threadgroup.single_thread {
          mbarrier.arrive_expect_tx %9[%arg1 : i32], %c32768_i32 : !mbarrier.barriers<3>
        }
        %15 = tilus.slice_shared %7[%arg1] : !tilus.shared<3x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
        tma.global_to_shared %4[%2, %14 : i32, i32], %15, %9[%arg1 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
        %16 = tilus.slice_shared %8[%arg1] : !tilus.shared<3x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
        tma.global_to_shared %5[%3, %14 : i32, i32], %16, %9[%arg1 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
        %17 = arith.addi %arg1, %c1_i32 : i32
        %18 = arith.cmpi eq, %17, %c3_i32 : i32
        %19 = arith.select %18, %c0_i32, %17 : i32
        %20 = arith.xori %arg2, %c1_i32 : i32
        %21 = arith.select %18, %20, %arg2 : i32
        scf.yield %19, %21 : i32, i32
      }
    }
    threadgroup.warp_group warps(0, 4) {
      %12 = tilus.register_tensor init(%cst : f32) : !tilus.reg<128x128xf32, layout = local(2, 1) * spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
      %13 = mbarrier.consumer_initial_phase
      %14:3 = scf.for %arg0 = %c0_i32 to %11 step %c1_i32 iter_args(%arg1 = %12, %arg2 = %c0_i32, %arg3 = %13) -> (!tilus.reg<128x128xf32, layout = local(2, 1) * spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32, i32)  : i32 {
        mbarrier.wait %9[%arg2 : i32], phase(%arg3) : !mbarrier.barriers<3>
        %16 = tilus.slice_shared %7[%arg2] : !tilus.shared<3x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
        %17 = tilus.slice_shared %8[%arg2] : !tilus.shared<3x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
        %18 = tilus.permute_shared %17 [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
        wgmma.fence
        %19 = wgmma.mma %16, %18, %arg1 : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<128x128xf32, layout = local(2, 1) * spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        wgmma.commit_group
        wgmma.wait_group 1
        %c2_r = arith.constant 2 : i32
        %ip = arith.addi %arg0, %c2_r : i32
        %prev = arith.remsi %ip, %c3_i32 : i32
        %has_prev = arith.cmpi sge, %arg0, %c1_i32 : i32
        scf.if %has_prev {
          mbarrier.arrive %10[%prev : i32] : !mbarrier.barriers<3>
        }
        %20 = arith.addi %arg2, %c1_i32 : i32
        %21 = arith.cmpi eq, %20, %c3_i32 : i32
        %22 = arith.select %21, %c0_i32, %20 : i32
        %23 = arith.xori %arg3, %c1_i32 : i32
        %24 = arith.select %21, %23, %arg3 : i32
        scf.yield %19, %22, %24 : !tilus.reg<128x128xf32, layout = local(2, 1) * spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32, i32
      }
      wgmma.wait_group 0
      %15 = tilus.cast %14#0 : !tilus.reg<128x128xf32, layout = local(2, 1) * spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<128x128xf16, layout = local(2, 1) * spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
      tilus.store_global %15, %6[%2, %3] : !tilus.reg<128x128xf16, layout = local(2, 1) * spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
    }
    threadgroup.sync
    tilus.free_shared %7 : !tilus.shared<3x128x64xf16, swizzle = 128B>
    tilus.free_shared %8 : !tilus.shared<3x128x64xf16, swizzle = 128B>
  }
  tilus.kernel @matmul_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32) warps(4) blocks(#map1) {
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tilus.block_id x
    %1 = tilus.block_id y
    %2 = arith.muli %0, %c64_i32 : i32
    %3 = arith.muli %1, %c64_i32 : i32
    %4 = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
    %5 = tilus.global_view %b[%k, %n] strides[%k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [1, ?]>
    %6 = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
    %7 = tilus.register_tensor init(%cst : f32) : !tilus.reg<64x64xf32>
    %8 = scf.for %arg0 = %c0_i32 to %k step %c32_i32 iter_args(%arg1 = %7) -> (!tilus.reg<64x64xf32>)  : i32 {
      %10 = tilus.load_global %4[%2, %arg0] : !tilus.global<?x?xf16> -> !tilus.reg<64x32xf16>
      %11 = tilus.load_global %5[%arg0, %3] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<32x64xf16>
      %12 = tilus.dot %10, %11, %arg1 : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
      scf.yield %12 : !tilus.reg<64x64xf32>
    }
    %9 = tilus.cast %8 : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
    tilus.store_global %9, %6[%2, %3] : !tilus.reg<64x64xf16>, !tilus.global<?x?xf16>
  }
}

