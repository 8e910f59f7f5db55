// The extents and strides of a TMA copy's global view are evaluated on the host when the
// kernel launches (they fill the tensor map), so they must be grid constants the host can
// compute: constants, kernel parameters, and arith add/mul/casts of them, and floor or ceil
// divisions of them by positive constants (a C viewed as [M, N / 64, 64] for 64-column boxes).
// Other values are reported at the copy: async-tma-extents-invalid.mlir.
//
// RUN: tilus-opt %s --lower-async-to-ptx | FileCheck %s

// The tensor maps' dims: [64, N floordiv 64, M] (innermost first), and [64, N ceildiv 64].
// CHECK: affine_map<()[s0, s1, s2, s3] -> (64, s2 floordiv 64, s1)>
// CHECK: affine_map<()[s0, s1, s2, s3, s4] -> (64, s2 ceildiv 64)>
// CHECK-LABEL: tilus.kernel @chunks
// CHECK-SAME:    box_dims = array<i64: 64, 2, 64>
tilus.kernel @chunks(%p: !tilus.ptr<f16>, %m: i32, %n: i32) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %chunks = arith.floordivsi %n, %c64 : i32
  %g = tilus.global_view %p[%m, %chunks] strides[%n] : !tilus.ptr<f16> -> !tilus.global<?x?x64xf16, strides = [?, 64, 1]>
  %up = arith.ceildivsi %n, %c64 : i32
  %g2 = tilus.global_view %p[%up] : !tilus.ptr<f16> -> !tilus.global<?x64xf16>
  %s = tilus.shared_tensor : !tilus.shared<64x2x64xf16, swizzle = 128B>
  %s2 = tilus.shared_tensor : !tilus.shared<8x64xf16>
  threadgroup.single_thread {
    tma.shared_to_global %s, %g[%c0, %c0, %c0 : i32, i32, i32] : !tilus.shared<64x2x64xf16, swizzle = 128B>, !tilus.global<?x?x64xf16, strides = [?, 64, 1]>
    tma.shared_to_global %s2, %g2[%c0, %c0 : i32, i32] : !tilus.shared<8x64xf16>, !tilus.global<?x64xf16>
    tma.commit_group
    tma.wait_group 0
  }
}

