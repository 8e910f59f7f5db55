// The cost model is overridable from a file (eqsat{costs=FILE}). By default a 32-bit multiply
// and a shift both cost one instruction, so x*8 stays as written; with multiplies dearer, it
// becomes a shift. A malformed cost file is an error with a span into it.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat)' | FileCheck %s --check-prefix=DEFAULT
// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat{costs=%S/Inputs/costs.txt})' \
// RUN:   | FileCheck %s --check-prefix=COSTS
// RUN: not tilus-opt %s --pass-pipeline='builtin.module(eqsat{costs=%S/Inputs/bad-costs.txt})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD

// DEFAULT: arith.muli
// COSTS: arith.shli
// BAD: 'cheap' is not a non-negative number ({{.*}}bad-costs.txt:2:7)
// BAD: 2 │ mul32 cheap
// BAD-NEXT: ·       ──┬──
func.func @f(%x: i32) -> i32 {
  %c8 = arith.constant 8 : i32
  %m = arith.muli %x, %c8 : i32
  return %m : i32
}
