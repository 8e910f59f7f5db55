// lower-async-to-ptx on wgmma ops. wgmma.mma becomes ptx.inst on the accumulator tile (operand
// 0, expanded by lower-tiles; see docs/design/lowering.md), which ptx.inst's operand types do not
// admit yet, hence --verify-each=false.
// RUN: tilus-opt %s --lower-async-to-ptx --verify-each=false | FileCheck %s

// A f16 [128, 64], 128B swizzle: SBO 1024 B (field 64), descriptor hi = 64 << 32 | 1 << 62.
// Sub-instructions k-outer, then m: (kk 0, i 0), (0, 1) at +8192 B, then k16 steps of +32 B;
// an offset is added to the base descriptor in 16-byte units (+512, +2).
// CHECK-LABEL: tilus.kernel @matmul_ss(
// CHECK:         ptx.inst "wgmma.fence.sync.aligned"
// CHECK-NEXT:    %[[A:.*]] = tilus.shared_addr %{{.*}} : !tilus.shared<128x64xf16, swizzle = 128B> -> i32
// CHECK-NEXT:    %[[B:.*]] = tilus.shared_addr %{{.*}} : !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B> -> i32
// CHECK:         arith.constant 4611686293305294848 : i64
// CHECK:         %[[D0:.*]] = ptx.inst "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16" {%{{.*}}}, %{{.*}}, %{{.*}}, 1, 1, 1, 0, 0 {tile_block = array<i64: 0, 2>}
// CHECK:         arith.constant 512 : i64
// CHECK:         %[[D1:.*]] = ptx.inst "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16" {%[[D0]]}, %{{.*}}, %{{.*}}, 1, 1, 1, 0, 0 {tile_block = array<i64: 1, 2>}
// CHECK:         arith.constant 2 : i64
// CHECK:         ptx.inst "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16" {%[[D1]]}, {{.*}} {tile_block = array<i64: 0, 2>}
// CHECK-COUNT-5: ptx.inst "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16"
// CHECK:         ptx.inst "wgmma.commit_group.sync.aligned"
// CHECK-NEXT:    ptx.inst "wgmma.wait_group.sync.aligned" 0
// CHECK:         ptx.inst "wgmma.wait_group.sync.aligned" 7
// CHECK-NOT:     wgmma.mma %
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
