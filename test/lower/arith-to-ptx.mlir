// convert-arith-to-ptx: each scalar arith op becomes the PTX instruction computing it.
// RUN: tilus-opt %s --convert-arith-to-ptx | FileCheck %s

// CHECK-LABEL: func.func @ints
func.func @ints(%a: i32, %b: i32, %la: i64, %lb: i64, %s: i16) -> (i32, i64, i16) {
  // CHECK-NEXT: %[[C:.*]] = ptx.inst "mov.b32" -7 : () -> i32
  %c = arith.constant -7 : i32
  // CHECK-NEXT: %[[V0:.*]] = ptx.inst "add.s32" %arg0, %[[C]] : (i32, i32) -> i32
  %0 = arith.addi %a, %c : i32
  // CHECK-NEXT: ptx.inst "sub.s32"
  %1 = arith.subi %0, %b : i32
  // CHECK-NEXT: ptx.inst "mul.lo.s32"
  %2 = arith.muli %1, %b : i32
  // CHECK-NEXT: ptx.inst "div.s32"
  %3 = arith.divsi %2, %b : i32
  // CHECK-NEXT: ptx.inst "div.u32"
  %4 = arith.divui %3, %b : i32
  // CHECK-NEXT: ptx.inst "rem.s32"
  %5 = arith.remsi %4, %b : i32
  // CHECK-NEXT: ptx.inst "rem.u32"
  %6 = arith.remui %5, %b : i32
  // CHECK-NEXT: ptx.inst "and.b32"
  %7 = arith.andi %6, %b : i32
  // CHECK-NEXT: ptx.inst "or.b32"
  %8 = arith.ori %7, %b : i32
  // CHECK-NEXT: ptx.inst "xor.b32"
  %9 = arith.xori %8, %b : i32
  // CHECK-NEXT: ptx.inst "shl.b32"
  %10 = arith.shli %9, %b : i32
  // CHECK-NEXT: ptx.inst "shr.s32"
  %11 = arith.shrsi %10, %b : i32
  // CHECK-NEXT: ptx.inst "shr.u32"
  %12 = arith.shrui %11, %b : i32
  // CHECK-NEXT: ptx.inst "max.s32"
  %13 = arith.maxsi %12, %b : i32
  // CHECK-NEXT: ptx.inst "min.u32"
  %14 = arith.minui %13, %b : i32
  // The shift amount of a 64-bit shift is a u32.
  // CHECK-NEXT: %[[AMT:.*]] = ptx.inst "cvt.u32.u64" %arg3 : (i64) -> i32
  // CHECK-NEXT: ptx.inst "shl.b64" %arg2, %[[AMT]] : (i64, i32) -> i64
  %l0 = arith.shli %la, %lb : i64
  // CHECK-NEXT: ptx.inst "mul.lo.s64"
  %l1 = arith.muli %l0, %lb : i64
  // A constant amount is a 32-bit constant (an immediate once emitted), not a cvt of one.
  // CHECK-NEXT: %[[C3:.*]] = ptx.inst "mov.b64" 3 : () -> i64
  // CHECK-NEXT: %[[A3:.*]] = ptx.inst "mov.b32" 3 : () -> i32
  // CHECK-NEXT: ptx.inst "shr.u64" %{{.*}}, %[[A3]] : (i64, i32) -> i64
  %c3 = arith.constant 3 : i64
  %l2 = arith.shrui %l1, %c3 : i64
  // CHECK-NEXT: ptx.inst "add.s16"
  %s0 = arith.addi %s, %s : i16
  return %14, %l2, %s0 : i32, i64, i16
}

// CHECK-LABEL: func.func @floats
func.func @floats(%x: f32, %y: f32, %h: f16, %b: bf16, %d: f64) -> (f32, f16, bf16, f64) {
  // CHECK-NEXT: ptx.inst "mov.f32" 0f3FC00000 : () -> f32
  %c = arith.constant 1.5 : f32
  // CHECK-NEXT: ptx.inst "add.rn.f32"
  %0 = arith.addf %x, %c : f32
  // Contraction allowed: no .rn, ptxas may fuse.
  // CHECK-NEXT: ptx.inst "mul.f32"
  %1 = arith.mulf %0, %y fastmath<contract> : f32
  // CHECK-NEXT: ptx.inst "sub.rn.f32"
  %2 = arith.subf %1, %y : f32
  // CHECK-NEXT: ptx.inst "div.rn.f32"
  %3 = arith.divf %2, %y : f32
  // CHECK-NEXT: ptx.inst "max.NaN.f32"
  %4 = arith.maximumf %3, %y : f32
  // CHECK-NEXT: ptx.inst "min.NaN.f32"
  %5 = arith.minimumf %4, %y : f32
  // CHECK-NEXT: ptx.inst "neg.f32"
  %6 = arith.negf %5 : f32
  // CHECK-NEXT: ptx.inst "mov.b16" 0x3C00 : () -> f16
  %ch = arith.constant 1.0 : f16
  // CHECK-NEXT: ptx.inst "add.rn.f16"
  %h0 = arith.addf %h, %ch : f16
  // Half division goes through f32.
  // CHECK-NEXT: %[[HX:.*]] = ptx.inst "cvt.f32.f16" %{{.*}} : (f16) -> f32
  // CHECK-NEXT: %[[HY:.*]] = ptx.inst "cvt.f32.f16" %arg2 : (f16) -> f32
  // CHECK-NEXT: %[[Q:.*]] = ptx.inst "div.rn.f32" %[[HX]], %[[HY]] : (f32, f32) -> f32
  // CHECK-NEXT: ptx.inst "cvt.rn.f16.f32" %[[Q]] : (f32) -> f16
  %h1 = arith.divf %h0, %h : f16
  // CHECK-NEXT: ptx.inst "max.NaN.bf16"
  %b0 = arith.maximumf %b, %b : bf16
  // CHECK-NEXT: ptx.inst "mov.f64" 0d4004000000000000 : () -> f64
  %cd = arith.constant 2.5 : f64
  // CHECK-NEXT: ptx.inst "mul.rn.f64"
  %d0 = arith.mulf %d, %cd : f64
  // CHECK-NEXT: ptx.inst "max.f64"
  %d1 = arith.maximumf %d0, %d : f64
  return %6, %h1, %b0, %d1 : f32, f16, bf16, f64
}

// CHECK-LABEL: func.func @compare_select
func.func @compare_select(%a: i32, %b: i32, %x: f32, %y: f32, %la: i64) -> (i32, f32, i1) {
  // CHECK-NEXT: %[[P0:.*]] = ptx.inst "setp.lt.s32" %arg0, %arg1 : (i32, i32) -> i1
  %p0 = arith.cmpi slt, %a, %b : i32
  // CHECK-NEXT: ptx.inst "setp.ge.u32"
  %p1 = arith.cmpi uge, %a, %b : i32
  // CHECK-NEXT: ptx.inst "setp.ne.s64"
  %p2 = arith.cmpi ne, %la, %la : i64
  // CHECK-NEXT: ptx.inst "setp.lt.f32"
  %p3 = arith.cmpf olt, %x, %y : f32
  // CHECK-NEXT: ptx.inst "setp.neu.f32"
  %p4 = arith.cmpf une, %x, %y : f32
  // CHECK-NEXT: ptx.inst "setp.nan.f32"
  %p5 = arith.cmpf uno, %x, %y : f32
  // CHECK-NEXT: ptx.inst "setp.ne.u32" 1, 0 : () -> i1
  %t = arith.constant true
  // CHECK-NEXT: ptx.inst "and.pred"
  %p6 = arith.andi %p0, %p1 : i1
  // CHECK-NEXT: ptx.inst "or.pred"
  %p7 = arith.ori %p6, %p2 : i1
  // CHECK-NEXT: ptx.inst "xor.pred"
  %p8 = arith.xori %p7, %t : i1
  // CHECK-NEXT: %[[S:.*]] = ptx.inst "selp.b32" %arg0, %arg1, %[[P0]] : (i32, i32, i1) -> i32
  %s = arith.select %p0, %a, %b : i32
  // CHECK-NEXT: ptx.inst "selp.f32"
  %sf = arith.select %p3, %x, %y : f32
  // An i1 select is predicate logic.
  // CHECK-NEXT: ptx.inst "and.pred"
  // CHECK-NEXT: ptx.inst "not.pred"
  // CHECK-NEXT: ptx.inst "and.pred"
  // CHECK-NEXT: ptx.inst "or.pred"
  %sp = arith.select %p4, %p8, %p5 : i1
  return %s, %sf, %sp : i32, f32, i1
}

// CHECK-LABEL: func.func @casts
func.func @casts(%a: i32, %l: i64, %p: i1, %x: f32, %h: f16, %i: index) -> (i64, i64, i32, i32, i1, index, i64, f32, f32, i32, i64, f16, bf16, f32, f64, i32, i16) {
  // CHECK-NEXT: ptx.inst "cvt.s64.s32"
  %0 = arith.extsi %a : i32 to i64
  // CHECK-NEXT: ptx.inst "cvt.u64.u32"
  %1 = arith.extui %a : i32 to i64
  // CHECK-NEXT: ptx.inst "cvt.u32.u64"
  %2 = arith.trunci %l : i64 to i32
  // CHECK-NEXT: ptx.inst "selp.s32" -1, 0, %arg2 : (i1) -> i32
  %3 = arith.extsi %p : i1 to i32
  // CHECK-NEXT: %[[BIT:.*]] = ptx.inst "and.b32" %arg0, 1 : (i32) -> i32
  // CHECK-NEXT: ptx.inst "setp.ne.b32" %[[BIT]], 0 : (i32) -> i1
  %4 = arith.trunci %a : i32 to i1
  // CHECK-NEXT: ptx.inst "cvt.s64.s32" %arg0 : (i32) -> index
  %5 = arith.index_cast %a : i32 to index
  // CHECK-NEXT: ptx.inst "mov.b64" %arg5 : (index) -> i64
  %6 = arith.index_cast %i : index to i64
  // CHECK-NEXT: ptx.inst "cvt.rn.f32.s32"
  %7 = arith.sitofp %a : i32 to f32
  // CHECK-NEXT: ptx.inst "cvt.rn.f32.u64"
  %8 = arith.uitofp %l : i64 to f32
  // CHECK-NEXT: ptx.inst "cvt.rzi.s32.f32"
  %9 = arith.fptosi %x : f32 to i32
  // CHECK-NEXT: ptx.inst "cvt.rzi.u64.f32"
  %10 = arith.fptoui %x : f32 to i64
  // CHECK-NEXT: ptx.inst "cvt.rn.f16.f32"
  %11 = arith.truncf %x : f32 to f16
  // CHECK-NEXT: ptx.inst "cvt.rn.bf16.f32"
  %12 = arith.truncf %x : f32 to bf16
  // CHECK-NEXT: ptx.inst "cvt.f32.f16"
  %13 = arith.extf %h : f16 to f32
  // CHECK-NEXT: ptx.inst "cvt.f64.f32"
  %14 = arith.extf %x : f32 to f64
  // CHECK-NEXT: ptx.inst "mov.b32" %arg3 : (f32) -> i32
  %15 = arith.bitcast %x : f32 to i32
  // CHECK-NEXT: ptx.inst "mov.b16" %arg4 : (f16) -> i16
  %16 = arith.bitcast %h : f16 to i16
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16 : i64, i64, i32, i32, i1, index, i64, f32, f32, i32, i64, f16, bf16, f32, f64, i32, i16
}
