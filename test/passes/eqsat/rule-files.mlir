// User rule files (eqsat{rules=FILE}): rules over op names, the type implicit, with range
// conditions; builtin=false applies the file's rules alone. Malformed or ill-typed rules are
// errors with a span into the rule file (its line, the token underlined) and fail the pass.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat{rules=%S/Inputs/rules.eqs builtin=false})' | FileCheck %s

// CHECK-LABEL: func.func @user(
// CHECK-SAME: %[[X:.*]]: i32, %[[Y:.*]]: i32
// CHECK-NEXT: return %[[X]]
func.func @user(%x: i32, %y: i32) -> i32 {
  %a = arith.xori %x, %y : i32
  %b = arith.xori %a, %y : i32
  return %b : i32
}

// CHECK-LABEL: func.func @conditioned(
// CHECK-NOT: arith.divui
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: return %[[Z]]
func.func @conditioned(%x: i32) -> i32 {
  %mask = arith.constant 15 : i32
  %c16 = arith.constant 16 : i32
  %y = arith.andi %x, %mask : i32
  %d = arith.divui %y, %c16 : i32
  return %d : i32
}

// The report shows the rule file's line with the offending token underlined.
// RUN: not tilus-opt %s --pass-pipeline='builtin.module(eqsat{rules=%S/Inputs/bad-op.eqs})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADOP
// BADOP: unknown op 'arith.mull' ({{.*}}bad-op.eqs:3:15)
// BADOP: 3 │ (rule "typo" (arith.mull ?x (const 2)) (arith.shli ?x (const 1)))
// BADOP-NEXT: ·               ─────┬────

// RUN: not tilus-opt %s --pass-pipeline='builtin.module(eqsat{rules=%S/Inputs/bad-op.eqs})' \
// RUN:   --diagnostic-format=mlir 2>&1 | FileCheck %s --check-prefix=BADOP-MLIR
// BADOP-MLIR: bad-op.eqs:3:15: error: unknown op 'arith.mull'

// RUN: not tilus-opt %s --pass-pipeline='builtin.module(eqsat{rules=%S/Inputs/ill-typed.eqs})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TYPE
// TYPE: ill-typed rule: a value of type i1 where i64 is expected ({{.*}}ill-typed.eqs:2:13)
// TYPE: 2 │             (arith.addi i64 ?x ?y))
// TYPE-NEXT: ·             ─────┬─────

// RUN: not tilus-opt %s --pass-pipeline='builtin.module(eqsat{rules=%S/Inputs/tile-op.eqs})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TILE
// TILE: 'tilus.cast' is a tile op; rule files rewrite scalar integer ops (the tile rules are built in) ({{.*}}tile-op.eqs:2:21)

// RUN: not tilus-opt %s --pass-pipeline='builtin.module(eqsat{rules=%S/Inputs/missing.eqs})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// MISSING: eqsat: cannot read rule file '{{.*}}missing.eqs'
