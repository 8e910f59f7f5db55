// A smaller examples/matmul_dot.mlir (128 x 128 block tile, K steps of 32), written without any
// layout as a user would: it verifies and runs on the interpreter, and `infer-layouts` chooses
// every layout when it lowers. On
// sm_90a (the default target) the 8 warps are two warpgroups and the dot lowers to wgmma
// (passes/src/lower/wgmma_dot.rs): the accumulator is carried in the wgmma fragment, A and B
// are stored from the registers of the previous iteration's loads into a swizzled K-major
// buffer (three, used in turn, with one group of MMAs left in flight per iteration).
//
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg m=200 --arg n=136 --arg k=80 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok
// RUN: tilus-run %s --dump-ptx | FileCheck %s --check-prefix=PTX
// PTX:       ld.global.v4.b32
// PTX:       st.shared.v4.b32
// PTX:       fence.proxy.async.shared::cta;
// PTX-NEXT:  bar.sync 0;
// PTX-NEXT:  wgmma.fence.sync.aligned;
// PTX-COUNT-2: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// PTX:       wgmma.commit_group.sync.aligned;
// PTX-NEXT:  wgmma.wait_group.sync.aligned 1;
// PTX:       wgmma.wait_group.sync.aligned 0;
// PTX-NEXT:  fence.acq_rel.cta;
// PTX-NEXT:  bar.sync 0;
// PTX-NOT:   mma.sync
// On sm_80 the same kernel takes mma.sync:
// RUN: tilus-run %s --lowering 'builtin.module(tilus-to-ptx{target=sm_80})' --dump-ptx | FileCheck %s --check-prefix=SM80
// SM80: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// SM80: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SM80-NOT: wgmma

// CHECK-LABEL: tilus.kernel @matmul_dot
// CHECK-NOT:     layout =
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
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x128xf32>
  %a0 = tilus.load_global %ga[%om, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<128x32xf16>
  %b0 = tilus.load_global %gb[%c0, %on] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<32x128xf16>
  %res:3 = scf.for %kk = %c0 to %k step %c32 iter_args(%acc = %acc0, %ra = %a0, %rb = %b0) -> (!tilus.reg<128x128xf32>, !tilus.reg<128x32xf16>, !tilus.reg<32x128xf16>) : i32 {
    %kn = arith.addi %kk, %c32 : i32
    %na = tilus.load_global %ga[%om, %kn] : !tilus.global<?x?xf16> -> !tilus.reg<128x32xf16>
    %nb = tilus.load_global %gb[%kn, %on] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<32x128xf16>
    %d = tilus.dot %ra, %rb, %acc : (!tilus.reg<128x32xf16>, !tilus.reg<32x128xf16>, !tilus.reg<128x128xf32>) -> !tilus.reg<128x128xf32>
    scf.yield %d, %na, %nb : !tilus.reg<128x128xf32>, !tilus.reg<128x32xf16>, !tilus.reg<32x128xf16>
  }
  %out = tilus.cast %res#0 : !tilus.reg<128x128xf32> to !tilus.reg<128x128xf16>
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
