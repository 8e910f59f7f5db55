// The generic form of the threadgroup ops is accepted by mlir-opt and comes back unchanged.
// REQUIRES: mlir-opt
// RUN: tilus-opt %s --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | tilus-opt | FileCheck %s

// CHECK-LABEL: tilus.kernel @k
// CHECK:         threadgroup.group threads(32, 64) {
// CHECK-NEXT:      threadgroup.single_thread thread(3) {
// CHECK-NEXT:      }
// CHECK-NEXT:      threadgroup.sync
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.warp_group warps(0, 1) {
// CHECK-NEXT:    }
tilus.kernel @k() warps(4) blocks(affine_map<() -> (1)>) {
  threadgroup.group threads(32, 64) {
    threadgroup.single_thread thread(3) {
    }
    threadgroup.sync
  }
  threadgroup.warp_group warps(0, 1) {
  }
}
