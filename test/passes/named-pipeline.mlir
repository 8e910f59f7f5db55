// A named pipeline (tilus-to-ptx) is expanded by the pipeline parser into its steps, which are
// ordinary passes: --dump-pass-pipeline shows them, with the pipeline's `target` option passed
// on to infer-layouts, lower-tiles and lower-tilus-kernel, and --print-ir-after, --timing and --pass-statistics see each one.

// RUN: tilus-opt %s -o /dev/null --pass-pipeline='builtin.module(tilus-to-ptx{target=sm_100a})' \
// RUN:   --dump-pass-pipeline 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP:      Pass Manager with 16 passes:
// DUMP-NEXT: builtin.module(
// DUMP-NEXT:   scf-forall-to-for,
// DUMP-NEXT:   scf-parallel-for-to-nested-fors{reductions=true},
// DUMP-NEXT:   verify-barriers,
// DUMP-NEXT:   infer-layouts{target=sm_100a},
// DUMP-NEXT:   lower-async-to-ptx,
// DUMP-NEXT:   plan-shared-memory,
// DUMP-NEXT:   lower-tiles{target=sm_100a},
// DUMP-NEXT:   lower-threadgroups,
// DUMP-NEXT:   lower-tilus-kernel{target=sm_100a},
// DUMP-NEXT:   canonicalize{{{.*}}},
// DUMP-NEXT:   cse,
// DUMP-NEXT:   eqsat{{{.*}}},
// DUMP-NEXT:   canonicalize{{{.*}}},
// DUMP-NEXT:   cse,
// DUMP-NEXT:   convert-scf-to-cf,
// DUMP-NEXT:   convert-arith-to-ptx
// DUMP-NEXT: )

// The flag spelling is the same pipeline; a step's IR can be dumped by its pass name.
// RUN: tilus-opt %s -o /dev/null --tilus-to-ptx --print-ir-after=lower-tilus-kernel 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AFTER
// AFTER:     // -----// IR Dump After LowerTilusKernel (lower-tilus-kernel) //----- //
// AFTER:     ptx.entry @scale
// AFTER-NOT: IR Dump

// RUN: tilus-opt %s -o /dev/null --tilus-to-ptx --timing 2>&1 | FileCheck %s --check-prefix=TIME
// TIME:      Parser
// TIME-NEXT: SCFForallToForLoop
// TIME-NEXT: SCFParallelForToNestedFors
// TIME-NEXT: VerifyBarriers
// TIME-NEXT: InferLayouts
// TIME-NEXT: LowerAsyncToPtx
// TIME-NEXT: PlanSharedMemory
// TIME-NEXT: LowerTiles
// TIME-NEXT: LowerThreadgroups
// TIME-NEXT: LowerTilusKernel
// TIME-NEXT: Canonicalizer
// TIME-NEXT: CSE
// TIME-NEXT: Eqsat
// TIME-NEXT: Canonicalizer
// TIME-NEXT: CSE
// TIME-NEXT: SCFToControlFlowPass
// TIME-NEXT: ConvertArithToPtx
// TIME-NEXT: Output

// RUN: tilus-opt %s -o /dev/null --tilus-to-ptx --pass-statistics 2>&1 | FileCheck %s --check-prefix=STATS
// STATS:      LowerTilusKernel
// STATS-NEXT:   (S) 1 num-kernels - Number of kernels lowered

// The pipeline's steps replace the kernel op, so it runs on the module; nested in a kernel
// pipeline it is rejected where the pipeline text is parsed, naming the right anchor.
// RUN: not tilus-opt %s --pass-pipeline='builtin.module(tilus.kernel(tilus-to-ptx))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ANCHOR
// ANCHOR:      pipeline 'tilus-to-ptx' runs on 'builtin.module' ops; it can't be scheduled on 'tilus.kernel' ops (<pass-pipeline>:1:29)
// ANCHOR:      1 │ builtin.module(tilus.kernel(tilus-to-ptx))
// ANCHOR-NEXT:   ·                             ──────┬─────
// ANCHOR-NEXT:   ·                                   ╰── runs on 'builtin.module' ops
// ANCHOR:      help: anchor it on its op: 'builtin.module(tilus-to-ptx)'
// RUN: not tilus-opt %s --pass-pipeline='any(tilus-to-ptx)' 2>&1 | FileCheck %s --check-prefix=ANY
// ANY: pipeline 'tilus-to-ptx' runs on 'builtin.module' ops; it can't be scheduled in an 'any' pipeline

// Its options are checked by their declared type and check, at the option.
// RUN: not tilus-opt %s --diagnostic-format=mlir --pass-pipeline='builtin.module(tilus-to-ptx{target=x86})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VALUE
// VALUE: <pass-pipeline>:1:36: error: invalid value for option 'target' of pipeline 'tilus-to-ptx': expected a target like 'sm_90a', got 'x86'
// RUN: not tilus-opt %s --diagnostic-format=mlir --pass-pipeline='builtin.module(tilus-to-ptx{trget=sm_90a})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KEY
// KEY: <pass-pipeline>:1:29: error: pipeline 'tilus-to-ptx' has no option 'trget'

// A misspelled pipeline gets the usual suggestion; a pipeline is not a pass to dump after.
// RUN: not tilus-opt %s --pass-pipeline='builtin.module(tilus-to-pxt)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TYPO
// TYPO: 'tilus-to-pxt' does not refer to a registered pass (<pass-pipeline>:1:16)
// TYPO: help: did you mean 'tilus-to-ptx'?
// RUN: not tilus-opt %s --tilus-to-ptx --print-ir-after=tilus-to-ptx 2>&1 | FileCheck %s --check-prefix=NOTPASS
// NOTPASS: --print-ir-after: 'tilus-to-ptx' is a pipeline, not a pass
// NOTPASS: help: name one of its steps, which run as passes:

tilus.kernel @scale(%a: !tilus.ptr<f32>, %n: i32)
    warps(1) blocks(affine_map<(d0, d1) -> (d1 ceildiv 32)>) {
  %bx = tilus.block_id x
  %tile = arith.constant 32 : i32
  %off = arith.muli %bx, %tile : i32
  %ga = tilus.global_view %a[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %x = tilus.load_global %ga[%off] : !tilus.global<?xf32> -> !tilus.reg<32xf32, layout = spatial(32)>
  %y = tilus.add %x, %x : (!tilus.reg<32xf32, layout = spatial(32)>, !tilus.reg<32xf32, layout = spatial(32)>) -> !tilus.reg<32xf32, layout = spatial(32)>
  tilus.store_global %y, %ga[%off] : !tilus.reg<32xf32, layout = spatial(32)>, !tilus.global<?xf32>
}
