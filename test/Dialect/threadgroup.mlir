// threadgroup: nested partitions of a thread block and group-scoped sync, in custom and generic
// form; generic output is read back by tilus-opt and by mlir-opt.
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
// RUN: tilus-opt %s | tilus-opt | FileCheck %s

// The seeds' partitions: a 288-thread block (9 warps) with two 128-thread consumer warpgroups
// and a producer warp; 128 does not divide 288 and that is fine.
// CHECK-LABEL: tilus.kernel @partitions
// CHECK:         threadgroup.warp_group warps(0, 4) {
// CHECK-NEXT:      threadgroup.sync
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.group threads(128, 128) {
// CHECK-NEXT:      threadgroup.group threads(0, 64) {
// CHECK-NEXT:        threadgroup.sync
// CHECK-NEXT:      }
// CHECK-NEXT:      threadgroup.group threads(64, 16) {
// CHECK-NEXT:        threadgroup.sync
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.single_warp warp(8) {
// CHECK-NEXT:      threadgroup.single_thread {
// CHECK-NEXT:      }
// CHECK-NEXT:      threadgroup.single_thread thread(31) {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.single_warp {
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.sync
// GENERIC:       "threadgroup.warp_group"() <{num_warps = 4 : i64, warp_begin = 0 : i64}> ({
// GENERIC:         "threadgroup.sync"() : () -> ()
// GENERIC:       "threadgroup.group"() <{begin = 128 : i64, num = 128 : i64}> ({
// GENERIC:       "threadgroup.single_warp"() <{warp = 8 : i64}> ({
// GENERIC:         "threadgroup.single_thread"() ({
// GENERIC:         "threadgroup.single_thread"() <{thread = 31 : i64}> ({
tilus.kernel @partitions(%n: i32) warps(9) blocks(affine_map<(d0) -> (d0)>) {
  threadgroup.warp_group warps(0, 4) {
    threadgroup.sync
  }
  threadgroup.group threads(128, 128) {
    threadgroup.group threads(0, 64) {
      threadgroup.sync
    }
    threadgroup.group threads(64, 16) {
      threadgroup.sync
    }
  }
  threadgroup.single_warp warp(8) {
    threadgroup.single_thread {
    }
    threadgroup.single_thread thread(31) {
    }
  }
  threadgroup.single_warp {
  }
  threadgroup.sync
}
