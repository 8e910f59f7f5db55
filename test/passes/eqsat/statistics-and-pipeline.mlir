// --pass-statistics reports, summed over the blocks the pass saw: the e-graph's size, the
// rounds of rule application, why each block stopped, and the cost (PTX instructions) before
// and after. tilus-to-ptx runs eqsat unless eqsat=false.

// RUN: tilus-opt %s -o /dev/null --pass-pipeline='builtin.module(eqsat)' --pass-statistics 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATS
// STATS:      Eqsat
// STATS-NEXT:   (S) 1 cost-after - Cost after (unchanged blocks count their old cost)
// STATS-NEXT:   (S) 7 cost-before - Cost of the rewritable ops before (PTX instructions)
// STATS-NEXT:   (S) 1 num-blocks - Blocks with rewritable ops
// STATS-NEXT:   (S) 1 num-blocks-rewritten - Blocks whose ops were replaced
// STATS:        (S) 5 num-ops - Rewritable ops seen
// STATS-NEXT:   (S) 1 stop-saturated - Blocks that saturated

// Limits are options: one round stops at the iteration limit.
// RUN: tilus-opt %s -o /dev/null --pass-pipeline='builtin.module(eqsat{max-iterations=1})' \
// RUN:   --pass-statistics 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: (S) 1 stop-iteration-limit - Blocks stopped by max-iterations

// RUN: tilus-opt %s --tilus-to-ptx --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ON
// ON:      {{^}}  cse,
// ON-NEXT: {{^}}  eqsat{builtin=true costs= max-iterations=8 nodes-per-op=12 rules= time-limit-ms=500},
// ON-NEXT: {{^}}  canonicalize{
// ON-NEXT: {{^}}  cse,
// ON-NEXT: {{^}}  convert-scf-to-cf,
// RUN: tilus-opt %s --pass-pipeline='builtin.module(tilus-to-ptx{eqsat=false})' --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OFF
// OFF-NOT: eqsat
// OFF: convert-scf-to-cf

func.func @f(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %a = arith.addi %x, %c0 : i32
  %m = arith.muli %a, %c4 : i32
  %d = arith.divui %m, %c4 : i32
  return %m : i32
}
