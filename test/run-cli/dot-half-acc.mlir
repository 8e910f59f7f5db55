// `tilus.dot` with an f16 or bf16 accumulator (no layouts) lowers through the SIMT dot: the
// accumulator is carried in f32 and rounded to its type after every k step, as the
// interpreter adds into the accumulator's type (before: "only an f32 accumulator and result
// are lowered"). The reference accumulates in f32 and rounds once, within f16 / bf16
// tolerance of it.
//
// RUN: tilus-run %s --kernel half_acc | FileCheck %s --implicit-check-not=MISMATCH
// CHECK: check c vs reference @half_acc_ref: ok
// CHECK: check r vs reference @half_acc_ref: ok
// RUN: tilus-run %s --kernel half_acc --dump-ptx | FileCheck %s --check-prefix=PTX
// PTX:      fma.rn.f32 [[S:%f[0-9]+]],
// PTX-NEXT: cvt.rn.f16.f32 [[H:%h[0-9]+]], [[S]];
// PTX-NEXT: cvt.f32.f16 %f{{[0-9]+}}, [[H]];
// PTX:      cvt.rn.bf16.f32 [[B:%[a-z]+[0-9]+]], %f{{[0-9]+}};
// PTX-NEXT: cvt.f32.bf16 %f{{[0-9]+}}, [[B]];

tilus.kernel @half_acc(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %p: !tilus.ptr<bf16>, %q: !tilus.ptr<bf16>, %r: !tilus.ptr<bf16>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["c", "r"], tilus.reference = "half_acc_ref"} {
  %c0 = arith.constant 0 : i32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<32x64xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gp = tilus.global_view %p : !tilus.ptr<bf16> -> !tilus.global<16x16xbf16>
  %gq = tilus.global_view %q : !tilus.ptr<bf16> -> !tilus.global<16x8xbf16>
  %gr = tilus.global_view %r : !tilus.ptr<bf16> -> !tilus.global<16x8xbf16>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<32x64xf16> -> !tilus.reg<32x64xf16>
  %rc = tilus.load_global %gc[%c0, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<64x64xf16>
  %d = tilus.dot %ra, %rb, %rc : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf16>) -> !tilus.reg<64x64xf16>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16>
  %rp = tilus.load_global %gp[%c0, %c0] : !tilus.global<16x16xbf16> -> !tilus.reg<16x16xbf16>
  %rq = tilus.load_global %gq[%c0, %c0] : !tilus.global<16x8xbf16> -> !tilus.reg<16x8xbf16>
  %rr = tilus.load_global %gr[%c0, %c0] : !tilus.global<16x8xbf16> -> !tilus.reg<16x8xbf16>
  %e = tilus.dot %rp, %rq, %rr : (!tilus.reg<16x16xbf16>, !tilus.reg<16x8xbf16>, !tilus.reg<16x8xbf16>) -> !tilus.reg<16x8xbf16>
  tilus.store_global %e, %gr[%c0, %c0] : !tilus.reg<16x8xbf16>, !tilus.global<16x8xbf16>
}
tilus.kernel @half_acc_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %p: !tilus.ptr<bf16>, %q: !tilus.ptr<bf16>, %r: !tilus.ptr<bf16>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["c", "r"]} {
  %c0 = arith.constant 0 : i32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<32x64xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gp = tilus.global_view %p : !tilus.ptr<bf16> -> !tilus.global<16x16xbf16>
  %gq = tilus.global_view %q : !tilus.ptr<bf16> -> !tilus.global<16x8xbf16>
  %gr = tilus.global_view %r : !tilus.ptr<bf16> -> !tilus.global<16x8xbf16>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<32x64xf16> -> !tilus.reg<32x64xf16>
  %rc = tilus.load_global %gc[%c0, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<64x64xf16>
  %fc = tilus.cast %rc : !tilus.reg<64x64xf16> to !tilus.reg<64x64xf32>
  %d = tilus.dot %ra, %rb, %fc : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  %dh = tilus.cast %d : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
  tilus.store_global %dh, %gc[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16>
  %rp = tilus.load_global %gp[%c0, %c0] : !tilus.global<16x16xbf16> -> !tilus.reg<16x16xbf16>
  %rq = tilus.load_global %gq[%c0, %c0] : !tilus.global<16x8xbf16> -> !tilus.reg<16x8xbf16>
  %rr = tilus.load_global %gr[%c0, %c0] : !tilus.global<16x8xbf16> -> !tilus.reg<16x8xbf16>
  %fr = tilus.cast %rr : !tilus.reg<16x8xbf16> to !tilus.reg<16x8xf32>
  %e = tilus.dot %rp, %rq, %fr : (!tilus.reg<16x16xbf16>, !tilus.reg<16x8xbf16>, !tilus.reg<16x8xf32>) -> !tilus.reg<16x8xf32>
  %eh = tilus.cast %e : !tilus.reg<16x8xf32> to !tilus.reg<16x8xbf16>
  tilus.store_global %eh, %gr[%c0, %c0] : !tilus.reg<16x8xbf16>, !tilus.global<16x8xbf16>
}
