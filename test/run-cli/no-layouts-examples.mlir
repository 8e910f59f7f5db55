// Every example with all its register layouts deleted (what a user writes without layouts):
// each still runs on the interpreter (against its reference where it names one), and the
// kernels that issue wgmma.mma or tcgen05.ld / st lower, since infer-layouts now anchors those
// tiles to the layout the hardware fixes: a wgmma.mma accumulator takes the wgmma fragment of
// its shape, a tcgen05 tile one TMEM lane per thread (before, every Hopper and Blackwell
// example stopped at "'wgmma.mma' op expects the accumulator in the wgmma accumulator layout
// ..." or "only the 32x32b shape is lowered").
//
// RUN: for f in blackwell_matmul_tcgen05 hopper_matmul_persistent_passes hopper_matmul_v0_tma hopper_matmul_v1_persistent hopper_matmul_v1_wgmma hopper_matmul_v2_pipeline hopper_matmul_v3_warp_specialized hopper_matmul_v4_persistent hopper_matmul_v5_cluster hopper_matmul_v6_tma_epilogue hopper_matmul_v7_split_k matmul_dot mbarrier_loop reduction rmsnorm rmsnorm_rowwise softmax softmax_rowwise stencil thread_groups vector_add; do \
// RUN:   sed -E 's/, layout = [^>]*>/>/g' %S/../../examples/$f.mlir > %t.$f.mlir || exit 1; \
// RUN:   if grep -q 'layout = ' %t.$f.mlir; then echo "$f: layouts left"; fi; \
// RUN:   if tilus-run %t.$f.mlir > %t.log 2>&1 && ! grep -q MISMATCH %t.log; then echo "$f: runs"; else echo "$f: run failed"; cat %t.log; fi; \
// RUN: done | FileCheck %s --check-prefix=INTERP --implicit-check-not="run failed" --implicit-check-not="layouts left"
// INTERP-COUNT-21: : runs
//
// RUN: for f in blackwell_matmul_tcgen05 hopper_matmul_persistent_passes hopper_matmul_v0_tma hopper_matmul_v1_persistent hopper_matmul_v1_wgmma hopper_matmul_v2_pipeline hopper_matmul_v3_warp_specialized hopper_matmul_v4_persistent hopper_matmul_v5_cluster hopper_matmul_v6_tma_epilogue hopper_matmul_v7_split_k matmul_dot rmsnorm softmax vector_add; do \
// RUN:   sed -E 's/, layout = [^>]*>/>/g' %S/../../examples/$f.mlir > %t.$f.mlir || exit 1; \
// RUN:   if tilus-run %t.$f.mlir --dump-ptx > %t.$f.ptx 2> %t.err; then echo "$f: lowered"; else echo "$f: not lowered"; cat %t.err; fi; \
// RUN: done | FileCheck %s --check-prefix=PTX --implicit-check-not="not lowered"
// PTX-COUNT-15: : lowered
//
// The accumulators and TMEM tiles take the hardware's layouts, and nothing is converted:
// RUN: sed -E 's/, layout = [^>]*>/>/g' %S/../../examples/hopper_matmul_v1_wgmma.mlir | tilus-opt --infer-layouts | FileCheck %s --check-prefix=WGMMA
// WGMMA-NOT: layout.convert
// WGMMA:     wgmma.mma {{.*}}, !tilus.reg<128x128xf32, layout = local(2, 1) * spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
// WGMMA-NOT: layout.convert
// RUN: sed -E 's/, layout = [^>]*>/>/g' %S/../../examples/blackwell_matmul_tcgen05.mlir | tilus-opt --infer-layouts | FileCheck %s --check-prefix=TMEM
// TMEM-NOT: layout.convert
// TMEM:     tcgen05.ld {{.*}} -> !tilus.reg<128x32xf32, layout = local(1, 32) * spatial(128, 1)>
// TMEM-NOT: layout.convert
