// lower-tiles: tilus.dot on the tensor cores (passes/src/lower/mma.rs). Operands in any
// layout are stored into the shared scratch, loaded per warp with ldmatrix, and multiplied with
// mma.sync; the accumulator stays in the mma fragment. Shapes or types mma.sync has no
// instruction for keep the SIMT fma loop. The target is sm_80: on sm_90a the dots that whole
// warpgroups can compute lower to wgmma instead (test/lower/tilus-tiles-dot-wgmma.mlir).
// RUN: tilus-opt %s --split-input-file --pass-pipeline='builtin.module(plan-shared-memory,lower-tiles{target=sm_80},canonicalize,cse)' | FileCheck %s

// f16 x f16 + f32 over 4 warps (a 2 x 2 warp grid of 32 x 32 tiles): per warp and K step of 16,
// two A ldmatrix.x4 (16 rows x 32 bytes each), one B ldmatrix.x4.trans (two n8 fragments of the
// [K][N] scratch, B's registers running along N), four mma.sync.
// CHECK-LABEL: tilus.kernel @dot_f16
// CHECK:         ptx.inst "st.shared.v4.b32"
// CHECK:         threadgroup.sync
// CHECK-COUNT-2: ptx.inst "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
// CHECK:         ptx.inst "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"
// CHECK-COUNT-4: ptx.inst "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" {%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}}, {%{{.*}}, %{{.*}}}, {%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}} : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> (f32, f32, f32, f32)
// CHECK:         threadgroup.sync
// CHECK-NOT:     fma.rn.f32
tilus.kernel @dot_f16(%p: !tilus.ptr<f16>, %q: !tilus.ptr<f32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %p[%c64, %c64] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %q[%c64, %c64] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %a = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<64x16xf16>
  %b = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<16x64xf16>
  %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %d = tilus.dot %a, %b, %acc : (!tilus.reg<64x16xf16>, !tilus.reg<16x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<?x?xf32>
}

// -----

// bf16 with one warp: a 16 x 8 tile is one instruction; B is a lone n8 fragment (x2).
// CHECK-LABEL: tilus.kernel @dot_bf16
// CHECK:         ptx.inst "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
// CHECK:         ptx.inst "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16"
// CHECK:         ptx.inst "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
tilus.kernel @dot_bf16(%p: !tilus.ptr<bf16>, %q: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %p[%c64, %c64] : !tilus.ptr<bf16> -> !tilus.global<?x?xbf16>
  %gc = tilus.global_view %q[%c64, %c64] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %a = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xbf16> -> !tilus.reg<16x16xbf16>
  %b = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xbf16> -> !tilus.reg<16x8xbf16>
  %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<16x8xf32>
  %d = tilus.dot %a, %b, %acc : (!tilus.reg<16x16xbf16>, !tilus.reg<16x8xbf16>, !tilus.reg<16x8xf32>) -> !tilus.reg<16x8xf32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<16x8xf32>, !tilus.global<?x?xf32>
}

// -----

// tf32: m16n8k8; B goes to an [N][K] scratch (ldmatrix transposes only 16-bit elements), so
// both operands load without .trans.
// CHECK-LABEL: tilus.kernel @dot_tf32
// CHECK:         ptx.inst "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
// CHECK:         ptx.inst "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
// CHECK:         ptx.inst "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"
// CHECK-NOT:     trans
tilus.kernel @dot_tf32(%p: !tilus.ptr<tf32>, %q: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %p[%c64, %c64] : !tilus.ptr<tf32> -> !tilus.global<?x?xtf32>
  %gc = tilus.global_view %q[%c64, %c64] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %a = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xtf32> -> !tilus.reg<16x8xtf32>
  %b = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xtf32> -> !tilus.reg<8x16xtf32>
  %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<16x16xf32>
  %d = tilus.dot %a, %b, %acc : (!tilus.reg<16x8xtf32>, !tilus.reg<8x16xtf32>, !tilus.reg<16x16xf32>) -> !tilus.reg<16x16xf32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<16x16xf32>, !tilus.global<?x?xf32>
}

// -----

// int8 with an i32 accumulator: m16n8k32 (saturating), bytes stored one by one.
// CHECK-LABEL: tilus.kernel @dot_i8
// CHECK:         ptx.inst "st.shared.s8"
// CHECK:         ptx.inst "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32" {{.*}} -> (i32, i32, i32, i32)
tilus.kernel @dot_i8(%p: !tilus.ptr<i8>, %q: !tilus.ptr<i32>) warps(1) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0 : i32
  %ga = tilus.global_view %p[%c64, %c64] : !tilus.ptr<i8> -> !tilus.global<?x?xi8>
  %gc = tilus.global_view %q[%c64, %c64] : !tilus.ptr<i32> -> !tilus.global<?x?xi32>
  %a = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xi8> -> !tilus.reg<16x32xi8>
  %b = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xi8> -> !tilus.reg<32x8xi8>
  %acc = tilus.register_tensor init(%zero : i32) : !tilus.reg<16x8xi32>
  %d = tilus.dot %a, %b, %acc : (!tilus.reg<16x32xi8>, !tilus.reg<32x8xi8>, !tilus.reg<16x8xi32>) -> !tilus.reg<16x8xi32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<16x8xi32>, !tilus.global<?x?xi32>
}

// -----

// Operands already in their fragments (the layouts of dot_layouts(16, 8, 16, f16, f32, 1)):
// no shared memory, no sync; 16-bit pairs are packed with mov.b32.
// CHECK-LABEL: tilus.kernel @dot_direct
// CHECK-NOT:     ldmatrix
// CHECK-NOT:     threadgroup.sync
// CHECK:         ptx.inst "mov.b32" {%{{.*}}, %{{.*}}}
// CHECK:         ptx.inst "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
tilus.kernel @dot_direct(%x: f16, %q: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant 0.0 : f32
  %gc = tilus.global_view %q[%c16, %c16] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %a = tilus.register_tensor init(%x : f16) : !tilus.reg<16x16xf16, layout = column_local(2, 2) * spatial(8, 4) * local(1, 2)>
  %b = tilus.register_tensor init(%x : f16) : !tilus.reg<16x8xf16, layout = local(2, 1) * column_spatial(4, 8) * local(2, 1)>
  %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<16x8xf32>
  %d = tilus.dot %a, %b, %acc : (!tilus.reg<16x16xf16, layout = column_local(2, 2) * spatial(8, 4) * local(1, 2)>, !tilus.reg<16x8xf16, layout = local(2, 1) * column_spatial(4, 8) * local(2, 1)>, !tilus.reg<16x8xf32>) -> !tilus.reg<16x8xf32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<16x8xf32>, !tilus.global<?x?xf32>
}

// -----

// A K that is not a multiple of the instruction's: the SIMT loop.
// CHECK-LABEL: tilus.kernel @dot_simt
// CHECK-NOT:     mma.sync
// CHECK:         fma.rn.f32
tilus.kernel @dot_simt(%p: !tilus.ptr<f16>, %q: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %p[%c64, %c64] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %q[%c64, %c64] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %a = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<16x24xf16>
  %b = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<24x8xf16>
  %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<16x8xf32>
  %d = tilus.dot %a, %b, %acc : (!tilus.reg<16x24xf16>, !tilus.reg<24x8xf16>, !tilus.reg<16x8xf32>) -> !tilus.reg<16x8xf32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<16x8xf32>, !tilus.global<?x?xf32>
}
