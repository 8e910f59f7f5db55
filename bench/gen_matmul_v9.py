# Writes target/gen/hopper_matmul_v9_stream_k.mlir (issue 17): v6 (bench/gen_matmul_v6.py, with its
# producer warpgroup and setmaxnreg, REGS=1) with the last waves of tiles shared out by k-steps
# (stream-K) instead of by whole tiles.
#   python3 bench/gen_matmul_v9.py
import os, re, sys

sys.path.insert(0, os.path.dirname(__file__))
from v6_base import ACC, G3, OUT, SC, SC1, SC3, tma_store, v6_regs_text, write  # noqa: E402

src = v6_regs_text()
GWS = "!tilus.global<?x?xf32>"
GSEM = "!tilus.global<?xi32>"

head = """// Hopper matmul v9: v6 (examples/hopper_matmul_v6_tma_epilogue.mlir, with a producer
// warpgroup and setmaxnreg 40/232) with stream-K for the last waves (issue 17). Written by
// bench/gen_matmul_v9.py.
//
// v6 deals whole 256 x 256 cluster tiles to the clusters, so when the tile count T is not a
// multiple of the cluster count G the last wave leaves clusters idle: at 4096^3 on 132 SMs,
// 256 tiles over 66 clusters take 4 rounds where 3.88 would do, 3% of the run. cuBLAS's kernel
// for that shape has the same tile, stages and cluster, and the same rounding. Here:
//
// * with R = T / G full rounds and r = T mod G > 0, the first R - 1 rounds are dealt as
//   whole tiles (data parallel, v6's walk), and the remaining G + r tiles are cut into their
//   k-steps: the (G + r) * iters steps are split into G equal ranges, one per cluster, each
//   longer than a tile's k loop, so a tile is cut at most once. Every cluster ends at the
//   same k-step count, within one;
// * a cluster walks its range from the end: a cut tile's head (k = 0 up to the cut) is the
//   first thing cluster c computes, its tail (the cut to the end of K) the last thing cluster
//   c + 1 computes. The head's consumers store their f32 partial sums to the workspace `ws`
//   ([M, N] f32, at the tile's place) and set the warpgroup's semaphore
//   `sem[(2 t + rank) * 2 + g]` to 1; the tail's consumers wait for 1, add the workspace to
//   their accumulators, send C through v6's TMA epilogue and set the semaphore back to 0 for
//   the next launch. The sum is head + tail whatever the timing (deterministic); a cluster
//   only waits for a lower cluster's first item, so the wait ends (and is short), on the GPU
//   (the grid is resident: one CTA per SM) and in the interpreter (one cluster at a time);
// * no cut when T is a multiple of G, T < G, or K is empty: v6's walk.
//
// Check: tilus-opt target/gen/hopper_matmul_v9_stream_k.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
// The defaults (4 tiles over 2 clusters: no cut), 4 tiles over 3 clusters (every cluster cuts,
// uneven ranges), 6 tiles over 4 clusters, one k-step, K = 0, N not a multiple of 64:
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg num_sms=6 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg num_sms=6 --schedule random --seed 11 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg m=768 --arg num_sms=8 --arg k=448 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg num_sms=6 --arg k=64 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg num_sms=6 --arg k=0 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg num_sms=6 --arg n=200 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok

// CHECK-LABEL: tilus.kernel @hopper_matmul_stream_k
// CHECK-SAME:    cluster(2, 1, 1)
// CHECK:         threadgroup.warp_group warps(0, 4) {
// CHECK:             tilus.lock_semaphore
// CHECK:             tma.shared_to_global
// CHECK:             tilus.release_semaphore
"""
k = src.index('\ntilus.kernel @hopper_matmul_tma_epilogue') + 1
body = src[k:].replace('@hopper_matmul_tma_epilogue', '@hopper_matmul_stream_k', 1)
body = body.replace('%num_sms: i32)', '%num_sms: i32, %ws: !tilus.ptr<f32>, %sem: !tilus.ptr<i32>)', 1)
body = body.replace('tilus.outputs = ["c"]', 'tilus.inputs = {sem = "zeros"}, tilus.outputs = ["c"]', 1)
body = body.replace('blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6)>)',
                    'blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d6)>)', 1)
assert '%ws: ' in body and 'sem = "zeros"' in body and 'd8) -> (d6)' in body

# The walk: units u = 0 .. n_units of this cluster, whole tiles first, then its k-step range.
walk = """
  // The walk (see the header): n_dp whole tiles dealt round-robin, then the k-step range
  // [s0, s1) over the remaining tiles.
  %rounds = arith.divui %num_tiles, %nclusters : i32
  %rounds_g = arith.muli %rounds, %nclusters : i32
  %rest = arith.subi %num_tiles, %rounds_g : i32
  %has_rest = arith.cmpi sgt, %rest, %c0 : i32
  %has_round = arith.cmpi sge, %rounds, %c1 : i32
  %has_k = arith.cmpi sgt, %iters, %c0 : i32
  %sk_a = arith.andi %has_rest, %has_round : i1
  %sk_on = arith.andi %sk_a, %has_k : i1
  %dp_rounds = arith.subi %rounds, %c1 : i32
  %dp_cut = arith.muli %dp_rounds, %nclusters : i32
  %n_dp_all = arith.select %sk_on, %dp_cut, %num_tiles : i32
  %dp_left = arith.subi %n_dp_all, %cid : i32
  %dp_up = arith.addi %dp_left, %nclusters : i32
  %dp_up1 = arith.subi %dp_up, %c1 : i32
  %dp_mine0 = arith.divsi %dp_up1, %nclusters : i32
  %dp_mine = arith.maxsi %dp_mine0, %c0 : i32
  %sk_tiles = arith.subi %num_tiles, %n_dp_all : i32
  %sk_steps = arith.muli %sk_tiles, %iters : i32
  %s0n = arith.muli %cid, %sk_steps : i32
  %s0 = arith.divui %s0n, %nclusters : i32
  %cid1 = arith.addi %cid, %c1 : i32
  %s1n = arith.muli %cid1, %sk_steps : i32
  %s1 = arith.divui %s1n, %nclusters : i32
  %iters1 = arith.maxsi %iters, %c1 : i32
  %f0 = arith.divui %s0, %iters1 : i32
  %f1 = arith.ceildivsi %s1, %iters1 : i32
  %sk_mine0 = arith.subi %f1, %f0 : i32
  %sk_mine = arith.select %sk_on, %sk_mine0, %c0 : i32
  %n_units = arith.addi %dp_mine, %sk_mine : i32
"""
nt = '  %num_tiles = arith.muli %tiles_m, %tiles_n : i32\n'
assert nt in body
body = body.replace(nt, nt + walk, 1)
body = body.replace('  %zero = arith.constant 0.0 : f32\n',
                    '  %zero = arith.constant 0.0 : f32\n  %true = arith.constant true\n', 1)
# The workspace and the semaphores, beside C's views.
gc = '  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>\n'
assert gc in body
body = body.replace(gc, gc + f"""  %gws = tilus.global_view %ws[%m, %n] : !tilus.ptr<f32> -> {GWS}
  %tiles_m2 = arith.muli %tiles_m, %c2 : i32
  %tiles4 = arith.muli %tiles_m2, %tiles_n : i32
  %num_sems = arith.muli %tiles4, %c2 : i32
  %gsem = tilus.global_view %sem[%num_sems] : !tilus.ptr<i32> -> {GSEM}
""", 1)


def decode(ind):
    p = ' ' * ind
    return f"""{p}// Unit u: a whole tile, or the part of a tile in this cluster's k-step range.
{p}%is_dp = arith.cmpi slt, %u, %dp_mine : i32
{p}%u_g = arith.muli %u, %nclusters : i32
{p}%t_dp = arith.addi %cid, %u_g : i32
{p}%j = arith.subi %u, %dp_mine : i32
{p}%f1m = arith.subi %f1, %c1 : i32
{p}%t_in = arith.subi %f1m, %j : i32
{p}%t_sk = arith.addi %n_dp_all, %t_in : i32
{p}%t = arith.select %is_dp, %t_dp, %t_sk : i32
{p}%t_base = arith.muli %t_in, %iters : i32
{p}%kb_s = arith.subi %s0, %t_base : i32
{p}%kb_c = arith.maxsi %kb_s, %c0 : i32
{p}%ke_s = arith.subi %s1, %t_base : i32
{p}%ke_c = arith.minsi %ke_s, %iters : i32
{p}%kb = arith.select %is_dp, %c0, %kb_c : i32
{p}%ke = arith.select %is_dp, %iters, %ke_c : i32
"""


old_head = 'scf.for %t = %cid to %num_tiles step %nclusters iter_args('
assert body.count(old_head) == 3
parts = body.split(old_head)
out = parts[0]
for p in parts[1:]:
    line_end = p.index('\n') + 1
    # indentation of the next line (the loop body)
    ind = len(p[line_end:]) - len(p[line_end:].lstrip(' '))
    out += 'scf.for %u = %c0 to %n_units step %c1 iter_args(' + p[:line_end] + decode(ind) + p[line_end:]
body = out
assert body.count('scf.for %i = %c0 to %iters step %c1') == 3
body = body.replace('scf.for %i = %c0 to %iters step %c1', 'scf.for %i = %kb to %ke step %c1')


def tma_half(ind, val, chunk):
    return f"{' ' * ind}%o{val} = tilus.cast %acc#{val} : {ACC} to {OUT}\n" + tma_store(ind, f'%o{val}', chunk, '%row')


def epilogue(g):
    return f"""      %row = arith.addi %offset_m, %c{64 * g} : i32
      %col1 = arith.addi %offset_n, %c128 : i32
      // A cut tile's head (cluster c, first in its range) hands its partial sums to the tail
      // (cluster c + 1, last in its range) through the workspace.
      %is_tail = arith.cmpi sgt, %kb, %c0 : i32
      %k_short = arith.cmpi slt, %ke, %iters : i32
      %not_tail = arith.xori %is_tail, %true : i1
      %is_head = arith.andi %not_tail, %k_short : i1
      %sem_t = arith.muli %t, %c2 : i32
      %sem_r = arith.addi %sem_t, %rank : i32
      %sem_2 = arith.muli %sem_r, %c2 : i32
      %sem_i = arith.addi %sem_2, %c{g} : i32
      scf.if %is_head {{
        tilus.store_global %res#0, %gws[%row, %offset_n] : {ACC}, {GWS}
        tilus.store_global %res#1, %gws[%row, %col1] : {ACC}, {GWS}
        // Every thread's partial sums are written before one thread hands them on.
        threadgroup.sync
        threadgroup.single_thread {{
          tilus.release_semaphore %gsem[%sem_i], %c1 : {GSEM}
        }}
      }} else {{
        %acc:2 = scf.if %is_tail -> ({ACC}, {ACC}) {{
          threadgroup.single_thread {{
            tilus.lock_semaphore %gsem[%sem_i], %c1 : {GSEM}
          }}
          threadgroup.sync
          %w0 = tilus.load_global %gws[%row, %offset_n] : {GWS} -> {ACC}
          %q0 = tilus.add %res#0, %w0 : ({ACC}, {ACC}) -> {ACC}
          threadgroup.sync
          %w1 = tilus.load_global %gws[%row, %col1] : {GWS} -> {ACC}
          %q1 = tilus.add %res#1, %w1 : ({ACC}, {ACC}) -> {ACC}
          scf.yield %q0, %q1 : {ACC}, {ACC}
        }} else {{
          scf.yield %res#0, %res#1 : {ACC}, {ACC}
        }}
        scf.if %tma_ok {{
          // Through this warpgroup's buffer, one 64 x 128 half at a time.
          %chunk0 = arith.divui %offset_n, %c64 : i32
          %chunk1 = arith.addi %chunk0, %c2 : i32
{tma_half(10, 0, '%chunk0')}
{tma_half(10, 1, '%chunk1')}
        }} else {{
          %out0 = tilus.cast %acc#0 : {ACC} to {OUT}
          tilus.store_global %out0, %gc[%row, %offset_n] : {OUT}, !tilus.global<?x?xf16>
          %out1 = tilus.cast %acc#1 : {ACC} to {OUT}
          tilus.store_global %out1, %gc[%row, %col1] : {OUT}, !tilus.global<?x?xf16>
        }}
        scf.if %is_tail {{
          threadgroup.single_thread {{
            tilus.release_semaphore %gsem[%sem_i], %c0 : {GSEM}
          }}
        }}
      }}
"""


for g in (0, 1):
    start = body.index(f'  threadgroup.warp_group warps({4 * g}, 4) {{\n')
    end = body.index('\n  }\n', start) + 5
    c = body[start:end]
    c = c.replace('    %cphase0 = mbarrier.consumer_initial_phase\n',
                  f"""    %cphase0 = mbarrier.consumer_initial_phase
    %sc_g = tilus.slice_shared %sc[%c{g}] : {SC} -> {SC1}
    %sc_g3 = tilus.reshape_shared %sc_g : {SC1} -> {SC3}
""", 1)
    epi = re.search(r'      %row = arith.addi %offset_m, %c(0|64) : i32\n      %col1 = .*\n      scf.if %tma_ok \{\n(?:.*\n)*?      \}\n(?=      scf.yield %res#2, %res#3 : i32, i32\n)', c)
    assert epi, g
    c = c[:epi.start()] + epilogue(g) + c[epi.end():]
    body = body[:start] + c + body[end:]

out = os.environ.get('OUTF', 'target/gen/hopper_matmul_v9_stream_k.mlir')
write(out, head + body)
