// The verifier runs after each pass (--verify-each, on by default): a pass leaving invalid IR
// fails the pipeline with the verifier's errors. test-fail{mode=corrupt} retypes the results of
// marked ops to `none`. --verify-each=false lets the broken IR through to be printed.

// RUN: tilus-opt %s --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(test-fail{mode=corrupt}))'
// RUN: tilus-opt %s --verify-diagnostics --verify-each=true \
// RUN:   --pass-pipeline='builtin.module(func.func(test-fail{mode=corrupt}))'

// The help says which pass broke the IR.
// RUN: not tilus-opt %s --pass-pipeline='builtin.module(func.func(test-fail{mode=corrupt}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HELP
// HELP: help: the IR was valid before pass 'test-fail' ran on this 'func.func' op;

// RUN: tilus-opt %s --verify-each=false --pass-pipeline='builtin.module(func.func(test-fail{mode=corrupt}))' \
// RUN:   | FileCheck %s --check-prefix=OFF
// OFF: %0 = arith.addi %arg0, %arg0 {test.fail} : none

func.func @f(%a: i32) -> i32 {
  // expected-error@+1 {{'arith.addi' op result #0 must be signless-integer-like, but got 'none'}}
  %0 = arith.addi %a, %a {test.fail} : i32
  // expected-error@+1 {{'func.return' op type of return operand 0 ('none') doesn't match function result type ('i32') in function @f}}
  return %0 : i32
}
