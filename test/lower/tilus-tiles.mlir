// lower-tiles: register tensors become per-thread scalars.
// RUN: tilus-opt %s --split-input-file --plan-shared-memory --lower-tiles --canonicalize --cse | FileCheck %s

// A [2, 64] tile over 32 threads, 2 contiguous f32 per row per thread: the loop carries the
// 4 registers, the loads are ld.global.v2 on the block-uniform fast path and predicated scalar
// loads (reading 0) otherwise (the second row's address, base + the dynamic row stride, is
// made inside each branch, so no address is live across it); the row sums fold in the thread
// then over 5 lane bits; the replicated result is stored by thread 0 only.
// CHECK-LABEL: tilus.kernel @sum_rows(%x: i64, %y: i64, %n: i32)
// CHECK:         %[[T:.*]] = tilus.thread_id
// CHECK:         %[[L:.*]]:4 = scf.for %{{.*}} = %{{.*}} to %n step %{{.*}} iter_args(%[[A0:.*]] = %cst, %[[A1:.*]] = %cst, %[[A2:.*]] = %cst, %[[A3:.*]] = %cst) -> (f32, f32, f32, f32)  : i32 {
// CHECK:           %[[V:.*]]:4 = scf.if %{{.*}} -> (f32, f32, f32, f32) {
// CHECK-NEXT:        %[[R0:.*]]:2 = ptx.inst "ld.global.v2.f32" [%[[B:.*]]] : (i64) -> (f32, f32)
// CHECK-NEXT:        %[[B1:.*]] = arith.addi %[[B]], %{{.*}} : i64
// CHECK-NEXT:        %[[R1:.*]]:2 = ptx.inst "ld.global.v2.f32" [%[[B1]]] : (i64) -> (f32, f32)
// CHECK-NEXT:        scf.yield %[[R0]]#0, %[[R0]]#1, %[[R1]]#0, %[[R1]]#1
// CHECK-NEXT:      } else {
// CHECK:             ptx.asm "mov.f32 $0, 0f00000000;\0A@$2 ld.global.f32 $0, [$1];"
// CHECK:             ptx.asm "mov.f32 $0, 0f00000000;\0A@$2 ld.global.f32 $0, [$1+4];"
// CHECK:           arith.addf %[[A0]], %[[V]]#0 : f32
// CHECK:           scf.yield
// CHECK:         %[[S:.*]] = arith.addf %[[L]]#0, %[[L]]#1 : f32
// CHECK-NEXT:    %[[X:.*]] = ptx.inst "shfl.sync.bfly.b32" %[[S]], 1, 0x1f, 0xffffffff : (f32) -> f32
// CHECK-NEXT:    arith.addf %[[S]], %[[X]] : f32
// CHECK:         ptx.inst "shfl.sync.bfly.b32" %{{.*}}, 16, 0x1f, 0xffffffff
// CHECK:         %[[Z:.*]] = arith.cmpi eq, %[[T]], %c0_i32 : i32
// CHECK:         ptx.inst "st.global.v2.f32" [%y], {%{{.*}}, %{{.*}}} if %[[Z]] : (i64, f32, f32) -> ()
// CHECK:         ptx.inst "st.global.f32" [%y+4], %{{.*}} if %[[Z]]
// CHECK-NOT:     tilus.load_global
// CHECK-NOT:     tilus.global_view
tilus.kernel @sum_rows(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32) warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<f32> -> !tilus.global<2x?xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<2xf32>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<2x64xf32, layout = local(2, 1) * spatial(1, 32) * local(1, 2)>
  %acc = scf.for %k = %c0 to %n step %c64 iter_args(%a = %acc0) -> (!tilus.reg<2x64xf32, layout = local(2, 1) * spatial(1, 32) * local(1, 2)>) : i32 {
    %t = tilus.load_global %gx[%c0, %k] : !tilus.global<2x?xf32> -> !tilus.reg<2x64xf32, layout = local(2, 1) * spatial(1, 32) * local(1, 2)>
    %s = tilus.add %a, %t : (!tilus.reg<2x64xf32, layout = local(2, 1) * spatial(1, 32) * local(1, 2)>, !tilus.reg<2x64xf32, layout = local(2, 1) * spatial(1, 32) * local(1, 2)>) -> !tilus.reg<2x64xf32, layout = local(2, 1) * spatial(1, 32) * local(1, 2)>
    scf.yield %s : !tilus.reg<2x64xf32, layout = local(2, 1) * spatial(1, 32) * local(1, 2)>
  }
  %r = tilus.reduce sum %acc dim(1) : !tilus.reg<2x64xf32, layout = local(2, 1) * spatial(1, 32) * local(1, 2)> -> !tilus.reg<2xf32, layout = local(2) * replicate(32)>
  tilus.store_global %r, %gy[%c0] : !tilus.reg<2xf32, layout = local(2) * replicate(32)>, !tilus.global<2xf32>
}

// -----

// Shared memory through a 128B swizzle (element offset o -> o ^ ((o & 448) >> 3)), a cast, a
// broadcast scalar, exp as ex2.approx, and a shuffle.
// CHECK-LABEL: tilus.kernel @shared_roundtrip(%s: f32)
// CHECK:         %[[O:.*]] = arith.addi
// CHECK-NEXT:    %[[M:.*]] = arith.andi %[[O]], %c448_i32 : i32
// CHECK-NEXT:    %[[H:.*]] = arith.shrui %[[M]], %c3_i32 : i32
// CHECK-NEXT:    %[[W:.*]] = arith.xori %[[O]], %[[H]] : i32
// CHECK-NEXT:    %[[B:.*]] = arith.shli %[[W]], %c1_i32 : i32
// CHECK-NEXT:    %[[A:.*]] = arith.addi %{{.*}}, %[[B]] : i32
// Each thread's 16 f16 of a row go as two 16-byte vectors (the swizzle moves whole 16-byte
// chunks), packed into 32-bit words.
// CHECK:         ptx.inst "st.shared.v4.b32" [%[[A]]], {%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}} : (i32, i32, i32, i32, i32) -> ()
// CHECK:         threadgroup.sync
// CHECK-NEXT:    %[[LD:.*]]:4 = ptx.inst "ld.shared.v4.b32" [%[[A]]] : (i32) -> (i32, i32, i32, i32)
// CHECK-NEXT:    %[[H0:.*]]:2 = ptx.inst "mov.b32" %[[LD]]#0 : (i32) -> (f16, f16)
// CHECK:         %[[F:.*]] = arith.extf %[[H0]]#0 : f16 to f32
// CHECK:         %[[P:.*]] = arith.mulf %[[F]], %s : f32
// CHECK:         %[[Q:.*]] = arith.mulf %[[P]], %cst{{.*}} : f32
// CHECK-NEXT:    %[[E:.*]] = ptx.inst "ex2.approx.ftz.f32" %[[Q]] : (f32) -> f32
// CHECK:         ptx.inst "shfl.sync.down.b32" %[[E]], %c1_i32, 0x1f, 0xffffffff : (f32, i32) -> f32
// CHECK-NOT:     tilus.shared_tensor
// CHECK-NOT:     tilus.free_shared
tilus.kernel @shared_roundtrip(%s: f32) warps(1) blocks(affine_map<(d0) -> (1)>) {
  %c1 = arith.constant 1 : i32
  %buf = tilus.shared_tensor : !tilus.shared<8x64xf16, swizzle = 128B>
  %h = arith.constant 1.0 : f16
  %t = tilus.register_tensor init(%h : f16) : !tilus.reg<8x64xf16, layout = spatial(8, 4) * local(1, 16)>
  tilus.store_shared %t, %buf : !tilus.reg<8x64xf16, layout = spatial(8, 4) * local(1, 16)>, !tilus.shared<8x64xf16, swizzle = 128B>
  threadgroup.sync
  %u = tilus.load_shared %buf : !tilus.shared<8x64xf16, swizzle = 128B> -> !tilus.reg<8x64xf16, layout = spatial(8, 4) * local(1, 16)>
  %f = tilus.cast %u : !tilus.reg<8x64xf16, layout = spatial(8, 4) * local(1, 16)> to !tilus.reg<8x64xf32, layout = spatial(8, 4) * local(1, 16)>
  %sc = tilus.register_tensor init(%s : f32) : !tilus.reg<1xf32>
  %e = tilus.mul %f, %sc : (!tilus.reg<8x64xf32, layout = spatial(8, 4) * local(1, 16)>, !tilus.reg<1xf32>) -> !tilus.reg<8x64xf32, layout = spatial(8, 4) * local(1, 16)>
  %x = tilus.exp %e : !tilus.reg<8x64xf32, layout = spatial(8, 4) * local(1, 16)>
  %y = tilus.shuffle_down %x, %c1 : !tilus.reg<8x64xf32, layout = spatial(8, 4) * local(1, 16)>
  tilus.free_shared %buf : !tilus.shared<8x64xf16, swizzle = 128B>
}

// -----

// A layout.convert that moves data across threads goes through the shared scratch (after the
// planned tensors) with a barrier on each side; tilus.smem_bytes covers the scratch, whose
// rows are padded by 16 bytes (64 x 68 f32). Each thread's row of 64 registers is 16 vector
// stores.
// CHECK:       ptx.shared_decl @smem align 1024
// CHECK-LABEL: tilus.kernel @convert
// CHECK-SAME:    tilus.smem_bytes = 17408 : i64
// CHECK-COUNT-16: ptx.inst "st.shared.v4.f32"
// CHECK-NEXT:    threadgroup.sync
// CHECK:         ptx.inst "ld.shared.f32"
// CHECK:         threadgroup.sync
tilus.kernel @convert(%p: !tilus.ptr<f32>) warps(2) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %g = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %a = tilus.load_global %g[%c0, %c0] : !tilus.global<64x64xf32> -> !tilus.reg<64x64xf32, layout = spatial(64, 1) * local(1, 64)>
  %b = layout.convert %a : !tilus.reg<64x64xf32, layout = spatial(64, 1) * local(1, 64)> to !tilus.reg<64x64xf32, layout = local(64, 1) * spatial(1, 64)>
  tilus.store_global %b, %g[%c0, %c0] : !tilus.reg<64x64xf32, layout = local(64, 1) * spatial(1, 64)>, !tilus.global<64x64xf32>
}
