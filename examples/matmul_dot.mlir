// A tiled matmul with `tilus.dot` on the tensor cores, written without any layout, shared
// memory, TMA, barrier or hand-written pipeline: C[M, N] = A[M, K] . B[N, K]^T, f16 in, f32
// accumulate, f16 out; A and B are K-major (row-major A, B stored [N, K]: cuBLAS's `A . B^T`,
// which `tilus-run --bench --compare cublas` times beside it). B is read through a transposed
// view `[K, N]` of strides `[1, K]`, so the dot sees `[M, K] x [K, N]`.
//
// 8 warps (two warpgroups) per block, a 128 x 256 block tile, K in steps of 64. Before the dot
// of the current K tile the block already loads the next one into registers (double buffering
// through registers, the way Triton writes it); past the end of K those loads read zeros and
// are never used.
//
// What the compiler makes of it on sm_90a (the default target; docs/design/lowering.md,
// "tilus.dot"): `infer-layouts` gives the loads 16-byte vectors along K and the accumulator
// the wgmma fragment (warpgroup g owns rows 64g..), and `lower-tiles` lowers the dot to
// `wgmma.mma_async.m64n256k16` (4 per warpgroup and K tile) reading A and B from a swizzled
// K-major shared buffer the registers of the previous iteration's loads are stored into; the
// loop cycles through three such buffers and leaves one group of MMAs in flight per iteration,
// so the MMAs overlap the next stores and the loads overlap both. On sm_80
// (`tilus-to-ptx{target=sm_80}`) the same kernel takes mma.sync fed by ldmatrix.
//
// Check: tilus-opt examples/matmul_dot.mlir
// RUN: tilus-opt %s | FileCheck %s
//
// test/lower/ptxas-matmul-dot.mlir assembles it with ptxas -v and checks there are no spills:
// RUN: tilus-run %s --dump-ptx > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
// PTX: ld.global.v4.b32
// PTX: st.shared.v4.b32
// PTX: fence.proxy.async.shared::cta;
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// PTX: wgmma.wait_group.sync.aligned 1;
// PTX-NOT: fma.rn.f32
// PTX-NOT: ld.local
//
// On the interpreter, against the naive reference (edges on M, N and K too):
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg m=200 --arg n=136 --arg k=80 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok
//
// On an H100: the GPU against the interpreter, then timed beside cuBLAS at 4096^3:
//   tilus-run examples/matmul_dot.mlir --backend cuda --compare-backends --arg m=512 --arg n=384 --arg k=256
//   tilus-run examples/matmul_dot.mlir --kernel matmul_dot --backend cuda --bench --compare cublas --arg m=4096 --arg n=4096 --arg k=4096 --flops 137438953472

// CHECK-LABEL: tilus.kernel @matmul_dot
// CHECK-NOT:     layout =
// CHECK:         scf.for
// CHECK:           tilus.load_global
// CHECK:           tilus.load_global
// CHECK:           tilus.dot
tilus.kernel @matmul_dot(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(8) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 128, d4 ceildiv 256)>)
    attributes {tilus.args = {m = 256 : i32, n = 256 : i32, k = 128 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c256 = arith.constant 256 : i32
  %zero = arith.constant 0.0 : f32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %om = arith.muli %bx, %c128 : i32
  %on = arith.muli %by, %c256 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%k, %n] strides[%k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [1, ?]>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x256xf32>
  %a0 = tilus.load_global %ga[%om, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<128x64xf16>
  %b0 = tilus.load_global %gb[%c0, %on] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<64x256xf16>
  %res:3 = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %acc0, %ra = %a0, %rb = %b0) -> (!tilus.reg<128x256xf32>, !tilus.reg<128x64xf16>, !tilus.reg<64x256xf16>) : i32 {
    %kn = arith.addi %kk, %c64 : i32
    %na = tilus.load_global %ga[%om, %kn] : !tilus.global<?x?xf16> -> !tilus.reg<128x64xf16>
    %nb = tilus.load_global %gb[%kn, %on] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<64x256xf16>
    %d = tilus.dot %ra, %rb, %acc : (!tilus.reg<128x64xf16>, !tilus.reg<64x256xf16>, !tilus.reg<128x256xf32>) -> !tilus.reg<128x256xf32>
    scf.yield %d, %na, %nb : !tilus.reg<128x256xf32>, !tilus.reg<128x64xf16>, !tilus.reg<64x256xf16>
  }
  %out = tilus.cast %res#0 : !tilus.reg<128x256xf32> to !tilus.reg<128x256xf16>
  tilus.store_global %out, %gc[%om, %on] : !tilus.reg<128x256xf16>, !tilus.global<?x?xf16>
}

// The naive reference `tilus-run` compares C with: one 64 x 64 tile per block, no
// prefetch.
tilus.kernel @matmul_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 64, d4 ceildiv 64)>) {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %om = arith.muli %bx, %c64 : i32
  %on = arith.muli %by, %c64 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%k, %n] strides[%k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [1, ?]>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %acc = scf.for %kk = %c0 to %k step %c16 iter_args(%acc_i = %acc0) -> (!tilus.reg<64x64xf32>) : i32 {
    %ra = tilus.load_global %ga[%om, %kk] : !tilus.global<?x?xf16> -> !tilus.reg<64x16xf16>
    %rb = tilus.load_global %gb[%kk, %on] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<16x64xf16>
    %d = tilus.dot %ra, %rb, %acc_i : (!tilus.reg<64x16xf16>, !tilus.reg<16x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
    scf.yield %d : !tilus.reg<64x64xf32>
  }
  %out = tilus.cast %acc : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
  tilus.store_global %out, %gc[%om, %on] : !tilus.reg<64x64xf16>, !tilus.global<?x?xf16>
}
