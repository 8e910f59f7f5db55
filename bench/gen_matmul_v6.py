# Writes examples/hopper_matmul_v6_tma_epilogue.mlir (issue 17): v5 (examples/
# hopper_matmul_v5_cluster.mlir, itself written by bench/gen_matmul_v5.py) with the epilogue
# through shared memory and TMA stores, so a consumer warpgroup starts the next tile's main
# loop while the copy engine writes C.
#   python3 bench/gen_matmul_v6.py
import os, re, sys

sys.path.insert(0, os.path.dirname(__file__))
from v6_base import ACC, G3, OUT, SC, SC1, SC3  # noqa: E402  (the types v8 and v9 use too)

src = open('examples/hopper_matmul_v5_cluster.mlir').read()

head = """// Hopper matmul v6: v5 (persistent, warp specialized, 2-CTA clusters with B multicast;
// examples/hopper_matmul_v5_cluster.mlir) with the epilogue through shared memory and TMA
// stores (issue 17). Written by bench/gen_matmul_v6.py from v5.
//
// In v5 each consumer warpgroup ends a tile with 64 st.global.b32 per thread straight from
// the wgmma accumulator; with 132 CTAs ending their tiles together those stores fill the
// memory pipeline and the warpgroup waits for them before the next tile's first wgmma. With
// the stores left out v5 ran at 1.01x cuBLAS at 4096^3 instead of 0.90x (docs/perf.md). Here:
//
// * each consumer warpgroup owns a 16 KiB buffer `sc[g]` ([64, 128] f16, 128B swizzle) and
//   sends its 64 x 256 of C through it in two halves: wait until the copy engine has read the
//   buffer (`tma.wait_group 0 read` by the thread that issued the last store, then a
//   warpgroup sync), cast and `tilus.store_shared` the half, `tma.fence_proxy_async shared`
//   (make the generic-proxy writes visible to the copy engine), sync, and one thread issues
//   `tma.shared_to_global` and `tma.commit_group`. The warpgroup then goes on to the next
//   tile; the copy finishes in the background;
// * the copy's box is [64, 2, 64]: the buffer viewed as [64, 2, 64] (`tilus.reshape_shared`,
//   same bytes) against C viewed as [M, N / 64, 64] with strides [N, 64, 1], since a 128B
//   swizzled box row may hold at most 64 f16. That view is C only when N is a multiple of 64
//   (and TMA needs N * 2 to be a multiple of 16); other N take v5's direct stores;
// * before the warpgroup leaves, its issuing thread waits for all its stores to complete.
//
// Shared memory: 4 stages x 48 KiB + 2 x 16 KiB = 224 KiB of the 227 KiB a block may use.
//
// Check: tilus-opt examples/hopper_matmul_v6_tma_epilogue.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --schedule random --seed 5 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg k=64 --arg num_sms=2 | FileCheck %s --check-prefix=INTERP
// N not a multiple of 64: the direct stores.
// RUN: tilus-run %s --arg n=200 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok

// CHECK-LABEL: tilus.kernel @hopper_matmul_tma_epilogue
// CHECK-SAME:    cluster(2, 1, 1)
// CHECK:         threadgroup.warp_group warps(0, 4) {
// CHECK:             tilus.store_shared
// CHECK-NEXT:        tma.fence_proxy_async shared
// CHECK-NEXT:        threadgroup.sync
// CHECK-NEXT:        threadgroup.single_thread {
// CHECK-NEXT:          tma.shared_to_global
// CHECK-NEXT:          tma.commit_group
"""
k = src.index('\ntilus.kernel @hopper_matmul_cluster') + 1
body = src[k:].replace('@hopper_matmul_cluster', '@hopper_matmul_tma_epilogue', 1)

# Buffers, the 3-d view of C, and the N % 64 test, after the B ring.
sb_line = re.search(r'^  %sb = tilus.shared_tensor : .*$', body, re.M).group(0)
body = body.replace(sb_line, sb_line + f"""
  // One 16 KiB epilogue buffer per consumer warpgroup, and C as [M, N / 64, 64].
  %sc = tilus.shared_tensor : {SC}
  %n_chunks = arith.floordivsi %n, %c64 : i32
  %gc3 = tilus.global_view %c[%m, %n_chunks] strides[%n] : !tilus.ptr<f16> -> {G3}
  %n_rem = arith.remui %n, %c64 : i32
  %tma_ok = arith.cmpi eq, %n_rem, %c0 : i32""", 1)
body = body.replace(f"  tilus.free_shared %sb : ", f"  tilus.free_shared %sc : {SC}\n  tilus.free_shared %sb : ", 1)

def half(g, res, chunk):
    return f"""        threadgroup.single_thread {{
          tma.wait_group 0 read
        }}
        threadgroup.sync
        %o{res} = tilus.cast %res#{res} : {ACC} to {OUT}
        tilus.store_shared %o{res}, %sc_g : {OUT}, {SC1}
        tma.fence_proxy_async shared
        threadgroup.sync
        threadgroup.single_thread {{
          tma.shared_to_global %sc_g3, %gc3[%row, {chunk}, %c0 : i32, i32, i32] : {SC3}, {G3}
          tma.commit_group
        }}"""

def epilogue(g):
    return f"""      %row = arith.addi %offset_m, %c{64*g} : i32
      %col1 = arith.addi %offset_n, %c128 : i32
      scf.if %tma_ok {{
        // Through this warpgroup's buffer, one 64 x 128 half at a time.
        %sc_g = tilus.slice_shared %sc[%c{g}] : {SC} -> {SC1}
        %sc_g3 = tilus.reshape_shared %sc_g : {SC1} -> {SC3}
        %chunk0 = arith.divui %offset_n, %c64 : i32
        %chunk1 = arith.addi %chunk0, %c2 : i32
{half(g, 0, '%chunk0')}
{half(g, 1, '%chunk1')}
      }} else {{
        %out0 = tilus.cast %res#0 : {ACC} to {OUT}
        tilus.store_global %out0, %gc[%row, %offset_n] : {OUT}, !tilus.global<?x?xf16>
        %out1 = tilus.cast %res#1 : {ACC} to {OUT}
        tilus.store_global %out1, %gc[%row, %col1] : {OUT}, !tilus.global<?x?xf16>
      }}"""

pat = re.compile(r'      %row = arith.addi %offset_m, %c(0|64) : i32\n      %col1 = .*\n.*%out0 = .*\n.*store_global %out0.*\n.*%out1 = .*\n.*store_global %out1.*')
ms = list(pat.finditer(body))
assert len(ms) == 2, len(ms)
for m in reversed(ms):
    g = 0 if m.group(1) == '0' else 1
    body = body[:m.start()] + epilogue(g) + body[m.end():]
# Each consumer's issuing thread waits for its stores before the warpgroup leaves.
tail_pat = re.compile(r'(      scf.yield %res#2, %res#3 : i32, i32\n    }\n)(  })')
assert len(tail_pat.findall(body)) == 2
body = tail_pat.sub(r'\1    threadgroup.single_thread {\n      tma.wait_group 0\n    }\n\2', body)
# REGS=1: a producer warpgroup that gives registers back (setmaxnreg dec 40) and consumers
# that take them (inc 232), 12 warps instead of 9.
if os.environ.get('REGS', '0') == '1':
    body = body.replace('    warps(9) blocks(', '    warps(12) blocks(', 1)
    lines = body.split('\n')
    i = lines.index('  threadgroup.single_warp warp(8) {')
    j = lines.index('  }', i)
    inner = ['  ' + l if l else l for l in lines[i + 1:j]]
    lines[i:j + 1] = ['  threadgroup.warp_group warps(8, 4) {', '    threadgroup.setmaxnreg dec 40',
                      '    threadgroup.single_warp {'] + inner + ['    }', '  }']
    body = '\n'.join(lines)
    for g in (0, 4):
        body = body.replace(f'  threadgroup.warp_group warps({g}, 4) {{\n',
                            f'  threadgroup.warp_group warps({g}, 4) {{\n    threadgroup.setmaxnreg inc 232\n', 1)
out = os.environ.get('OUTF', 'examples/hopper_matmul_v6_tma_epilogue.mlir')
open(out, 'w').write(head + body)
