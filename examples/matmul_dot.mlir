// A tiled matmul with `tilus.dot` on the tensor cores: C[M, N] = A[M, K] . B[N, K]^T, f16
// in, f32 accumulate, f16 out; A and B are K-major (row-major A, B stored [N, K]: cuBLAS's
// `A . B^T`, which `tilus-run --bench --compare cublas` times beside it). B is read through a
// transposed view `[K, N]` of strides `[1, K]`, so the dot sees `[M, K] x [K, N]`.
//
// 8 warps per block, a 128 x 128 block tile, K in steps of 32. Before the dot of the current
// K tile the block already loads the next one into registers (double buffering through
// registers, the way Triton writes it); past the end of K those loads read zeros and are
// never used. No shared memory, TMA or barrier is written: `tilus.dot` lowers to mma.sync and
// brings its operands through shared memory itself (docs/design/lowering.md).
//
// Two layouts are written out, the ones `infer-layouts` is to choose (test/run/matmul_dot_no_layouts.mlir
// is this kernel without any, checked on the interpreter):
//   * the accumulator carried by the loop: the mma.sync fragment of `dot_layouts(128, 128, 32,
//     f16, f32, 8 warps)` (dialects/src/layout_mma.rs), so the dot reads and writes the loop's
//     registers in place: spatial(4, 2) * local(2, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2);
//   * the B tile, read through the transposed view: 16-byte vectors along K, the contiguous
//     dimension in memory (the default layout would put them along N, 2-byte loads):
//     local(1, 2) * column_spatial(4, 64) * local(8, 1).
//
// Check: tilus-opt examples/matmul_dot.mlir
// RUN: tilus-opt %s | FileCheck %s
//
// It lowers to mma.sync fed by ldmatrix (no SIMT fma); test/lower/ptxas-matmul-dot.mlir
// assembles it with ptxas -v and checks there are no spills:
// RUN: tilus-run %s --dump-ptx > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
// PTX: ld.global.v4.b32
// PTX: st.shared.v4.b32
// PTX: bar.sync
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
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
// CHECK:         scf.for
// CHECK:           tilus.load_global
// CHECK:           tilus.load_global
// CHECK:           tilus.dot
tilus.kernel @matmul_dot(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(8) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 128, d4 ceildiv 128)>)
    attributes {tilus.args = {m = 256 : i32, n = 256 : i32, k = 128 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant 0.0 : f32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %om = arith.muli %bx, %c128 : i32
  %on = arith.muli %by, %c128 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%k, %n] strides[%k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [1, ?]>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x128xf32, layout = spatial(4, 2) * local(2, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
  %a0 = tilus.load_global %ga[%om, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<128x32xf16>
  %b0 = tilus.load_global %gb[%c0, %on] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<32x128xf16, layout = local(1, 2) * column_spatial(4, 64) * local(8, 1)>
  %res:3 = scf.for %kk = %c0 to %k step %c32 iter_args(%acc = %acc0, %ra = %a0, %rb = %b0) -> (!tilus.reg<128x128xf32, layout = spatial(4, 2) * local(2, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>, !tilus.reg<128x32xf16>, !tilus.reg<32x128xf16, layout = local(1, 2) * column_spatial(4, 64) * local(8, 1)>) : i32 {
    %kn = arith.addi %kk, %c32 : i32
    %na = tilus.load_global %ga[%om, %kn] : !tilus.global<?x?xf16> -> !tilus.reg<128x32xf16>
    %nb = tilus.load_global %gb[%kn, %on] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<32x128xf16, layout = local(1, 2) * column_spatial(4, 64) * local(8, 1)>
    %d = tilus.dot %ra, %rb, %acc : (!tilus.reg<128x32xf16>, !tilus.reg<32x128xf16, layout = local(1, 2) * column_spatial(4, 64) * local(8, 1)>, !tilus.reg<128x128xf32, layout = spatial(4, 2) * local(2, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>) -> !tilus.reg<128x128xf32, layout = spatial(4, 2) * local(2, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
    scf.yield %d, %na, %nb : !tilus.reg<128x128xf32, layout = spatial(4, 2) * local(2, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>, !tilus.reg<128x32xf16>, !tilus.reg<32x128xf16, layout = local(1, 2) * column_spatial(4, 64) * local(8, 1)>
  }
  %out = tilus.cast %res#0 : !tilus.reg<128x128xf32, layout = spatial(4, 2) * local(2, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)> to !tilus.reg<128x128xf16>
  tilus.store_global %out, %gc[%om, %on] : !tilus.reg<128x128xf16>, !tilus.global<?x?xf16>
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
