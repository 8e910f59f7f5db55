# Writes target/gen/hopper_matmul_v8_deferred_epilogue.mlir (issue 17): v6 (bench/gen_matmul_v6.py,
# with its producer warpgroup and setmaxnreg, REGS=1) whose consumer warpgroups store a tile's C
# while the next tile's first wgmmas run, instead of between the two tiles.
#   python3 bench/gen_matmul_v8.py
import os, re, sys

sys.path.insert(0, os.path.dirname(__file__))
from v6_base import ACC, G3, OUT, SC, SC1, SC3, tma_store, v6_regs_text, write  # noqa: E402

src = v6_regs_text()
head = """// Hopper matmul v8: v6 (examples/hopper_matmul_v6_tma_epilogue.mlir, with a producer
// warpgroup and setmaxnreg 40/232) whose consumers overlap a tile's epilogue with the next
// tile's main loop (issue 17). Written by bench/gen_matmul_v8.py.
//
// In v6 both consumer warpgroups end a tile together and send C through their buffers before
// the next tile's first wgmma: two warpgroup syncs, a fence and a wait for the copy engine to
// read the first half, while the tensor cores have nothing to do. Here a consumer converts its
// accumulators to f16 when the tile's last wgmma retires and carries them (64 registers a
// thread) into the next tile; the two halves go through the buffer in k-steps 0 and 1 of the
// next tile, while that step's wgmmas run. The last tile's C, and a pending tile when the next
// tile has fewer than two k-steps, are sent after the loop. N not a multiple of 64 keeps v6's
// direct stores at the end of the tile.
//
// Check: tilus-opt target/gen/hopper_matmul_v8_deferred_epilogue.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --schedule random --seed 7 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg k=64 --arg num_sms=2 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg k=128 --arg num_sms=2 --schedule random --seed 3 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg k=0 | FileCheck %s --check-prefix=INTERP
// N not a multiple of 64: the direct stores.
// RUN: tilus-run %s --arg n=200 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok

// CHECK-LABEL: tilus.kernel @hopper_matmul_deferred_epilogue
// CHECK-SAME:    cluster(2, 1, 1)
// CHECK:         threadgroup.warp_group warps(0, 4) {
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               wgmma.commit_group
// CHECK:               scf.if
// CHECK:                 tilus.store_shared
// CHECK-NEXT:            tma.fence_proxy_async shared
"""
k = src.index('\ntilus.kernel @hopper_matmul_tma_epilogue') + 1
body = src[k:].replace('@hopper_matmul_tma_epilogue', '@hopper_matmul_deferred_epilogue', 1)
body = body.replace('  %zero = arith.constant 0.0 : f32\n',
                    '  %zero = arith.constant 0.0 : f32\n  %zero16 = arith.constant 0.0 : f16\n'
                    '  %false = arith.constant false\n  %true = arith.constant true\n', 1)


half = tma_store


def guarded(ind, cond, val, chunk, row):
    p = ' ' * ind
    return f"{p}scf.if {cond} {{\n{half(ind + 2, val, chunk, row)}\n{p}}}"


CT = f"i32, i32, {OUT}, {OUT}, i32, i32, i1"
for g in (0, 1):
    start = body.index(f'  threadgroup.warp_group warps({4 * g}, 4) {{\n')
    end = body.index('\n  }\n', start) + 5
    c = body[start:end]
    # Buffers viewed once per warpgroup; an empty pending tile.
    c = c.replace('    %cphase0 = mbarrier.consumer_initial_phase\n',
                  f"""    %cphase0 = mbarrier.consumer_initial_phase
    %sc_g = tilus.slice_shared %sc[%c{g}] : {SC} -> {SC1}
    %sc_g3 = tilus.reshape_shared %sc_g : {SC1} -> {SC3}
    %none = tilus.register_tensor init(%zero16 : f16) : {OUT}
""", 1)
    c = c.replace('iter_args(%stage = %c0, %phase = %cphase0) -> (i32, i32) : i32 {',
                  f'iter_args(%stage = %c0, %phase = %cphase0, %p0 = %none, %p1 = %none, '
                  f'%prow = %c0, %pchunk = %c0, %pvalid = %false) -> ({CT}) : i32 {{', 1)
    c = c.replace('%cend:2 = scf.for', '%cend:7 = scf.for', 1)
    # In k-steps 0 and 1, after the step's wgmmas are issued: the pending tile's halves.
    rel = re.search(r'        scf.if %has_prev \{\n(?:.*\n){4}        \}\n', c)
    assert rel
    ins = f"""        // The previous tile's C, one half in each of the first two k-steps, while this
        // step's wgmmas run.
        %pchunk1 = arith.addi %pchunk, %c2 : i32
        %step0 = arith.cmpi eq, %i, %c0 : i32
        %send0 = arith.andi %step0, %pvalid : i1
{guarded(8, '%send0', '%p0', '%pchunk', '%prow')}
        %step1 = arith.cmpi eq, %i, %c1 : i32
        %send1 = arith.andi %step1, %pvalid : i1
{guarded(8, '%send1', '%p1', '%pchunk1', '%prow')}
"""
    c = c[:rel.end()] + ins + c[rel.end():]
    # The tile's end: what the k loop did not send, then this tile's C becomes the pending one.
    epi = re.search(r'      %row = arith.addi %offset_m, %c(0|64) : i32\n      %col1 = .*\n      scf.if %tma_ok \{\n(?:.*\n)*?      \}\n      scf.yield %res#2, %res#3 : i32, i32\n', c)
    assert epi, g
    row = epi.group(1)
    new_epi = f"""      // A pending tile whose halves the k loop had no step for (fewer than two k-steps).
      %pchunk1 = arith.addi %pchunk, %c2 : i32
      %short0 = arith.cmpi slt, %iters, %c1 : i32
      %late0 = arith.andi %short0, %pvalid : i1
{guarded(6, '%late0', '%p0', '%pchunk', '%prow')}
      %short1 = arith.cmpi slt, %iters, %c2 : i32
      %late1 = arith.andi %short1, %pvalid : i1
{guarded(6, '%late1', '%p1', '%pchunk1', '%prow')}
      %row = arith.addi %offset_m, %c{row} : i32
      %col1 = arith.addi %offset_n, %c128 : i32
      %o0 = tilus.cast %res#0 : {ACC} to {OUT}
      %o1 = tilus.cast %res#1 : {ACC} to {OUT}
      %direct = arith.xori %tma_ok, %true : i1
      scf.if %direct {{
        tilus.store_global %o0, %gc[%row, %offset_n] : {OUT}, !tilus.global<?x?xf16>
        tilus.store_global %o1, %gc[%row, %col1] : {OUT}, !tilus.global<?x?xf16>
      }}
      %chunk0 = arith.divui %offset_n, %c64 : i32
      scf.yield %res#2, %res#3, %o0, %o1, %row, %chunk0, %tma_ok : {CT}
"""
    c = c[:epi.start()] + new_epi + c[epi.end():]
    # After the last tile: its C.
    c = c.replace('    threadgroup.single_thread {\n      tma.wait_group 0\n    }\n',
                  f"""    %lchunk1 = arith.addi %cend#5, %c2 : i32
    scf.if %cend#6 {{
{half(6, '%cend#2', '%cend#5', '%cend#4')}
{half(6, '%cend#3', '%lchunk1', '%cend#4')}
    }}
    threadgroup.single_thread {{
      tma.wait_group 0
    }}
""", 1)
    body = body[:start] + c + body[end:]

out = os.environ.get('OUTF', 'target/gen/hopper_matmul_v8_deferred_epilogue.mlir')
write(out, head + body)
