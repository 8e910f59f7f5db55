// --list-passes lists every registered pass by name (sorted), with its summary and its options,
// each with the values it takes, its doc and its default, then the named pipelines with theirs.
// All of it comes from the pass declarations. Only the test passes, tma-store-epilogue, verify-barriers, warp-specialize and tilus-to-ptx are checked.
// RUN: tilus-opt --list-passes | FileCheck %s
// CHECK:      Passes:
// CHECK:        --test-fail {{ *}}-   Test pass: report an error at (or break) each op carrying a `test.fail` attribute
// CHECK-NEXT:     --mode=<'error' | 'corrupt'> {{ *}}- 'error': fail with a diagnostic at each marked op; 'corrupt': break the IR there (default: error)
// CHECK-NEXT:   --test-print-op-count {{ *}}-   Test pass: count the ops under the anchor (statistics num-ops, num-runs)
// CHECK-NEXT:     --anchor=<'any' | 'builtin.module' | 'func.func'> {{ *}}- The op the pass is restricted to: any, builtin.module or func.func (default: any)
// CHECK-NEXT:     --annotate=<bool> {{ *}}- Record the count as a `test.op_count` attribute on the op (default: false)
// CHECK-NEXT:     --limit=<integer> {{ *}}- Fail when more ops than this are counted (-1: no limit) (default: -1)
// CHECK-NEXT:     --only=<list> {{ *}}- Count only ops of these names, e.g. {arith.addi,func.return} (default: {})
// CHECK-NEXT:   --tma-store-epilogue {{ *}}-   Send register tiles to global memory through shared memory and TMA stores
// CHECK-NEXT:     --defer-boxes=<bool> {{ *}}- Send a tile's boxes after the first during the next tile's first k-steps, where the store ends the body of a tile loop with a k loop before it (default: true)
// CHECK-NEXT:     --max-shared-bytes=<integer> {{ *}}- Shared memory a block may use, in bytes (the buffers and the kernel's allocations must fit) (default: 232448)
// CHECK-NEXT:     --overlap-epilogue=<bool> {{ *}}- With defer-boxes, and a k loop that waits for wgmma groups: write a tile of 8- or 16-bit elements, at most 256 bytes a thread, into the buffer during the next tile's first k-step, after its MMAs are issued (the tile loop carries the tile) (default: true)
// CHECK-NEXT:     --spread-stores=<bool> {{ *}}- With overlap-epilogue: write box j of the carried tile into the buffer (and send it) at the next tile's k-step j, rather than the whole tile at step 0 (needs a tile layout whose boxes are whole registers of each thread, as the wgmma accumulator's are) (default: false)
// CHECK-NEXT:   --verify-barriers {{ *}}-   Prove statically that every mbarrier wait completes and no barrier over-arrives
// CHECK-NEXT:   --warp-specialize {{ *}}-   Split a pipelined TMA ring into a producer and consumer warpgroups
// CHECK-NEXT:     --consumer-regs=<integer> {{ *}}- Registers per thread of each consumer warpgroup (setmaxnreg.inc); 0: no setmaxnreg for them; -1: the most the register file leaves them (default: -1)
// CHECK-NEXT:     --consumer-warpgroups=<integer> {{ *}}- Consumer groups splitting the tile's rows (K > 1 needs wgmma consumers) (default: 1)
// CHECK-NEXT:     --mma-in-flight=<integer> {{ *}}- wgmma groups a consumer keeps in flight at its release: 0 waits for its MMA and releases its stage, 1 waits for the previous k step's MMA only and releases the previous stage (needs stages >= 2) (default: 0)
// CHECK-NEXT:     --producer-regs=<integer> {{ *}}- Registers per thread the producer warpgroup keeps (setmaxnreg.dec); 0: no setmaxnreg for it (default: 40)
// CHECK-NEXT:     --producer-warps=<integer> {{ *}}- Warps of the producer group (only 1 is supported) (default: 1)
// CHECK-NEXT: Pass Pipelines:
// CHECK-NEXT:   --tilus-to-ptx {{ *}}-   Lower Tilus kernels to the ptx dialect (the whole pipeline) (runs on 'builtin.module')
// CHECK-NEXT:     --eqsat=<bool> {{ *}}- Run eqsat (then canonicalize and cse) on the integer arithmetic before convert-scf-to-cf (default: true)
// CHECK-NEXT:     --infer-layouts=<bool> {{ *}}- Run infer-layouts first, so register tensors without a layout get one chosen for the whole kernel (default: true)
// CHECK-NEXT:     --target=<string> {{ *}}- PTX target of the kernels, passed to infer-layouts, lower-tiles (sm_90a: tilus.dot on wgmma where it fits) and lower-tilus-kernel (default: sm_90a)

// Each pass is also a flag of its own.
// RUN: tilus-opt --help | FileCheck %s --check-prefix=HELP
// HELP: --test-fail[=<OPTIONS>]
// HELP: --test-print-op-count[=<OPTIONS>]
// HELP: --tilus-to-ptx[=<OPTIONS>]
