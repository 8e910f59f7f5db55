// mbarrier: every op in custom form, its generic form, and round trips through the generic form,
// by tilus-opt and by MLIR's mlir-opt (which reads it as ops of an unregistered dialect).
// REQUIRES: mlir-opt
// RUN: tilus-opt %s --split-input-file | FileCheck %s
// RUN: tilus-opt %s --split-input-file --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --split-input-file --print-op-generic | tilus-opt --split-input-file | FileCheck %s
// RUN: tilus-opt %s --split-input-file --print-op-generic \
// RUN:   | mlir-opt --split-input-file --allow-unregistered-dialect --mlir-print-op-generic \
// RUN:   | tilus-opt --split-input-file | FileCheck %s

// CHECK-LABEL: tilus.kernel @barriers(
// CHECK-SAME:      %[[I:[^:]*]]: i32, %[[C:[^:]*]]: i32, %[[B:[^:]*]]: i32, %[[M:[^:]*]]: i32, %[[R:[^:]*]]: i32)
// CHECK-NEXT:    %[[J:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[BARS:.*]] = mbarrier.alloc counts [1, 128] : !mbarrier.barriers<2>
// CHECK-NEXT:    %[[ALL:.*]] = mbarrier.alloc : !mbarrier.barriers<1>
// CHECK-NEXT:    mbarrier.arrive %[[BARS]][%[[I]] : i32] : !mbarrier.barriers<2>
// CHECK-NEXT:    mbarrier.arrive %[[BARS]][%[[J]] : index] count(%[[C]]) sem(relaxed) scope(cluster) : !mbarrier.barriers<2>
// CHECK-NEXT:    threadgroup.single_thread {
// CHECK-NEXT:      mbarrier.arrive_expect_tx %[[BARS]][%[[I]] : i32], %[[B]] : !mbarrier.barriers<2>
// CHECK-NEXT:      mbarrier.arrive_expect_tx %[[BARS]][%[[I]] : i32], %[[B]] sem(release) scope(cta) : !mbarrier.barriers<2>
// CHECK-NEXT:      mbarrier.arrive_expect_tx_remote %[[BARS]][%[[I]] : i32], %[[B]], rank(%[[R]]) : !mbarrier.barriers<2>
// CHECK-NEXT:      mbarrier.arrive_expect_tx_remote %[[BARS]][%[[I]] : i32], %[[B]], rank(%[[R]]) sem(relaxed) {note = "kept"} : !mbarrier.barriers<2>
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.single_warp {
// CHECK-NEXT:      mbarrier.arrive_expect_tx_multicast %[[BARS]][%[[I]] : i32], %[[B]], mask(%[[M]]) : !mbarrier.barriers<2>
// CHECK-NEXT:      mbarrier.arrive_expect_tx_multicast %[[BARS]][%[[I]] : i32], %[[B]], mask(%[[M]]) sem(relaxed) scope(cta) : !mbarrier.barriers<2>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[P:.*]] = mbarrier.producer_initial_phase
// CHECK-NEXT:    %[[Q:.*]] = mbarrier.consumer_initial_phase
// CHECK-NEXT:    mbarrier.wait %[[BARS]][%[[I]] : i32], phase(%[[P]]) : !mbarrier.barriers<2>
// CHECK-NEXT:    mbarrier.wait %[[ALL]][%[[J]] : index], phase(%[[Q]]) sem(relaxed) scope(cluster) : !mbarrier.barriers<1>
// CHECK-NEXT:  }

// GENERIC-LABEL: "tilus.kernel"
// GENERIC:       "mbarrier.alloc"() <{counts = array<i64: 1, 128>}> : () -> !mbarrier.barriers<2>
// GENERIC-NEXT:  "mbarrier.alloc"() : () -> !mbarrier.barriers<1>
// GENERIC-NEXT:  "mbarrier.arrive"(%{{.*}}, %{{.*}}) : (!mbarrier.barriers<2>, i32) -> ()
// GENERIC-NEXT:  "mbarrier.arrive"(%{{.*}}, %{{.*}}, %{{.*}}) <{scope = 1 : i64, sem = 1 : i64}> : (!mbarrier.barriers<2>, index, i32) -> ()
// GENERIC:       "mbarrier.arrive_expect_tx"(%{{.*}}, %{{.*}}, %{{.*}}) : (!mbarrier.barriers<2>, i32, i32) -> ()
// GENERIC-NEXT:  "mbarrier.arrive_expect_tx"(%{{.*}}, %{{.*}}, %{{.*}}) <{scope = 0 : i64, sem = 0 : i64}> : (!mbarrier.barriers<2>, i32, i32) -> ()
// GENERIC-NEXT:  "mbarrier.arrive_expect_tx_remote"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!mbarrier.barriers<2>, i32, i32, i32) -> ()
// GENERIC-NEXT:  "mbarrier.arrive_expect_tx_remote"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{sem = 1 : i64}> {note = "kept"} : (!mbarrier.barriers<2>, i32, i32, i32) -> ()
// GENERIC:       "mbarrier.arrive_expect_tx_multicast"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!mbarrier.barriers<2>, i32, i32, i32) -> ()
// GENERIC-NEXT:  "mbarrier.arrive_expect_tx_multicast"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{scope = 0 : i64, sem = 1 : i64}> : (!mbarrier.barriers<2>, i32, i32, i32) -> ()
// GENERIC:       "mbarrier.producer_initial_phase"() : () -> i32
// GENERIC-NEXT:  "mbarrier.consumer_initial_phase"() : () -> i32
// GENERIC-NEXT:  "mbarrier.wait"(%{{.*}}, %{{.*}}, %{{.*}}) : (!mbarrier.barriers<2>, i32, i32) -> ()
// GENERIC-NEXT:  "mbarrier.wait"(%{{.*}}, %{{.*}}, %{{.*}}) <{scope = 1 : i64, sem = 1 : i64}> : (!mbarrier.barriers<1>, index, i32) -> ()
tilus.kernel @barriers(%i: i32, %c: i32, %bytes: i32, %mask: i32, %rank: i32) warps(4)
    blocks(affine_map<(d0, d1, d2, d3, d4) -> (d0)>) {
  %j = arith.constant 0 : index
  %bars = mbarrier.alloc counts [1, 128] : !mbarrier.barriers<2>
  %all = mbarrier.alloc : !mbarrier.barriers<1>
  // Every thread of the block arrives: 128 arrivals.
  mbarrier.arrive %bars[%i : i32] : !mbarrier.barriers<2>
  mbarrier.arrive %bars[%j : index] count(%c) sem(relaxed) scope(cluster) : !mbarrier.barriers<2>
  // One arrival each.
  threadgroup.single_thread {
    mbarrier.arrive_expect_tx %bars[%i : i32], %bytes : !mbarrier.barriers<2>
    mbarrier.arrive_expect_tx %bars[%i : i32], %bytes sem(release) scope(cta) : !mbarrier.barriers<2>
    mbarrier.arrive_expect_tx_remote %bars[%i : i32], %bytes, rank(%rank) : !mbarrier.barriers<2>
    mbarrier.arrive_expect_tx_remote %bars[%i : i32], %bytes, rank(%rank) sem(relaxed) {note = "kept"} : !mbarrier.barriers<2>
  }
  // Thread r of the warp arrives on CTA r's barrier.
  threadgroup.single_warp {
    mbarrier.arrive_expect_tx_multicast %bars[%i : i32], %bytes, mask(%mask) : !mbarrier.barriers<2>
    mbarrier.arrive_expect_tx_multicast %bars[%i : i32], %bytes, mask(%mask) sem(relaxed) scope(cta) : !mbarrier.barriers<2>
  }
  %p = mbarrier.producer_initial_phase
  %q = mbarrier.consumer_initial_phase
  mbarrier.wait %bars[%i : i32], phase(%p) : !mbarrier.barriers<2>
  mbarrier.wait %all[%j : index], phase(%q) sem(relaxed) scope(cluster) : !mbarrier.barriers<1>
}

// -----

// A two-stage ring: each side keeps its stage and parity and flips the parity when the stage
// wraps. Constant indices within the allocation are accepted.
// CHECK-LABEL: func.func @ring(
// CHECK:         %[[FULL:.*]] = mbarrier.alloc counts [1, 1] : !mbarrier.barriers<2>
// CHECK:         %[[PH:.*]] = mbarrier.consumer_initial_phase
// CHECK:         scf.for
// CHECK:           mbarrier.wait %[[FULL]][%c1_i32 : i32], phase(%{{.*}}) sem(relaxed) : !mbarrier.barriers<2>
// CHECK:           arith.xori
func.func @ring(%n: index) {
  %full = mbarrier.alloc counts [1, 1] : !mbarrier.barriers<2>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %phase0 = mbarrier.consumer_initial_phase
  %r = scf.for %it = %c0 to %n step %c1 iter_args(%phase = %phase0) -> (i32) {
    mbarrier.wait %full[%one : i32], phase(%phase) sem(relaxed) : !mbarrier.barriers<2>
    %next = arith.xori %phase, %one : i32
    scf.yield %next : i32
  }
  return
}
