// The sizes lower-async-to-ptx records in tilus.tensor_maps are affine maps whose symbol sN is
// kernel parameter N. With dynamic extents, a row-major stride is a product of parameters (here
// the base offset b * (m * n) of the box outside dims): a semi-affine map, which MLIR allows for
// symbols. The record survives the generic form and a round trip through mlir-opt unchanged.
// REQUIRES: mlir-opt
// RUN: tilus-opt %s --lower-async-to-ptx | FileCheck %s
// RUN: tilus-opt %s --lower-async-to-ptx --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | tilus-opt | FileCheck %s

// CHECK:      #[[BASE:map[0-9]*]] = affine_map<()[s0, s1, s2, s3, s4, s5] -> (s1 * (s3 * s4))>
// CHECK-NEXT: #[[DIMS:map[0-9]*]] = affine_map<()[s0, s1, s2, s3, s4, s5] -> (s4, s3)>
// CHECK-NEXT: #[[STRIDES:map[0-9]*]] = affine_map<()[s0, s1, s2, s3, s4, s5] -> (s4 * 2)>
// CHECK-LABEL: tilus.kernel @dynamic(
// CHECK-SAME:    tilus.tensor_maps = [{base_offset = #[[BASE]], box_dims = array<i64: 64, 64>, direction = "load", dtype = "f16", global_dims = #[[DIMS]], global_strides = #[[STRIDES]], param = 5 : i64, pointer = 0 : i64, swizzle = "128B"}]
tilus.kernel @dynamic(%p: !tilus.ptr<f16>, %b: i32, %l: i32, %m: i32, %n: i32) warps(1) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>) {
  %g = tilus.global_view %p[%l, %m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?x?xf16>
  %s = tilus.shared_tensor : !tilus.shared<64x64xf16, swizzle = 128B>
  %bars = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %c0 = arith.constant 0 : i32
  threadgroup.single_thread {
    tma.global_to_shared %g[%b, %c0, %c0 : i32, i32, i32], %s, %bars[%c0 : i32] dims array<i64: 1, 2> : !tilus.global<?x?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
  }
}
