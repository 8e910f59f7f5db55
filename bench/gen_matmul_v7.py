# Writes examples/hopper_matmul_v7_split_k.mlir (issue 17): the persistent, warp-specialized
# matmul for shapes with fewer 128 x 256 tiles than SMs, which splits K across blocks and
# adds the partial sums in order through a global workspace and per-tile semaphores.
#   python3 bench/gen_matmul_v7.py
import os
S = 4
# BN = 128 * NCH columns per tile: NCH m64n128 wgmma chains per consumer warpgroup.
NCH = int(os.environ.get('NCH', '1'))
BN = 128 * NCH
# The fewest k-steps (of 64) a split may have: fewer would spend more on the partial sums'
# round trip than the split saves.
MINK = int(os.environ.get('MINK', '16'))
OUTF = os.environ.get('OUTF', 'examples/hopper_matmul_v7_split_k.mlir')
L = "layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)"
ACC = f"!tilus.reg<64x128xf32, {L}>"
OUT = f"!tilus.reg<64x128xf16, {L}>"
BARS = f"!mbarrier.barriers<{S}>"
SA = f"!tilus.shared<{S}x2x64x64xf16, swizzle = 128B>"
SB = f"!tilus.shared<{S}x{NCH}x128x64xf16, swizzle = 128B>"
A64 = "!tilus.shared<64x64xf16, swizzle = 128B>"
B128 = "!tilus.shared<128x64xf16, swizzle = 128B>"
B128T = "!tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>"
SC = "!tilus.shared<2x64x128xf16, swizzle = 128B>"
SC1 = "!tilus.shared<64x128xf16, swizzle = 128B>"
SC3 = "!tilus.shared<64x2x64xf16, swizzle = 128B>"
G = "!tilus.global<?x?xf16>"
GW = "!tilus.global<?x?xf32>"
G3 = "!tilus.global<?x?x64xf16, strides = [?, 64, 1]>"
GS = "!tilus.global<?xi32>"


def ind(s, n):
    return "\n".join((" " * n + l) if l else l for l in s.strip("\n").split("\n"))


# The work item `w` of this block: tile t = w mod tiles (rasterized in groups of 8 columns of
# tiles, as in v3-v6), split s = w / tiles, k-steps [k_lo, k_hi).
item = """%t, %s = tilus.fast_divmod %w, %num_tiles
%s_swap = arith.addi %s, %c0 : i32
%per_group = arith.muli %tiles_m, %c8 : i32
%group, %in_group = tilus.fast_divmod %t, %per_group
%first_n = arith.muli %group, %c8 : i32
%left_n = arith.subi %tiles_n, %first_n : i32
%width = arith.minsi %left_n, %c8 : i32
%m_blk = arith.divui %in_group, %width : i32
%n_in = arith.remui %in_group, %width : i32
%n_blk = arith.addi %first_n, %n_in : i32
%offset_m = arith.muli %m_blk, %c128 : i32
%offset_n = arith.muli %n_blk, %cBN : i32
%k_lo = arith.muli %s_swap, %kper : i32
%k_end = arith.addi %k_lo, %kper : i32
%k_hi = arith.minsi %k_end, %iters : i32
%nk = arith.subi %k_hi, %k_lo : i32"""
# fast_divmod gives (quotient, remainder): w = s * tiles + t.
item = item.replace("%t, %s = tilus.fast_divmod %w, %num_tiles\n%s_swap = arith.addi %s, %c0 : i32",
                    "%s_swap, %t = tilus.fast_divmod %w, %num_tiles")


def adv(st, ph):
    return f"""%s1 = arith.addi {st}, %c1 : i32
%wrap = arith.cmpi eq, %s1, %cS : i32
%ns = arith.select %wrap, %c0, %s1 : i32
%flip = arith.xori {ph}, %c1 : i32
%np = arith.select %wrap, %flip, {ph} : i32"""


def release(s):
    return f"""threadgroup.single_thread {{
  mbarrier.arrive %empty[{s} : i32] : {BARS}
}}"""


def tma_half(res, chunk):
    return f"""threadgroup.single_thread {{
  tma.wait_group 0 read
}}
threadgroup.sync
%o{res} = tilus.cast %sum#{res} : {ACC} to {OUT}
tilus.store_shared %o{res}, %sc_g : {OUT}, {SC1}
tma.fence_proxy_async shared
threadgroup.sync
threadgroup.single_thread {{
  tma.shared_to_global %sc_g3, %gc3[%row, {chunk}, %c0 : i32, i32, i32] : {SC3}, {G3}
  tma.commit_group
}}"""


def consumer(g):
    tma_halves = "\n".join(ind(tma_half(c, f'%chunk{c}'), 2) for c in range(NCH))
    chunks = "\n".join(f"  %chunk{c} = arith.addi %chunk0, %c{2*c} : i32" for c in range(1, NCH))
    direct = "\n".join(f"""  %out{c} = tilus.cast %sum#{c} : {ACC} to {OUT}
  tilus.store_global %out{c}, %gc[%row, %col{c}] : {OUT}, {G}""" for c in range(NCH))
    write_c = f"""scf.if %tma_ok {{
  %chunk0 = arith.divui %offset_n, %c64 : i32
{chunks}
{tma_halves}
}} else {{
{direct}
}}"""
    accs = ", ".join(f"%a{c} = %acc0" for c in range(NCH))
    acc_tys = ", ".join([ACC] * NCH)
    bviews = "\n".join(f"""      %sb{c} = tilus.slice_shared %sb[%st, %c{c}] : {SB} -> {B128}
      %sb{c}t = tilus.permute_shared %sb{c} [1, 0] : {B128} -> {B128T}""" for c in range(NCH))
    mmas = "\n".join(f"      %a{c}n = wgmma.mma %sa_s, %sb{c}t, %a{c} : {A64}, {B128T}, {ACC}" for c in range(NCH))
    new_accs = ", ".join(f"%a{c}n" for c in range(NCH))
    cols = "\n".join(f"    %col{c} = arith.addi %offset_n, %c{128*c} : i32" for c in range(NCH))
    res = lambda c: f"%res#{c}"
    firsts = ", ".join(res(c) for c in range(NCH))
    partial = "\n      threadgroup.sync\n".join(f"""      %p{c} = tilus.load_global %gws[%row, %col{c}] : {GW} -> {ACC}
      %q{c} = tilus.add %res#{c}, %p{c} : ({ACC}, {ACC}) -> {ACC}""" for c in range(NCH))
    qs = ", ".join(f"%q{c}" for c in range(NCH))
    ws_store = "\n".join(f"      tilus.store_global %sum#{c}, %gws[%row, %col{c}] : {ACC}, {GW}" for c in range(NCH))
    return f"""// Consumer {g}: warpgroup [{128*g}, {128*g+128}), rows [{64*g}, {64*g+64}) of each tile.
threadgroup.warp_group warps({4*g}, 4) {{
  threadgroup.setmaxnreg inc 232
  %cphase0 = mbarrier.consumer_initial_phase
  %sc_g = tilus.slice_shared %sc[%c{g}] : {SC} -> {SC1}
  %sc_g3 = tilus.reshape_shared %sc_g : {SC1} -> {SC3}
  %cend:2 = scf.for %w = %pid to %items step %nblocks iter_args(%stage = %c0, %phase = %cphase0) -> (i32, i32) : i32 {{
{ind(item, 4)}
    %acc0 = tilus.register_tensor init(%zero : f32) : {ACC}
    %res:{NCH + 2} = scf.for %i = %c0 to %nk step %c1 iter_args({accs}, %st = %stage, %ph = %phase) -> ({acc_tys}, i32, i32) : i32 {{
      mbarrier.wait %full[%st : i32], phase(%ph) : {BARS}
      %sa_s = tilus.slice_shared %sa[%st, %c{g}] : {SA} -> {A64}
{bviews}
      wgmma.fence
{mmas}
      wgmma.commit_group
      // The previous k-step's wgmmas have retired: release their stage.
      wgmma.wait_group 1
      %has_prev = arith.cmpi sge, %i, %c1 : i32
      %st_back = arith.addi %st, %cSm1 : i32
      %prev = arith.remui %st_back, %cS : i32
      scf.if %has_prev {{
{ind(release('%prev'), 8)}
      }}
{ind(adv('%st', '%ph'), 6)}
      scf.yield {new_accs}, %ns, %np : {acc_tys}, i32, i32
    }}
    // Drain: the last wgmmas retire and their stage is released.
    wgmma.wait_group 0
    %had = arith.cmpi sgt, %nk, %c0 : i32
    %last_back = arith.addi %res#{NCH}, %cSm1 : i32
    %last_st = arith.remui %last_back, %cS : i32
    scf.if %had {{
{ind(release('%last_st'), 6)}
    }}
    %row = arith.addi %offset_m, %c{64*g} : i32
{cols}
    // Splits of a tile take turns on this warpgroup's semaphore (tile * 2 + {g}): split s
    // waits for the value s, adds the partial sums of splits 0 .. s-1 from the workspace,
    // and hands on s + 1; the last split writes C and sets the semaphore back to 0 for the
    // next launch.
    %sem_i0 = arith.muli %t, %c2 : i32
    %sem_i = arith.addi %sem_i0, %c{g} : i32
    %split = arith.cmpi sgt, %splits, %c1 : i32
    scf.if %split {{
      threadgroup.single_thread {{
        tilus.lock_semaphore %gsem[%sem_i], %s_swap : {GS}
      }}
      threadgroup.sync
    }}
    %first = arith.cmpi eq, %s_swap, %c0 : i32
    %sum:{NCH} = scf.if %first -> ({acc_tys}) {{
      scf.yield {firsts} : {acc_tys}
    }} else {{
      // One {128}-column half at a time (the sync keeps a half's loads after the previous
      // half's adds, so 64 partial sums are live at once).
{partial}
      scf.yield {qs} : {acc_tys}
    }}
    %s_next = arith.addi %s_swap, %c1 : i32
    %last = arith.cmpi eq, %s_next, %splits : i32
    scf.if %last {{
{ind(write_c, 6)}
      scf.if %split {{
        threadgroup.single_thread {{
          tilus.release_semaphore %gsem[%sem_i], %c0 : {GS}
        }}
      }}
    }} else {{
{ws_store}
      // Every thread's partial sums are written before one thread releases the next split.
      threadgroup.sync
      threadgroup.single_thread {{
        tilus.release_semaphore %gsem[%sem_i], %s_next : {GS}
      }}
    }}
    scf.yield %res#{NCH}, %res#{NCH + 1} : i32, i32
  }}
  threadgroup.single_thread {{
    tma.wait_group 0
  }}
}}"""


pviews = "\n".join(f"""      %sb_{c} = tilus.slice_shared %sb[%st, %c{c}] : {SB} -> {B128}
      %b_row{c} = arith.addi %offset_n, %c{128*c} : i32""" for c in range(NCH))
pcopies = "\n".join(f"      tma.global_to_shared %gb[%b_row{c}, %kk : i32, i32], %sb_{c}, %full[%st : i32] : {G}, {B128}, {BARS}" for c in range(NCH))
producer = f"""// Producer: warpgroup [256, 384), which gives registers back (setmaxnreg dec 40); its first
// warp walks every work item of this block and loads its k-steps.
threadgroup.warp_group warps(8, 4) {{
  threadgroup.setmaxnreg dec 40
  threadgroup.single_warp {{
  %pphase0 = mbarrier.producer_initial_phase
  %pend:2 = scf.for %w = %pid to %items step %nblocks iter_args(%stage = %c0, %phase = %pphase0) -> (i32, i32) : i32 {{
{ind(item, 4)}
    %row1 = arith.addi %offset_m, %c64 : i32
    %r:2 = scf.for %i = %c0 to %nk step %c1 iter_args(%st = %stage, %ph = %phase) -> (i32, i32) : i32 {{
      // Both consumer warpgroups have released the stage.
      mbarrier.wait %empty[%st : i32], phase(%ph) : {BARS}
      %ki = arith.addi %k_lo, %i : i32
      %kk = arith.muli %ki, %c64 : i32
      %sa0 = tilus.slice_shared %sa[%st, %c0] : {SA} -> {A64}
      %sa1 = tilus.slice_shared %sa[%st, %c1] : {SA} -> {A64}
{pviews}
      threadgroup.single_thread {{
        mbarrier.arrive_expect_tx %full[%st : i32], %tx_bytes : {BARS}
      }}
      tma.global_to_shared %ga[%offset_m, %kk : i32, i32], %sa0, %full[%st : i32] : {G}, {A64}, {BARS}
      tma.global_to_shared %ga[%row1, %kk : i32, i32], %sa1, %full[%st : i32] : {G}, {A64}, {BARS}
{pcopies}
{ind(adv('%st', '%ph'), 6)}
      scf.yield %ns, %np : i32, i32
    }}
    scf.yield %r#0, %r#1 : i32, i32
  }}
  }}
}}"""

head = f"""// Hopper matmul v7: split-K for shapes with few tiles (issue 17). Written by
// bench/gen_matmul_v7.py (NCH={NCH}: {BN}-column tiles; MINK={MINK}).
//
// v6 (examples/hopper_matmul_v6_tma_epilogue.mlir) gives each CTA 128 x 256 of a 256 x 256
// cluster tile, so a 1024 x 1024 C keeps 32 of 132 SMs busy however long K is. Here:
//
// * tiles are 128 x {BN} (four times as many as v6's at BN = 128), and the work is `splits` x
//   `tiles` items, each a tile and a range of `kper` k-steps of 64: `splits` = the SM count
//   over the tile count, at most the k-steps over {MINK} (a shorter split spends more on the
//   partial sums' round trip than it saves), at least 1. `num_sms` blocks walk the items (w =
//   pid, pid + num_sms, ...; item w is split w / tiles of tile w mod tiles, so the first
//   splits of every tile come first). With as many tiles as SMs it is a persistent matmul
//   with v6's epilogue;
// * 12 warps: two consumer warpgroups that raise their registers to 232 (`setmaxnreg inc`:
//   the accumulators and the partial sums' round trip) and a producer warpgroup that lowers
//   its own to 40 (a block of 384 threads starts with 168 a thread);
// * the 4-stage ring carried across items, the `wait_group 1` releases (of the previous
//   stage, as in v4) and the TMA-store epilogue are v6's without the cluster (A [128, 64] and
//   B [{BN}, 64] per stage, loaded by this CTA);
// * the partial sums meet in order: consumer warpgroup g of split s of tile t waits until
//   semaphore `sem[2 t + g]` holds s (`tilus.lock_semaphore`, one thread spinning with
//   acquire loads, then a warpgroup sync), adds the f32 partial sums of splits 0 .. s-1
//   from the workspace `ws` ([M, N] f32) to its accumulators, and either stores the result
//   back to `ws` and sets the semaphore to s + 1 (a sync first, so every thread's stores come
//   before the one release store), or, as the last split, writes C and sets it back to 0 for
//   the next launch. A block only waits for an item of a smaller index, which a block is
//   running or has run (the whole grid is resident: one block per SM), so the chain ends.
//
// Check: tilus-opt examples/hopper_matmul_v7_split_k.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
// Two splits of each of 4 tiles (the defaults), three uneven splits (49 k-steps as 17, 17,
// 15), fewer blocks than tiles (no split), N not a multiple of 64 (direct stores), K = 0:
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --schedule random --seed 3 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg k=3136 --arg num_sms=16 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg num_sms=3 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg n=200 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg k=0 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok

// CHECK-LABEL: tilus.kernel @hopper_matmul_split_k
// CHECK:         threadgroup.warp_group warps(0, 4) {{
// CHECK:             tilus.lock_semaphore
// CHECK:             tilus.release_semaphore
tilus.kernel @hopper_matmul_split_k(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32, %num_sms: i32, %ws: !tilus.ptr<f32>, %sem: !tilus.ptr<i32>)
    warps(12) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d6)>)
    attributes {{tilus.args = {{m = 256, n = 256, k = 2048, num_sms = 8}}, tilus.inputs = {{sem = "zeros"}}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"}} {{
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %cS = arith.constant {S} : i32
  %cSm1 = arith.constant {S-1} : i32
  %c8 = arith.constant 8 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %cBN = arith.constant {BN} : i32
  %cMINK = arith.constant {MINK} : i32
  %tx_bytes = arith.constant {16384 * (1 + NCH)} : i32
  %zero = arith.constant 0.0 : f32
  %pid = tilus.block_id x
  %nblocks = tilus.num_blocks x
  %iters = arith.ceildivsi %k, %c64 : i32
  %tiles_m = arith.ceildivsi %m, %c128 : i32
  %tiles_n = arith.ceildivsi %n, %cBN : i32
  %num_tiles = arith.muli %tiles_m, %tiles_n : i32
  // splits = clamp(blocks / tiles, 1, k-steps); kper = ceil(k-steps / splits) k-steps per
  // split; then as many splits as that takes (no empty split).
  %per_sm = arith.divui %nblocks, %num_tiles : i32
  %most = arith.divui %iters, %cMINK : i32
  %sp0 = arith.minsi %per_sm, %most : i32
  %sp1 = arith.maxsi %sp0, %c1 : i32
  %kper0 = arith.ceildivsi %iters, %sp1 : i32
  %kper = arith.maxsi %kper0, %c1 : i32
  %sp2 = arith.ceildivsi %iters, %kper : i32
  %splits = arith.maxsi %sp2, %c1 : i32
  %items = arith.muli %num_tiles, %splits : i32

  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> {G}
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> {G}
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> {G}
  %gws = tilus.global_view %ws[%m, %n] : !tilus.ptr<f32> -> {GW}
  %tiles_m2 = arith.muli %tiles_m, %c2 : i32
  %num_sems = arith.muli %tiles_m2, %tiles_n : i32
  %gsem = tilus.global_view %sem[%num_sems] : !tilus.ptr<i32> -> {GS}
  %n_chunks = arith.floordivsi %n, %c64 : i32
  %gc3 = tilus.global_view %c[%m, %n_chunks] strides[%n] : !tilus.ptr<f16> -> {G3}
  %n_rem = arith.remui %n, %c64 : i32
  %tma_ok = arith.cmpi eq, %n_rem, %c0 : i32
  %sa = tilus.shared_tensor : {SA}
  %sb = tilus.shared_tensor : {SB}
  %sc = tilus.shared_tensor : {SC}
  %full = mbarrier.alloc counts [{", ".join(["1"]*S)}] : {BARS}
  %empty = mbarrier.alloc counts [{", ".join(["2"]*S)}] : {BARS}

{ind(producer, 2)}

{ind(consumer(0), 2)}

{ind(consumer(1), 2)}

  threadgroup.sync
  tilus.free_shared %sc : {SC}
  tilus.free_shared %sa : {SA}
  tilus.free_shared %sb : {SB}
}}

"""
src = open('examples/hopper_matmul_v5_cluster.mlir').read()
ref = src[src.index('// A naive reference'):]
open(OUTF, 'w').write(head.replace("{{", "{").replace("}}", "}") + ref)
