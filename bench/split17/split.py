#!/usr/bin/env python3
"""Issue 17 experiment (PTX hand edit): release the previous k step's stage after the first
wgmma(s) of the next k step are queued, as cuBLAS's kernel does, instead of waiting for the
k step's own wgmmas before looping.

In each consumer k loop of the passes' persistent matmul (a `try_wait` on `full`, a
`wgmma.fence`, four `wgmma.mma_async`, a commit, ..., `wgmma.wait_group 0` and the `arrive` on
`empty[stage]`), the edit:
  * after the N-th wgmma of the k step: `wgmma.wait_group 0` (the previous k step's group: this
    step's wgmmas are not committed yet) and the arrive on the previous stage, if one is pending;
  * in place of the body's wait and arrive: remember the stage's `empty` address as pending;
  * at the loop's exit: `wgmma.wait_group 0` and the pending arrive.
So the tensor pipe has this k step's first wgmma(s) queued while the warpgroup waits for the
previous k step, and a stage is released as soon as its wgmmas retire.

usage: split.py IN.ptx OUT.ptx N
"""
import re, sys

src, dst, nfirst = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(src).read().split("\n")
out = []
loops = 0
i = 0
# find loops: header label, `@!%pX bra $EXIT;` then body containing try_wait, fence, wgmmas
head_re = re.compile(r"^\s*@!%p\d+ bra \t(\$L__BB0_\d+);")
n = len(lines)
edits = {}  # line index -> list of replacement lines (None = delete)
inserts_after = {}
exit_labels = {}
k = 0
while k < n:
    m = head_re.match(lines[k])
    # a k loop: within 12 lines a try_wait, then a fence, then wgmma.mma_async
    if m and any("mbarrier.try_wait" in l for l in lines[k:k + 12]) and any(
        "wgmma.fence" in l for l in lines[k:k + 20]
    ):
        f = next(j for j in range(k, k + 20) if "wgmma.fence" in lines[j])
        mmas = []
        j = f
        while len(mmas) < 4:
            j += 1
            if "wgmma.mma_async" in lines[j]:
                mmas.append(j)
        # the body's wait_group 0 and the arrive
        w = next(j for j in range(mmas[-1], n) if "wgmma.wait_group.sync.aligned \t0" in lines[j])
        add, arr = w + 1, w + 2
        assert "mbarrier.arrive.release" in lines[arr], lines[arr]
        addr = re.search(r"\[(%r\d+)\]", lines[arr]).group(1)
        L = loops
        loops += 1
        inserts_after[mmas[nfirst - 1]] = [
            "\twgmma.wait_group.sync.aligned 	0;",
            f"\t@%hpend{L} mbarrier.arrive.release.cta.shared::cta.b64 	_, [%pend{L}], 1;",
        ]
        edits[w] = []
        edits[arr] = [f"\tmov.u32 	%pend{L}, {addr};", f"\tsetp.eq.u32 	%hpend{L}, 1, 1;"]
        exit_labels[m.group(1)] = L
        k = arr
    k += 1
decl_done = False
for idx, l in enumerate(lines):
    if idx in edits:
        out += edits[idx]
        continue
    out.append(l)
    if not decl_done and l.strip().startswith(".reg .f32"):
        out.append(f"\t.reg .b32 	%pend<{loops}>;")
        out.append(f"\t.reg .pred 	%hpend<{loops}>;")
        for L in range(loops):
            out.append(f"\tsetp.ne.u32 	%hpend{L}, 1, 1;")
        decl_done = True
    if idx in inserts_after:
        out += inserts_after[idx]
    lab = l.strip().rstrip(":")
    if l.endswith(":") and lab in exit_labels:
        L = exit_labels[lab]
        out += [
            "\twgmma.wait_group.sync.aligned 	0;",
            f"\t@%hpend{L} mbarrier.arrive.release.cta.shared::cta.b64 	_, [%pend{L}], 1;",
            f"\tsetp.ne.u32 	%hpend{L}, 1, 1;",
        ]
print(f"{loops} k loops edited", file=sys.stderr)
open(dst, "w").write("\n".join(out))
