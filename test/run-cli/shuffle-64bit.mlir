// 64-bit values (f64, i64) cross lanes as their two 32-bit halves (`mov.b64 {lo, hi}`, two
// `shfl.sync`, `mov.b64` back): the butterfly steps of a row reduction of f64 and the
// shuffles of an i64 tile (before: "shuffles of f64 are not lowered"). Without layouts; the
// references write one thread per row.
//
// RUN: tilus-run %s --kernel row_sums | FileCheck %s
// CHECK: check ra vs reference @row_sums_ref: ok
// CHECK: check rc vs reference @row_sums_ref: ok
// RUN: tilus-run %s --kernel row_sums --dump-ptx | FileCheck %s --check-prefix=PTX
// PTX:      mov.b64 {[[LO:%r[0-9]+]], [[HI:%r[0-9]+]]}, %fd{{[0-9]+}};
// PTX-NEXT: shfl.sync.bfly.b32 [[SLO:%r[0-9]+]], [[LO]], 1, 0x1f, 0xffffffff;
// PTX-NEXT: shfl.sync.bfly.b32 [[SHI:%r[0-9]+]], [[HI]], 1, 0x1f, 0xffffffff;
// PTX-NEXT: mov.b64 %fd{{[0-9]+}}, {[[SLO]], [[SHI]]};
// RUN: tilus-run %s --kernel shift_i64 | FileCheck %s --check-prefix=I64
// I64: check y vs reference @shift_i64_ref: ok
// RUN: tilus-run %s --kernel shift_i64 --dump-ptx | FileCheck %s --check-prefix=I64-PTX
// I64-PTX: shfl.sync.down.b32
// I64-PTX: shfl.sync.down.b32

tilus.kernel @row_sums(%a: !tilus.ptr<f64>, %c: !tilus.ptr<i16>, %ra: !tilus.ptr<f64>, %rc: !tilus.ptr<i16>)
    warps(2) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["ra", "rc"], tilus.reference = "row_sums_ref"} {
  %c0 = arith.constant 0 : i32
  %ga = tilus.global_view %a : !tilus.ptr<f64> -> !tilus.global<4x64xf64>
  %gc = tilus.global_view %c : !tilus.ptr<i16> -> !tilus.global<4x64xi16>
  %gra = tilus.global_view %ra : !tilus.ptr<f64> -> !tilus.global<4x1xf64>
  %grc = tilus.global_view %rc : !tilus.ptr<i16> -> !tilus.global<4x1xi16>
  %ta = tilus.load_global %ga[%c0, %c0] : !tilus.global<4x64xf64> -> !tilus.reg<4x64xf64>
  %tc = tilus.load_global %gc[%c0, %c0] : !tilus.global<4x64xi16> -> !tilus.reg<4x64xi16>
  %sa = tilus.reduce sum %ta dim(1) keepdim : !tilus.reg<4x64xf64> -> !tilus.reg<4x1xf64>
  %sc = tilus.reduce sum %tc dim(1) keepdim : !tilus.reg<4x64xi16> -> !tilus.reg<4x1xi16>
  tilus.store_global %sa, %gra[%c0, %c0] : !tilus.reg<4x1xf64>, !tilus.global<4x1xf64>
  tilus.store_global %sc, %grc[%c0, %c0] : !tilus.reg<4x1xi16>, !tilus.global<4x1xi16>
}
tilus.kernel @row_sums_ref(%a: !tilus.ptr<f64>, %c: !tilus.ptr<i16>, %ra: !tilus.ptr<f64>, %rc: !tilus.ptr<i16>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["ra", "rc"]} {
  %c0 = arith.constant 0 : i32
  %ga = tilus.global_view %a : !tilus.ptr<f64> -> !tilus.global<4x64xf64>
  %gc = tilus.global_view %c : !tilus.ptr<i16> -> !tilus.global<4x64xi16>
  %gra = tilus.global_view %ra : !tilus.ptr<f64> -> !tilus.global<4x1xf64>
  %grc = tilus.global_view %rc : !tilus.ptr<i16> -> !tilus.global<4x1xi16>
  %ta = tilus.load_global %ga[%c0, %c0] : !tilus.global<4x64xf64> -> !tilus.reg<4x64xf64, layout = spatial(4, 1) * local(1, 64) * replicate(8)>
  %tc = tilus.load_global %gc[%c0, %c0] : !tilus.global<4x64xi16> -> !tilus.reg<4x64xi16, layout = spatial(4, 1) * local(1, 64) * replicate(8)>
  %sa = tilus.reduce sum %ta dim(1) keepdim : !tilus.reg<4x64xf64, layout = spatial(4, 1) * local(1, 64) * replicate(8)> -> !tilus.reg<4x1xf64>
  %sc = tilus.reduce sum %tc dim(1) keepdim : !tilus.reg<4x64xi16, layout = spatial(4, 1) * local(1, 64) * replicate(8)> -> !tilus.reg<4x1xi16>
  tilus.store_global %sa, %gra[%c0, %c0] : !tilus.reg<4x1xf64>, !tilus.global<4x1xf64>
  tilus.store_global %sc, %grc[%c0, %c0] : !tilus.reg<4x1xi16>, !tilus.global<4x1xi16>
}

tilus.kernel @shift_i64(%x: !tilus.ptr<i64>, %y: !tilus.ptr<i64>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "shift_i64_ref"} {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %gx = tilus.global_view %x : !tilus.ptr<i64> -> !tilus.global<64xi64>
  %gy = tilus.global_view %y : !tilus.ptr<i64> -> !tilus.global<64xi64>
  %v = tilus.load_global %gx[%c0] : !tilus.global<64xi64> -> !tilus.reg<64xi64>
  %d = tilus.shuffle_down %v, %c5 : !tilus.reg<64xi64>
  tilus.store_global %d, %gy[%c0] : !tilus.reg<64xi64>, !tilus.global<64xi64>
}

tilus.kernel @shift_i64_ref(%x: !tilus.ptr<i64>, %y: !tilus.ptr<i64>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %gx = tilus.global_view %x : !tilus.ptr<i64> -> !tilus.global<64xi64>
  %gy = tilus.global_view %y : !tilus.ptr<i64> -> !tilus.global<64xi64>
  %v = tilus.load_global %gx[%c0] : !tilus.global<64xi64> -> !tilus.reg<64xi64, layout = spatial(32) * local(2)>
  %d = tilus.shuffle_down %v, %c5 : !tilus.reg<64xi64, layout = spatial(32) * local(2)>
  tilus.store_global %d, %gy[%c0] : !tilus.reg<64xi64, layout = spatial(32) * local(2)>, !tilus.global<64xi64>
}
