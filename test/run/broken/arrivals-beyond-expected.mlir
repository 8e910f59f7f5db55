// BROKEN: arrivals beyond the expected count. The barrier expects one arrival per phase (the
// thread that announces the TMA bytes), but the mbarrier.arrive_expect_tx is not wrapped in
// threadgroup.single_thread: all 128 threads of the block execute it, i.e. 128 arrivals (and
// 128 x 8192 announced bytes).
//
// The user should see "arrivals beyond the expected count" at the arrive_expect_tx, naming the
// threads ([0, 128)), the barrier (0), the arrivals (128) and what it expects (1 more in this
// phase, 1 per phase), a help line suggesting threadgroup.single_thread, and a note at the
// mbarrier.alloc with the barrier state: phase 0, pending arrivals 1 of 1, and tx-count
// 1048576 (= 128 x 8192: every thread's expect_tx has already been counted).
//
// RUN: not tilus-run %s --backend interp 2>&1 | FileCheck %s
// RUN: not tilus-run %s --backend interp --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=LOC
// RUN: tilus-run %s --backend interp >/dev/null 2>&1; test $? -eq 1
// verify-barriers finds it statically:
// RUN: tilus-opt %s --verify-barriers --verify-diagnostics --no-output
//
// CHECK:      × arrivals beyond the expected count: threads [0, 128) arrive on barrier 0: 128 arrivals on a barrier that expects only 1 more in this phase (1 per phase)
// CHECK:      │   mbarrier.arrive_expect_tx %bar[%c0 : i32], %bytes : !mbarrier.barriers<1>
// CHECK-NEXT: ┬
// CHECK-NEXT: ╰── arrivals beyond the expected count
// CHECK:      help: every thread of the executing group arrives; wrap the arrive in threadgroup.single_thread for one arrival, or raise the barrier's count
// CHECK:      ☞ barrier 0 was allocated here; before the arrival: phase 0, pending arrivals 1 of 1, tx-count 1048576
// CHECK:      │   %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
// CHECK-NEXT: ┬

// y = x for one 32x64 f32 tile, loaded with TMA.
tilus.kernel @tma_tile(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %bytes = arith.constant 8192 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %s = tilus.shared_tensor : !tilus.shared<32x64xf32>
  // expected-note@+2 {{barriers#0 is allocated here with counts [1]}}
  // LOC-DAG: .mlir:[[#@LINE+1]]:10: note: barrier 0 was allocated here; before the arrival: phase 0, pending arrivals 1 of 1, tx-count 1048576
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  // expected-error@+3 {{barriers#0[0] over-arrives: 128 arrivals per phase on a barrier of count 1: every thread of the group executing this arrive arrives, and that group is the whole block: threads [0, 128) (128 threads)}}
  // BROKEN: should be inside the threadgroup.single_thread below.
  // LOC-DAG: .mlir:[[#@LINE+1]]:3: error: arrivals beyond the expected count: threads [0, 128) arrive on barrier 0: 128 arrivals
  mbarrier.arrive_expect_tx %bar[%c0 : i32], %bytes : !mbarrier.barriers<1>
  threadgroup.single_thread {
    tma.global_to_shared %gx[%c0, %c0 : i32, i32], %s, %bar[%c0 : i32] : !tilus.global<32x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<1>
  }
  mbarrier.wait %bar[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  %t = tilus.load_shared %s : !tilus.shared<32x64xf32> -> !tilus.reg<32x64xf32>
  tilus.store_global %t, %gy[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
  tilus.free_shared %s : !tilus.shared<32x64xf32>
}
