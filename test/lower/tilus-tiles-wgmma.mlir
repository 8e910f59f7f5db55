// lower-tiles on the tile operands of lower-async-to-ptx (docs/design/lowering.md, "Tile
// operands"): a `ptx.inst` with `tile_block = array<i64: b, n>` takes the accumulator's
// registers in local-index order, block b of n. A wgmma destination is read-write: the block's
// registers become the leading operands, written `{...}` where `{$0}` was, the results are the
// updated registers (`tied = N`: result i is operand i updated in place) and the emitter gives
// both one register. The layout must be the wgmma D fragment (spec §3.1); it is checked.
// RUN: tilus-opt %s --split-input-file --lower-async-to-ptx --plan-shared-memory --lower-tiles --canonicalize --cse | FileCheck %s
// RUN: tilus-opt %s --split-input-file --pass-pipeline='builtin.module(tilus-to-ptx)' --emit-ptx | FileCheck %s --check-prefix=PTX

// One m64n16k16 block, 4 k16 steps. The splat accumulator gets one copy per register, made
// where the value is defined (before wgmma.fence), then the four instructions chain through
// their results.
// CHECK-LABEL: tilus.kernel @mma_tied(
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[C0:.*]] = ptx.inst "mov.f32" %[[Z]] : (f32) -> f32
// CHECK-COUNT-7: ptx.inst "mov.f32" %[[Z]] : (f32) -> f32
// CHECK:         ptx.inst "wgmma.fence.sync.aligned"
// CHECK:         %[[D0:.*]]:8 = ptx.inst "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16" {%[[C0]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}}, %{{.*}}, %{{.*}}, 1, 1, 1, 0, 0 {tied = 8 : i64} : (f32, f32, f32, f32, f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK:         %[[D1:.*]]:8 = ptx.inst "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16" {%[[D0]]#0, %[[D0]]#1, %[[D0]]#2, %[[D0]]#3, %[[D0]]#4, %[[D0]]#5, %[[D0]]#6, %[[D0]]#7}, %{{.*}}, %{{.*}}, 1, 1, 1, 0, 0 {tied = 8 : i64}
// CHECK:         %[[D2:.*]]:8 = ptx.inst "wgmma.mma_async{{.*}}" {%[[D1]]#0, {{.*}}, %[[D1]]#7}
// CHECK:         %[[D3:.*]]:8 = ptx.inst "wgmma.mma_async{{.*}}" {%[[D2]]#0, {{.*}}, %[[D2]]#7}
// CHECK:         ptx.inst "wgmma.commit_group.sync.aligned"
// Register j of the block: row 16·warp + lane/4 + 8·((j/2)%2), column 8·(j/4) + 2·(lane%4) + j%2;
// thread 0 stores (0, 0), (0, 1) from registers 0, 1 (one st.global.v2).
// CHECK:         ptx.inst "st.global.v2.f32" [%{{.*}}], {%[[D3]]#0, %[[D3]]#1}
// PTX-LABEL: .entry mma_tied(
// The copies of the splat read the constant as an immediate: no register holds the zero.
// PTX:         .reg .f32 %f<9>;
// PTX:         mov.f32 %f1, 0f00000000;
// PTX-COUNT-7: mov.f32 %f{{[2-8]}}, 0f00000000;
// PTX:         wgmma.fence.sync.aligned;
// PTX-NOT:     mov.f32
// PTX:         wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, 1, 1, 1, 0, 0;
// PTX-NOT:     mov.f32
// PTX-COUNT-3: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8},
// PTX-NOT:     mov.f32
// PTX:         wgmma.commit_group.sync.aligned;
tilus.kernel @mma_tied(%c: !tilus.ptr<f32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i32
  %a = tilus.shared_tensor : !tilus.shared<64x64xf16, swizzle = 128B>
  %bt = tilus.shared_tensor : !tilus.shared<16x64xf16, swizzle = 128B>
  %b = tilus.permute_shared %bt [1, 0] : !tilus.shared<16x64xf16, swizzle = 128B> -> !tilus.shared<64x16xf16, strides = [1, 64], swizzle = 128B>
  %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x16xf32, layout = column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
  wgmma.fence
  %d = wgmma.mma %a, %b, %acc : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x16xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x16xf32, layout = column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
  wgmma.commit_group
  wgmma.wait_group 0
  %gc = tilus.global_view %c[] : !tilus.ptr<f32> -> !tilus.global<64x16xf32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<64x16xf32, layout = column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>, !tilus.global<64x16xf32>
}

// -----

// Two m64 blocks (M = 128, `local(2, 1)` outermost), one k16 step, in a loop carrying the
// accumulator: instruction (i = 0) takes registers 0..7, (i = 1) registers 8..15 (A + 64 rows x
// 32 B: A's descriptor + 128, in 16-byte units), both straight
// from the loop's block arguments (no copies), and the loop yields the results.
// CHECK-LABEL: tilus.kernel @mma_loop(
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A0:[^ ]*]] = {{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK:           %[[E0:.*]]:8 = ptx.inst "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16" {%[[A0]], %arg{{[0-9]+}}, %arg{{[0-9]+}}, %arg{{[0-9]+}}, %arg{{[0-9]+}}, %arg{{[0-9]+}}, %arg{{[0-9]+}}, %arg{{[0-9]+}}}, {{.*}} {tied = 8 : i64}
// CHECK-NEXT:      arith.addi %{{.*}}, %c128_i64 : i64
// CHECK:           %[[E1:.*]]:8 = ptx.inst "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16" {%arg{{[0-9]+}}, {{.*}}, 1, 1, 1, 0, 0 {tied = 8 : i64}
// CHECK:           scf.yield %[[E0]]#0, %[[E0]]#1, %[[E0]]#2, %[[E0]]#3, %[[E0]]#4, %[[E0]]#5, %[[E0]]#6, %[[E0]]#7, %[[E1]]#0, %[[E1]]#1, %[[E1]]#2, %[[E1]]#3, %[[E1]]#4, %[[E1]]#5, %[[E1]]#6, %[[E1]]#7
// The loop-carried registers are the instructions' own: no copy anywhere in the loop.
// PTX-LABEL: .entry mma_loop(
// PTX:         wgmma.fence.sync.aligned;
// PTX-NOT:     mov.f32
// PTX:         wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {[[B0:%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8]]},
// PTX-NOT:     mov.f32
// PTX:         wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {[[B1:%f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16]]},
// PTX-NOT:     mov.f32
// PTX:         wgmma.commit_group.sync.aligned;
tilus.kernel @mma_loop(%c: !tilus.ptr<f32>, %n: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tilus.shared_tensor : !tilus.shared<128x16xf16, swizzle = 32B>
  %bt = tilus.shared_tensor : !tilus.shared<16x16xf16, swizzle = 32B>
  %b = tilus.permute_shared %bt [1, 0] : !tilus.shared<16x16xf16, swizzle = 32B> -> !tilus.shared<16x16xf16, strides = [1, 16], swizzle = 32B>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x16xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (!tilus.reg<128x16xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>) : i32 {
    wgmma.fence
    %d = wgmma.mma %a, %b, %acc : !tilus.shared<128x16xf16, swizzle = 32B>, !tilus.shared<16x16xf16, strides = [1, 16], swizzle = 32B>, !tilus.reg<128x16xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
    wgmma.commit_group
    wgmma.wait_group 0
    scf.yield %d : !tilus.reg<128x16xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
  }
  %gc = tilus.global_view %c[] : !tilus.ptr<f32> -> !tilus.global<128x16xf32>
  tilus.store_global %res, %gc[%c0, %c0] : !tilus.reg<128x16xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>, !tilus.global<128x16xf32>
}
