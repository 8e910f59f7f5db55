// canonicalize folds, applies canonicalization patterns, erases dead ops, deduplicates and
// hoists constants, and cleans up unreachable blocks and dead block arguments. The CHECK lines
// are mlir-opt's own output (MLIR 22) for the same input, constant order included;
// canonicalize-mlir-opt.mlir compares the two tools directly.
// RUN: tilus-opt %s --split-input-file --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// Integer constant folding wraps at the type width. Division by zero, signed MIN / -1 and
// shifts by the width or more are left alone (poison or UB in MLIR). Folded constants are
// materialized next to the op and hoisted to the entry block, newest first.
// CHECK-LABEL: func.func @int_folds() -> (i8, i8, i32, i32, i32, i32, i32, i32) {
// CHECK-NEXT:    %c-2_i32 = arith.constant -2 : i32
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:    %c-3_i32 = arith.constant -3 : i32
// CHECK-NEXT:    %c40_i32 = arith.constant 40 : i32
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:    %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT:    %c-128_i8 = arith.constant -128 : i8
// CHECK-NEXT:    %0 = arith.divsi %c-128_i8, %c-1_i8 : i8
// CHECK-NEXT:    %1 = arith.divui %c7_i32, %c0_i32 : i32
// CHECK-NEXT:    %2 = arith.shli %c7_i32, %c40_i32 : i32
// CHECK-NEXT:    return %c-128_i8, %0, %1, %c-3_i32, %c-1_i32, %c1_i32, %2, %c-2_i32 : i8, i8, i32, i32, i32, i32, i32, i32
// CHECK-NEXT:  }
func.func @int_folds() -> (i8, i8, i32, i32, i32, i32, i32, i32) {
  %c127 = arith.constant 127 : i8
  %c1 = arith.constant 1 : i8
  %wrap = arith.addi %c127, %c1 : i8
  %m = arith.constant -128 : i8
  %neg1 = arith.constant -1 : i8
  %ovf = arith.divsi %m, %neg1 : i8
  %c7 = arith.constant 7 : i32
  %c0 = arith.constant 0 : i32
  %cm7 = arith.constant -7 : i32
  %c2 = arith.constant 2 : i32
  %div0 = arith.divui %c7, %c0 : i32
  %q = arith.divsi %cm7, %c2 : i32
  %r = arith.remsi %cm7, %c2 : i32
  %u = arith.remui %cm7, %c2 : i32
  %c40 = arith.constant 40 : i32
  %big = arith.shli %c7, %c40 : i32
  %sh = arith.shrsi %cm7, %c2 : i32
  return %wrap, %ovf, %div0, %q, %r, %u, %big, %sh : i8, i8, i32, i32, i32, i32, i32, i32
}

// -----

// Min/max, comparisons and casts of constants.
// CHECK-LABEL: func.func @cmp_cast_folds() -> (i8, i8, i1, i1, i64, index, i16, i32) {
// CHECK-NEXT:    %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %false = arith.constant false
// CHECK-NEXT:    %c-1_i64 = arith.constant -1 : i64
// CHECK-NEXT:    %c-7 = arith.constant -7 : index
// CHECK-NEXT:    %c-7_i16 = arith.constant -7 : i16
// CHECK-NEXT:    %c255_i32 = arith.constant 255 : i32
// CHECK-NEXT:    return %c-1_i8, %c-1_i8, %true, %false, %c-1_i64, %c-7, %c-7_i16, %c255_i32 : i8, i8, i1, i1, i64, index, i16, i32
// CHECK-NEXT:  }
func.func @cmp_cast_folds() -> (i8, i8, i1, i1, i64, index, i16, i32) {
  %neg1 = arith.constant -1 : i8
  %c3 = arith.constant 3 : i8
  %mx = arith.maxui %neg1, %c3 : i8
  %mn = arith.minsi %neg1, %c3 : i8
  %lt = arith.cmpi ult, %c3, %neg1 : i8
  %slt = arith.cmpi slt, %c3, %neg1 : i8
  %ext = arith.extsi %neg1 : i8 to i64
  %cm7 = arith.constant -7 : i32
  %idx = arith.index_cast %cm7 : i32 to index
  %tr = arith.trunci %cm7 : i32 to i16
  %zx = arith.extui %neg1 : i8 to i32
  return %mx, %mn, %lt, %slt, %ext, %idx, %tr, %zx : i8, i8, i1, i1, i64, index, i16, i32
}

// -----

// Identities; a commutative op gets its constant on the right; a comparison with the constant
// on the left is mirrored.
// CHECK-LABEL: func.func @identities(%arg0: i32, %arg1: i32, %arg2: i1) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i1, i1) {
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %0 = arith.addi %arg1, %c1_i32 : i32
// CHECK-NEXT:    %1 = arith.cmpi sgt, %arg0, %c1_i32 : i32
// CHECK-NEXT:    return %arg0, %arg0, %c0_i32, %c0_i32, %arg1, %arg1, %c0_i32, %0, %arg0, %arg2, %1 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i1, i1
// CHECK-NEXT:  }
func.func @identities(%x: i32, %y: i32, %b: i1) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i1, i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = arith.addi %x, %c0 : i32
  %m = arith.muli %c1, %x : i32
  %z = arith.muli %x, %c0 : i32
  %s = arith.subi %x, %x : i32
  %an = arith.andi %y, %y : i32
  %o = arith.ori %c0, %y : i32
  %xo = arith.xori %y, %y : i32
  %comm = arith.addi %c1, %y : i32
  %sel = arith.select %b, %x, %x : i32
  %t = arith.constant true
  %cmp = arith.cmpi eq, %b, %t : i1
  %mir = arith.cmpi slt, %c1, %x : i32
  return %a, %m, %z, %s, %an, %o, %xo, %comm, %sel, %cmp, %mir : i32, i32, i32, i32, i32, i32, i32, i32, i32, i1, i1
}

// -----

// Float folding is IEEE round-to-nearest-even on the bit patterns: 0.1 + 0.2 is 0.3 in f32, a
// NaN operand propagates quieted with its payload, 0/0 is the positive default NaN, overflow
// is infinity, and maximumf orders -0 below +0.
// CHECK-LABEL: func.func @floats() -> (f32, f32, f32, f64, f32, f32, f32) {
// CHECK-NEXT:    %cst = arith.constant 3.000000e-01 : f32
// CHECK-NEXT:    %cst_0 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:    %cst_1 = arith.constant 0x7FC00123 : f32
// CHECK-NEXT:    %cst_2 = arith.constant 0x7FF0000000000000 : f64
// CHECK-NEXT:    %cst_3 = arith.constant -1.000000e-01 : f32
// CHECK-NEXT:    %cst_4 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %cst : f32, f32, f32, f64, f32, f32, f32
// CHECK-NEXT:  }
func.func @floats() -> (f32, f32, f32, f64, f32, f32, f32) {
  %a = arith.constant 0.1 : f32
  %b = arith.constant 0.2 : f32
  %s = arith.addf %a, %b : f32
  %z = arith.constant 0.0 : f32
  %nan = arith.divf %z, %z : f32
  %p = arith.constant 0x7FC00123 : f32
  %one = arith.constant 1.0 : f32
  %keep = arith.addf %one, %p : f32
  %d1 = arith.constant 1.0e+300 : f64
  %inf = arith.mulf %d1, %d1 : f64
  %ng = arith.negf %a : f32
  %mz = arith.constant -0.0 : f32
  %mx = arith.maximumf %z, %mz : f32
  %x1 = arith.mulf %s, %one : f32
  return %s, %nan, %keep, %inf, %ng, %mx, %x1 : f32, f32, f32, f64, f32, f32, f32
}

// -----

// Canonicalization patterns: constant reassociation, not(cmpi) inverts the predicate,
// select of 0/1 becomes a zero extension.
// CHECK-LABEL: func.func @patterns(%arg0: i32, %arg1: i1) -> (i32, i1, i32, i32) {
// CHECK-NEXT:    %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT:    %c12_i32 = arith.constant 12 : i32
// CHECK-NEXT:    %0 = arith.addi %arg0, %c12_i32 : i32
// CHECK-NEXT:    %1 = arith.cmpi sge, %arg0, %c5_i32 : i32
// CHECK-NEXT:    %2 = arith.xori %arg1, %true : i1
// CHECK-NEXT:    %3 = arith.extui %2 : i1 to i32
// CHECK-NEXT:    %4 = arith.subi %c2_i32, %arg0 : i32
// CHECK-NEXT:    return %0, %1, %3, %4 : i32, i1, i32, i32
// CHECK-NEXT:  }
func.func @patterns(%x: i32, %b: i1) -> (i32, i1, i32, i32) {
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %a = arith.addi %x, %c5 : i32
  %a2 = arith.addi %a, %c7 : i32
  %cmp = arith.cmpi slt, %x, %c5 : i32
  %t = arith.constant true
  %not = arith.xori %cmp, %t : i1
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %e = arith.select %b, %zero, %one : i32
  %sub = arith.subi %c7, %a : i32
  return %a2, %not, %e, %sub : i32, i1, i32, i32
}

// -----

// Constants are deduplicated and hoisted to the start of the function's entry block; a
// constant in a later block is hoisted too.
// CHECK-LABEL: func.func @hoist(%arg0: i32, %arg1: i1) -> i32 {
// CHECK-NEXT:    %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT:    %c9_i32 = arith.constant 9 : i32
// CHECK-NEXT:    %0 = arith.divui %arg0, %c9_i32 : i32
// CHECK-NEXT:    cf.cond_br %arg1, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    %1 = arith.remui %0, %c9_i32 : i32
// CHECK-NEXT:    %2 = arith.shli %1, %c4_i32 : i32
// CHECK-NEXT:    return %2 : i32
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
func.func @hoist(%x: i32, %b: i1) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.muli %x, %c1 : i32
  %c9 = arith.constant 9 : i32
  %1 = arith.divui %0, %c9 : i32
  cf.cond_br %b, ^bb1, ^bb2
^bb1:
  %c9b = arith.constant 9 : i32
  %c4 = arith.constant 4 : i32
  %2 = arith.remui %1, %c9b : i32
  %3 = arith.shli %2, %c4 : i32
  return %3 : i32
^bb2:
  return %1 : i32
}

// -----

// Region simplification: the unreachable block goes, and so does the block argument nobody
// uses, with the branch operands that fed it.
// CHECK-LABEL: func.func @cfg(%arg0: i32, %arg1: i1) -> i32 {
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    cf.cond_br %arg1, ^bb1(%arg0 : i32), ^bb2(%c1_i32 : i32)
// CHECK-NEXT:  ^bb1(%0: i32):  // pred: ^bb0
// CHECK-NEXT:    %1 = arith.muli %0, %0 : i32
// CHECK-NEXT:    return %1 : i32
// CHECK-NEXT:  ^bb2(%2: i32):  // pred: ^bb0
// CHECK-NEXT:    %3 = arith.addi %2, %arg0 : i32
// CHECK-NEXT:    return %3 : i32
// CHECK-NEXT:  }
func.func @cfg(%x: i32, %b: i1) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.cond_br %b, ^bb1(%x, %c0 : i32, i32), ^bb2(%c1 : i32)
^bb1(%p: i32, %unused: i32):
  %r = arith.muli %p, %p : i32
  %dead = arith.addi %unused, %r : i32
  return %r : i32
^bb2(%q: i32):
  %s = arith.addi %q, %x : i32
  return %s : i32
^bb3:
  %d = arith.muli %x, %x : i32
  return %d : i32
}

// -----

// Splat constants fold like scalars: x - x and x ^ x become splat zeros (not for dynamic
// shapes) and x + splat(0) is x.
// CHECK-LABEL: func.func @v2(%arg0: vector<4xi32>, %arg1: tensor<?xi32>, %arg2: vector<2xf32>) -> (vector<4xi32>, vector<4xi1>, tensor<?xi32>, vector<4xi32>, vector<2xf32>, vector<4xi32>) {
// CHECK-NEXT:    %cst = arith.constant dense<true> : vector<4xi1>
// CHECK-NEXT:    %cst_0 = arith.constant dense<0> : vector<4xi32>
// CHECK-NEXT:    %0 = arith.subi %arg1, %arg1 : tensor<?xi32>
// CHECK-NEXT:    %1 = arith.subf %arg2, %arg2 : vector<2xf32>
// CHECK-NEXT:    return %cst_0, %cst, %0, %cst_0, %1, %arg0 : vector<4xi32>, vector<4xi1>, tensor<?xi32>, vector<4xi32>, vector<2xf32>, vector<4xi32>
// CHECK-NEXT:  }
func.func @v2(%x: vector<4xi32>, %t: tensor<?xi32>, %f: vector<2xf32>) -> (vector<4xi32>, vector<4xi1>, tensor<?xi32>, vector<4xi32>, vector<2xf32>, vector<4xi32>) {
  %0 = arith.subi %x, %x : vector<4xi32>
  %1 = arith.constant dense<true> : vector<4xi1>
  %2 = arith.subi %t, %t : tensor<?xi32>
  %3 = arith.xori %x, %x : vector<4xi32>
  %4 = arith.subf %f, %f : vector<2xf32>
  %c = arith.constant dense<0> : vector<4xi32>
  %5 = arith.addi %x, %c : vector<4xi32>
  return %0, %1, %2, %3, %4, %5 : vector<4xi32>, vector<4xi1>, tensor<?xi32>, vector<4xi32>, vector<2xf32>, vector<4xi32>
}

// -----

// Splat arithmetic folds to a splat, wrapping at the element width; casts of splats too.
// CHECK-LABEL: func.func @v(%arg0: vector<4xi8>, %arg1: vector<4xi1>) -> (vector<4xi8>, vector<4xi8>, vector<4xi8>, vector<4xi8>, vector<4xi16>, vector<4xi8>, vector<4xi8>) {
// CHECK-NEXT:    %cst = arith.constant dense<-56> : vector<4xi8>
// CHECK-NEXT:    %cst_0 = arith.constant dense<-33> : vector<4xi8>
// CHECK-NEXT:    %cst_1 = arith.constant dense<0> : vector<4xi8>
// CHECK-NEXT:    %cst_2 = arith.constant dense<-3> : vector<4xi16>
// CHECK-NEXT:    return %cst, %cst_0, %arg0, %cst_1, %cst_2, %arg0, %arg0 : vector<4xi8>, vector<4xi8>, vector<4xi8>, vector<4xi8>, vector<4xi16>, vector<4xi8>, vector<4xi8>
// CHECK-NEXT:  }
func.func @v(%x: vector<4xi8>, %b: vector<4xi1>) -> (vector<4xi8>, vector<4xi8>, vector<4xi8>, vector<4xi8>, vector<4xi16>, vector<4xi8>, vector<4xi8>) {
  %a = arith.constant dense<100> : vector<4xi8>
  %c = arith.constant dense<-3> : vector<4xi8>
  %one = arith.constant dense<1> : vector<4xi8>
  %s = arith.addi %a, %a : vector<4xi8>
  %d = arith.divsi %a, %c : vector<4xi8>
  %m = arith.muli %x, %one : vector<4xi8>
  %r = arith.remui %x, %one : vector<4xi8>
  %e = arith.extsi %c : vector<4xi8> to vector<4xi16>
  %t = arith.constant dense<true> : vector<4xi1>
  %sel = arith.ori %x, %x : vector<4xi8>
  %ff = arith.constant dense<-1> : vector<4xi8>
  %an = arith.andi %x, %ff : vector<4xi8>
  return %s, %d, %m, %r, %e, %sel, %an : vector<4xi8>, vector<4xi8>, vector<4xi8>, vector<4xi8>, vector<4xi16>, vector<4xi8>, vector<4xi8>
}
