#!/usr/bin/env python3
"""Makes bench/cluster17/cluster.mlir: the passes' persistent matmul
(examples/hopper_matmul_persistent_passes.mlir) in 2-CTA clusters with B multicast.

The two CTAs of a cluster take the two 128-row halves of a 256 x 256 pair of tiles that share
B's 256 columns: each loads its own A (128 x 64 a stage) and half of B (128 x 64), multicast
into both CTAs' ring, so each CTA's stage still receives 48 KiB (the full barrier's count is
unchanged) while L2 serves B once per pair. A stage is written by both producers, so each
consumer warpgroup releases it in both CTAs (one thread, `arrive_expect_tx_remote` with 0
bytes to rank 0 and 1: four arrivals per stage and CTA), and each producer drains the ring
before its CTA exits (no peer arrives on, or writes into, an exited CTA). The tile walk is the
balanced one by clusters: R = ceildiv(pairs, clusters) rounds, the first ceildiv(pairs, R)
clusters take pairs c, c + W, ...

Usage: python3 bench/cluster17/make_cluster.py [STAGES]  (writes to stdout)
"""
import re
import sys

src = open("examples/hopper_matmul_persistent_passes.mlir").read()
lines = [l for l in src.splitlines() if not l.startswith("//")]
text = "\n".join(lines) + "\n"


def sub(old, new, count):
    global text
    n = text.count(old)
    if n != count:
        sys.exit(f"make_cluster: expected {count} of {old!r}, found {n}")
    text = text.replace(old, new)


sub("warps(12) blocks(#map) attributes", "warps(12) blocks(#map) cluster(2, 1, 1) attributes", 1)
sub("num_sms = 3 : i32}", "num_sms = 4 : i32}", 1)
sub(
    "    %1 = tilus.num_blocks x\n",
    "    %1 = tilus.num_blocks x\n"
    "    %c2_i32 = arith.constant 2 : i32\n"
    "    %rank = arith.remui %0, %c2_i32 : i32\n"
    "    %cid = arith.divui %0, %c2_i32 : i32\n"
    "    %ncl = arith.divui %1, %c2_i32 : i32\n"
    "    %myrows = arith.muli %rank, %c128_i32 : i32\n",
    1,
)
# Tiles counted in pairs of 128-row tiles; rounds balanced over clusters.
sub("%2 = arith.ceildivsi %m, %c128_i32 : i32", "%2 = arith.ceildivsi %m, %c256_i32 : i32", 1)
sub("%5 = arith.ceildivsi %4, %1 : i32", "%5 = arith.ceildivsi %4, %ncl : i32", 1)
sub("%9 = arith.cmpi slt, %0, %8 : i32", "%9 = arith.cmpi slt, %cid, %8 : i32", 1)
sub("scf.for %arg0 = %0 to %10 step %8", "scf.for %arg0 = %cid to %10 step %8", 3)
# This CTA's rows of the pair.
sub(
    "          %39 = arith.muli %36, %c128_i32 : i32\n",
    "          %p39 = arith.muli %36, %c256_i32 : i32\n"
    "          %39 = arith.addi %p39, %myrows : i32\n",
    1,
)
sub(
    "        %40 = arith.muli %37, %c128_i32 : i32\n",
    "        %q40 = arith.muli %37, %c256_i32 : i32\n"
    "        %40 = arith.addi %q40, %myrows : i32\n",
    2,
)
# B's ring as two 128-row halves a stage; this CTA loads its half into both CTAs.
sub("!tilus.shared<3x256x64xf16, swizzle = 128B>", "!tilus.shared<3x2x128x64xf16, swizzle = 128B>", 5)
sub(
    "            %43 = tilus.slice_shared %20[%arg4] : !tilus.shared<3x2x128x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>\n",
    "            %43 = tilus.slice_shared %20[%arg4, %rank] : !tilus.shared<3x2x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>\n"
    "            %brow = arith.addi %40, %myrows : i32\n",
    1,
)
sub(
    "tma.global_to_shared %12[%40, %42 : i32, i32], %43, %21[%arg4 : i32] : !tilus.global<?x?xf16>, !tilus.shared<256x64xf16, swizzle = 128B>",
    "tma.global_to_shared %12[%brow, %42 : i32, i32], %43, %21[%arg4 : i32] multicast(%c3_i32) : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>",
    1,
)
for v in ("%51", "%52"):
    sub(
        f"          {v} = tilus.slice_shared %20[%arg10] : !tilus.shared<3x2x128x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>\n",
        f"          {v}h = tilus.slice_shared %20[%arg10] : !tilus.shared<3x2x128x64xf16, swizzle = 128B> -> !tilus.shared<2x128x64xf16, swizzle = 128B>\n"
        f"          {v} = tilus.reshape_shared {v}h : !tilus.shared<2x128x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>\n",
        1,
    )
text = text.replace("%51h", "%h51").replace("%52h", "%h52")
# Release in both CTAs: one thread a warpgroup, four arrivals a stage and CTA.
sub("%22 = mbarrier.alloc counts [256, 256, 256]", "%22 = mbarrier.alloc counts [4, 4, 4]", 1)
sub(
    "          mbarrier.arrive %22[%arg10 : i32] : !mbarrier.barriers<3>\n",
    "          threadgroup.single_thread {\n"
    "            mbarrier.arrive_expect_tx_remote %22[%arg10 : i32], %c0_i32, rank(%c0_i32) scope(cta) : !mbarrier.barriers<3>\n"
    "            mbarrier.arrive_expect_tx_remote %22[%arg10 : i32], %c0_i32, rank(%c1_i32) scope(cta) : !mbarrier.barriers<3>\n"
    "          }\n",
    2,
)
# The producer drains the ring before its CTA may exit.
sub(
    "          scf.yield %41#0, %41#1 : i32, i32\n        }\n",
    "          scf.yield %41#0, %41#1 : i32, i32\n        }\n"
    "        %dr:2 = scf.for %j = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%s = %30#0, %p = %30#1) -> (i32, i32)  : i32 {\n"
    "          mbarrier.wait %22[%s : i32], phase(%p) : !mbarrier.barriers<3>\n"
    "          %s1 = arith.addi %s, %c1_i32 : i32\n"
    "          %w = arith.cmpi eq, %s1, %c3_i32 : i32\n"
    "          %ns = arith.select %w, %c0_i32, %s1 : i32\n"
    "          %f = arith.xori %p, %c1_i32 : i32\n"
    "          %np = arith.select %w, %f, %p : i32\n"
    "          scf.yield %ns, %np : i32, i32\n"
    "        }\n",
    1,
)
hdr = (
    "// Generated by bench/cluster17/make_cluster.py from examples/hopper_matmul_persistent_passes.mlir:\n"
    "// the passes' kernel in 2-CTA clusters with B multicast (see the script's docstring).\n"
    "// RUN: tilus-run %s | FileCheck %s\n"
    "// RUN: tilus-run %s --arg num_sms=6 --arg m=600 --arg n=300 --arg k=128 | FileCheck %s\n"
    "// RUN: tilus-run %s --arg num_sms=2 --arg k=64 --schedule random --seed 7 | FileCheck %s\n"
    "// CHECK: check c vs reference @matmul_ref: ok\n"
)
sys.stdout.write(hdr + text)
