// verify-barriers skips (does not count as run once) barriers used inside an scf.while, an
// scf.index_switch, scf.parallel, scf.forall or an scf.execute_region of several blocks (whose
// cf branches may loop), at any depth: the check cannot count their trips or choices. Before, an arrive in a while body was counted once, and this correct
// kernel (two trips, one arrival each, on a barrier of count 2) was rejected as never
// completing its phase, so tilus-to-ptx refused it.
//
// RUN: tilus-opt %s --verify-barriers --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// STATS: (S) 0 num-barriers
// STATS: (S) 3 num-skipped
// RUN: tilus-run %s --kernel while_arrive | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --kernel while_for_arrive | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --kernel cfg_loop_arrive | FileCheck %s --check-prefix=INTERP
// INTERP-NOT: ×
// INTERP: output y: i32[32]
// RUN: tilus-run %s --kernel while_arrive --dump-ptx | FileCheck %s --check-prefix=PTX
// PTX: mbarrier.arrive
tilus.kernel @while_arrive(%y: !tilus.ptr<i32>) warps(1) blocks(affine_map<(d0) -> (1)>) attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %bars = mbarrier.alloc counts [2] : !mbarrier.barriers<1>
  %n = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %c2 : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%j: i32):
    threadgroup.single_thread {
      mbarrier.arrive %bars[%c0 : i32] : !mbarrier.barriers<1>
    }
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %j1 : i32
  }
  mbarrier.wait %bars[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<32xi32>
  %t = tilus.register_tensor init(%n : i32) : !tilus.reg<32xi32>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<32xi32>, !tilus.global<32xi32>
}

// The loop that arrives is a two-trip scf.for inside a one-trip while.
tilus.kernel @while_for_arrive(%y: !tilus.ptr<i32>) warps(1) blocks(affine_map<(d0) -> (1)>) attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %bars = mbarrier.alloc counts [2] : !mbarrier.barriers<1>
  %n = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %c1 : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%j: i32):
    scf.for %k = %c0 to %c2 step %c1 : i32 {
      threadgroup.single_thread {
        mbarrier.arrive %bars[%c0 : i32] : !mbarrier.barriers<1>
      }
    }
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %j1 : i32
  }
  mbarrier.wait %bars[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<32xi32>
  %t = tilus.register_tensor init(%n : i32) : !tilus.reg<32xi32>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<32xi32>, !tilus.global<32xi32>
}

// The arrive is in a loop of blocks (two trips) inside an scf.execute_region.
tilus.kernel @cfg_loop_arrive(%y: !tilus.ptr<i32>) warps(1) blocks(affine_map<(d0) -> (1)>) attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %bars = mbarrier.alloc counts [2] : !mbarrier.barriers<1>
  %n = scf.execute_region -> i32 {
    cf.br ^head(%c0 : i32)
  ^head(%i: i32):
    %more = arith.cmpi slt, %i, %c2 : i32
    cf.cond_br %more, ^body, ^done
  ^body:
    threadgroup.single_thread {
      mbarrier.arrive %bars[%c0 : i32] : !mbarrier.barriers<1>
    }
    %i1 = arith.addi %i, %c1 : i32
    cf.br ^head(%i1 : i32)
  ^done:
    scf.yield %i : i32
  }
  mbarrier.wait %bars[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<32xi32>
  %t = tilus.register_tensor init(%n : i32) : !tilus.reg<32xi32>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<32xi32>, !tilus.global<32xi32>
}
