// wgmma: fence, mma (shared or register A), commit_group and wait_group in custom and generic
// form; the generic form is read back by tilus-opt and by mlir-opt.
// REQUIRES: mlir-opt
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
// RUN: tilus-opt %s | tilus-opt | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | tilus-opt | FileCheck %s

// Hopper v1-style consumer: a 128x256 tile of f16 x f16 -> f32 (two m64 rows of n256
// instructions, four k16 steps), B stored [N, K] and viewed as [K, N]; a producer warp sits
// beside the warpgroup in a 160-thread block.
// CHECK-LABEL: tilus.kernel @matmul_ss
// CHECK:         threadgroup.warp_group warps(0, 4) {
// CHECK-NEXT:      %[[ACC:.*]] = tilus.register_tensor
// CHECK-NEXT:      wgmma.fence
// CHECK-NEXT:      %[[D:.*]] = wgmma.mma %{{.*}}, %{{.*}}, %[[ACC]] : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<128x256xf32, layout = local(2, 1) * spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
// CHECK-NEXT:      wgmma.commit_group
// CHECK-NEXT:      wgmma.wait_group 0
// CHECK-NEXT:      %{{.*}} = wgmma.mma %{{.*}}, %{{.*}}, %[[D]] :
// CHECK-NEXT:      wgmma.commit_group
// CHECK-NEXT:      wgmma.wait_group 7
// CHECK-NEXT:    }
// GENERIC-LABEL: "tilus.kernel"
// GENERIC:         "wgmma.fence"() : () -> ()
// GENERIC-NEXT:    %{{.*}} = "wgmma.mma"(%{{.*}}, %{{.*}}, %{{.*}}) : (!tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<128x256xf32, layout = local(2, 1) * spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>) -> !tilus.reg<128x256xf32, layout = local(2, 1) * spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
// GENERIC-NEXT:    "wgmma.commit_group"() : () -> ()
// GENERIC-NEXT:    "wgmma.wait_group"() <{pending = 0 : i64}> : () -> ()
// GENERIC:         "wgmma.wait_group"() <{pending = 7 : i64}> : () -> ()
tilus.kernel @matmul_ss() warps(5) blocks(affine_map<() -> (1)>) {
  %zero = arith.constant 0.0 : f32
  %a = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %bt = tilus.shared_tensor : !tilus.shared<256x64xf16, swizzle = 128B>
  %b = tilus.permute_shared %bt [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
  threadgroup.warp_group warps(0, 4) {
    %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x256xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
    wgmma.fence
    %d = wgmma.mma %a, %b, %acc : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<128x256xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
    wgmma.commit_group
    wgmma.wait_group 0
    %e = wgmma.mma %a, %b, %d : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<128x256xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
    wgmma.commit_group
    wgmma.wait_group 7
  }
}

// The other legal type combinations, and a register A operand; N = 48 runs as three n16
// instructions. The bf16 accumulator's layout is spelled differently from the canonical chain
// (local(1, 1) is a no-op) but maps the same, which is what the verifier compares. tf32, fp8
// and 8-bit B operands are K-major (strides = [1, K]): only 16-bit inputs may be transposed.
// CHECK-LABEL: tilus.kernel @types
// CHECK:         wgmma.mma %{{.*}}, %{{.*}}, %{{.*}} : !tilus.reg<64x16xf16>, !tilus.shared<16x48xf16>, !tilus.reg<64x48xf16, layout = local(1, 3) * spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
// CHECK:         wgmma.mma %{{.*}}, %{{.*}}, %{{.*}} : !tilus.shared<64x16xbf16>, !tilus.shared<16x64xbf16>, !tilus.reg<64x64xf32, layout = spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
// CHECK:         wgmma.mma %{{.*}}, %{{.*}}, %{{.*}} : !tilus.shared<64x8xtf32>, !tilus.shared<8x64xtf32, strides = [1, 8]>, !tilus.reg<64x64xf32>
// CHECK:         wgmma.mma %{{.*}}, %{{.*}}, %{{.*}} : !tilus.shared<64x64xf8E4M3FN>, !tilus.shared<64x32xf8E4M3FN, strides = [1, 64]>, !tilus.reg<64x32xf16>
// CHECK:         wgmma.mma %{{.*}}, %{{.*}}, %{{.*}} : !tilus.shared<64x32xf8E5M2>, !tilus.shared<32x32xf8E5M2, strides = [1, 32]>, !tilus.reg<64x32xf32>
// CHECK:         wgmma.mma %{{.*}}, %{{.*}}, %{{.*}} : !tilus.shared<64x32xi8>, !tilus.shared<32x24xi8, strides = [1, 32]>, !tilus.reg<64x24xi32>
// CHECK:         wgmma.mma %{{.*}}, %{{.*}}, %{{.*}} : !tilus.shared<64x32xui8>, !tilus.shared<32x64xui8, strides = [1, 32]>, !tilus.reg<64x64xsi32>
tilus.kernel @types() warps(8) blocks(affine_map<() -> (1)>) {
  threadgroup.warp_group warps(4, 4) {
    %a0 = tilus.register_tensor : !tilus.reg<64x16xf16>
    %b0 = tilus.shared_tensor : !tilus.shared<16x48xf16>
    %c0 = tilus.register_tensor : !tilus.reg<64x48xf16, layout = local(1, 3) * column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
    %d0 = wgmma.mma %a0, %b0, %c0 : !tilus.reg<64x16xf16>, !tilus.shared<16x48xf16>, !tilus.reg<64x48xf16, layout = local(1, 3) * column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
    %a1 = tilus.shared_tensor : !tilus.shared<64x16xbf16>
    %b1 = tilus.shared_tensor : !tilus.shared<16x64xbf16>
    %c1 = tilus.register_tensor : !tilus.reg<64x64xf32, layout = local(1, 1) * column_spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
    %d1 = wgmma.mma %a1, %b1, %c1 : !tilus.shared<64x16xbf16>, !tilus.shared<16x64xbf16>, !tilus.reg<64x64xf32, layout = local(1, 1) * column_spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
    %a2 = tilus.shared_tensor : !tilus.shared<64x8xtf32>
    %b2 = tilus.shared_tensor : !tilus.shared<8x64xtf32, strides = [1, 8]>
    %c2 = tilus.register_tensor : !tilus.reg<64x64xf32>
    %d2 = wgmma.mma %a2, %b2, %c2 : !tilus.shared<64x8xtf32>, !tilus.shared<8x64xtf32, strides = [1, 8]>, !tilus.reg<64x64xf32>
    %a3 = tilus.shared_tensor : !tilus.shared<64x64xf8E4M3FN>
    %b3 = tilus.shared_tensor : !tilus.shared<64x32xf8E4M3FN, strides = [1, 64]>
    %c3 = tilus.register_tensor : !tilus.reg<64x32xf16>
    %d3 = wgmma.mma %a3, %b3, %c3 : !tilus.shared<64x64xf8E4M3FN>, !tilus.shared<64x32xf8E4M3FN, strides = [1, 64]>, !tilus.reg<64x32xf16>
    %a4 = tilus.shared_tensor : !tilus.shared<64x32xf8E5M2>
    %b4 = tilus.shared_tensor : !tilus.shared<32x32xf8E5M2, strides = [1, 32]>
    %c4 = tilus.register_tensor : !tilus.reg<64x32xf32>
    %d4 = wgmma.mma %a4, %b4, %c4 : !tilus.shared<64x32xf8E5M2>, !tilus.shared<32x32xf8E5M2, strides = [1, 32]>, !tilus.reg<64x32xf32>
    %a5 = tilus.shared_tensor : !tilus.shared<64x32xi8>
    %b5 = tilus.shared_tensor : !tilus.shared<32x24xi8, strides = [1, 32]>
    %c5 = tilus.register_tensor : !tilus.reg<64x24xi32>
    %d5 = wgmma.mma %a5, %b5, %c5 : !tilus.shared<64x32xi8>, !tilus.shared<32x24xi8, strides = [1, 32]>, !tilus.reg<64x24xi32>
    %a6 = tilus.shared_tensor : !tilus.shared<64x32xui8>
    %b6 = tilus.shared_tensor : !tilus.shared<32x64xui8, strides = [1, 32]>
    %c6 = tilus.register_tensor : !tilus.reg<64x64xsi32>
    %d6 = wgmma.mma %a6, %b6, %c6 : !tilus.shared<64x32xui8>, !tilus.shared<32x64xui8, strides = [1, 32]>, !tilus.reg<64x64xsi32>
  }
}

// Outside a kernel group shapes are unknown and not checked: tensors may be function
// arguments.
// CHECK-LABEL: func.func @outside_kernel
// CHECK-NEXT:    wgmma.fence
// CHECK-NEXT:    %{{.*}} = wgmma.mma %arg0, %arg1, %arg2 : !tilus.shared<64x16xf16>, !tilus.shared<16x8xf16>, !tilus.reg<64x8xf32>
// CHECK-NEXT:    wgmma.commit_group
// CHECK-NEXT:    wgmma.wait_group 1
func.func @outside_kernel(%a: !tilus.shared<64x16xf16>, %b: !tilus.shared<16x8xf16>, %c: !tilus.reg<64x8xf32>) {
  wgmma.fence
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x16xf16>, !tilus.shared<16x8xf16>, !tilus.reg<64x8xf32>
  wgmma.commit_group
  wgmma.wait_group 1
  return
}

// Accumulator layouts compare by mapping: an n256 tile written as two n128 blocks,
// local(1, 2) * ... column_local(2, 16), puts every element where one n256 instruction does.
// CHECK-LABEL: func.func @same_mapping
// CHECK-NEXT:    %{{.*}} = wgmma.mma %arg0, %arg1, %arg2 : !tilus.shared<64x16xf16>, !tilus.shared<16x256xf16>, !tilus.reg<64x256xf32, layout = local(1, 2) * spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
func.func @same_mapping(%a: !tilus.shared<64x16xf16>, %b: !tilus.shared<16x256xf16>, %c: !tilus.reg<64x256xf32, layout = local(1, 2) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>) {
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x16xf16>, !tilus.shared<16x256xf16>, !tilus.reg<64x256xf32, layout = local(1, 2) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
  return
}
