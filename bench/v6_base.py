# What bench/gen_matmul_v8.py and gen_matmul_v9.py start from: the text of v6 with a producer
# warpgroup and setmaxnreg (bench/gen_matmul_v6.py with REGS=1), and the types its consumer
# epilogue uses.
import os, subprocess, sys, tempfile

L = "layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)"
ACC = f"!tilus.reg<64x128xf32, {L}>"
OUT = f"!tilus.reg<64x128xf16, {L}>"
SC = "!tilus.shared<2x64x128xf16, swizzle = 128B>"
SC1 = "!tilus.shared<64x128xf16, swizzle = 128B>"
SC3 = "!tilus.shared<64x2x64xf16, swizzle = 128B>"
G3 = "!tilus.global<?x?x64xf16, strides = [?, 64, 1]>"


def v6_regs_text():
    """v6 as gen_matmul_v6.py writes it with REGS=1 (run from the repository root)."""
    with tempfile.TemporaryDirectory() as d:
        tmp = os.path.join(d, 'v6r.mlir')
        subprocess.run([sys.executable, 'bench/gen_matmul_v6.py'], check=True,
                       env=dict(os.environ, REGS='1', OUTF=tmp))
        return open(tmp).read()


def tma_store(ind, val, chunk, row):
    """One 64 x 128 f16 register tile `val` to C through the warpgroup's buffer `%sc_g`: wait
    until the copy engine has read the previous one, store, fence, and one thread issues the
    TMA store of the [64, 2, 64] box at (row, chunk)."""
    p = ' ' * ind
    return f"""{p}threadgroup.single_thread {{
{p}  tma.wait_group 0 read
{p}}}
{p}threadgroup.sync
{p}tilus.store_shared {val}, %sc_g : {OUT}, {SC1}
{p}tma.fence_proxy_async shared
{p}threadgroup.sync
{p}threadgroup.single_thread {{
{p}  tma.shared_to_global %sc_g3, %gc3[{row}, {chunk}, %c0 : i32, i32, i32] : {SC3}, {G3}
{p}  tma.commit_group
{p}}}"""


def write(out, text):
    os.makedirs(os.path.dirname(out) or '.', exist_ok=True)
    open(out, 'w').write(text)
