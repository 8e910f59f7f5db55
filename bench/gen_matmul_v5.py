# Writes examples/hopper_matmul_v5_cluster.mlir (issue 17): the persistent, warp-specialized,
# 2-CTA-cluster matmul whose two consumer warpgroups repeat the same code with different
# warpgroup, rows and A slice. `MC=0 OUTF=...` writes the variant without multicast (each CTA
# loads all of B), used to measure what multicast buys (docs/perf.md).
#   python3 bench/gen_matmul_v5.py
src = open('examples/hopper_matmul_v3_warp_specialized.mlir').read()
ref = src[src.index('// A naive reference'):]
L = "layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)"
ACC = f"!tilus.reg<64x128xf32, {L}>"
OUT = f"!tilus.reg<64x128xf16, {L}>"
import os
S = int(os.environ.get('STAGES', '4'))
MC = os.environ.get('MC', '1') == '1'
# N256=1: one m64n256k16 chain per consumer over a [256, 64] B stage instead of two m64n128k16
# chains over two [128, 64] halves (with multicast, the stage's two halves viewed as one by
# `tilus.reshape_shared`). STAGES=N sets the ring's depth (default 4); F0=1 releases each stage
# as soon as its wgmmas retire (`wait_group 0`) instead of one k-step later.
N256 = os.environ.get('N256', '0') == '1'
F0 = os.environ.get('F0', '0') == '1'
if N256:
    ACC = "!tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>"
    OUT = "!tilus.reg<64x256xf16, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>"
OUTF = os.environ.get('OUTF', 'examples/hopper_matmul_v5_cluster.mlir')
BARS = f"!mbarrier.barriers<{S}>"
SA = f"!tilus.shared<{S}x2x64x64xf16, swizzle = 128B>"
SB = f"!tilus.shared<{S}x2x128x64xf16, swizzle = 128B>"
A64 = "!tilus.shared<64x64xf16, swizzle = 128B>"
B128 = "!tilus.shared<128x64xf16, swizzle = 128B>"
B128T = "!tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>"
B256 = "!tilus.shared<256x64xf16, swizzle = 128B>"
B256T = "!tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>"
B2 = "!tilus.shared<2x128x64xf16, swizzle = 128B>"
if N256 and not MC:
    SB = f"!tilus.shared<{S}x256x64xf16, swizzle = 128B>"
def ind(s, n): return "\n".join((" " * n + l) if l else l for l in s.strip("\n").split("\n"))
coords = """%num_m = arith.ceildivsi %m, %c256 : i32
%num_n = arith.ceildivsi %n, %c256 : i32
%per_group = arith.muli %num_m, %c8 : i32
%group, %in_group = tilus.fast_divmod %t, %per_group
%first_n = arith.muli %group, %c8 : i32
%left_n = arith.subi %num_n, %first_n : i32
%width = arith.minsi %left_n, %c8 : i32
%m_blk = arith.divui %in_group, %width : i32
%n_in = arith.remui %in_group, %width : i32
%n_blk = arith.addi %first_n, %n_in : i32
%m_pair = arith.muli %m_blk, %c256 : i32
%offset_m = arith.addi %m_pair, %my_rows : i32
%offset_n = arith.muli %n_blk, %c256 : i32"""
def adv(st, ph): return f"""%s1 = arith.addi {st}, %c1 : i32
%wrap = arith.cmpi eq, %s1, %cS : i32
%ns = arith.select %wrap, %c0, %s1 : i32
%flip = arith.xori {ph}, %c1 : i32
%np = arith.select %wrap, %flip, {ph} : i32"""
release = (lambda s: f"""threadgroup.single_thread {{
  mbarrier.arrive_expect_tx_remote %empty[{s} : i32], %c0, rank(%c0) scope(cta) : {BARS}
  mbarrier.arrive_expect_tx_remote %empty[{s} : i32], %c0, rank(%c1) scope(cta) : {BARS}
}}""") if MC else (lambda s: f"""threadgroup.single_thread {{
  mbarrier.arrive %empty[{s} : i32] : {BARS}
}}""")
EPI_HI = """    %out1 = tilus.cast %res#1 : {ACC} to {OUT}
    tilus.store_global %out1, %gc[%row, %col1] : {OUT}, !tilus.global<?x?xf16>""".format(ACC=ACC, OUT=OUT)
MMA_N128 = f"""      %sb0 = tilus.slice_shared %sb[%st, %c0] : {SB} -> {B128}
      %sb1 = tilus.slice_shared %sb[%st, %c1] : {SB} -> {B128}
      %sb0t = tilus.permute_shared %sb0 [1, 0] : {B128} -> {B128T}
      %sb1t = tilus.permute_shared %sb1 [1, 0] : {B128} -> {B128T}
      wgmma.fence
      %lo2 = wgmma.mma %sa_s, %sb0t, %lo : {A64}, {B128T}, {ACC}
      %hi2 = wgmma.mma %sa_s, %sb1t, %hi : {A64}, {B128T}, {ACC}"""
MMA_N256 = (f"""      %sb2 = tilus.slice_shared %sb[%st] : {SB} -> {B2}
      %sbs = tilus.reshape_shared %sb2 : {B2} -> {B256}
""" if MC else f"""      %sbs = tilus.slice_shared %sb[%st] : {SB} -> {B256}
""") + f"""      %sbt = tilus.permute_shared %sbs [1, 0] : {B256} -> {B256T}
      wgmma.fence
      %lo2 = wgmma.mma %sa_s, %sbt, %lo : {A64}, {B256T}, {ACC}"""
def consumer(g):
    mma_block = MMA_N256 if N256 else MMA_N128
    return f"""// Consumer {g}: warpgroup [{128*g}, {128*g+128}), rows [{64*g}, {64*g+64}) of this CTA's 128.
threadgroup.warp_group warps({4*g}, 4) {{
  %cphase0 = mbarrier.consumer_initial_phase
  %cend:2 = scf.for %t = %cid to %num_tiles step %nclusters iter_args(%stage = %c0, %phase = %cphase0) -> (i32, i32) : i32 {{
{ind(coords, 4)}
    %acc0 = tilus.register_tensor init(%zero : f32) : {ACC}
    %res:5 = scf.for %i = %c0 to %iters step %c1 iter_args(%lo = %acc0, %hi = %acc0, %st = %stage, %ph = %phase, %prev = %cm1) -> ({ACC}, {ACC}, i32, i32, i32) : i32 {{
      mbarrier.wait %full[%st : i32], phase(%ph) : {BARS}
      %sa_s = tilus.slice_shared %sa[%st, %c{g}] : {SA} -> {A64}
{mma_block}
      wgmma.commit_group
      // The previous k-step's wgmmas have retired: release their stage in both CTAs (the
      // peer's producer multicasts its half of B into this CTA's copy of the stage).
      wgmma.wait_group 1
      %has_prev = arith.cmpi sge, %prev, %c0 : i32
      scf.if %has_prev {{
{ind(release('%prev'), 8)}
      }}
{ind(adv('%st', '%ph'), 6)}
      scf.yield %lo2, %hi2, %ns, %np, %st : {ACC}, {ACC}, i32, i32, i32
    }}
    wgmma.wait_group 0
    %had = arith.cmpi sge, %res#4, %c0 : i32
    scf.if %had {{
{ind(release('%res#4'), 6)}
    }}
    %row = arith.addi %offset_m, %c{64*g} : i32
    %col1 = arith.addi %offset_n, %c128 : i32
    %out0 = tilus.cast %res#0 : {ACC} to {OUT}
    tilus.store_global %out0, %gc[%row, %offset_n] : {OUT}, !tilus.global<?x?xf16>
{"" if N256 else EPI_HI}
    scf.yield %res#2, %res#3 : i32, i32
  }}
}}"""
def f0_releases(text):
    """F0=1: release the stage just used once its wgmmas retire; nothing is left to release
    after the loop."""
    i = text.index('      wgmma.wait_group 1\n')
    j = text.index('\n      }\n', i) + len('\n      }\n')
    text = text[:i] + '      wgmma.wait_group 0\n' + ind(release('%st'), 6) + '\n' + text[j:]
    i = text.index('    %had = arith.cmpi sge, %res#')
    j = text.index('\n    }\n', i) + len('\n    }\n')
    return text[:i] + text[j:]
def consumer(g, _gen=consumer):
    text = _gen(g)
    if not N256:
        return f0_releases(text) if F0 else text
    # One accumulator: drop `hi` from the k loop's iter_args and renumber its results.
    for old, new in [
        (f"%res:5 = scf.for %i = %c0 to %iters step %c1 iter_args(%lo = %acc0, %hi = %acc0, ", f"%res:4 = scf.for %i = %c0 to %iters step %c1 iter_args(%lo = %acc0, "),
        (f"-> ({ACC}, {ACC}, i32, i32, i32)", f"-> ({ACC}, i32, i32, i32)"),
        (f"scf.yield %lo2, %hi2, %ns, %np, %st : {ACC}, {ACC}, i32, i32, i32", f"scf.yield %lo2, %ns, %np, %st : {ACC}, i32, i32, i32"),
        ("%res#4", "%res#3x"), ("scf.yield %res#2, %res#3 : i32, i32", "scf.yield %res#1, %res#2 : i32, i32"), ("%res#3x", "%res#3"),
    ]:
        assert old in text, old
        text = text.replace(old, new)
    return f0_releases(text) if F0 else text
bload = f"""      tma.global_to_shared %gb[%b_rows, %kk : i32, i32], %sb_mine, %full[%st : i32] multicast(%both) : !tilus.global<?x?xf16>, {B128}, {BARS}
""" if MC else f"""      %sb_all = tilus.slice_shared %sb[%st] : {SB} -> {B256}
      tma.global_to_shared %gb[%offset_n, %kk : i32, i32], %sb_all, %full[%st : i32] : !tilus.global<?x?xf16>, {B256}, {BARS}
""" if N256 else f"""      %sb_0 = tilus.slice_shared %sb[%st, %c0] : {SB} -> {B128}
      %sb_1 = tilus.slice_shared %sb[%st, %c1] : {SB} -> {B128}
      %b_hi = arith.addi %offset_n, %c128 : i32
      tma.global_to_shared %gb[%offset_n, %kk : i32, i32], %sb_0, %full[%st : i32] : !tilus.global<?x?xf16>, {B128}, {BARS}
      tma.global_to_shared %gb[%b_hi, %kk : i32, i32], %sb_1, %full[%st : i32] : !tilus.global<?x?xf16>, {B128}, {BARS}
"""
sb_mine = """      %sb_mine = tilus.slice_shared %sb[%st, %rank] : {SB} -> {B128}
""".format(SB=SB, B128=B128)
producer = f"""// Producer: warp 8 of each CTA.
threadgroup.single_warp warp(8) {{
  %pphase0 = mbarrier.producer_initial_phase
  %pend:2 = scf.for %t = %cid to %num_tiles step %nclusters iter_args(%stage = %c0, %phase = %pphase0) -> (i32, i32) : i32 {{
{ind(coords, 4)}
    %row1 = arith.addi %offset_m, %c64 : i32
    %b_rows = arith.addi %offset_n, %my_rows : i32
    %r:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%st = %stage, %ph = %phase) -> (i32, i32) : i32 {{
      // Both CTAs' consumers have released the stage (this producer writes into both).
      mbarrier.wait %empty[%st : i32], phase(%ph) : {BARS}
      %kk = arith.muli %i, %c64 : i32
      %sa0 = tilus.slice_shared %sa[%st, %c0] : {SA} -> {A64}
      %sa1 = tilus.slice_shared %sa[%st, %c1] : {SA} -> {A64}
{"" if (N256 and not MC) else sb_mine}      // 16 KiB of A from this CTA, 16 KiB of B from each CTA of the pair.
      threadgroup.single_thread {{
        mbarrier.arrive_expect_tx %full[%st : i32], %tx_bytes : {BARS}
      }}
      tma.global_to_shared %ga[%offset_m, %kk : i32, i32], %sa0, %full[%st : i32] : !tilus.global<?x?xf16>, {A64}, {BARS}
      tma.global_to_shared %ga[%row1, %kk : i32, i32], %sa1, %full[%st : i32] : !tilus.global<?x?xf16>, {A64}, {BARS}
{bload}{ind(adv('%st', '%ph'), 6)}
      scf.yield %ns, %np : i32, i32
    }}
    scf.yield %r#0, %r#1 : i32, i32
  }}
  // Drain: every stage released by both CTAs' consumers, so no peer arrives on this CTA's
  // barriers after it exits.
  %tail:2 = scf.for %j = %c0 to %cS step %c1 iter_args(%st = %pend#0, %ph = %pend#1) -> (i32, i32) : i32 {{
    mbarrier.wait %empty[%st : i32], phase(%ph) : {BARS}
{ind(adv('%st', '%ph'), 4)}
    scf.yield %ns, %np : i32, i32
  }}
}}"""
head = f"""// Hopper matmul, persistent, warp specialized, in clusters of two CTAs that share B
// (issue 17, step 2): the v4 kernel with
//
// * a cluster(2, 1, 1): the two CTAs of a cluster take the two 128-row halves of a 256 x 256
//   cluster tile, so they need the same 256 x 64 slice of B per k-step. Each CTA loads its
//   own 128 x 64 A slice and ONE half of B, multicast to both CTAs (`multicast(%both)`, mask
//   0b11): per CTA 32 KiB leave L2 per stage instead of 48 KiB;
// * B kept as two [128, 64] halves per stage (`sb` is [S, 2, 128, 64]): each consumer runs two
//   m64n128k16 wgmma chains (accumulators `lo` and `hi`, columns [0, 128) and [128, 256));
// * empty[S] of count 4: each consumer warpgroup's releasing thread arrives once on the
//   stage's barrier in BOTH CTAs (`arrive_expect_tx_remote` of 0 bytes, rank 0 and 1),
//   since the peer's producer writes into this CTA's stage too. The arrivals release at CTA
//   scope (`scope(cta)`, as CUTLASS's cluster barriers do): the wgmma reads they publish are
//   retired by `wgmma.wait_group`, and a cluster-scope release made the whole kernel 2.2x
//   slower on the H100 (docs/perf.md). full[S] of count 1 expects
//   48 KiB (16 A + 16 own B + 16 peer B); a peer's bytes may land before this CTA's
//   expect-tx, which the transaction count allows;
// * the producer ends by waiting for every stage to be released once more, so no peer arrives
//   on this CTA's barriers after it exits. The lowering makes the barriers' initialization
//   visible to the cluster with a cluster barrier before any CTA starts.
//
// Grid: `num_sms` CTAs (even), cluster c = block / 2 takes cluster tiles c, c + num_sms / 2,
// ... < num_tiles = (M ceildiv 256) * (N ceildiv 256) (computed in the kernel), rasterized as in v3 (groups of 8).
//
// Check: tilus-opt examples/hopper_matmul_v5_cluster.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --schedule random --seed 5 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg k=64 --arg num_sms=2 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok

// CHECK-LABEL: tilus.kernel @hopper_matmul_cluster
// CHECK-SAME:    cluster(2, 1, 1)
// CHECK:         mbarrier.alloc counts [4, 4, 4, 4]
// CHECK:         threadgroup.single_warp warp(8) {{
// CHECK:           multicast(%
// CHECK:         threadgroup.warp_group warps(0, 4) {{
// CHECK:               wgmma.wait_group 1
// CHECK:                 mbarrier.arrive_expect_tx_remote
tilus.kernel @hopper_matmul_cluster(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32, %num_sms: i32)
    warps(9) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6)>) cluster(2, 1, 1)
    attributes {{tilus.args = {{m = 512, n = 512, k = 320, num_sms = 4}}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"}} {{
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %cm1 = arith.constant -1 : i32
  %cS = arith.constant {S} : i32
  %c8 = arith.constant 8 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c256 = arith.constant 256 : i32
  %tx_bytes = arith.constant 49152 : i32
  %both = arith.constant 3 : i32
  %zero = arith.constant 0.0 : f32
  %pid = tilus.block_id x
  %nblocks = tilus.num_blocks x
  %rank = arith.remui %pid, %c2 : i32
  %cid = arith.divui %pid, %c2 : i32
  %nclusters = arith.divui %nblocks, %c2 : i32
  %my_rows = arith.muli %rank, %c128 : i32
  %iters = arith.ceildivsi %k, %c64 : i32
  %tiles_m = arith.ceildivsi %m, %c256 : i32
  %tiles_n = arith.ceildivsi %n, %c256 : i32
  %num_tiles = arith.muli %tiles_m, %tiles_n : i32

  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %sa = tilus.shared_tensor : {SA}
  %sb = tilus.shared_tensor : {SB}
  %full = mbarrier.alloc counts [{", ".join(["1"]*S)}] : {BARS}
  %empty = mbarrier.alloc counts [{", ".join(["4" if MC else "2"]*S)}] : {BARS}

{ind(producer, 2)}

{ind(consumer(0), 2)}

{ind(consumer(1), 2)}

  threadgroup.sync
  tilus.free_shared %sa : {SA}
  tilus.free_shared %sb : {SB}
}}

"""
open(OUTF, 'w').write(head.replace("{{", "{").replace("}}", "}") + ref)
