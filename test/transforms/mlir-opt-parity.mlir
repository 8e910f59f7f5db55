// The transformation passes against MLIR 22's mlir-opt on the same input. tilus-opt's output is
// printed again by mlir-opt, so only what the passes did is compared, not how each tool
// names values. Each RUN group must produce identical text.
// REQUIRES: mlir-opt

// RUN: mlir-opt %s --pass-pipeline='builtin.module(canonicalize)' >%t.mlir-opt
// RUN: tilus-opt %s --pass-pipeline='builtin.module(canonicalize)' | mlir-opt >%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt

// RUN: mlir-opt %s --pass-pipeline='builtin.module(canonicalize{top-down=false max-iterations=2})' >%t.mlir-opt
// RUN: tilus-opt %s --pass-pipeline='builtin.module(canonicalize{top-down=false max-iterations=2})' | mlir-opt >%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt

// RUN: mlir-opt %s --pass-pipeline='builtin.module(cse)' >%t.mlir-opt
// RUN: tilus-opt %s --pass-pipeline='builtin.module(cse)' | mlir-opt >%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt

// RUN: mlir-opt %s --pass-pipeline='builtin.module(inline,symbol-dce)' >%t.mlir-opt
// RUN: tilus-opt %s --pass-pipeline='builtin.module(inline,symbol-dce)' | mlir-opt >%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt

// RUN: mlir-opt %s --pass-pipeline='builtin.module(inline{default-pipeline=},cse,canonicalize)' >%t.mlir-opt
// RUN: tilus-opt %s --pass-pipeline='builtin.module(inline{default-pipeline=},cse,canonicalize)' | mlir-opt >%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt

func.func private @scale(%x: i64, %k: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %0 = arith.muli %x, %k : i64
  %1 = arith.addi %0, %c0 : i64
  return %1 : i64
}

func.func private @clamp(%x: i64) -> i64 {
  %lo = arith.constant 0 : i64
  %hi = arith.constant 255 : i64
  %0 = arith.maxsi %x, %lo : i64
  %1 = arith.minsi %0, %hi : i64
  return %1 : i64
}

func.func private @never_called(%x: i64) -> i64 {
  return %x : i64
}

func.func @kernel(%a: i64, %b: i64, %p: i1, %f: f32) -> (i64, i64, i1, i32, f32) {
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c6 = arith.constant 6 : i64
  %s = func.call @scale(%a, %c2) : (i64, i64) -> i64
  %t = func.call @scale(%s, %c3) : (i64, i64) -> i64
  %u = arith.addi %t, %c6 : i64
  %v = arith.subi %u, %c6 : i64
  %w = arith.addi %b, %a : i64
  %w2 = arith.addi %a, %b : i64
  %m = arith.muli %w, %w2 : i64
  %cl = func.call @clamp(%m) : (i64) -> i64
  %eq = arith.cmpi eq, %w, %w2 : i64
  %t1 = arith.constant true
  %n = arith.xori %eq, %t1 : i1
  %q = arith.andi %n, %p : i1
  %z32 = arith.constant 0 : i32
  %o32 = arith.constant 1 : i32
  %sel = arith.select %p, %o32, %z32 : i32
  %k1 = arith.constant 1.5 : f32
  %k2 = arith.constant 2.25 : f32
  %k = arith.mulf %k1, %k2 : f32
  %r = arith.addf %f, %k : f32
  %nz = arith.constant -0.0 : f32
  %r2 = arith.addf %r, %nz : f32
  return %v, %cl, %q, %sel, %r2 : i64, i64, i1, i32, f32
}

func.func @loop_like(%n: index, %flag: i1) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.cond_br %flag, ^body(%c0, %c0 : index, index), ^exit(%n : index)
^body(%i: index, %dead: index):
  %next = arith.addi %i, %c1 : index
  %again = arith.addi %i, %c1 : index
  %x = arith.muli %next, %again : index
  cf.br ^exit(%x : index)
^never:
  %d = arith.addi %n, %n : index
  cf.br ^exit(%d : index)
^exit(%r: index):
  return %r : index
}

func.func @structured(%x: i32, %b: i1, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = arith.addi %x, %x : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (i32) {
    %k = arith.constant 7 : i32
    %s = arith.addi %x, %x : i32
    %t = arith.addi %acc, %s : i32
    %u = arith.addi %t, %k : i32
    scf.yield %u : i32
  }
  %y = scf.if %b -> (i32) {
    %k2 = arith.constant 7 : i32
    %m = arith.muli %a, %k2 : i32
    scf.yield %m : i32
  } else {
    scf.yield %x : i32
  }
  %unused = scf.if %b -> (i32) {
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %z = arith.addi %r, %y : i32
  return %z : i32
}
