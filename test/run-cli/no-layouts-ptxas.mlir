// Every kernel of no-layouts.mlir (written without layouts), lowered by tilus-run --dump-ptx
// (infer-layouts first), is accepted by ptxas for sm_90a.
//
// REQUIRES: ptxas
// RUN: for k in ew_casts int_ops broadcast colnorm layernorm where_relu tile3d tiny_tiles odd_shape dot_mma dot_wgmma dot_simt shared_roundtrip transpose_shared transpose_global for_carry if_yield warpgroups shuffle slice_exp vecmean i1_reduce chain_reduce dot_softmax if_in_for rmsnorm_bf16 wgmma8 shared_vec colsoftmax mixed_int online_softmax b2b_dot two_stores lane_tile wg_shuffle i1_io f16_math flash bcast3d f16_shuffle tiny_mma subgroups dot_odd dot_variants dtypes_reduce f64_i16_reduce if_anchors nested_for slice_dot dot_epilogue shared_refine swizzle math strided_views gemm_epilogue dot_half_acc; do \
// RUN:   if ! tilus-run %S/no-layouts.mlir --kernel $k --dump-ptx > %t.ptx 2> %t.err; then echo "$k: not lowered"; cat %t.err; continue; fi; \
// RUN:   if %ptxas -arch=sm_90a %t.ptx -o %t.cubin > %t.log 2>&1; then echo "$k: ok"; else echo "$k: ptxas failed"; cat %t.log; fi; \
// RUN: done | FileCheck %s --implicit-check-not="not lowered" --implicit-check-not="ptxas failed"
// CHECK:      ew_casts: ok
// CHECK-NEXT: int_ops: ok
// CHECK-NEXT: broadcast: ok
// CHECK-NEXT: colnorm: ok
// CHECK-NEXT: layernorm: ok
// CHECK-NEXT: where_relu: ok
// CHECK-NEXT: tile3d: ok
// CHECK-NEXT: tiny_tiles: ok
// CHECK-NEXT: odd_shape: ok
// CHECK-NEXT: dot_mma: ok
// CHECK-NEXT: dot_wgmma: ok
// CHECK-NEXT: dot_simt: ok
// CHECK-NEXT: shared_roundtrip: ok
// CHECK-NEXT: transpose_shared: ok
// CHECK-NEXT: transpose_global: ok
// CHECK-NEXT: for_carry: ok
// CHECK-NEXT: if_yield: ok
// CHECK-NEXT: warpgroups: ok
// CHECK-NEXT: shuffle: ok
// CHECK-NEXT: slice_exp: ok
// CHECK-NEXT: vecmean: ok
// CHECK-NEXT: i1_reduce: ok
// CHECK-NEXT: chain_reduce: ok
// CHECK-NEXT: dot_softmax: ok
// CHECK-NEXT: if_in_for: ok
// CHECK-NEXT: rmsnorm_bf16: ok
// CHECK-NEXT: wgmma8: ok
// CHECK-NEXT: shared_vec: ok
// CHECK-NEXT: colsoftmax: ok
// CHECK-NEXT: mixed_int: ok
// CHECK-NEXT: online_softmax: ok
// CHECK-NEXT: b2b_dot: ok
// CHECK-NEXT: two_stores: ok
// CHECK-NEXT: lane_tile: ok
// CHECK-NEXT: wg_shuffle: ok
// CHECK-NEXT: i1_io: ok
// CHECK-NEXT: f16_math: ok
// CHECK-NEXT: flash: ok
// CHECK-NEXT: bcast3d: ok
// CHECK-NEXT: f16_shuffle: ok
// CHECK-NEXT: tiny_mma: ok
// CHECK-NEXT: subgroups: ok
// CHECK-NEXT: dot_odd: ok
// CHECK-NEXT: dot_variants: ok
// CHECK-NEXT: dtypes_reduce: ok
// CHECK-NEXT: f64_i16_reduce: ok
// CHECK-NEXT: if_anchors: ok
// CHECK-NEXT: nested_for: ok
// CHECK-NEXT: slice_dot: ok
// CHECK-NEXT: dot_epilogue: ok
// CHECK-NEXT: shared_refine: ok
// CHECK-NEXT: swizzle: ok
// CHECK-NEXT: math: ok
// CHECK-NEXT: strided_views: ok
// CHECK-NEXT: gemm_epilogue: ok
// CHECK-NEXT: dot_half_acc: ok
//
// The examples with their layouts deleted (no-layouts-examples.mlir) assemble too (the
// Blackwell one for sm_100a):
// RUN: for f in hopper_matmul_persistent_passes hopper_matmul_v0_tma hopper_matmul_v1_persistent hopper_matmul_v1_wgmma hopper_matmul_v2_pipeline hopper_matmul_v3_warp_specialized hopper_matmul_v4_persistent hopper_matmul_v5_cluster hopper_matmul_v6_tma_epilogue hopper_matmul_v7_split_k matmul_dot rmsnorm softmax vector_add blackwell_matmul_tcgen05; do \
// RUN:   arch=sm_90a; case $f in blackwell*) arch=sm_100a;; esac; \
// RUN:   sed -E 's/, layout = [^>]*>/>/g' %S/../../examples/$f.mlir > %t.ex.mlir || exit 1; \
// RUN:   if ! tilus-run %t.ex.mlir --dump-ptx > %t.ex.ptx 2> %t.err; then echo "$f: not lowered"; cat %t.err; continue; fi; \
// RUN:   if %ptxas -arch=$arch %t.ex.ptx -o %t.cubin > %t.log 2>&1; then echo "$f: ok"; else echo "$f: ptxas failed"; cat %t.log; fi; \
// RUN: done | FileCheck %s --check-prefix=EXAMPLES --implicit-check-not="not lowered" --implicit-check-not="ptxas failed"
// EXAMPLES-COUNT-15: : ok
