#!/usr/bin/env python3
"""Hand edits of the passes' matmul PTX (`tilus-run FILE --dump-ptx`), to time instruction
sequences before teaching the lowering to emit them (run with `tilus-run --ptx-override`).

    tilus-run bench/epilogue17/pk_defer.mlir --dump-ptx > pk_f16.ptx
    python3 bench/epilogue17/ptx_variants.py pk_f16.ptx OUTDIR
    # on the GPU, one variant (bf16: the same from the kernel with f16 spelled bf16):
    tilus-run bench/epilogue17/pk_defer.mlir --backend cuda --ptx-override OUTDIR/stm.ptx ...
    # or through the sweep, {dt} standing for f16 / bf16:
    PTX_OVERRIDE='DIR/stm_{dt}.ptx' EXAMPLE=bench/epilogue17/pk_defer.mlir bash bench/gpu_gemm_sweep.sh

writes OUTDIR/{base,stm,evf,stm_evf,stm_evf_evl}.ptx:
  base     the input unchanged
  stm      each warp's 64 `st.shared.b32` of the accumulator (one 32-bit word of two 16-bit
           values per n8 block and row half) become 16 `stmatrix.sync.aligned.m8n8.x4`
           (the accumulator fragment is stmatrix's register layout: lane l holds row l/4,
           columns 2(l%4)..+1 of each 8x8 matrix); the box-major buffer is [4][64][64] with
           the 128-byte swizzle, so each stmatrix row address is 16 contiguous bytes
  evf      the TMA stores of C with an L2 evict-first policy (C is written once, never read)
  stm_evf  both
  stm_evf_evl  both, and the TMA loads of A and B with an L2 evict-last policy
"""
import re
import sys

src = open(sys.argv[1]).read()
out = sys.argv[2]
lines = src.split("\n")

MOV = re.compile(r"^\s*mov\.b32\s+(%r\d+),\s*\{(%h\d+),\s*(%h\d+)\};")
ST = re.compile(r"^\s*st\.shared\.b32\s+\[(%r\d+)\],\s*(%r\d+);")


def stmatrix(ls):
    """Replaces every run of 64 accumulator word stores with 16 stmatrix.x4."""
    res = []
    i = 0
    nblocks = 0
    while i < len(ls):
        if not ST.match(ls[i]):
            res.append(ls[i])
            i += 1
            continue
        # a block: collect the stores until 64 are seen
        block_start = len(res)
        pairs = []
        first_addr = ST.match(ls[i]).group(1)
        j = i
        while len(pairs) < 64:
            m = ST.match(ls[j])
            if m:
                pairs.append(m.group(2))
            else:
                res.append(ls[j])
            j += 1
        # the pair registers in the order the movs wrote them, checked against h numbering
        movs = {}
        for l in res[block_start - 40:]:
            mm = MOV.match(l)
            if mm:
                movs[mm.group(1)] = (int(mm.group(2)[2:]), int(mm.group(3)[2:]))
        hs = [movs[p] for p in pairs]
        first = hs[0][0]
        for k, (a, b) in enumerate(hs):
            assert (a, b) == (first + 2 * k, first + 2 * k + 1), (k, a, b, first)
        # the address inputs: thread index in the warpgroup, warp in the warpgroup, buffer base
        pre = "\n".join(res[block_start - 40:block_start + 12])
        base = re.search(r"mad\.lo\.s32\s+" + first_addr + r",\s*%r\d+,\s*2,\s*(%r\d+);", pre).group(1)
        warp = re.search(r"mad\.lo\.s32\s+%r\d+,\s*(%r\d+),\s*1024,\s*%r\d+;", pre).group(1)
        tid = re.search(r"and\.b32\s+%r\d+,\s*(%r\d+),\s*3;", pre).group(1)
        n = nblocks
        code = [
            "\t{",
            f"\t.reg .b32 %sm{n}_<16>;",
            f"\tand.b32 %sm{n}_0, {tid}, 31;",
            f"\tshr.u32 %sm{n}_1, %sm{n}_0, 3;",
            f"\tand.b32 %sm{n}_2, %sm{n}_0, 7;",
            f"\tand.b32 %sm{n}_3, %sm{n}_1, 1;",
            f"\tshr.u32 %sm{n}_4, %sm{n}_1, 1;",
            f"\tshl.b32 %sm{n}_5, {warp}, 4;",
            f"\tmad.lo.s32 %sm{n}_5, %sm{n}_3, 8, %sm{n}_5;",
            f"\tadd.s32 %sm{n}_5, %sm{n}_5, %sm{n}_2;",
            f"\tmad.lo.s32 %sm{n}_6, %sm{n}_5, 128, {base};",
            f"\txor.b32 %sm{n}_7, %sm{n}_4, %sm{n}_2;",
        ]
        for t, kk in enumerate((0, 2, 4, 6)):
            code += [
                f"\txor.b32 %sm{n}_{8 + t}, %sm{n}_7, {kk};",
                f"\tmad.lo.s32 %sm{n}_{8 + t}, %sm{n}_{8 + t}, 16, %sm{n}_6;",
            ]
        for jj in range(0, 32, 2):
            box, kk = jj // 8, jj % 8
            regs = ", ".join(pairs[2 * jj:2 * jj + 4])
            code.append(
                f"\tstmatrix.sync.aligned.m8n8.x4.shared.b16 [%sm{n}_{8 + kk // 2}+{box * 8192}], {{{regs}}};"
            )
        code.append("\t}")
        res += code
        nblocks += 1
        i = j
    assert nblocks >= 1
    return res


def policies(ls, store=True, load=False):
    res = []
    for l in ls:
        if re.match(r"^\s*\.reg \.f32\s+%f<", l):
            res.append(l)
            res.append("\t.reg .b64 \t%pol<2>;")
            continue
        if store and "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" in l:
            l = l.replace("tile.bulk_group", "tile.bulk_group.L2::cache_hint").rstrip(";") + ", %pol0;"
        if load and "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes" in l and "L2::" not in l:
            l = l.replace("complete_tx::bytes", "complete_tx::bytes.L2::cache_hint").rstrip(";") + ", %pol1;"
        res.append(l)
    # create the policies right after the first instruction of the entry body
    for k, l in enumerate(res):
        if "mov.u32" in l and "%tid.x" in l:
            res.insert(k, "\tcreatepolicy.fractional.L2::evict_last.b64 \t%pol1, 1.0;")
            res.insert(k, "\tcreatepolicy.fractional.L2::evict_first.b64 \t%pol0, 1.0;")
            break
    return res


def write(name, ls):
    open(f"{out}/{name}.ptx", "w").write("\n".join(ls))


write("base", lines)
s = stmatrix(lines)
write("stm", s)
write("evf", policies(lines))
write("stm_evf", policies(s))
write("stm_evf_evl", policies(s, load=True))
