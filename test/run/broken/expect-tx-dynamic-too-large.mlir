// BROKEN: a transaction count known only at run time beyond what a barrier holds. PTX bounds a
// phase's tx-count by 2^20 - 1; the verifier rejects a constant beyond it, and tilus-run rejects
// a value that arrives through a kernel argument (here 2^21) at the arrive, before the wait
// could hang.
//
// RUN: not tilus-run %s --backend interp 2>&1 | FileCheck %s
// RUN: tilus-run %s --backend interp --arg n=4096 2>&1 | FileCheck %s --check-prefix=SMALL
//
// CHECK:      × this arrive_expect_tx announces 2097152 bytes, outside the range of a barrier's transaction count [0, 1048575]
// CHECK:      help: split the copy over several phases, or announce the bytes of each copy as it is issued
// SMALL:      check y vs reference @copy_ref: ok

tilus.kernel @dynamic_tx(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {n = 2097152 : i32}, tilus.outputs = ["y"], tilus.reference = "copy_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %s = tilus.shared_tensor : !tilus.shared<32x32xf32>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  threadgroup.single_thread {
    mbarrier.arrive_expect_tx %bar[%c0 : i32], %n : !mbarrier.barriers<1>
    tma.global_to_shared %gx[%c0, %c0 : i32, i32], %s, %bar[%c0 : i32] : !tilus.global<32x32xf32>, !tilus.shared<32x32xf32>, !mbarrier.barriers<1>
  }
  mbarrier.wait %bar[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  %v = tilus.load_shared %s : !tilus.shared<32x32xf32> -> !tilus.reg<32x32xf32>
  tilus.store_global %v, %gy[%c0, %c0] : !tilus.reg<32x32xf32>, !tilus.global<32x32xf32>
  threadgroup.sync
  tilus.free_shared %s : !tilus.shared<32x32xf32>
}

tilus.kernel @copy_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %v = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32>
  tilus.store_global %v, %gy[%c0, %c0] : !tilus.reg<32x32xf32>, !tilus.global<32x32xf32>
}
