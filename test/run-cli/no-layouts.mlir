// Kernels written without any register layout, each checked on the interpreter against a
// reference kernel that computes the same thing another way (element by element, row by row,
// through a transposed view, or with layouts written out): element-wise chains with casts
// (f32, f16, bf16, i32, i1), broadcasting of row and column vectors and splatted scalars,
// reductions over every dimension with and without keepdim (softmax, layernorm, rmsnorm,
// online softmax), tilus.where / tilus.cmp, masked edges, 1-D to 3-D and odd or tiny tiles,
// tilus.dot on mma.sync, wgmma and SIMT (with epilogues, back to back, in loops, f16 / bf16
// accumulators), integer tiles of every width and signedness, float mod, shared-memory
// round trips (swizzled, transposed, refined), scf.for / scf.if carrying tiles, thread groups,
// shuffles and tilus.slice_register. `infer-layouts` chooses every layout when they lower;
// no-layouts-ptxas.mlir assembles each lowered kernel with ptxas, and the INFER lines below
// say which kernels need a layout.convert (each for a reason given there).
//
// RUN: tilus-run %s --kernel ew_casts | FileCheck %s --check-prefix=EW-CASTS --implicit-check-not=MISMATCH
// EW-CASTS: vs reference @ew_casts_ref: ok
// RUN: tilus-run %s --kernel int_ops | FileCheck %s --check-prefix=INT-OPS --implicit-check-not=MISMATCH
// INT-OPS: vs reference @int_ops_ref: ok
// RUN: tilus-run %s --kernel broadcast | FileCheck %s --check-prefix=BROADCAST --implicit-check-not=MISMATCH
// BROADCAST: vs reference @broadcast_ref: ok
// RUN: tilus-run %s --kernel colnorm | FileCheck %s --check-prefix=COLNORM --implicit-check-not=MISMATCH
// COLNORM: vs reference @colnorm_ref: ok
// RUN: tilus-run %s --kernel layernorm | FileCheck %s --check-prefix=LAYERNORM --implicit-check-not=MISMATCH
// LAYERNORM: vs reference @layernorm_ref: ok
// RUN: tilus-run %s --kernel where_relu | FileCheck %s --check-prefix=WHERE-RELU --implicit-check-not=MISMATCH
// WHERE-RELU: vs reference @where_relu_ref: ok
// RUN: tilus-run %s --kernel tile3d | FileCheck %s --check-prefix=TILE3D --implicit-check-not=MISMATCH
// TILE3D: vs reference @tile3d_ref: ok
// RUN: tilus-run %s --kernel tiny_tiles | FileCheck %s --check-prefix=TINY-TILES --implicit-check-not=MISMATCH
// TINY-TILES: vs reference @tiny_tiles_ref: ok
// RUN: tilus-run %s --kernel odd_shape | FileCheck %s --check-prefix=ODD-SHAPE --implicit-check-not=MISMATCH
// ODD-SHAPE: vs reference @odd_shape_ref: ok
// RUN: tilus-run %s --kernel dot_mma | FileCheck %s --check-prefix=DOT-MMA --implicit-check-not=MISMATCH
// DOT-MMA: vs reference @dot_mma_ref: ok
// RUN: tilus-run %s --kernel dot_wgmma | FileCheck %s --check-prefix=DOT-WGMMA --implicit-check-not=MISMATCH
// DOT-WGMMA: vs reference @dot_wgmma_ref: ok
// RUN: tilus-run %s --kernel dot_simt | FileCheck %s --check-prefix=DOT-SIMT --implicit-check-not=MISMATCH
// DOT-SIMT: vs reference @dot_simt_ref: ok
// RUN: tilus-run %s --kernel shared_roundtrip | FileCheck %s --check-prefix=SHARED-ROUNDTRIP --implicit-check-not=MISMATCH
// SHARED-ROUNDTRIP: vs reference @shared_roundtrip_ref: ok
// RUN: tilus-run %s --kernel transpose_shared | FileCheck %s --check-prefix=TRANSPOSE-SHARED --implicit-check-not=MISMATCH
// TRANSPOSE-SHARED: vs reference @transpose_shared_ref: ok
// RUN: tilus-run %s --kernel transpose_global | FileCheck %s --check-prefix=TRANSPOSE-GLOBAL --implicit-check-not=MISMATCH
// TRANSPOSE-GLOBAL: vs reference @transpose_global_ref: ok
// RUN: tilus-run %s --kernel for_carry | FileCheck %s --check-prefix=FOR-CARRY --implicit-check-not=MISMATCH
// FOR-CARRY: vs reference @for_carry_ref: ok
// RUN: tilus-run %s --kernel if_yield | FileCheck %s --check-prefix=IF-YIELD --implicit-check-not=MISMATCH
// IF-YIELD: vs reference @if_yield_ref: ok
// RUN: tilus-run %s --kernel warpgroups | FileCheck %s --check-prefix=WARPGROUPS --implicit-check-not=MISMATCH
// WARPGROUPS: vs reference @warpgroups_ref: ok
// RUN: tilus-run %s --kernel shuffle | FileCheck %s --check-prefix=SHUFFLE --implicit-check-not=MISMATCH
// SHUFFLE: vs reference @shuffle_ref: ok
// RUN: tilus-run %s --kernel slice_exp | FileCheck %s --check-prefix=SLICE-EXP --implicit-check-not=MISMATCH
// SLICE-EXP: vs reference @slice_exp_ref: ok
// RUN: tilus-run %s --kernel vecmean | FileCheck %s --check-prefix=VECMEAN --implicit-check-not=MISMATCH
// VECMEAN: vs reference @vecmean_ref: ok
// RUN: tilus-run %s --kernel i1_reduce | FileCheck %s --check-prefix=I1-REDUCE --implicit-check-not=MISMATCH
// I1-REDUCE: vs reference @i1_reduce_ref: ok
// RUN: tilus-run %s --kernel chain_reduce | FileCheck %s --check-prefix=CHAIN-REDUCE --implicit-check-not=MISMATCH
// CHAIN-REDUCE: vs reference @chain_reduce_ref: ok
// RUN: tilus-run %s --kernel dot_softmax | FileCheck %s --check-prefix=DOT-SOFTMAX --implicit-check-not=MISMATCH
// DOT-SOFTMAX: vs reference @dot_softmax_ref: ok
// RUN: tilus-run %s --kernel if_in_for | FileCheck %s --check-prefix=IF-IN-FOR --implicit-check-not=MISMATCH
// IF-IN-FOR: vs reference @if_in_for_ref: ok
// RUN: tilus-run %s --kernel rmsnorm_bf16 | FileCheck %s --check-prefix=RMSNORM-BF16 --implicit-check-not=MISMATCH
// RMSNORM-BF16: vs reference @rmsnorm_bf16_ref: ok
// RUN: tilus-run %s --kernel wgmma8 | FileCheck %s --check-prefix=WGMMA8 --implicit-check-not=MISMATCH
// WGMMA8: vs reference @wgmma8_ref: ok
// RUN: tilus-run %s --kernel shared_vec | FileCheck %s --check-prefix=SHARED-VEC --implicit-check-not=MISMATCH
// SHARED-VEC: vs reference @shared_vec_ref: ok
// RUN: tilus-run %s --kernel colsoftmax | FileCheck %s --check-prefix=COLSOFTMAX --implicit-check-not=MISMATCH
// COLSOFTMAX: vs reference @colsoftmax_ref: ok
// RUN: tilus-run %s --kernel mixed_int | FileCheck %s --check-prefix=MIXED-INT --implicit-check-not=MISMATCH
// MIXED-INT: vs reference @mixed_int_ref: ok
// RUN: tilus-run %s --kernel online_softmax | FileCheck %s --check-prefix=ONLINE-SOFTMAX --implicit-check-not=MISMATCH
// ONLINE-SOFTMAX: vs reference @online_softmax_ref: ok
// RUN: tilus-run %s --kernel b2b_dot | FileCheck %s --check-prefix=B2B-DOT --implicit-check-not=MISMATCH
// B2B-DOT: vs reference @b2b_dot_ref: ok
// RUN: tilus-run %s --kernel two_stores | FileCheck %s --check-prefix=TWO-STORES --implicit-check-not=MISMATCH
// TWO-STORES: vs reference @two_stores_ref: ok
// RUN: tilus-run %s --kernel lane_tile | FileCheck %s --check-prefix=LANE-TILE --implicit-check-not=MISMATCH
// LANE-TILE: vs reference @lane_tile_ref: ok
// RUN: tilus-run %s --kernel wg_shuffle | FileCheck %s --check-prefix=WG-SHUFFLE --implicit-check-not=MISMATCH
// WG-SHUFFLE: vs reference @wg_shuffle_ref: ok
// RUN: tilus-run %s --kernel i1_io | FileCheck %s --check-prefix=I1-IO --implicit-check-not=MISMATCH
// I1-IO: vs reference @i1_io_ref: ok
// RUN: tilus-run %s --kernel f16_math | FileCheck %s --check-prefix=F16-MATH --implicit-check-not=MISMATCH
// F16-MATH: vs reference @f16_math_ref: ok
// RUN: tilus-run %s --kernel flash | FileCheck %s --check-prefix=FLASH --implicit-check-not=MISMATCH
// FLASH: vs reference @flash_ref: ok
// RUN: tilus-run %s --kernel bcast3d | FileCheck %s --check-prefix=BCAST3D --implicit-check-not=MISMATCH
// BCAST3D: vs reference @bcast3d_ref: ok
// RUN: tilus-run %s --kernel f16_shuffle | FileCheck %s --check-prefix=F16-SHUFFLE --implicit-check-not=MISMATCH
// F16-SHUFFLE: vs reference @f16_shuffle_ref: ok
// RUN: tilus-run %s --kernel tiny_mma | FileCheck %s --check-prefix=TINY-MMA --implicit-check-not=MISMATCH
// TINY-MMA: vs reference @tiny_mma_ref: ok
// RUN: tilus-run %s --kernel subgroups | FileCheck %s --check-prefix=SUBGROUPS --implicit-check-not=MISMATCH
// SUBGROUPS: vs reference @subgroups_ref: ok
// RUN: tilus-run %s --kernel dot_odd | FileCheck %s --check-prefix=DOT-ODD --implicit-check-not=MISMATCH
// DOT-ODD: vs reference @dot_odd_ref: ok
// The first dot runs in warp 0 alone (its barriers are the warp's); the second, the block's,
// stages its operands in the same scratch, so a barrier of the block comes before its stores:
// without it warp 1 stored its rows while warp 0 still read the first dot's operands (a wrong
// f on the H100, bench/gpu_compare.sh).
// RUN: tilus-run %s --kernel dot_odd --dump-ptx | FileCheck %s --check-prefix=DOT-ODD-PTX
// DOT-ODD-PTX:     bar.warp.sync
// DOT-ODD-PTX:     bar.warp.sync
// DOT-ODD-PTX-NOT: st.shared
// DOT-ODD-PTX:     bar.sync 0;
// DOT-ODD-PTX:     st.shared
// DOT-ODD-PTX:     bar.sync 0;
// RUN: tilus-run %s --kernel dot_variants | FileCheck %s --check-prefix=DOT-VARIANTS --implicit-check-not=MISMATCH
// DOT-VARIANTS: vs reference @dot_variants_ref: ok
// RUN: tilus-run %s --kernel dtypes_reduce | FileCheck %s --check-prefix=DTYPES-REDUCE --implicit-check-not=MISMATCH
// DTYPES-REDUCE: vs reference @dtypes_reduce_ref: ok
// RUN: tilus-run %s --kernel f64_i16_reduce | FileCheck %s --check-prefix=F64-I16-REDUCE --implicit-check-not=MISMATCH
// F64-I16-REDUCE: vs reference @f64_i16_reduce_ref: ok
// RUN: tilus-run %s --kernel if_anchors | FileCheck %s --check-prefix=IF-ANCHORS --implicit-check-not=MISMATCH
// IF-ANCHORS: vs reference @if_anchors_ref: ok
// RUN: tilus-run %s --kernel nested_for | FileCheck %s --check-prefix=NESTED-FOR --implicit-check-not=MISMATCH
// NESTED-FOR: vs reference @nested_for_ref: ok
// RUN: tilus-run %s --kernel slice_dot | FileCheck %s --check-prefix=SLICE-DOT --implicit-check-not=MISMATCH
// SLICE-DOT: vs reference @slice_dot_ref: ok
// RUN: tilus-run %s --kernel dot_epilogue | FileCheck %s --check-prefix=DOT-EPILOGUE --implicit-check-not=MISMATCH
// DOT-EPILOGUE: vs reference @dot_epilogue_ref: ok
// RUN: tilus-run %s --kernel shared_refine | FileCheck %s --check-prefix=SHARED-REFINE --implicit-check-not=MISMATCH
// SHARED-REFINE: vs reference @shared_refine_ref: ok
// RUN: tilus-run %s --kernel swizzle | FileCheck %s --check-prefix=SWIZZLE --implicit-check-not=MISMATCH
// SWIZZLE: vs reference @swizzle_ref: ok
// RUN: tilus-run %s --kernel math | FileCheck %s --check-prefix=MATH --implicit-check-not=MISMATCH
// MATH: vs reference @math_ref: ok
// RUN: tilus-run %s --kernel strided_views | FileCheck %s --check-prefix=STRIDED-VIEWS --implicit-check-not=MISMATCH
// STRIDED-VIEWS: vs reference @strided_views_ref: ok
// RUN: tilus-run %s --kernel gemm_epilogue | FileCheck %s --check-prefix=GEMM-EPILOGUE --implicit-check-not=MISMATCH
// GEMM-EPILOGUE: vs reference @gemm_epilogue_ref: ok
// RUN: tilus-run %s --kernel dot_half_acc | FileCheck %s --check-prefix=DOT-HALF-ACC --implicit-check-not=MISMATCH
// DOT-HALF-ACC: vs reference @dot_half_acc_ref: ok
//
// The layouts infer-layouts chooses need no layout.convert except where two anchors disagree:
// RUN: tilus-opt %s --infer-layouts | FileCheck %s --check-prefix=INFER
// INFER-LABEL: tilus.kernel @ew_casts(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @ew_casts_ref(
// INFER-LABEL: tilus.kernel @int_ops(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @int_ops_ref(
// INFER-LABEL: tilus.kernel @broadcast(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @broadcast_ref(
// INFER-LABEL: tilus.kernel @colnorm(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @colnorm_ref(
// INFER-LABEL: tilus.kernel @layernorm(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @layernorm_ref(
// INFER-LABEL: tilus.kernel @where_relu(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @where_relu_ref(
// INFER-LABEL: tilus.kernel @tile3d(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @tile3d_ref(
// INFER-LABEL: tilus.kernel @tiny_tiles(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @tiny_tiles_ref(
// INFER-LABEL: tilus.kernel @odd_shape(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @odd_shape_ref(
// INFER-LABEL: tilus.kernel @dot_mma(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @dot_mma_ref(
// INFER-LABEL: tilus.kernel @dot_wgmma(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @dot_wgmma_ref(
// INFER-LABEL: tilus.kernel @dot_simt(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @dot_simt_ref(
// INFER-LABEL: tilus.kernel @shared_roundtrip(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @shared_roundtrip_ref(
// INFER-LABEL: tilus.kernel @transpose_shared(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @transpose_shared_ref(
// INFER-LABEL: tilus.kernel @transpose_global(
// (the load runs along dimension 0 (a transposed view) and the store along dimension 1: one transpose)
// INFER:       layout.convert
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @transpose_global_ref(
// INFER-LABEL: tilus.kernel @for_carry(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @for_carry_ref(
// INFER-LABEL: tilus.kernel @if_yield(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @if_yield_ref(
// INFER-LABEL: tilus.kernel @warpgroups(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @warpgroups_ref(
// INFER-LABEL: tilus.kernel @shuffle(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @shuffle_ref(
// INFER-LABEL: tilus.kernel @slice_exp(
// (the exp of a tile laid out for its load would be cut across threads by the boxes: converted once to the boxes as outer register modes)
// INFER:       layout.convert
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @slice_exp_ref(
// INFER-LABEL: tilus.kernel @vecmean(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @vecmean_ref(
// INFER-LABEL: tilus.kernel @i1_reduce(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @i1_reduce_ref(
// INFER-LABEL: tilus.kernel @chain_reduce(
// (the row maxima [64] are added along the columns (a row vector): a transpose of 64 values)
// INFER:       layout.convert
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @chain_reduce_ref(
// INFER-LABEL: tilus.kernel @dot_softmax(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @dot_softmax_ref(
// INFER-LABEL: tilus.kernel @if_in_for(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @if_in_for_ref(
// INFER-LABEL: tilus.kernel @rmsnorm_bf16(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @rmsnorm_bf16_ref(
// INFER-LABEL: tilus.kernel @wgmma8(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @wgmma8_ref(
// INFER-LABEL: tilus.kernel @shared_vec(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @shared_vec_ref(
// INFER-LABEL: tilus.kernel @colsoftmax(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @colsoftmax_ref(
// INFER-LABEL: tilus.kernel @mixed_int(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @mixed_int_ref(
// INFER-LABEL: tilus.kernel @online_softmax(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @online_softmax_ref(
// INFER-LABEL: tilus.kernel @b2b_dot(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @b2b_dot_ref(
// INFER-LABEL: tilus.kernel @two_stores(
// (the tile is stored row-major and through a transposed view: one transpose)
// INFER:       layout.convert
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @two_stores_ref(
// INFER-LABEL: tilus.kernel @lane_tile(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @lane_tile_ref(
// INFER-LABEL: tilus.kernel @wg_shuffle(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @wg_shuffle_ref(
// INFER-LABEL: tilus.kernel @i1_io(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @i1_io_ref(
// INFER-LABEL: tilus.kernel @f16_math(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @f16_math_ref(
// INFER-LABEL: tilus.kernel @flash(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @flash_ref(
// INFER-LABEL: tilus.kernel @bcast3d(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @bcast3d_ref(
// INFER-LABEL: tilus.kernel @f16_shuffle(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @f16_shuffle_ref(
// INFER-LABEL: tilus.kernel @tiny_mma(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @tiny_mma_ref(
// INFER-LABEL: tilus.kernel @subgroups(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @subgroups_ref(
// INFER-LABEL: tilus.kernel @dot_odd(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @dot_odd_ref(
// INFER-LABEL: tilus.kernel @dot_variants(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @dot_variants_ref(
// INFER-LABEL: tilus.kernel @dtypes_reduce(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @dtypes_reduce_ref(
// INFER-LABEL: tilus.kernel @f64_i16_reduce(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @f64_i16_reduce_ref(
// INFER-LABEL: tilus.kernel @if_anchors(
// (the branches load along different dimensions: the transposed one is converted)
// INFER:       layout.convert
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @if_anchors_ref(
// INFER-LABEL: tilus.kernel @nested_for(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @nested_for_ref(
// INFER-LABEL: tilus.kernel @slice_dot(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @slice_dot_ref(
// INFER-LABEL: tilus.kernel @dot_epilogue(
// (the mask and the column sums, reduced from the accumulator, are broadcast into the where laid out for its store: two small vectors move)
// INFER:       layout.convert
// INFER:       layout.convert
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @dot_epilogue_ref(
// INFER-LABEL: tilus.kernel @shared_refine(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @shared_refine_ref(
// INFER-LABEL: tilus.kernel @swizzle(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @swizzle_ref(
// INFER-LABEL: tilus.kernel @math(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @math_ref(
// INFER-LABEL: tilus.kernel @strided_views(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @strided_views_ref(
// INFER-LABEL: tilus.kernel @gemm_epilogue(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @gemm_epilogue_ref(
// INFER-LABEL: tilus.kernel @dot_half_acc(
// INFER-NOT:   layout.convert
// INFER-LABEL: tilus.kernel @dot_half_acc_ref(

// f16 load -> f32 math -> bf16 store, 2-D tile, masked edges
tilus.kernel @ew_casts(%x: !tilus.ptr<f16>, %y: !tilus.ptr<bf16>, %m: i32, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d2 ceildiv 16, d3 ceildiv 64)>)
    attributes {tilus.args = {m = 37 : i32, n = 100 : i32}, tilus.outputs = ["y"], tilus.reference = "ew_casts_ref"} {
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %r = arith.muli %bx, %c16 : i32
  %c = arith.muli %by, %c64 : i32
  %two = arith.constant 2.0 : f32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gy = tilus.global_view %y[%m, %n] : !tilus.ptr<bf16> -> !tilus.global<?x?xbf16>
  %a = tilus.load_global %gx[%r, %c] : !tilus.global<?x?xf16> -> !tilus.reg<16x64xf16>
  %f = tilus.cast %a : !tilus.reg<16x64xf16> to !tilus.reg<16x64xf32>
  %s = tilus.register_tensor init(%two : f32) : !tilus.reg<1x1xf32>
  %g = tilus.mul %f, %s : (!tilus.reg<16x64xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<16x64xf32>
  %e = tilus.exp %g : !tilus.reg<16x64xf32>
  %h = tilus.add %e, %f : (!tilus.reg<16x64xf32>, !tilus.reg<16x64xf32>) -> !tilus.reg<16x64xf32>
  %b = tilus.cast %h : !tilus.reg<16x64xf32> to !tilus.reg<16x64xbf16>
  tilus.store_global %b, %gy[%r, %c] : !tilus.reg<16x64xbf16>, !tilus.global<?x?xbf16>
}
tilus.kernel @ew_casts_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<bf16>, %m: i32, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.args = {m = 37 : i32, n = 100 : i32}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %two = arith.constant 2.0 : f32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gy = tilus.global_view %y[%m, %n] : !tilus.ptr<bf16> -> !tilus.global<?x?xbf16>
  scf.for %i = %c0 to %m step %c1 : i32 {
    scf.for %j = %c0 to %n step %c1 : i32 {
      %a = tilus.load_global %gx[%i, %j] : !tilus.global<?x?xf16> -> !tilus.reg<1x1xf16>
      %f = tilus.cast %a : !tilus.reg<1x1xf16> to !tilus.reg<1x1xf32>
      %s = tilus.register_tensor init(%two : f32) : !tilus.reg<1xf32>
      %g = tilus.mul %s, %f : (!tilus.reg<1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
      %e = tilus.exp %g : !tilus.reg<1x1xf32>
      %h = tilus.add %f, %e : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
      %b = tilus.cast %h : !tilus.reg<1x1xf32> to !tilus.reg<1x1xbf16>
      tilus.store_global %b, %gy[%i, %j] : !tilus.reg<1x1xbf16>, !tilus.global<?x?xbf16>
    }
  }
}

// i32 arithmetic, div/mod by constants, cast to f32 and f16, 1-D tile with masked tail
tilus.kernel @int_ops(%x: !tilus.ptr<i32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f16>, %n: i32)
    warps(2) blocks(affine_map<(d0, d1, d2, d3) -> (d3 ceildiv 512)>)
    attributes {tilus.args = {n = 1000 : i32}, tilus.outputs = ["y", "z"], tilus.reference = "int_ops_ref"} {
  %bx = tilus.block_id x
  %c512 = arith.constant 512 : i32
  %o = arith.muli %bx, %c512 : i32
  %three = arith.constant 3 : i32
  %seven = arith.constant 7 : i32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<i32> -> !tilus.global<?xi32>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gz = tilus.global_view %z[%n] : !tilus.ptr<f16> -> !tilus.global<?xf16>
  %a = tilus.load_global %gx[%o] : !tilus.global<?xi32> -> !tilus.reg<512xi32>
  %t3 = tilus.register_tensor init(%three : i32) : !tilus.reg<1xi32>
  %t7 = tilus.register_tensor init(%seven : i32) : !tilus.reg<1xi32>
  %b = tilus.mul %a, %t7 : (!tilus.reg<512xi32>, !tilus.reg<1xi32>) -> !tilus.reg<512xi32>
  %q = tilus.div %b, %t3 : (!tilus.reg<512xi32>, !tilus.reg<1xi32>) -> !tilus.reg<512xi32>
  %r = tilus.mod %b, %t3 : (!tilus.reg<512xi32>, !tilus.reg<1xi32>) -> !tilus.reg<512xi32>
  %s = tilus.add %q, %r : (!tilus.reg<512xi32>, !tilus.reg<512xi32>) -> !tilus.reg<512xi32>
  %ab = tilus.abs %s : !tilus.reg<512xi32>
  %f = tilus.cast %ab : !tilus.reg<512xi32> to !tilus.reg<512xf32>
  %h = tilus.cast %s : !tilus.reg<512xi32> to !tilus.reg<512xf16>
  tilus.store_global %f, %gy[%o] : !tilus.reg<512xf32>, !tilus.global<?xf32>
  tilus.store_global %h, %gz[%o] : !tilus.reg<512xf16>, !tilus.global<?xf16>
}
tilus.kernel @int_ops_ref(%x: !tilus.ptr<i32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f16>, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.args = {n = 1000 : i32}, tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %seven = arith.constant 7 : i32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<i32> -> !tilus.global<?xi32>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gz = tilus.global_view %z[%n] : !tilus.ptr<f16> -> !tilus.global<?xf16>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %a = tilus.load_global %gx[%i] : !tilus.global<?xi32> -> !tilus.reg<1xi32>
    %t3 = tilus.register_tensor init(%three : i32) : !tilus.reg<1xi32>
    %t7 = tilus.register_tensor init(%seven : i32) : !tilus.reg<1xi32>
    %b = tilus.mul %t7, %a : (!tilus.reg<1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1xi32>
    %q = tilus.div %b, %t3 : (!tilus.reg<1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1xi32>
    %r = tilus.mod %b, %t3 : (!tilus.reg<1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1xi32>
    %s = tilus.add %r, %q : (!tilus.reg<1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1xi32>
    %ab = tilus.abs %s : !tilus.reg<1xi32>
    %f = tilus.cast %ab : !tilus.reg<1xi32> to !tilus.reg<1xf32>
    %h = tilus.cast %s : !tilus.reg<1xi32> to !tilus.reg<1xf16>
    tilus.store_global %f, %gy[%i] : !tilus.reg<1xf32>, !tilus.global<?xf32>
    tilus.store_global %h, %gz[%i] : !tilus.reg<1xf16>, !tilus.global<?xf16>
  }
}

// y = (x + b[row vector]) * c[column vector, loaded as Mx1] - s (scalar param)
tilus.kernel @broadcast(%x: !tilus.ptr<f32>, %b: !tilus.ptr<f32>, %c: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %s: f32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4) -> (2)>)
    attributes {tilus.args = {s = 0.5 : f32}, tilus.outputs = ["y"], tilus.reference = "broadcast_ref"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %r = arith.muli %bx, %c32 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x128xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x128xf32>
  %gb = tilus.global_view %b : !tilus.ptr<f32> -> !tilus.global<128xf32>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<64x1xf32>
  %t = tilus.load_global %gx[%r, %c0] : !tilus.global<64x128xf32> -> !tilus.reg<32x128xf32>
  %rb = tilus.load_global %gb[%c0] : !tilus.global<128xf32> -> !tilus.reg<128xf32>
  %cc = tilus.load_global %gc[%r, %c0] : !tilus.global<64x1xf32> -> !tilus.reg<32x1xf32>
  %ss = tilus.register_tensor init(%s : f32) : !tilus.reg<1x1xf32>
  %a = tilus.add %t, %rb : (!tilus.reg<32x128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<32x128xf32>
  %m = tilus.mul %cc, %a : (!tilus.reg<32x1xf32>, !tilus.reg<32x128xf32>) -> !tilus.reg<32x128xf32>
  %o = tilus.sub %m, %ss : (!tilus.reg<32x128xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<32x128xf32>
  tilus.store_global %o, %gy[%r, %c0] : !tilus.reg<32x128xf32>, !tilus.global<64x128xf32>
}
tilus.kernel @broadcast_ref(%x: !tilus.ptr<f32>, %b: !tilus.ptr<f32>, %c: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %s: f32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>)
    attributes {tilus.args = {s = 0.5 : f32}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x128xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x128xf32>
  %gb = tilus.global_view %b : !tilus.ptr<f32> -> !tilus.global<128xf32>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<64xf32>
  scf.for %i = %c0 to %c64 step %c1 : i32 {
    %ci = tilus.load_global %gc[%i] : !tilus.global<64xf32> -> !tilus.reg<1xf32>
    scf.for %j = %c0 to %c128 step %c1 : i32 {
      %t = tilus.load_global %gx[%i, %j] : !tilus.global<64x128xf32> -> !tilus.reg<1x1xf32>
      %bj = tilus.load_global %gb[%j] : !tilus.global<128xf32> -> !tilus.reg<1xf32>
      %a = tilus.add %t, %bj : (!tilus.reg<1x1xf32>, !tilus.reg<1xf32>) -> !tilus.reg<1x1xf32>
      %m = tilus.mul %a, %ci : (!tilus.reg<1x1xf32>, !tilus.reg<1xf32>) -> !tilus.reg<1x1xf32>
      %ss = tilus.register_tensor init(%s : f32) : !tilus.reg<1x1xf32>
      %o = tilus.sub %m, %ss : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
      tilus.store_global %o, %gy[%i, %j] : !tilus.reg<1x1xf32>, !tilus.global<64x128xf32>
    }
  }
}

// column normalisation: reduce dim 0 (sum, keepdim), divide back; plus column max (no keepdim) stored
tilus.kernel @colnorm(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %mx: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "mx"], tilus.reference = "colnorm_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gm = tilus.global_view %mx : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %a = tilus.abs %t : !tilus.reg<64x32xf32>
  %s = tilus.reduce sum %a dim(0) keepdim : !tilus.reg<64x32xf32> -> !tilus.reg<1x32xf32>
  %d = tilus.div %t, %s : (!tilus.reg<64x32xf32>, !tilus.reg<1x32xf32>) -> !tilus.reg<64x32xf32>
  tilus.store_global %d, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
  %m = tilus.reduce max %t dim(0) : !tilus.reg<64x32xf32> -> !tilus.reg<32xf32>
  tilus.store_global %m, %gm[%c0] : !tilus.reg<32xf32>, !tilus.global<32xf32>
}
tilus.kernel @colnorm_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %mx: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "mx"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gm = tilus.global_view %mx : !tilus.ptr<f32> -> !tilus.global<32xf32>
  scf.for %j = %c0 to %c32 step %c1 : i32 {
    %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1xf32>
    %ni = tilus.register_tensor init(%ninf : f32) : !tilus.reg<1xf32>
    %r:2 = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %z, %mm = %ni) -> (!tilus.reg<1xf32>, !tilus.reg<1xf32>) : i32 {
      %v = tilus.load_global %gx[%i, %j] : !tilus.global<64x32xf32> -> !tilus.reg<1x1xf32>
      %v1 = tilus.reduce sum %v dim(0) : !tilus.reg<1x1xf32> -> !tilus.reg<1xf32>
      %av = tilus.abs %v1 : !tilus.reg<1xf32>
      %n = tilus.add %acc, %av : (!tilus.reg<1xf32>, !tilus.reg<1xf32>) -> !tilus.reg<1xf32>
      %n2 = tilus.maximum %mm, %v1 : (!tilus.reg<1xf32>, !tilus.reg<1xf32>) -> !tilus.reg<1xf32>
      scf.yield %n, %n2 : !tilus.reg<1xf32>, !tilus.reg<1xf32>
    }
    tilus.store_global %r#1, %gm[%j] : !tilus.reg<1xf32>, !tilus.global<32xf32>
    scf.for %i = %c0 to %c64 step %c1 : i32 {
      %v = tilus.load_global %gx[%i, %j] : !tilus.global<64x32xf32> -> !tilus.reg<1x1xf32>
      %d = tilus.div %v, %r#0 : (!tilus.reg<1x1xf32>, !tilus.reg<1xf32>) -> !tilus.reg<1x1xf32>
      tilus.store_global %d, %gy[%i, %j] : !tilus.reg<1x1xf32>, !tilus.global<64x32xf32>
    }
  }
}

// layernorm over 100 columns in a 4x128 tile (masked edge), f16 in/out, weight and bias row vectors
tilus.kernel @layernorm(%x: !tilus.ptr<f16>, %w: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d4 ceildiv 4)>)
    attributes {tilus.args = {m = 10 : i32}, tilus.outputs = ["y"], tilus.reference = "layernorm_ref"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %r = arith.muli %bx, %c4 : i32
  %inv_n = arith.constant 0.01 : f32
  %eps = arith.constant 1.0e-5 : f32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x100xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x100xf16>
  %gw = tilus.global_view %w : !tilus.ptr<f16> -> !tilus.global<100xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<100xf16>
  %xh = tilus.load_global %gx[%r, %c0] : !tilus.global<?x100xf16> -> !tilus.reg<4x128xf16>
  %xf = tilus.cast %xh : !tilus.reg<4x128xf16> to !tilus.reg<4x128xf32>
  %in = tilus.register_tensor init(%inv_n : f32) : !tilus.reg<1x1xf32>
  %ep = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %s1 = tilus.reduce sum %xf dim(1) keepdim : !tilus.reg<4x128xf32> -> !tilus.reg<4x1xf32>
  %sq = tilus.mul %xf, %xf : (!tilus.reg<4x128xf32>, !tilus.reg<4x128xf32>) -> !tilus.reg<4x128xf32>
  %s2 = tilus.reduce sum %sq dim(1) keepdim : !tilus.reg<4x128xf32> -> !tilus.reg<4x1xf32>
  %mean = tilus.mul %s1, %in : (!tilus.reg<4x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<4x1xf32>
  %ex2 = tilus.mul %s2, %in : (!tilus.reg<4x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<4x1xf32>
  %m2 = tilus.mul %mean, %mean : (!tilus.reg<4x1xf32>, !tilus.reg<4x1xf32>) -> !tilus.reg<4x1xf32>
  %var = tilus.sub %ex2, %m2 : (!tilus.reg<4x1xf32>, !tilus.reg<4x1xf32>) -> !tilus.reg<4x1xf32>
  %ve = tilus.add %var, %ep : (!tilus.reg<4x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<4x1xf32>
  %rs = tilus.rsqrt %ve : !tilus.reg<4x1xf32>
  %xc = tilus.sub %xf, %mean : (!tilus.reg<4x128xf32>, !tilus.reg<4x1xf32>) -> !tilus.reg<4x128xf32>
  %xn = tilus.mul %xc, %rs : (!tilus.reg<4x128xf32>, !tilus.reg<4x1xf32>) -> !tilus.reg<4x128xf32>
  %wh = tilus.load_global %gw[%c0] : !tilus.global<100xf16> -> !tilus.reg<128xf16>
  %bh = tilus.load_global %gb[%c0] : !tilus.global<100xf16> -> !tilus.reg<128xf16>
  %wf = tilus.cast %wh : !tilus.reg<128xf16> to !tilus.reg<128xf32>
  %bf = tilus.cast %bh : !tilus.reg<128xf16> to !tilus.reg<128xf32>
  %xw = tilus.mul %xn, %wf : (!tilus.reg<4x128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<4x128xf32>
  %o = tilus.add %xw, %bf : (!tilus.reg<4x128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<4x128xf32>
  %oh = tilus.cast %o : !tilus.reg<4x128xf32> to !tilus.reg<4x128xf16>
  tilus.store_global %oh, %gy[%r, %c0] : !tilus.reg<4x128xf16>, !tilus.global<?x100xf16>
}
tilus.kernel @layernorm_ref(%x: !tilus.ptr<f16>, %w: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d4)>)
    attributes {tilus.args = {m = 10 : i32}, tilus.outputs = ["y"]} {
  %i = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c100 = arith.constant 100 : i32
  %zero = arith.constant 0.0 : f32
  %nf = arith.constant 100.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<f16> -> !tilus.global<?x100xf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f16> -> !tilus.global<?x100xf16>
  %gw = tilus.global_view %w : !tilus.ptr<f16> -> !tilus.global<100xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<100xf16>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1x1xf32>
  %acc:2 = scf.for %j = %c0 to %c100 step %c1 iter_args(%a = %z, %q = %z) -> (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) : i32 {
    %v = tilus.load_global %gx[%i, %j] : !tilus.global<?x100xf16> -> !tilus.reg<1x1xf16>
    %vf = tilus.cast %v : !tilus.reg<1x1xf16> to !tilus.reg<1x1xf32>
    %a2 = tilus.add %a, %vf : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
    %v2 = tilus.mul %vf, %vf : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
    %q2 = tilus.add %q, %v2 : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
    scf.yield %a2, %q2 : !tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>
  }
  %n = tilus.register_tensor init(%nf : f32) : !tilus.reg<1x1xf32>
  %ep = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %mean = tilus.div %acc#0, %n : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
  %ex2 = tilus.div %acc#1, %n : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
  %m2 = tilus.mul %mean, %mean : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
  %var = tilus.sub %ex2, %m2 : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
  %ve = tilus.add %var, %ep : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
  %sd = tilus.sqrt %ve : !tilus.reg<1x1xf32>
  scf.for %j = %c0 to %c100 step %c1 : i32 {
    %v = tilus.load_global %gx[%i, %j] : !tilus.global<?x100xf16> -> !tilus.reg<1x1xf16>
    %vf = tilus.cast %v : !tilus.reg<1x1xf16> to !tilus.reg<1x1xf32>
    %wv = tilus.load_global %gw[%j] : !tilus.global<100xf16> -> !tilus.reg<1xf16>
    %bv = tilus.load_global %gb[%j] : !tilus.global<100xf16> -> !tilus.reg<1xf16>
    %wf = tilus.cast %wv : !tilus.reg<1xf16> to !tilus.reg<1xf32>
    %bf = tilus.cast %bv : !tilus.reg<1xf16> to !tilus.reg<1xf32>
    %xc = tilus.sub %vf, %mean : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
    %xn = tilus.div %xc, %sd : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
    %xw = tilus.mul %xn, %wf : (!tilus.reg<1x1xf32>, !tilus.reg<1xf32>) -> !tilus.reg<1x1xf32>
    %o = tilus.add %xw, %bf : (!tilus.reg<1x1xf32>, !tilus.reg<1xf32>) -> !tilus.reg<1x1xf32>
    %oh = tilus.cast %o : !tilus.reg<1x1xf32> to !tilus.reg<1x1xf16>
    tilus.store_global %oh, %gy[%i, %j] : !tilus.reg<1x1xf16>, !tilus.global<?x100xf16>
  }
}

// relu via cmp+where, clamp to [-0.5, 0.5] via where, bf16 tile 8x64 with 2 warps
tilus.kernel @where_relu(%x: !tilus.ptr<bf16>, %y: !tilus.ptr<bf16>, %z: !tilus.ptr<f32>)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "where_relu_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : bf16
  %hi = arith.constant 0.5 : f32
  %lo = arith.constant -0.5 : f32
  %gx = tilus.global_view %x : !tilus.ptr<bf16> -> !tilus.global<8x64xbf16>
  %gy = tilus.global_view %y : !tilus.ptr<bf16> -> !tilus.global<8x64xbf16>
  %gz = tilus.global_view %z : !tilus.ptr<f32> -> !tilus.global<8x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<8x64xbf16> -> !tilus.reg<8x64xbf16>
  %zt = tilus.register_tensor init(%zero : bf16) : !tilus.reg<1x1xbf16>
  %p = tilus.cmp gt %t, %zt : (!tilus.reg<8x64xbf16>, !tilus.reg<1x1xbf16>) -> !tilus.reg<8x64xi1>
  %r = tilus.where %p, %t, %zt : (!tilus.reg<8x64xi1>, !tilus.reg<8x64xbf16>, !tilus.reg<1x1xbf16>) -> !tilus.reg<8x64xbf16>
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<8x64xbf16>, !tilus.global<8x64xbf16>
  %f = tilus.cast %t : !tilus.reg<8x64xbf16> to !tilus.reg<8x64xf32>
  %h = tilus.register_tensor init(%hi : f32) : !tilus.reg<1xf32>
  %l = tilus.register_tensor init(%lo : f32) : !tilus.reg<1xf32>
  %ph = tilus.cmp ge %f, %h : (!tilus.reg<8x64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<8x64xi1>
  %pl = tilus.cmp le %f, %l : (!tilus.reg<8x64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<8x64xi1>
  %c1 = tilus.where %ph, %h, %f : (!tilus.reg<8x64xi1>, !tilus.reg<1xf32>, !tilus.reg<8x64xf32>) -> !tilus.reg<8x64xf32>
  %c2 = tilus.where %pl, %l, %c1 : (!tilus.reg<8x64xi1>, !tilus.reg<1xf32>, !tilus.reg<8x64xf32>) -> !tilus.reg<8x64xf32>
  tilus.store_global %c2, %gz[%c0, %c0] : !tilus.reg<8x64xf32>, !tilus.global<8x64xf32>
}
tilus.kernel @where_relu_ref(%x: !tilus.ptr<bf16>, %y: !tilus.ptr<bf16>, %z: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %zero = arith.constant 0.0 : bf16
  %hi = arith.constant 0.5 : f32
  %lo = arith.constant -0.5 : f32
  %gx = tilus.global_view %x : !tilus.ptr<bf16> -> !tilus.global<8x64xbf16>
  %gy = tilus.global_view %y : !tilus.ptr<bf16> -> !tilus.global<8x64xbf16>
  %gz = tilus.global_view %z : !tilus.ptr<f32> -> !tilus.global<8x64xf32>
  scf.for %i = %c0 to %c8 step %c1 : i32 {
    %t = tilus.load_global %gx[%i, %c0] : !tilus.global<8x64xbf16> -> !tilus.reg<1x64xbf16>
    %zt = tilus.register_tensor init(%zero : bf16) : !tilus.reg<1x64xbf16>
    %r = tilus.maximum %t, %zt : (!tilus.reg<1x64xbf16>, !tilus.reg<1x64xbf16>) -> !tilus.reg<1x64xbf16>
    tilus.store_global %r, %gy[%i, %c0] : !tilus.reg<1x64xbf16>, !tilus.global<8x64xbf16>
    %f = tilus.cast %t : !tilus.reg<1x64xbf16> to !tilus.reg<1x64xf32>
    %h = tilus.register_tensor init(%hi : f32) : !tilus.reg<1x64xf32>
    %l = tilus.register_tensor init(%lo : f32) : !tilus.reg<1x64xf32>
    %a = tilus.minimum %f, %h : (!tilus.reg<1x64xf32>, !tilus.reg<1x64xf32>) -> !tilus.reg<1x64xf32>
    %b = tilus.maximum %a, %l : (!tilus.reg<1x64xf32>, !tilus.reg<1x64xf32>) -> !tilus.reg<1x64xf32>
    tilus.store_global %b, %gz[%i, %c0] : !tilus.reg<1x64xf32>, !tilus.global<8x64xf32>
  }
}

// 3-D tile 4x8x16: subtract the mean over dim 1 (keepdim, broadcast back), min over dim 2 (no keepdim)
tilus.kernel @tile3d(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "tile3d_ref"} {
  %c0 = arith.constant 0 : i32
  %q = arith.constant 0.125 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<4x8x16xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<4x8x16xf32>
  %gz = tilus.global_view %z : !tilus.ptr<f32> -> !tilus.global<4x8xf32>
  %t = tilus.load_global %gx[%c0, %c0, %c0] : !tilus.global<4x8x16xf32> -> !tilus.reg<4x8x16xf32>
  %s = tilus.reduce sum %t dim(1) keepdim : !tilus.reg<4x8x16xf32> -> !tilus.reg<4x1x16xf32>
  %qt = tilus.register_tensor init(%q : f32) : !tilus.reg<1xf32>
  %mean = tilus.mul %s, %qt : (!tilus.reg<4x1x16xf32>, !tilus.reg<1xf32>) -> !tilus.reg<4x1x16xf32>
  %d = tilus.sub %t, %mean : (!tilus.reg<4x8x16xf32>, !tilus.reg<4x1x16xf32>) -> !tilus.reg<4x8x16xf32>
  tilus.store_global %d, %gy[%c0, %c0, %c0] : !tilus.reg<4x8x16xf32>, !tilus.global<4x8x16xf32>
  %mn = tilus.reduce min %t dim(2) : !tilus.reg<4x8x16xf32> -> !tilus.reg<4x8xf32>
  tilus.store_global %mn, %gz[%c0, %c0] : !tilus.reg<4x8xf32>, !tilus.global<4x8xf32>
}
tilus.kernel @tile3d_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %q = arith.constant 0.125 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<4x8x16xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<4x8x16xf32>
  %gz = tilus.global_view %z : !tilus.ptr<f32> -> !tilus.global<4x8xf32>
  scf.for %i = %c0 to %c4 step %c1 : i32 {
    %t3 = tilus.load_global %gx[%i, %c0, %c0] : !tilus.global<4x8x16xf32> -> !tilus.reg<1x8x16xf32>
    %t = tilus.reduce sum %t3 dim(0) : !tilus.reg<1x8x16xf32> -> !tilus.reg<8x16xf32>
    %s = tilus.reduce sum %t dim(0) : !tilus.reg<8x16xf32> -> !tilus.reg<16xf32>
    %qt = tilus.register_tensor init(%q : f32) : !tilus.reg<16xf32>
    %mean = tilus.mul %s, %qt : (!tilus.reg<16xf32>, !tilus.reg<16xf32>) -> !tilus.reg<16xf32>
    %d = tilus.sub %t, %mean : (!tilus.reg<8x16xf32>, !tilus.reg<16xf32>) -> !tilus.reg<8x16xf32>
    %zz = arith.constant 0.0 : f32
    %z3 = tilus.register_tensor init(%zz : f32) : !tilus.reg<1x1x1xf32>
    %dd = tilus.add %z3, %d : (!tilus.reg<1x1x1xf32>, !tilus.reg<8x16xf32>) -> !tilus.reg<1x8x16xf32>
    tilus.store_global %dd, %gy[%i, %c0, %c0] : !tilus.reg<1x8x16xf32>, !tilus.global<4x8x16xf32>
    %mn = tilus.reduce min %t dim(1) keepdim : !tilus.reg<8x16xf32> -> !tilus.reg<8x1xf32>
    %z2 = tilus.register_tensor init(%zz : f32) : !tilus.reg<1x1x1xf32>
    %m3 = tilus.add %z2, %mn : (!tilus.reg<1x1x1xf32>, !tilus.reg<8x1xf32>) -> !tilus.reg<1x8x1xf32>
    %m2 = tilus.reduce sum %m3 dim(2) : !tilus.reg<1x8x1xf32> -> !tilus.reg<1x8xf32>
    tilus.store_global %m2, %gz[%i, %c0] : !tilus.reg<1x8xf32>, !tilus.global<4x8xf32>
  }
}

// tiles smaller than the group: 3x5 (masked 3x5 view of a 4x8 tile), 1x7, with 4 warps
tilus.kernel @tiny_tiles(%x: !tilus.ptr<f32>, %v: !tilus.ptr<f16>, %y: !tilus.ptr<f32>, %w: !tilus.ptr<f16>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "w"], tilus.reference = "tiny_tiles_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<3x5xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<3x5xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f16> -> !tilus.global<1x7xf16>
  %gw = tilus.global_view %w : !tilus.ptr<f16> -> !tilus.global<1x7xf16>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<3x5xf32> -> !tilus.reg<3x5xf32>
  %s = tilus.reduce sum %t dim(1) keepdim : !tilus.reg<3x5xf32> -> !tilus.reg<3x1xf32>
  %u = tilus.mul %t, %s : (!tilus.reg<3x5xf32>, !tilus.reg<3x1xf32>) -> !tilus.reg<3x5xf32>
  tilus.store_global %u, %gy[%c0, %c0] : !tilus.reg<3x5xf32>, !tilus.global<3x5xf32>
  %a = tilus.load_global %gv[%c0, %c0] : !tilus.global<1x7xf16> -> !tilus.reg<1x7xf16>
  %mx = tilus.reduce max %a dim(1) keepdim : !tilus.reg<1x7xf16> -> !tilus.reg<1x1xf16>
  %b = tilus.sub %a, %mx : (!tilus.reg<1x7xf16>, !tilus.reg<1x1xf16>) -> !tilus.reg<1x7xf16>
  tilus.store_global %b, %gw[%c0, %c0] : !tilus.reg<1x7xf16>, !tilus.global<1x7xf16>
}
tilus.kernel @tiny_tiles_ref(%x: !tilus.ptr<f32>, %v: !tilus.ptr<f16>, %y: !tilus.ptr<f32>, %w: !tilus.ptr<f16>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "w"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<3x5xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<3x5xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f16> -> !tilus.global<1x7xf16>
  %gw = tilus.global_view %w : !tilus.ptr<f16> -> !tilus.global<1x7xf16>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<3x5xf32> -> !tilus.reg<4x8xf32, layout = spatial(4, 8) * local(1, 1)>
  %s = tilus.reduce sum %t dim(1) keepdim : !tilus.reg<4x8xf32, layout = spatial(4, 8) * local(1, 1)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(8)>
  %u = tilus.mul %t, %s : (!tilus.reg<4x8xf32, layout = spatial(4, 8) * local(1, 1)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(8)>) -> !tilus.reg<4x8xf32, layout = spatial(4, 8) * local(1, 1)>
  tilus.store_global %u, %gy[%c0, %c0] : !tilus.reg<4x8xf32, layout = spatial(4, 8) * local(1, 1)>, !tilus.global<3x5xf32>
  %a = tilus.load_global %gv[%c0, %c0] : !tilus.global<1x7xf16> -> !tilus.reg<1x7xf16, layout = local(1, 7) * replicate(32)>
  %mx = tilus.reduce max %a dim(1) keepdim : !tilus.reg<1x7xf16, layout = local(1, 7) * replicate(32)> -> !tilus.reg<1x1xf16, layout = local(1, 1) * replicate(32)>
  %b = tilus.sub %a, %mx : (!tilus.reg<1x7xf16, layout = local(1, 7) * replicate(32)>, !tilus.reg<1x1xf16, layout = local(1, 1) * replicate(32)>) -> !tilus.reg<1x7xf16, layout = local(1, 7) * replicate(32)>
  tilus.store_global %b, %gw[%c0, %c0] : !tilus.reg<1x7xf16, layout = local(1, 7) * replicate(32)>, !tilus.global<1x7xf16>
}

// odd shapes: 33x17 f32 tile in 2 warps: exp, column max over dim 0 (keepdim) and back, row sum
tilus.kernel @odd_shape(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f32>)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "odd_shape_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<33x17xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<33x17xf32>
  %gz = tilus.global_view %z : !tilus.ptr<f32> -> !tilus.global<33xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<33x17xf32> -> !tilus.reg<33x17xf32>
  %m = tilus.reduce max %t dim(0) keepdim : !tilus.reg<33x17xf32> -> !tilus.reg<1x17xf32>
  %d = tilus.sub %t, %m : (!tilus.reg<33x17xf32>, !tilus.reg<1x17xf32>) -> !tilus.reg<33x17xf32>
  %e = tilus.exp %d : !tilus.reg<33x17xf32>
  tilus.store_global %e, %gy[%c0, %c0] : !tilus.reg<33x17xf32>, !tilus.global<33x17xf32>
  %s = tilus.reduce sum %e dim(1) : !tilus.reg<33x17xf32> -> !tilus.reg<33xf32>
  tilus.store_global %s, %gz[%c0] : !tilus.reg<33xf32>, !tilus.global<33xf32>
}
tilus.kernel @odd_shape_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f32>)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<33x17xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<33x17xf32>
  %gz = tilus.global_view %z : !tilus.ptr<f32> -> !tilus.global<33xf32>
  %gxt = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<17x33xf32, strides = [1, 17]>
  %tt = tilus.load_global %gxt[%c0, %c0] : !tilus.global<17x33xf32, strides = [1, 17]> -> !tilus.reg<17x33xf32>
  %m = tilus.reduce max %tt dim(1) keepdim : !tilus.reg<17x33xf32> -> !tilus.reg<17x1xf32>
  %d = tilus.sub %tt, %m : (!tilus.reg<17x33xf32>, !tilus.reg<17x1xf32>) -> !tilus.reg<17x33xf32>
  %e = tilus.exp %d : !tilus.reg<17x33xf32>
  %gyt = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<17x33xf32, strides = [1, 17]>
  tilus.store_global %e, %gyt[%c0, %c0] : !tilus.reg<17x33xf32>, !tilus.global<17x33xf32, strides = [1, 17]>
  %s = tilus.reduce sum %e dim(0) keepdim : !tilus.reg<17x33xf32> -> !tilus.reg<1x33xf32>
  %gz2 = tilus.global_view %z : !tilus.ptr<f32> -> !tilus.global<1x33xf32>
  tilus.store_global %s, %gz2[%c0, %c0] : !tilus.reg<1x33xf32>, !tilus.global<1x33xf32>
}

// tilus.dot on 2 warps (mma.sync path): f16 32x32 @ 32x16 -> f32, plus bias row, f16 out
tilus.kernel @dot_mma(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["c"], tilus.reference = "dot_mma_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<32x32xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<32x16xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f16> -> !tilus.global<32x16xf16>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<32x32xf16> -> !tilus.reg<32x32xf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<32x16xf16> -> !tilus.reg<32x16xf16>
  %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x16xf32>
  %d = tilus.dot %ra, %rb, %acc : (!tilus.reg<32x32xf16>, !tilus.reg<32x16xf16>, !tilus.reg<32x16xf32>) -> !tilus.reg<32x16xf32>
  %h = tilus.cast %d : !tilus.reg<32x16xf32> to !tilus.reg<32x16xf16>
  tilus.store_global %h, %gc[%c0, %c0] : !tilus.reg<32x16xf16>, !tilus.global<32x16xf16>
}
tilus.kernel @dot_mma_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["c"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<32x32xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<32x16xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f16> -> !tilus.global<32x16xf16>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x16xf32>
  %acc = scf.for %k = %c0 to %c32 step %c1 iter_args(%s = %z) -> (!tilus.reg<32x16xf32>) : i32 {
    %col = tilus.load_global %ga[%c0, %k] : !tilus.global<32x32xf16> -> !tilus.reg<32x1xf16>
    %row = tilus.load_global %gb[%k, %c0] : !tilus.global<32x16xf16> -> !tilus.reg<1x16xf16>
    %cf = tilus.cast %col : !tilus.reg<32x1xf16> to !tilus.reg<32x1xf32>
    %rf = tilus.cast %row : !tilus.reg<1x16xf16> to !tilus.reg<1x16xf32>
    %p = tilus.mul %cf, %rf : (!tilus.reg<32x1xf32>, !tilus.reg<1x16xf32>) -> !tilus.reg<32x16xf32>
    %s2 = tilus.add %s, %p : (!tilus.reg<32x16xf32>, !tilus.reg<32x16xf32>) -> !tilus.reg<32x16xf32>
    scf.yield %s2 : !tilus.reg<32x16xf32>
  }
  %h = tilus.cast %acc : !tilus.reg<32x16xf32> to !tilus.reg<32x16xf16>
  tilus.store_global %h, %gc[%c0, %c0] : !tilus.reg<32x16xf16>, !tilus.global<32x16xf16>
}

// tilus.dot on one warpgroup (wgmma on sm_90a), K loop in scf.for, masked edges (m=50, n=40, k=48)
tilus.kernel @dot_wgmma(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f32>, %bias: !tilus.ptr<f32>, %m: i32, %n: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4 ceildiv 64, d5 ceildiv 64)>)
    attributes {tilus.args = {m = 50 : i32, n = 40 : i32, k = 48 : i32}, tilus.outputs = ["c"], tilus.reference = "dot_wgmma_ref"} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %om = arith.muli %bx, %c64 : i32
  %on = arith.muli %by, %c64 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%k, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %gbias = tilus.global_view %bias[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %acc = scf.for %kk = %c0 to %k step %c16 iter_args(%s = %acc0) -> (!tilus.reg<64x64xf32>) : i32 {
    %ra = tilus.load_global %ga[%om, %kk] : !tilus.global<?x?xf16> -> !tilus.reg<64x16xf16>
    %rb = tilus.load_global %gb[%kk, %on] : !tilus.global<?x?xf16> -> !tilus.reg<16x64xf16>
    %d = tilus.dot %ra, %rb, %s : (!tilus.reg<64x16xf16>, !tilus.reg<16x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
    scf.yield %d : !tilus.reg<64x64xf32>
  }
  %bv = tilus.load_global %gbias[%on] : !tilus.global<?xf32> -> !tilus.reg<64xf32>
  %o = tilus.add %acc, %bv : (!tilus.reg<64x64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %o, %gc[%om, %on] : !tilus.reg<64x64xf32>, !tilus.global<?x?xf32>
}
tilus.kernel @dot_wgmma_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f32>, %bias: !tilus.ptr<f32>, %m: i32, %n: i32, %k: i32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4)>)
    attributes {tilus.args = {m = 50 : i32, n = 40 : i32, k = 48 : i32}, tilus.outputs = ["c"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %i = tilus.block_id x
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%k, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %gbias = tilus.global_view %bias[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1x64xf32>
  %acc = scf.for %kk = %c0 to %k step %c1 iter_args(%s = %z) -> (!tilus.reg<1x64xf32>) : i32 {
    %av = tilus.load_global %ga[%i, %kk] : !tilus.global<?x?xf16> -> !tilus.reg<1x1xf16>
    %bv = tilus.load_global %gb[%kk, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<1x64xf16>
    %af = tilus.cast %av : !tilus.reg<1x1xf16> to !tilus.reg<1x1xf32>
    %bf = tilus.cast %bv : !tilus.reg<1x64xf16> to !tilus.reg<1x64xf32>
    %p = tilus.mul %bf, %af : (!tilus.reg<1x64xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x64xf32>
    %s2 = tilus.add %p, %s : (!tilus.reg<1x64xf32>, !tilus.reg<1x64xf32>) -> !tilus.reg<1x64xf32>
    scf.yield %s2 : !tilus.reg<1x64xf32>
  }
  %bb = tilus.load_global %gbias[%c0] : !tilus.global<?xf32> -> !tilus.reg<64xf32>
  %o = tilus.add %acc, %bb : (!tilus.reg<1x64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<1x64xf32>
  tilus.store_global %o, %gc[%i, %c0] : !tilus.reg<1x64xf32>, !tilus.global<?x?xf32>
}

// tilus.dot in f32 (SIMT path), 16x8 @ 8x24, 1 warp, then row-max of the product
tilus.kernel @dot_simt(%a: !tilus.ptr<f32>, %b: !tilus.ptr<f32>, %c: !tilus.ptr<f32>, %r: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["c", "r"], tilus.reference = "dot_simt_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a : !tilus.ptr<f32> -> !tilus.global<16x8xf32>
  %gb = tilus.global_view %b : !tilus.ptr<f32> -> !tilus.global<8x24xf32>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<16x24xf32>
  %gr = tilus.global_view %r : !tilus.ptr<f32> -> !tilus.global<16xf32>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<16x8xf32> -> !tilus.reg<16x8xf32>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<8x24xf32> -> !tilus.reg<8x24xf32>
  %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<16x24xf32>
  %d = tilus.dot %ra, %rb, %acc : (!tilus.reg<16x8xf32>, !tilus.reg<8x24xf32>, !tilus.reg<16x24xf32>) -> !tilus.reg<16x24xf32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<16x24xf32>, !tilus.global<16x24xf32>
  %mx = tilus.reduce max %d dim(1) : !tilus.reg<16x24xf32> -> !tilus.reg<16xf32>
  tilus.store_global %mx, %gr[%c0] : !tilus.reg<16xf32>, !tilus.global<16xf32>
}
tilus.kernel @dot_simt_ref(%a: !tilus.ptr<f32>, %b: !tilus.ptr<f32>, %c: !tilus.ptr<f32>, %r: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["c", "r"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a : !tilus.ptr<f32> -> !tilus.global<16x8xf32>
  %gb = tilus.global_view %b : !tilus.ptr<f32> -> !tilus.global<8x24xf32>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<16x24xf32>
  %gr = tilus.global_view %r : !tilus.ptr<f32> -> !tilus.global<16x1xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<16x24xf32>
  %acc = scf.for %k = %c0 to %c8 step %c1 iter_args(%s = %z) -> (!tilus.reg<16x24xf32>) : i32 {
    %col = tilus.load_global %ga[%c0, %k] : !tilus.global<16x8xf32> -> !tilus.reg<16x1xf32>
    %row = tilus.load_global %gb[%k, %c0] : !tilus.global<8x24xf32> -> !tilus.reg<1x24xf32>
    %p = tilus.mul %col, %row : (!tilus.reg<16x1xf32>, !tilus.reg<1x24xf32>) -> !tilus.reg<16x24xf32>
    %s2 = tilus.add %s, %p : (!tilus.reg<16x24xf32>, !tilus.reg<16x24xf32>) -> !tilus.reg<16x24xf32>
    scf.yield %s2 : !tilus.reg<16x24xf32>
  }
  tilus.store_global %acc, %gc[%c0, %c0] : !tilus.reg<16x24xf32>, !tilus.global<16x24xf32>
  %mx = tilus.reduce max %acc dim(1) keepdim : !tilus.reg<16x24xf32> -> !tilus.reg<16x1xf32>
  tilus.store_global %mx, %gr[%c0, %c0] : !tilus.reg<16x1xf32>, !tilus.global<16x1xf32>
}

// shared round trip: f16 tile -> store_shared -> sync -> load_shared (f16) -> f32 math -> store
tilus.kernel @shared_roundtrip(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "shared_roundtrip_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<32x64xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x64xf16> -> !tilus.reg<32x64xf16>
  %s = tilus.shared_tensor : !tilus.shared<32x64xf16>
  tilus.store_shared %t, %s : !tilus.reg<32x64xf16>, !tilus.shared<32x64xf16>
  threadgroup.sync
  %u = tilus.load_shared %s : !tilus.shared<32x64xf16> -> !tilus.reg<32x64xf16>
  %f = tilus.cast %u : !tilus.reg<32x64xf16> to !tilus.reg<32x64xf32>
  %g = tilus.mul %f, %f : (!tilus.reg<32x64xf32>, !tilus.reg<32x64xf32>) -> !tilus.reg<32x64xf32>
  tilus.store_global %g, %gy[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
  tilus.free_shared %s : !tilus.shared<32x64xf16>
}
tilus.kernel @shared_roundtrip_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<32x64xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x64xf16> -> !tilus.reg<32x64xf16>
  %f = tilus.cast %t : !tilus.reg<32x64xf16> to !tilus.reg<32x64xf32>
  %g = tilus.mul %f, %f : (!tilus.reg<32x64xf32>, !tilus.reg<32x64xf32>) -> !tilus.reg<32x64xf32>
  tilus.store_global %g, %gy[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
}

// transpose through shared memory: load 32x64, store_shared, permute_shared [1, 0], load_shared 64x32, store
tilus.kernel @transpose_shared(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "transpose_shared_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x64xf32> -> !tilus.reg<32x64xf32>
  %s = tilus.shared_tensor : !tilus.shared<32x64xf32>
  tilus.store_shared %t, %s : !tilus.reg<32x64xf32>, !tilus.shared<32x64xf32>
  threadgroup.sync
  %p = tilus.permute_shared %s [1, 0] : !tilus.shared<32x64xf32> -> !tilus.shared<64x32xf32, strides = [1, 64]>
  %u = tilus.load_shared %p : !tilus.shared<64x32xf32, strides = [1, 64]> -> !tilus.reg<64x32xf32>
  tilus.store_global %u, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}
tilus.kernel @transpose_shared_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  scf.for %j = %c0 to %c64 step %c1 : i32 {
    %col = tilus.load_global %gx[%c0, %j] : !tilus.global<32x64xf32> -> !tilus.reg<32x1xf32>
    %s = tilus.reduce sum %col dim(1) : !tilus.reg<32x1xf32> -> !tilus.reg<32xf32>
    %z = arith.constant 0.0 : f32
    %zz = tilus.register_tensor init(%z : f32) : !tilus.reg<1x1xf32>
    %row = tilus.add %zz, %s : (!tilus.reg<1x1xf32>, !tilus.reg<32xf32>) -> !tilus.reg<1x32xf32>
    tilus.store_global %row, %gy[%j, %c0] : !tilus.reg<1x32xf32>, !tilus.global<64x32xf32>
  }
}

// transpose through a transposed global view: load via strides=[1,?] view, store row-major; f16
tilus.kernel @transpose_global(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d3 ceildiv 64, d2 ceildiv 32)>)
    attributes {tilus.args = {m = 70 : i32, n = 90 : i32}, tilus.outputs = ["y"], tilus.reference = "transpose_global_ref"} {
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %r = arith.muli %bx, %c64 : i32
  %c = arith.muli %by, %c32 : i32
  // x is m x n row-major; xt is its n x m transpose view
  %gxt = tilus.global_view %x[%n, %m] strides[%n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [1, ?]>
  %gy = tilus.global_view %y[%n, %m] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %t = tilus.load_global %gxt[%r, %c] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<64x32xf16>
  %n2 = tilus.neg %t : !tilus.reg<64x32xf16>
  tilus.store_global %n2, %gy[%r, %c] : !tilus.reg<64x32xf16>, !tilus.global<?x?xf16>
}
tilus.kernel @transpose_global_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (d2)>)
    attributes {tilus.args = {m = 70 : i32, n = 90 : i32}, tilus.outputs = ["y"]} {
  %i = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gy = tilus.global_view %y[%n, %m] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  scf.for %j = %c0 to %n step %c1 : i32 {
    %v = tilus.load_global %gx[%i, %j] : !tilus.global<?x?xf16> -> !tilus.reg<1x1xf16>
    %w = tilus.neg %v : !tilus.reg<1x1xf16>
    tilus.store_global %w, %gy[%j, %i] : !tilus.reg<1x1xf16>, !tilus.global<?x?xf16>
  }
}

// scf.for carrying two register tiles (sum and max over K row blocks), f16 input, f32 carried
tilus.kernel @for_carry(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f16>)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "for_carry_ref"} {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFC00 : f16
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<64x128xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<8x128xf32>
  %gz = tilus.global_view %z : !tilus.ptr<f16> -> !tilus.global<8x128xf16>
  %s0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<8x128xf32>
  %m0 = tilus.register_tensor init(%ninf : f16) : !tilus.reg<8x128xf16>
  %r:2 = scf.for %k = %c0 to %c64 step %c8 iter_args(%s = %s0, %mx = %m0) -> (!tilus.reg<8x128xf32>, !tilus.reg<8x128xf16>) : i32 {
    %t = tilus.load_global %gx[%k, %c0] : !tilus.global<64x128xf16> -> !tilus.reg<8x128xf16>
    %f = tilus.cast %t : !tilus.reg<8x128xf16> to !tilus.reg<8x128xf32>
    %s2 = tilus.add %s, %f : (!tilus.reg<8x128xf32>, !tilus.reg<8x128xf32>) -> !tilus.reg<8x128xf32>
    %m2 = tilus.maximum %mx, %t : (!tilus.reg<8x128xf16>, !tilus.reg<8x128xf16>) -> !tilus.reg<8x128xf16>
    scf.yield %s2, %m2 : !tilus.reg<8x128xf32>, !tilus.reg<8x128xf16>
  }
  tilus.store_global %r#0, %gy[%c0, %c0] : !tilus.reg<8x128xf32>, !tilus.global<8x128xf32>
  tilus.store_global %r#1, %gz[%c0, %c0] : !tilus.reg<8x128xf16>, !tilus.global<8x128xf16>
}
tilus.kernel @for_carry_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f16>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<8x8x128xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<8x128xf32>
  %gz = tilus.global_view %z : !tilus.ptr<f16> -> !tilus.global<8x128xf16>
  %t = tilus.load_global %gx[%c0, %c0, %c0] : !tilus.global<8x8x128xf16> -> !tilus.reg<8x8x128xf16>
  %f = tilus.cast %t : !tilus.reg<8x8x128xf16> to !tilus.reg<8x8x128xf32>
  %s = tilus.reduce sum %f dim(0) : !tilus.reg<8x8x128xf32> -> !tilus.reg<8x128xf32>
  %m = tilus.reduce max %t dim(0) : !tilus.reg<8x8x128xf16> -> !tilus.reg<8x128xf16>
  tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<8x128xf32>, !tilus.global<8x128xf32>
  tilus.store_global %m, %gz[%c0, %c0] : !tilus.reg<8x128xf16>, !tilus.global<8x128xf16>
}

// scf.if yielding tiles: block 0 takes exp(x), block 1 takes -x*x, then both add 1 and store
tilus.kernel @if_yield(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(2) blocks(affine_map<(d0, d1) -> (2)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "if_yield_ref"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %one = arith.constant 1.0 : f32
  %r = arith.muli %bx, %c16 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %t = tilus.load_global %gx[%r, %c0] : !tilus.global<32x64xf32> -> !tilus.reg<16x64xf32>
  %is0 = arith.cmpi eq, %bx, %c0 : i32
  %u = scf.if %is0 -> (!tilus.reg<16x64xf32>) {
    %e = tilus.exp %t : !tilus.reg<16x64xf32>
    scf.yield %e : !tilus.reg<16x64xf32>
  } else {
    %sq = tilus.mul %t, %t : (!tilus.reg<16x64xf32>, !tilus.reg<16x64xf32>) -> !tilus.reg<16x64xf32>
    %n = tilus.neg %sq : !tilus.reg<16x64xf32>
    scf.yield %n : !tilus.reg<16x64xf32>
  }
  %o = tilus.register_tensor init(%one : f32) : !tilus.reg<1xf32>
  %v = tilus.add %u, %o : (!tilus.reg<16x64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<16x64xf32>
  tilus.store_global %v, %gy[%r, %c0] : !tilus.reg<16x64xf32>, !tilus.global<32x64xf32>
}
tilus.kernel @if_yield_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %one = arith.constant 1.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %a = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x64xf32> -> !tilus.reg<16x64xf32>
  %b = tilus.load_global %gx[%c16, %c0] : !tilus.global<32x64xf32> -> !tilus.reg<16x64xf32>
  %o = tilus.register_tensor init(%one : f32) : !tilus.reg<16x64xf32>
  %e = tilus.exp %a : !tilus.reg<16x64xf32>
  %e1 = tilus.add %e, %o : (!tilus.reg<16x64xf32>, !tilus.reg<16x64xf32>) -> !tilus.reg<16x64xf32>
  %sq = tilus.mul %b, %b : (!tilus.reg<16x64xf32>, !tilus.reg<16x64xf32>) -> !tilus.reg<16x64xf32>
  %s1 = tilus.sub %o, %sq : (!tilus.reg<16x64xf32>, !tilus.reg<16x64xf32>) -> !tilus.reg<16x64xf32>
  tilus.store_global %e1, %gy[%c0, %c0] : !tilus.reg<16x64xf32>, !tilus.global<32x64xf32>
  tilus.store_global %s1, %gy[%c16, %c0] : !tilus.reg<16x64xf32>, !tilus.global<32x64xf32>
}

// thread groups: warps(8) split into two warpgroups doing different tile work, and a single_warp
tilus.kernel @warpgroups(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f32>, %w: !tilus.ptr<f32>)
    warps(8) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "z", "w"], tilus.reference = "warpgroups_ref"} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x128xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<16x128xf32>
  %gz = tilus.global_view %z : !tilus.ptr<f32> -> !tilus.global<16xf32>
  %gw = tilus.global_view %w : !tilus.ptr<f32> -> !tilus.global<4x32xf32>
  threadgroup.warp_group warps(0, 4) {
    %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x128xf32> -> !tilus.reg<16x128xf32>
    %e = tilus.exp %t : !tilus.reg<16x128xf32>
    tilus.store_global %e, %gy[%c0, %c0] : !tilus.reg<16x128xf32>, !tilus.global<16x128xf32>
  }
  threadgroup.warp_group warps(4, 4) {
    %t = tilus.load_global %gx[%c16, %c0] : !tilus.global<32x128xf32> -> !tilus.reg<16x128xf32>
    %s = tilus.reduce sum %t dim(1) : !tilus.reg<16x128xf32> -> !tilus.reg<16xf32>
    tilus.store_global %s, %gz[%c0] : !tilus.reg<16xf32>, !tilus.global<16xf32>
  }
  threadgroup.single_warp warp(7) {
    %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x128xf32> -> !tilus.reg<4x32xf32>
    %m = tilus.reduce max %t dim(0) keepdim : !tilus.reg<4x32xf32> -> !tilus.reg<1x32xf32>
    %d = tilus.sub %t, %m : (!tilus.reg<4x32xf32>, !tilus.reg<1x32xf32>) -> !tilus.reg<4x32xf32>
    tilus.store_global %d, %gw[%c0, %c0] : !tilus.reg<4x32xf32>, !tilus.global<4x32xf32>
  }
}
tilus.kernel @warpgroups_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f32>, %w: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "z", "w"]} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x128xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<16x128xf32>
  %gz = tilus.global_view %z : !tilus.ptr<f32> -> !tilus.global<16x1xf32>
  %gw = tilus.global_view %w : !tilus.ptr<f32> -> !tilus.global<4x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x128xf32> -> !tilus.reg<16x128xf32>
  %e = tilus.exp %t : !tilus.reg<16x128xf32>
  tilus.store_global %e, %gy[%c0, %c0] : !tilus.reg<16x128xf32>, !tilus.global<16x128xf32>
  %t2 = tilus.load_global %gx[%c16, %c0] : !tilus.global<32x128xf32> -> !tilus.reg<16x128xf32>
  %s = tilus.reduce sum %t2 dim(1) keepdim : !tilus.reg<16x128xf32> -> !tilus.reg<16x1xf32>
  tilus.store_global %s, %gz[%c0, %c0] : !tilus.reg<16x1xf32>, !tilus.global<16x1xf32>
  %t3 = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x128xf32> -> !tilus.reg<4x32xf32>
  %m = tilus.reduce max %t3 dim(0) keepdim : !tilus.reg<4x32xf32> -> !tilus.reg<1x32xf32>
  %d = tilus.sub %t3, %m : (!tilus.reg<4x32xf32>, !tilus.reg<1x32xf32>) -> !tilus.reg<4x32xf32>
  tilus.store_global %d, %gw[%c0, %c0] : !tilus.reg<4x32xf32>, !tilus.global<4x32xf32>
}

// layout-less shuffles: 3-point stencil on a 1-D tile of 256 f32 with 4 warps
tilus.kernel @shuffle(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "shuffle_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<256xf32> -> !tilus.reg<256xf32>
  %l = tilus.shuffle_up %v, %c1 : !tilus.reg<256xf32>
  %r = tilus.shuffle_down %v, %c1 : !tilus.reg<256xf32>
  %s = tilus.add %l, %r : (!tilus.reg<256xf32>, !tilus.reg<256xf32>) -> !tilus.reg<256xf32>
  %o = tilus.sub %s, %v : (!tilus.reg<256xf32>, !tilus.reg<256xf32>) -> !tilus.reg<256xf32>
  tilus.store_global %o, %gy[%c0] : !tilus.reg<256xf32>, !tilus.global<256xf32>
}
tilus.kernel @shuffle_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<256xf32> -> !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>
  %l = tilus.shuffle_up %v, %c1 : !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>
  %r = tilus.shuffle_down %v, %c1 : !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>
  %s = tilus.add %l, %r : (!tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>, !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>) -> !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>
  %o = tilus.sub %s, %v : (!tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>, !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>) -> !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>
  tilus.store_global %o, %gy[%c0] : !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>, !tilus.global<256xf32>
}

// slice_register of computed (not loaded) tiles: rows of a reduced/exp'd tile, summed in halves
tilus.kernel @slice_exp(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "slice_exp_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x128xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<16x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x128xf32> -> !tilus.reg<32x128xf32>
  %e = tilus.exp %t : !tilus.reg<32x128xf32>
  %a = tilus.slice_register %e [0, 0] : !tilus.reg<32x128xf32> -> !tilus.reg<16x64xf32>
  %b = tilus.slice_register %e [16, 64] : !tilus.reg<32x128xf32> -> !tilus.reg<16x64xf32>
  %s = tilus.add %a, %b : (!tilus.reg<16x64xf32>, !tilus.reg<16x64xf32>) -> !tilus.reg<16x64xf32>
  tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<16x64xf32>, !tilus.global<16x64xf32>
}
tilus.kernel @slice_exp_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x128xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<16x64xf32>
  %a = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x128xf32> -> !tilus.reg<16x64xf32>
  %b = tilus.load_global %gx[%c16, %c64] : !tilus.global<32x128xf32> -> !tilus.reg<16x64xf32>
  %ea = tilus.exp %a : !tilus.reg<16x64xf32>
  %eb = tilus.exp %b : !tilus.reg<16x64xf32>
  %s = tilus.add %eb, %ea : (!tilus.reg<16x64xf32>, !tilus.reg<16x64xf32>) -> !tilus.reg<16x64xf32>
  tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<16x64xf32>, !tilus.global<16x64xf32>
}

// 1-D: reduce a rank-1 tile to [1] (keepdim), broadcast back; 1000-element vector over 4 warps (masked 1024)
tilus.kernel @vecmean(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {n = 1000 : i32}, tilus.outputs = ["y"], tilus.reference = "vecmean_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %t = tilus.load_global %gx[%c0] : !tilus.global<?xf32> -> !tilus.reg<1024xf32>
  %s = tilus.reduce sum %t dim(0) keepdim : !tilus.reg<1024xf32> -> !tilus.reg<1xf32>
  %mx = tilus.reduce max %t dim(0) keepdim : !tilus.reg<1024xf32> -> !tilus.reg<1xf32>
  %d = tilus.sub %t, %s : (!tilus.reg<1024xf32>, !tilus.reg<1xf32>) -> !tilus.reg<1024xf32>
  %o = tilus.div %d, %mx : (!tilus.reg<1024xf32>, !tilus.reg<1xf32>) -> !tilus.reg<1024xf32>
  tilus.store_global %o, %gy[%c0] : !tilus.reg<1024xf32>, !tilus.global<?xf32>
}
tilus.kernel @vecmean_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {n = 1000 : i32}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z, %m = %z) -> (!tilus.reg<1xf32>, !tilus.reg<1xf32>) : i32 {
    %v = tilus.load_global %gx[%i] : !tilus.global<?xf32> -> !tilus.reg<1xf32>
    %s2 = tilus.add %s, %v : (!tilus.reg<1xf32>, !tilus.reg<1xf32>) -> !tilus.reg<1xf32>
    %m2 = tilus.maximum %m, %v : (!tilus.reg<1xf32>, !tilus.reg<1xf32>) -> !tilus.reg<1xf32>
    scf.yield %s2, %m2 : !tilus.reg<1xf32>, !tilus.reg<1xf32>
  }
  scf.for %i = %c0 to %n step %c1 : i32 {
    %v = tilus.load_global %gx[%i] : !tilus.global<?xf32> -> !tilus.reg<1xf32>
    %d = tilus.sub %v, %r#0 : (!tilus.reg<1xf32>, !tilus.reg<1xf32>) -> !tilus.reg<1xf32>
    %o = tilus.div %d, %r#1 : (!tilus.reg<1xf32>, !tilus.reg<1xf32>) -> !tilus.reg<1xf32>
    tilus.store_global %o, %gy[%i] : !tilus.reg<1xf32>, !tilus.global<?xf32>
  }
}

// i32 min over dim 1 keepdim, cmp eq to mark argmin positions, any/all over rows, cast i1 -> i32
tilus.kernel @i1_reduce(%x: !tilus.ptr<i32>, %y: !tilus.ptr<i32>, %z: !tilus.ptr<i32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "i1_reduce_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<i32> -> !tilus.global<16x32xi32>
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<16x32xi32>
  %gz = tilus.global_view %z : !tilus.ptr<i32> -> !tilus.global<16x2xi32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<16x32xi32> -> !tilus.reg<16x32xi32>
  %m = tilus.reduce min %t dim(1) keepdim : !tilus.reg<16x32xi32> -> !tilus.reg<16x1xi32>
  %e = tilus.cmp eq %t, %m : (!tilus.reg<16x32xi32>, !tilus.reg<16x1xi32>) -> !tilus.reg<16x32xi1>
  %ei = tilus.cast %e : !tilus.reg<16x32xi1> to !tilus.reg<16x32xi32>
  tilus.store_global %ei, %gy[%c0, %c0] : !tilus.reg<16x32xi32>, !tilus.global<16x32xi32>
  %c7 = arith.constant 7 : i32
  %s7 = tilus.register_tensor init(%c7 : i32) : !tilus.reg<1xi32>
  %big = tilus.cmp ge %t, %s7 : (!tilus.reg<16x32xi32>, !tilus.reg<1xi32>) -> !tilus.reg<16x32xi1>
  %any = tilus.reduce any %big dim(1) keepdim : !tilus.reg<16x32xi1> -> !tilus.reg<16x1xi1>
  %neg8 = arith.constant -8 : i32
  %s8 = tilus.register_tensor init(%neg8 : i32) : !tilus.reg<1xi32>
  %nm = tilus.cmp ne %t, %s8 : (!tilus.reg<16x32xi32>, !tilus.reg<1xi32>) -> !tilus.reg<16x32xi1>
  %all = tilus.reduce all %nm dim(1) keepdim : !tilus.reg<16x32xi1> -> !tilus.reg<16x1xi1>
  %ai = tilus.cast %any : !tilus.reg<16x1xi1> to !tilus.reg<16x1xi32>
  %li = tilus.cast %all : !tilus.reg<16x1xi1> to !tilus.reg<16x1xi32>
  tilus.store_global %ai, %gz[%c0, %c0] : !tilus.reg<16x1xi32>, !tilus.global<16x2xi32>
  %c1 = arith.constant 1 : i32
  tilus.store_global %li, %gz[%c0, %c1] : !tilus.reg<16x1xi32>, !tilus.global<16x2xi32>
}
tilus.kernel @i1_reduce_ref(%x: !tilus.ptr<i32>, %y: !tilus.ptr<i32>, %z: !tilus.ptr<i32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %c7 = arith.constant 7 : i32
  %neg8 = arith.constant -8 : i32
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<i32> -> !tilus.global<16x32xi32>
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<16x32xi32>
  %gz = tilus.global_view %z : !tilus.ptr<i32> -> !tilus.global<16x2xi32>
  scf.for %i = %c0 to %c16 step %c1 : i32 {
    %t = tilus.load_global %gx[%i, %c0] : !tilus.global<16x32xi32> -> !tilus.reg<1x32xi32>
    %m = tilus.reduce min %t dim(1) keepdim : !tilus.reg<1x32xi32> -> !tilus.reg<1x1xi32>
    %d = tilus.sub %t, %m : (!tilus.reg<1x32xi32>, !tilus.reg<1x1xi32>) -> !tilus.reg<1x32xi32>
    %o = tilus.register_tensor init(%one : i32) : !tilus.reg<1xi32>
    %z0 = tilus.register_tensor init(%zero : i32) : !tilus.reg<1xi32>
    %isz = tilus.cmp eq %d, %z0 : (!tilus.reg<1x32xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1x32xi1>
    %r = tilus.where %isz, %o, %z0 : (!tilus.reg<1x32xi1>, !tilus.reg<1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1x32xi32>
    tilus.store_global %r, %gy[%i, %c0] : !tilus.reg<1x32xi32>, !tilus.global<16x32xi32>
    %mx = tilus.reduce max %t dim(1) keepdim : !tilus.reg<1x32xi32> -> !tilus.reg<1x1xi32>
    %s7 = tilus.register_tensor init(%c7 : i32) : !tilus.reg<1xi32>
    %a = tilus.cmp ge %mx, %s7 : (!tilus.reg<1x1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1x1xi1>
    %ai = tilus.where %a, %o, %z0 : (!tilus.reg<1x1xi1>, !tilus.reg<1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1x1xi32>
    tilus.store_global %ai, %gz[%i, %c0] : !tilus.reg<1x1xi32>, !tilus.global<16x2xi32>
    %s8 = tilus.register_tensor init(%neg8 : i32) : !tilus.reg<1xi32>
    %b = tilus.cmp ne %m, %s8 : (!tilus.reg<1x1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1x1xi1>
    %bi = tilus.where %b, %o, %z0 : (!tilus.reg<1x1xi1>, !tilus.reg<1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1x1xi32>
    tilus.store_global %bi, %gz[%i, %c1] : !tilus.reg<1x1xi32>, !tilus.global<16x2xi32>
  }
}

// chained reductions: max over dim 1 (no keepdim) then sum over dim 0 (keepdim); result broadcast into a tile
tilus.kernel @chain_reduce(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "chain_reduce_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x64xf32> -> !tilus.reg<64x64xf32>
  %m = tilus.reduce max %t dim(1) : !tilus.reg<64x64xf32> -> !tilus.reg<64xf32>
  %s = tilus.reduce sum %m dim(0) keepdim : !tilus.reg<64xf32> -> !tilus.reg<1xf32>
  %o = tilus.sub %t, %s : (!tilus.reg<64x64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64x64xf32>
  %o2 = tilus.add %o, %m : (!tilus.reg<64x64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %o2, %gy[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x64xf32>
}
tilus.kernel @chain_reduce_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x64xf32> -> !tilus.reg<64x64xf32>
  %m = tilus.reduce max %t dim(1) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<64x1xf32>
  %s = tilus.reduce sum %m dim(0) keepdim : !tilus.reg<64x1xf32> -> !tilus.reg<1x1xf32>
  %gxt = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x64xf32, strides = [1, 64]>
  %tt = tilus.load_global %gxt[%c0, %c0] : !tilus.global<64x64xf32, strides = [1, 64]> -> !tilus.reg<64x64xf32>
  %mr = tilus.reduce max %tt dim(0) : !tilus.reg<64x64xf32> -> !tilus.reg<64xf32>
  %o = tilus.sub %t, %s : (!tilus.reg<64x64xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x64xf32>
  %o2 = tilus.add %o, %mr : (!tilus.reg<64x64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %o2, %gy[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x64xf32>
}

// attention-like: s = q @ kT (wgmma, 4 warps), row softmax of s in f32, stored f16
tilus.kernel @dot_softmax(%q: !tilus.ptr<f16>, %kt: !tilus.ptr<f16>, %p: !tilus.ptr<f16>)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["p"], tilus.reference = "dot_softmax_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %gq = tilus.global_view %q : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gk = tilus.global_view %kt : !tilus.ptr<f16> -> !tilus.global<32x64xf16, strides = [1, 32]>
  %gp = tilus.global_view %p : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %a = tilus.load_global %gq[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %b = tilus.load_global %gk[%c0, %c0] : !tilus.global<32x64xf16, strides = [1, 32]> -> !tilus.reg<32x64xf16>
  %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %s = tilus.dot %a, %b, %acc : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  %m = tilus.reduce max %s dim(1) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<64x1xf32>
  %d = tilus.sub %s, %m : (!tilus.reg<64x64xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x64xf32>
  %e = tilus.exp %d : !tilus.reg<64x64xf32>
  %l = tilus.reduce sum %e dim(1) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<64x1xf32>
  %o = tilus.div %e, %l : (!tilus.reg<64x64xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x64xf32>
  %oh = tilus.cast %o : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
  tilus.store_global %oh, %gp[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16>
}
tilus.kernel @dot_softmax_ref(%q: !tilus.ptr<f16>, %kt: !tilus.ptr<f16>, %p: !tilus.ptr<f16>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (64)>)
    attributes {tilus.outputs = ["p"]} {
  %i = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %gq = tilus.global_view %q : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gk = tilus.global_view %kt : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gp = tilus.global_view %p : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %qr = tilus.load_global %gq[%i, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<1x32xf16>
  %kk = tilus.load_global %gk[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %qf = tilus.cast %qr : !tilus.reg<1x32xf16> to !tilus.reg<1x32xf32>
  %kf = tilus.cast %kk : !tilus.reg<64x32xf16> to !tilus.reg<64x32xf32>
  %pr = tilus.mul %kf, %qf : (!tilus.reg<64x32xf32>, !tilus.reg<1x32xf32>) -> !tilus.reg<64x32xf32>
  %s = tilus.reduce sum %pr dim(1) : !tilus.reg<64x32xf32> -> !tilus.reg<64xf32>
  %m = tilus.reduce max %s dim(0) keepdim : !tilus.reg<64xf32> -> !tilus.reg<1xf32>
  %d = tilus.sub %s, %m : (!tilus.reg<64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64xf32>
  %e = tilus.exp %d : !tilus.reg<64xf32>
  %l = tilus.reduce sum %e dim(0) keepdim : !tilus.reg<64xf32> -> !tilus.reg<1xf32>
  %o = tilus.div %e, %l : (!tilus.reg<64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64xf32>
  %oh = tilus.cast %o : !tilus.reg<64xf32> to !tilus.reg<64xf16>
  %gp1 = tilus.global_view %p : !tilus.ptr<f16> -> !tilus.global<4096xf16>
  %c64 = arith.constant 64 : i32
  %off = arith.muli %i, %c64 : i32
  tilus.store_global %oh, %gp1[%off] : !tilus.reg<64xf16>, !tilus.global<4096xf16>
}

// scf.if inside scf.for, yielding tiles: even steps add the tile, odd steps subtract it (f16 in, f32 acc)
tilus.kernel @if_in_for(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f32>)
    warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "if_in_for_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant 0.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<4x16x32xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<16x32xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<16x32xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (!tilus.reg<16x32xf32>) : i32 {
    %t3 = tilus.load_global %gx[%i, %c0, %c0] : !tilus.global<4x16x32xf16> -> !tilus.reg<1x16x32xf16>
    %t = tilus.reduce sum %t3 dim(0) : !tilus.reg<1x16x32xf16> -> !tilus.reg<16x32xf16>
    %f = tilus.cast %t : !tilus.reg<16x32xf16> to !tilus.reg<16x32xf32>
    %par = arith.remsi %i, %c2 : i32
    %even = arith.cmpi eq, %par, %c0 : i32
    %n = scf.if %even -> (!tilus.reg<16x32xf32>) {
      %a = tilus.add %acc, %f : (!tilus.reg<16x32xf32>, !tilus.reg<16x32xf32>) -> !tilus.reg<16x32xf32>
      scf.yield %a : !tilus.reg<16x32xf32>
    } else {
      %s = tilus.sub %acc, %f : (!tilus.reg<16x32xf32>, !tilus.reg<16x32xf32>) -> !tilus.reg<16x32xf32>
      scf.yield %s : !tilus.reg<16x32xf32>
    }
    scf.yield %n : !tilus.reg<16x32xf32>
  }
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<16x32xf32>, !tilus.global<16x32xf32>
}
tilus.kernel @if_in_for_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<4x16x32xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<16x32xf32>
  %a0 = tilus.load_global %gx[%c0, %c0, %c0] : !tilus.global<4x16x32xf16> -> !tilus.reg<1x16x32xf16>
  %a1 = tilus.load_global %gx[%c1, %c0, %c0] : !tilus.global<4x16x32xf16> -> !tilus.reg<1x16x32xf16>
  %a2 = tilus.load_global %gx[%c2, %c0, %c0] : !tilus.global<4x16x32xf16> -> !tilus.reg<1x16x32xf16>
  %a3 = tilus.load_global %gx[%c3, %c0, %c0] : !tilus.global<4x16x32xf16> -> !tilus.reg<1x16x32xf16>
  %f0 = tilus.cast %a0 : !tilus.reg<1x16x32xf16> to !tilus.reg<1x16x32xf32>
  %f1 = tilus.cast %a1 : !tilus.reg<1x16x32xf16> to !tilus.reg<1x16x32xf32>
  %f2 = tilus.cast %a2 : !tilus.reg<1x16x32xf16> to !tilus.reg<1x16x32xf32>
  %f3 = tilus.cast %a3 : !tilus.reg<1x16x32xf16> to !tilus.reg<1x16x32xf32>
  %s0 = tilus.sub %f0, %f1 : (!tilus.reg<1x16x32xf32>, !tilus.reg<1x16x32xf32>) -> !tilus.reg<1x16x32xf32>
  %s1 = tilus.add %s0, %f2 : (!tilus.reg<1x16x32xf32>, !tilus.reg<1x16x32xf32>) -> !tilus.reg<1x16x32xf32>
  %s2 = tilus.sub %s1, %f3 : (!tilus.reg<1x16x32xf32>, !tilus.reg<1x16x32xf32>) -> !tilus.reg<1x16x32xf32>
  %gy3 = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<1x16x32xf32>
  tilus.store_global %s2, %gy3[%c0, %c0, %c0] : !tilus.reg<1x16x32xf32>, !tilus.global<1x16x32xf32>
}

// rmsnorm, bf16, 8 warps, 2 rows of 2048 per block, weight row vector
tilus.kernel @rmsnorm_bf16(%x: !tilus.ptr<bf16>, %w: !tilus.ptr<bf16>, %y: !tilus.ptr<bf16>, %m: i32)
    warps(8) blocks(affine_map<(d0, d1, d2, d3) -> (d3 ceildiv 2)>)
    attributes {tilus.args = {m = 5 : i32}, tilus.outputs = ["y"], tilus.reference = "rmsnorm_bf16_ref"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %r = arith.muli %bx, %c2 : i32
  %inv = arith.constant 4.8828125e-04 : f32
  %eps = arith.constant 1.0e-6 : f32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<bf16> -> !tilus.global<?x2048xbf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<bf16> -> !tilus.global<?x2048xbf16>
  %gw = tilus.global_view %w : !tilus.ptr<bf16> -> !tilus.global<2048xbf16>
  %xh = tilus.load_global %gx[%r, %c0] : !tilus.global<?x2048xbf16> -> !tilus.reg<2x2048xbf16>
  %xf = tilus.cast %xh : !tilus.reg<2x2048xbf16> to !tilus.reg<2x2048xf32>
  %sq = tilus.mul %xf, %xf : (!tilus.reg<2x2048xf32>, !tilus.reg<2x2048xf32>) -> !tilus.reg<2x2048xf32>
  %ss = tilus.reduce sum %sq dim(1) keepdim : !tilus.reg<2x2048xf32> -> !tilus.reg<2x1xf32>
  %it = tilus.register_tensor init(%inv : f32) : !tilus.reg<1x1xf32>
  %et = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %ms = tilus.mul %ss, %it : (!tilus.reg<2x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<2x1xf32>
  %me = tilus.add %ms, %et : (!tilus.reg<2x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<2x1xf32>
  %rs = tilus.rsqrt %me : !tilus.reg<2x1xf32>
  %xn = tilus.mul %xf, %rs : (!tilus.reg<2x2048xf32>, !tilus.reg<2x1xf32>) -> !tilus.reg<2x2048xf32>
  %wh = tilus.load_global %gw[%c0] : !tilus.global<2048xbf16> -> !tilus.reg<2048xbf16>
  %wf = tilus.cast %wh : !tilus.reg<2048xbf16> to !tilus.reg<2048xf32>
  %o = tilus.mul %xn, %wf : (!tilus.reg<2x2048xf32>, !tilus.reg<2048xf32>) -> !tilus.reg<2x2048xf32>
  %oh = tilus.cast %o : !tilus.reg<2x2048xf32> to !tilus.reg<2x2048xbf16>
  tilus.store_global %oh, %gy[%r, %c0] : !tilus.reg<2x2048xbf16>, !tilus.global<?x2048xbf16>
}
tilus.kernel @rmsnorm_bf16_ref(%x: !tilus.ptr<bf16>, %w: !tilus.ptr<bf16>, %y: !tilus.ptr<bf16>, %m: i32)
    warps(2) blocks(affine_map<(d0, d1, d2, d3) -> (d3)>)
    attributes {tilus.args = {m = 5 : i32}, tilus.outputs = ["y"]} {
  %i = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %c2048 = arith.constant 2048 : i32
  %zero = arith.constant 0.0 : f32
  %nf = arith.constant 2048.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %gx = tilus.global_view %x[%m] : !tilus.ptr<bf16> -> !tilus.global<?x2048xbf16>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<bf16> -> !tilus.global<?x2048xbf16>
  %gw = tilus.global_view %w : !tilus.ptr<bf16> -> !tilus.global<1x2048xbf16>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1x1xf32>
  %acc = scf.for %j = %c0 to %c2048 step %c256 iter_args(%a = %z) -> (!tilus.reg<1x1xf32>) : i32 {
    %v = tilus.load_global %gx[%i, %j] : !tilus.global<?x2048xbf16> -> !tilus.reg<1x256xbf16>
    %vf = tilus.cast %v : !tilus.reg<1x256xbf16> to !tilus.reg<1x256xf32>
    %v2 = tilus.mul %vf, %vf : (!tilus.reg<1x256xf32>, !tilus.reg<1x256xf32>) -> !tilus.reg<1x256xf32>
    %s = tilus.reduce sum %v2 dim(1) keepdim : !tilus.reg<1x256xf32> -> !tilus.reg<1x1xf32>
    %a2 = tilus.add %a, %s : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
    scf.yield %a2 : !tilus.reg<1x1xf32>
  }
  %n = tilus.register_tensor init(%nf : f32) : !tilus.reg<1x1xf32>
  %e = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %ms = tilus.div %acc, %n : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
  %me = tilus.add %ms, %e : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
  %sd = tilus.sqrt %me : !tilus.reg<1x1xf32>
  scf.for %j = %c0 to %c2048 step %c256 : i32 {
    %v = tilus.load_global %gx[%i, %j] : !tilus.global<?x2048xbf16> -> !tilus.reg<1x256xbf16>
    %vf = tilus.cast %v : !tilus.reg<1x256xbf16> to !tilus.reg<1x256xf32>
    %wv = tilus.load_global %gw[%c0, %j] : !tilus.global<1x2048xbf16> -> !tilus.reg<1x256xbf16>
    %wf = tilus.cast %wv : !tilus.reg<1x256xbf16> to !tilus.reg<1x256xf32>
    %xw = tilus.mul %vf, %wf : (!tilus.reg<1x256xf32>, !tilus.reg<1x256xf32>) -> !tilus.reg<1x256xf32>
    %o = tilus.div %xw, %sd : (!tilus.reg<1x256xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x256xf32>
    %oh = tilus.cast %o : !tilus.reg<1x256xf32> to !tilus.reg<1x256xbf16>
    tilus.store_global %oh, %gy[%i, %j] : !tilus.reg<1x256xbf16>, !tilus.global<?x2048xbf16>
  }
}

// bf16 dot over 2 warpgroups (8 warps): 128x64 @ 64x64 with B from a transposed view, f32 out with relu
tilus.kernel @wgmma8(%a: !tilus.ptr<bf16>, %b: !tilus.ptr<bf16>, %c: !tilus.ptr<f32>)
    warps(8) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["c"], tilus.reference = "wgmma8_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a : !tilus.ptr<bf16> -> !tilus.global<128x64xbf16>
  %gb = tilus.global_view %b : !tilus.ptr<bf16> -> !tilus.global<64x64xbf16, strides = [1, 64]>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<128x64xf32>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<128x64xbf16> -> !tilus.reg<128x64xbf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<64x64xbf16, strides = [1, 64]> -> !tilus.reg<64x64xbf16>
  %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x64xf32>
  %d = tilus.dot %ra, %rb, %acc : (!tilus.reg<128x64xbf16>, !tilus.reg<64x64xbf16>, !tilus.reg<128x64xf32>) -> !tilus.reg<128x64xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1x1xf32>
  %r = tilus.maximum %d, %z : (!tilus.reg<128x64xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<128x64xf32>
  tilus.store_global %r, %gc[%c0, %c0] : !tilus.reg<128x64xf32>, !tilus.global<128x64xf32>
}
tilus.kernel @wgmma8_ref(%a: !tilus.ptr<bf16>, %b: !tilus.ptr<bf16>, %c: !tilus.ptr<f32>)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["c"]} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a : !tilus.ptr<bf16> -> !tilus.global<128x64xbf16>
  %gb = tilus.global_view %b : !tilus.ptr<bf16> -> !tilus.global<64x64xbf16, strides = [1, 64]>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<128x64xf32>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<128x64xbf16> -> !tilus.reg<128x64xbf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<64x64xbf16, strides = [1, 64]> -> !tilus.reg<64x64xbf16>
  %fa = tilus.cast %ra : !tilus.reg<128x64xbf16> to !tilus.reg<128x64xf32>
  %fb = tilus.cast %rb : !tilus.reg<64x64xbf16> to !tilus.reg<64x64xf32>
  %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x64xf32>
  %d = tilus.dot %fa, %fb, %acc : (!tilus.reg<128x64xf32>, !tilus.reg<64x64xf32>, !tilus.reg<128x64xf32>) -> !tilus.reg<128x64xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x64xf32>
  %r = tilus.maximum %z, %d : (!tilus.reg<128x64xf32>, !tilus.reg<128x64xf32>) -> !tilus.reg<128x64xf32>
  tilus.store_global %r, %gc[%c0, %c0] : !tilus.reg<128x64xf32>, !tilus.global<128x64xf32>
}

// row sums through shared memory: reduce rows (4 warps), store the [64] vector into shared, sync,
// load it back as [64, 1], broadcast-subtract it from a freshly loaded tile
tilus.kernel @shared_vec(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "shared_vec_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x64xf32> -> !tilus.reg<64x64xf32>
  %s = tilus.reduce sum %t dim(1) : !tilus.reg<64x64xf32> -> !tilus.reg<64xf32>
  %sh = tilus.shared_tensor : !tilus.shared<64xf32>
  tilus.store_shared %s, %sh : !tilus.reg<64xf32>, !tilus.shared<64xf32>
  threadgroup.sync
  %v = tilus.load_shared %sh : !tilus.shared<64xf32> -> !tilus.reg<64xf32>
  %t2 = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x64xf32> -> !tilus.reg<64x64xf32>
  %o = tilus.sub %t2, %v : (!tilus.reg<64x64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %o, %gy[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x64xf32>
}
tilus.kernel @shared_vec_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %gxt = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x64xf32, strides = [1, 64]>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %tt = tilus.load_global %gxt[%c0, %c0] : !tilus.global<64x64xf32, strides = [1, 64]> -> !tilus.reg<64x64xf32>
  %s = tilus.reduce sum %tt dim(0) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<1x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x64xf32> -> !tilus.reg<64x64xf32>
  %o = tilus.sub %t, %s : (!tilus.reg<64x64xf32>, !tilus.reg<1x64xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %o, %gy[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x64xf32>
}

// column softmax (reduce over dim 0) on f16, 128x64 tile, masked rows (m = 100), 4 warps
tilus.kernel @colsoftmax(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 64)>)
    attributes {tilus.args = {n = 96 : i32}, tilus.outputs = ["y"], tilus.reference = "colsoftmax_ref"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %col = arith.muli %bx, %c64 : i32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<f16> -> !tilus.global<128x?xf16>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f16> -> !tilus.global<128x?xf16>
  %t = tilus.load_global %gx[%c0, %col] : !tilus.global<128x?xf16> -> !tilus.reg<128x64xf16>
  %f = tilus.cast %t : !tilus.reg<128x64xf16> to !tilus.reg<128x64xf32>
  %m = tilus.reduce max %f dim(0) keepdim : !tilus.reg<128x64xf32> -> !tilus.reg<1x64xf32>
  %d = tilus.sub %f, %m : (!tilus.reg<128x64xf32>, !tilus.reg<1x64xf32>) -> !tilus.reg<128x64xf32>
  %e = tilus.exp %d : !tilus.reg<128x64xf32>
  %s = tilus.reduce sum %e dim(0) keepdim : !tilus.reg<128x64xf32> -> !tilus.reg<1x64xf32>
  %o = tilus.div %e, %s : (!tilus.reg<128x64xf32>, !tilus.reg<1x64xf32>) -> !tilus.reg<128x64xf32>
  %oh = tilus.cast %o : !tilus.reg<128x64xf32> to !tilus.reg<128x64xf16>
  tilus.store_global %oh, %gy[%c0, %col] : !tilus.reg<128x64xf16>, !tilus.global<128x?xf16>
}
tilus.kernel @colsoftmax_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (d2)>)
    attributes {tilus.args = {n = 96 : i32}, tilus.outputs = ["y"]} {
  %j = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %gxt = tilus.global_view %x[%n] strides[%n] : !tilus.ptr<f16> -> !tilus.global<?x128xf16, strides = [1, ?]>
  %gyt = tilus.global_view %y[%n] strides[%n] : !tilus.ptr<f16> -> !tilus.global<?x128xf16, strides = [1, ?]>
  %t = tilus.load_global %gxt[%j, %c0] : !tilus.global<?x128xf16, strides = [1, ?]> -> !tilus.reg<1x128xf16>
  %f = tilus.cast %t : !tilus.reg<1x128xf16> to !tilus.reg<1x128xf32>
  %m = tilus.reduce max %f dim(1) keepdim : !tilus.reg<1x128xf32> -> !tilus.reg<1x1xf32>
  %d = tilus.sub %f, %m : (!tilus.reg<1x128xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x128xf32>
  %e = tilus.exp %d : !tilus.reg<1x128xf32>
  %s = tilus.reduce sum %e dim(1) keepdim : !tilus.reg<1x128xf32> -> !tilus.reg<1x1xf32>
  %o = tilus.div %e, %s : (!tilus.reg<1x128xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x128xf32>
  %oh = tilus.cast %o : !tilus.reg<1x128xf32> to !tilus.reg<1x128xf16>
  tilus.store_global %oh, %gyt[%j, %c0] : !tilus.reg<1x128xf16>, !tilus.global<?x128xf16, strides = [1, ?]>
}

// f32 -> i32 cast (truncation), i32 ops, i32 -> bf16; 2-D tile 24x40 (non power of two) with 3 warps
tilus.kernel @mixed_int(%x: !tilus.ptr<f32>, %y: !tilus.ptr<bf16>)
    warps(3) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "mixed_int_ref"} {
  %c0 = arith.constant 0 : i32
  %ten = arith.constant 10.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<24x40xf32>
  %gy = tilus.global_view %y : !tilus.ptr<bf16> -> !tilus.global<24x40xbf16>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<24x40xf32> -> !tilus.reg<24x40xf32>
  %s = tilus.register_tensor init(%ten : f32) : !tilus.reg<1xf32>
  %u = tilus.mul %t, %s : (!tilus.reg<24x40xf32>, !tilus.reg<1xf32>) -> !tilus.reg<24x40xf32>
  %i = tilus.cast %u : !tilus.reg<24x40xf32> to !tilus.reg<24x40xi32>
  %sq = tilus.mul %i, %i : (!tilus.reg<24x40xi32>, !tilus.reg<24x40xi32>) -> !tilus.reg<24x40xi32>
  %b = tilus.cast %sq : !tilus.reg<24x40xi32> to !tilus.reg<24x40xbf16>
  tilus.store_global %b, %gy[%c0, %c0] : !tilus.reg<24x40xbf16>, !tilus.global<24x40xbf16>
}
tilus.kernel @mixed_int_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<bf16>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c24 = arith.constant 24 : i32
  %ten = arith.constant 10.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<24x40xf32>
  %gy = tilus.global_view %y : !tilus.ptr<bf16> -> !tilus.global<24x40xbf16>
  scf.for %r = %c0 to %c24 step %c1 : i32 {
    %t = tilus.load_global %gx[%r, %c0] : !tilus.global<24x40xf32> -> !tilus.reg<1x40xf32>
    %s = tilus.register_tensor init(%ten : f32) : !tilus.reg<1x40xf32>
    %u = tilus.mul %s, %t : (!tilus.reg<1x40xf32>, !tilus.reg<1x40xf32>) -> !tilus.reg<1x40xf32>
    %i = tilus.cast %u : !tilus.reg<1x40xf32> to !tilus.reg<1x40xi32>
    %a = tilus.abs %i : !tilus.reg<1x40xi32>
    %sq = tilus.mul %a, %a : (!tilus.reg<1x40xi32>, !tilus.reg<1x40xi32>) -> !tilus.reg<1x40xi32>
    %b = tilus.cast %sq : !tilus.reg<1x40xi32> to !tilus.reg<1x40xbf16>
    tilus.store_global %b, %gy[%r, %c0] : !tilus.reg<1x40xbf16>, !tilus.global<24x40xbf16>
  }
}

// online softmax over column blocks: scf.for carrying the running max m [8,1] and sum l [8,1]
tilus.kernel @online_softmax(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "online_softmax_ref"} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c512 = arith.constant 512 : i32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<8x512xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<8x1xf32>
  %m0 = tilus.register_tensor init(%ninf : f32) : !tilus.reg<8x1xf32>
  %l0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<8x1xf32>
  %r:2 = scf.for %j = %c0 to %c512 step %c64 iter_args(%m = %m0, %l = %l0) -> (!tilus.reg<8x1xf32>, !tilus.reg<8x1xf32>) : i32 {
    %t = tilus.load_global %gx[%c0, %j] : !tilus.global<8x512xf32> -> !tilus.reg<8x64xf32>
    %bm = tilus.reduce max %t dim(1) keepdim : !tilus.reg<8x64xf32> -> !tilus.reg<8x1xf32>
    %mn = tilus.maximum %m, %bm : (!tilus.reg<8x1xf32>, !tilus.reg<8x1xf32>) -> !tilus.reg<8x1xf32>
    %d = tilus.sub %t, %mn : (!tilus.reg<8x64xf32>, !tilus.reg<8x1xf32>) -> !tilus.reg<8x64xf32>
    %e = tilus.exp %d : !tilus.reg<8x64xf32>
    %s = tilus.reduce sum %e dim(1) keepdim : !tilus.reg<8x64xf32> -> !tilus.reg<8x1xf32>
    %dm = tilus.sub %m, %mn : (!tilus.reg<8x1xf32>, !tilus.reg<8x1xf32>) -> !tilus.reg<8x1xf32>
    %sc = tilus.exp %dm : !tilus.reg<8x1xf32>
    %ls = tilus.mul %l, %sc : (!tilus.reg<8x1xf32>, !tilus.reg<8x1xf32>) -> !tilus.reg<8x1xf32>
    %ln = tilus.add %ls, %s : (!tilus.reg<8x1xf32>, !tilus.reg<8x1xf32>) -> !tilus.reg<8x1xf32>
    scf.yield %mn, %ln : !tilus.reg<8x1xf32>, !tilus.reg<8x1xf32>
  }
  %lg = tilus.log %r#1 : !tilus.reg<8x1xf32>
  %lse = tilus.add %lg, %r#0 : (!tilus.reg<8x1xf32>, !tilus.reg<8x1xf32>) -> !tilus.reg<8x1xf32>
  tilus.store_global %lse, %gy[%c0, %c0] : !tilus.reg<8x1xf32>, !tilus.global<8x1xf32>
}
tilus.kernel @online_softmax_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<8x512xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<8x1xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<8x512xf32> -> !tilus.reg<8x512xf32>
  %m = tilus.reduce max %t dim(1) keepdim : !tilus.reg<8x512xf32> -> !tilus.reg<8x1xf32>
  %d = tilus.sub %t, %m : (!tilus.reg<8x512xf32>, !tilus.reg<8x1xf32>) -> !tilus.reg<8x512xf32>
  %e = tilus.exp %d : !tilus.reg<8x512xf32>
  %s = tilus.reduce sum %e dim(1) keepdim : !tilus.reg<8x512xf32> -> !tilus.reg<8x1xf32>
  %lg = tilus.log %s : !tilus.reg<8x1xf32>
  %lse = tilus.add %m, %lg : (!tilus.reg<8x1xf32>, !tilus.reg<8x1xf32>) -> !tilus.reg<8x1xf32>
  tilus.store_global %lse, %gy[%c0, %c0] : !tilus.reg<8x1xf32>, !tilus.global<8x1xf32>
}

// back-to-back dots (attention P@V shape): s = q@k (f16, 4 warps), p = exp(s - rowmax) in f16, o = p @ v; c from global
tilus.kernel @b2b_dot(%q: !tilus.ptr<f16>, %kk: !tilus.ptr<f16>, %v: !tilus.ptr<f16>, %o: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["o"], tilus.reference = "b2b_dot_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %gq = tilus.global_view %q : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gk = tilus.global_view %kk : !tilus.ptr<f16> -> !tilus.global<32x64xf16>
  %gv = tilus.global_view %v : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %go = tilus.global_view %o : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %a = tilus.load_global %gq[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %b = tilus.load_global %gk[%c0, %c0] : !tilus.global<32x64xf16> -> !tilus.reg<32x64xf16>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %s = tilus.dot %a, %b, %z : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  %m = tilus.reduce max %s dim(1) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<64x1xf32>
  %d = tilus.sub %s, %m : (!tilus.reg<64x64xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x64xf32>
  %e = tilus.exp %d : !tilus.reg<64x64xf32>
  %p = tilus.cast %e : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
  %vv = tilus.load_global %gv[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %c = tilus.load_global %go[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %r = tilus.dot %p, %vv, %c : (!tilus.reg<64x64xf16>, !tilus.reg<64x32xf16>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
  tilus.store_global %r, %go[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}
tilus.kernel @b2b_dot_ref(%q: !tilus.ptr<f16>, %kk: !tilus.ptr<f16>, %v: !tilus.ptr<f16>, %o: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["o"]} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %gq = tilus.global_view %q : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gk = tilus.global_view %kk : !tilus.ptr<f16> -> !tilus.global<32x64xf16>
  %gv = tilus.global_view %v : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %go = tilus.global_view %o : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %a = tilus.load_global %gq[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %b = tilus.load_global %gk[%c0, %c0] : !tilus.global<32x64xf16> -> !tilus.reg<32x64xf16>
  %af = tilus.cast %a : !tilus.reg<64x32xf16> to !tilus.reg<64x32xf32>
  %bf = tilus.cast %b : !tilus.reg<32x64xf16> to !tilus.reg<32x64xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %s = tilus.dot %af, %bf, %z : (!tilus.reg<64x32xf32>, !tilus.reg<32x64xf32>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  %m = tilus.reduce max %s dim(1) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<64x1xf32>
  %d = tilus.sub %s, %m : (!tilus.reg<64x64xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x64xf32>
  %e = tilus.exp %d : !tilus.reg<64x64xf32>
  %p = tilus.cast %e : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
  %pf = tilus.cast %p : !tilus.reg<64x64xf16> to !tilus.reg<64x64xf32>
  %vv = tilus.load_global %gv[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %vf = tilus.cast %vv : !tilus.reg<64x32xf16> to !tilus.reg<64x32xf32>
  %c = tilus.load_global %go[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %r = tilus.dot %pf, %vf, %c : (!tilus.reg<64x64xf32>, !tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
  tilus.store_global %r, %go[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}

// one tile stored twice: row-major and through a transposed view (anchors disagree -> one convert); f16
tilus.kernel @two_stores(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %z: !tilus.ptr<f16>)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "two_stores_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gzt = tilus.global_view %z : !tilus.ptr<f16> -> !tilus.global<64x64xf16, strides = [1, 64]>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<64x64xf16>
  %u = tilus.mul %t, %t : (!tilus.reg<64x64xf16>, !tilus.reg<64x64xf16>) -> !tilus.reg<64x64xf16>
  tilus.store_global %u, %gy[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16>
  tilus.store_global %u, %gzt[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16, strides = [1, 64]>
}
tilus.kernel @two_stores_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %z: !tilus.ptr<f16>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gz = tilus.global_view %z : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  scf.for %i = %c0 to %c64 step %c1 : i32 {
    %r = tilus.load_global %gx[%i, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<1x64xf16>
    %u = tilus.mul %r, %r : (!tilus.reg<1x64xf16>, !tilus.reg<1x64xf16>) -> !tilus.reg<1x64xf16>
    tilus.store_global %u, %gy[%i, %c0] : !tilus.reg<1x64xf16>, !tilus.global<64x64xf16>
    %gzc = tilus.global_view %z : !tilus.ptr<f16> -> !tilus.global<64x64xf16, strides = [1, 64]>
    tilus.store_global %u, %gzc[%i, %c0] : !tilus.reg<1x64xf16>, !tilus.global<64x64xf16, strides = [1, 64]>
  }
}

// a per-thread scalar entering a tile: lane id splatted (owner-sensitive), then a reduction and a store
tilus.kernel @lane_tile(%y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "lane_tile_ref"} {
  %c0 = arith.constant 0 : i32
  %l = tilus.lane_id
  %lf = arith.sitofp %l : i32 to f32
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<1xf32>
  %t = tilus.register_tensor init(%lf : f32) : !tilus.reg<128xf32>
  %s = tilus.reduce sum %t dim(0) keepdim : !tilus.reg<128xf32> -> !tilus.reg<1xf32>
  tilus.store_global %s, %gy[%c0] : !tilus.reg<1xf32>, !tilus.global<1xf32>
}
tilus.kernel @lane_tile_ref(%y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %l = tilus.lane_id
  %lf = arith.sitofp %l : i32 to f32
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<1xf32>
  %t = tilus.register_tensor init(%lf : f32) : !tilus.reg<128xf32, layout = spatial(32) * local(4)>
  %s = tilus.reduce sum %t dim(0) keepdim : !tilus.reg<128xf32, layout = spatial(32) * local(4)> -> !tilus.reg<1xf32, layout = local(1) * replicate(32)>
  tilus.store_global %s, %gy[%c0] : !tilus.reg<1xf32, layout = local(1) * replicate(32)>, !tilus.global<1xf32>
}

// shuffle inside the second warpgroup of 8 warps; the first warpgroup copies
tilus.kernel @wg_shuffle(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(8) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "wg_shuffle_ref"} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c128 = arith.constant 128 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<256xf32>
  threadgroup.warp_group warps(0, 4) {
    %v = tilus.load_global %gx[%c0] : !tilus.global<256xf32> -> !tilus.reg<128xf32>
    tilus.store_global %v, %gy[%c0] : !tilus.reg<128xf32>, !tilus.global<256xf32>
  }
  threadgroup.warp_group warps(4, 4) {
    %v = tilus.load_global %gx[%c128] : !tilus.global<256xf32> -> !tilus.reg<128xf32>
    %d = tilus.shuffle_down %v, %c2 : !tilus.reg<128xf32>
    tilus.store_global %d, %gy[%c128] : !tilus.reg<128xf32>, !tilus.global<256xf32>
  }
}
tilus.kernel @wg_shuffle_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c128 = arith.constant 128 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %a = tilus.load_global %gx[%c0] : !tilus.global<256xf32> -> !tilus.reg<128xf32>
  tilus.store_global %a, %gy[%c0] : !tilus.reg<128xf32>, !tilus.global<256xf32>
  %v = tilus.load_global %gx[%c128] : !tilus.global<256xf32> -> !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>
  %d = tilus.shuffle_down %v, %c2 : !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>
  tilus.store_global %d, %gy[%c128] : !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>, !tilus.global<256xf32>
}

// i1 tiles through global memory: load an i1 mask, where with it, store the negated mask
tilus.kernel @i1_io(%m: !tilus.ptr<i1>, %x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<i1>)
    warps(2) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "i1_io_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %f = arith.constant false
  %gm = tilus.global_view %m : !tilus.ptr<i1> -> !tilus.global<16x64xi1>
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<16x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<16x64xf32>
  %gz = tilus.global_view %z : !tilus.ptr<i1> -> !tilus.global<16x64xi1>
  %mm = tilus.load_global %gm[%c0, %c0] : !tilus.global<16x64xi1> -> !tilus.reg<16x64xi1>
  %xx = tilus.load_global %gx[%c0, %c0] : !tilus.global<16x64xf32> -> !tilus.reg<16x64xf32>
  %zt = tilus.register_tensor init(%zero : f32) : !tilus.reg<1xf32>
  %r = tilus.where %mm, %xx, %zt : (!tilus.reg<16x64xi1>, !tilus.reg<16x64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<16x64xf32>
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<16x64xf32>, !tilus.global<16x64xf32>
  %ft = tilus.register_tensor init(%f : i1) : !tilus.reg<1xi1>
  %nm = tilus.cmp eq %mm, %ft : (!tilus.reg<16x64xi1>, !tilus.reg<1xi1>) -> !tilus.reg<16x64xi1>
  tilus.store_global %nm, %gz[%c0, %c0] : !tilus.reg<16x64xi1>, !tilus.global<16x64xi1>
}
tilus.kernel @i1_io_ref(%m: !tilus.ptr<i1>, %x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<i1>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %gm = tilus.global_view %m : !tilus.ptr<i1> -> !tilus.global<16x64xi1>
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<16x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<16x64xf32>
  %gz = tilus.global_view %z : !tilus.ptr<i1> -> !tilus.global<16x64xi1>
  %mm = tilus.load_global %gm[%c0, %c0] : !tilus.global<16x64xi1> -> !tilus.reg<16x64xi1>
  %xx = tilus.load_global %gx[%c0, %c0] : !tilus.global<16x64xf32> -> !tilus.reg<16x64xf32>
  %mf = tilus.cast %mm : !tilus.reg<16x64xi1> to !tilus.reg<16x64xf32>
  %r = tilus.mul %xx, %mf : (!tilus.reg<16x64xf32>, !tilus.reg<16x64xf32>) -> !tilus.reg<16x64xf32>
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<16x64xf32>, !tilus.global<16x64xf32>
  %t = arith.constant true
  %tt = tilus.register_tensor init(%t : i1) : !tilus.reg<1x1xi1>
  %nm = tilus.cmp ne %mm, %tt : (!tilus.reg<16x64xi1>, !tilus.reg<1x1xi1>) -> !tilus.reg<16x64xi1>
  tilus.store_global %nm, %gz[%c0, %c0] : !tilus.reg<16x64xi1>, !tilus.global<16x64xi1>
}

// f16 math throughout (no f32): loop-carried f16 accumulator, f16 reduce max, f16 exp, f16 shuffle
tilus.kernel @f16_math(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %z: !tilus.ptr<f16>)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "f16_math_ref"} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f16
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f16> -> !tilus.global<16x64xf16>
  %gz = tilus.global_view %z : !tilus.ptr<f16> -> !tilus.global<16x1xf16>
  %a0 = tilus.register_tensor init(%zero : f16) : !tilus.reg<16x64xf16>
  %acc = scf.for %k = %c0 to %c64 step %c16 iter_args(%a = %a0) -> (!tilus.reg<16x64xf16>) : i32 {
    %t = tilus.load_global %gx[%k, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<16x64xf16>
    %a2 = tilus.add %a, %t : (!tilus.reg<16x64xf16>, !tilus.reg<16x64xf16>) -> !tilus.reg<16x64xf16>
    scf.yield %a2 : !tilus.reg<16x64xf16>
  }
  %e = tilus.exp %acc : !tilus.reg<16x64xf16>
  tilus.store_global %e, %gy[%c0, %c0] : !tilus.reg<16x64xf16>, !tilus.global<16x64xf16>
  %m = tilus.reduce max %acc dim(1) keepdim : !tilus.reg<16x64xf16> -> !tilus.reg<16x1xf16>
  tilus.store_global %m, %gz[%c0, %c0] : !tilus.reg<16x1xf16>, !tilus.global<16x1xf16>
}
tilus.kernel @f16_math_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %z: !tilus.ptr<f16>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %c48 = arith.constant 48 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f16> -> !tilus.global<16x64xf16>
  %gz = tilus.global_view %z : !tilus.ptr<f16> -> !tilus.global<16x1xf16>
  %t0 = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<16x64xf16>
  %t1 = tilus.load_global %gx[%c16, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<16x64xf16>
  %t2 = tilus.load_global %gx[%c32, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<16x64xf16>
  %t3 = tilus.load_global %gx[%c48, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<16x64xf16>
  %s1 = tilus.add %t0, %t1 : (!tilus.reg<16x64xf16>, !tilus.reg<16x64xf16>) -> !tilus.reg<16x64xf16>
  %s2 = tilus.add %s1, %t2 : (!tilus.reg<16x64xf16>, !tilus.reg<16x64xf16>) -> !tilus.reg<16x64xf16>
  %s3 = tilus.add %s2, %t3 : (!tilus.reg<16x64xf16>, !tilus.reg<16x64xf16>) -> !tilus.reg<16x64xf16>
  %e = tilus.exp %s3 : !tilus.reg<16x64xf16>
  tilus.store_global %e, %gy[%c0, %c0] : !tilus.reg<16x64xf16>, !tilus.global<16x64xf16>
  %m = tilus.reduce max %s3 dim(1) keepdim : !tilus.reg<16x64xf16> -> !tilus.reg<16x1xf16>
  tilus.store_global %m, %gz[%c0, %c0] : !tilus.reg<16x1xf16>, !tilus.global<16x1xf16>
}

// flash-attention inner loop: per KV block s = q@kT (wgmma), online softmax with loop-carried m, l, acc; o = acc / l
tilus.kernel @flash(%q: !tilus.ptr<f16>, %kk: !tilus.ptr<f16>, %v: !tilus.ptr<f16>, %o: !tilus.ptr<f16>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["o"], tilus.reference = "flash_ref"} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c256 = arith.constant 256 : i32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e30 : f32
  %gq = tilus.global_view %q : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gkt = tilus.global_view %kk : !tilus.ptr<f16> -> !tilus.global<64x256xf16, strides = [1, 64]>
  %gv = tilus.global_view %v : !tilus.ptr<f16> -> !tilus.global<256x64xf16>
  %go = tilus.global_view %o : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %qa = tilus.load_global %gq[%c0, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<64x64xf16>
  %m0 = tilus.register_tensor init(%ninf : f32) : !tilus.reg<64x1xf32>
  %l0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x1xf32>
  %a0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %r:3 = scf.for %j = %c0 to %c256 step %c64 iter_args(%m = %m0, %l = %l0, %acc = %a0) -> (!tilus.reg<64x1xf32>, !tilus.reg<64x1xf32>, !tilus.reg<64x64xf32>) : i32 {
    %kb = tilus.load_global %gkt[%c0, %j] : !tilus.global<64x256xf16, strides = [1, 64]> -> !tilus.reg<64x64xf16>
    %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
    %s = tilus.dot %qa, %kb, %z : (!tilus.reg<64x64xf16>, !tilus.reg<64x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
    %bm = tilus.reduce max %s dim(1) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<64x1xf32>
    %mn = tilus.maximum %m, %bm : (!tilus.reg<64x1xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x1xf32>
    %d = tilus.sub %s, %mn : (!tilus.reg<64x64xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x64xf32>
    %p = tilus.exp %d : !tilus.reg<64x64xf32>
    %ps = tilus.reduce sum %p dim(1) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<64x1xf32>
    %dm = tilus.sub %m, %mn : (!tilus.reg<64x1xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x1xf32>
    %sc = tilus.exp %dm : !tilus.reg<64x1xf32>
    %l2 = tilus.mul %l, %sc : (!tilus.reg<64x1xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x1xf32>
    %l3 = tilus.add %l2, %ps : (!tilus.reg<64x1xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x1xf32>
    %as = tilus.mul %acc, %sc : (!tilus.reg<64x64xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x64xf32>
    %ph = tilus.cast %p : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
    %vb = tilus.load_global %gv[%j, %c0] : !tilus.global<256x64xf16> -> !tilus.reg<64x64xf16>
    %a2 = tilus.dot %ph, %vb, %as : (!tilus.reg<64x64xf16>, !tilus.reg<64x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
    scf.yield %mn, %l3, %a2 : !tilus.reg<64x1xf32>, !tilus.reg<64x1xf32>, !tilus.reg<64x64xf32>
  }
  %out = tilus.div %r#2, %r#1 : (!tilus.reg<64x64xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x64xf32>
  %oh = tilus.cast %out : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
  tilus.store_global %oh, %go[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16>
}
tilus.kernel @flash_ref(%q: !tilus.ptr<f16>, %kk: !tilus.ptr<f16>, %v: !tilus.ptr<f16>, %o: !tilus.ptr<f16>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["o"]} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %gq = tilus.global_view %q : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gkt = tilus.global_view %kk : !tilus.ptr<f16> -> !tilus.global<64x256xf16, strides = [1, 64]>
  %gv = tilus.global_view %v : !tilus.ptr<f16> -> !tilus.global<256x64xf16>
  %go = tilus.global_view %o : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %qa = tilus.load_global %gq[%c0, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<64x64xf16>
  %kb = tilus.load_global %gkt[%c0, %c0] : !tilus.global<64x256xf16, strides = [1, 64]> -> !tilus.reg<64x256xf16>
  %qf = tilus.cast %qa : !tilus.reg<64x64xf16> to !tilus.reg<64x64xf32>
  %kf = tilus.cast %kb : !tilus.reg<64x256xf16> to !tilus.reg<64x256xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x256xf32>
  %s = tilus.dot %qf, %kf, %z : (!tilus.reg<64x64xf32>, !tilus.reg<64x256xf32>, !tilus.reg<64x256xf32>) -> !tilus.reg<64x256xf32>
  %m = tilus.reduce max %s dim(1) keepdim : !tilus.reg<64x256xf32> -> !tilus.reg<64x1xf32>
  %d = tilus.sub %s, %m : (!tilus.reg<64x256xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x256xf32>
  %p = tilus.exp %d : !tilus.reg<64x256xf32>
  %l = tilus.reduce sum %p dim(1) keepdim : !tilus.reg<64x256xf32> -> !tilus.reg<64x1xf32>
  %ph = tilus.cast %p : !tilus.reg<64x256xf32> to !tilus.reg<64x256xf16>
  %pf = tilus.cast %ph : !tilus.reg<64x256xf16> to !tilus.reg<64x256xf32>
  %vb = tilus.load_global %gv[%c0, %c0] : !tilus.global<256x64xf16> -> !tilus.reg<256x64xf16>
  %vf = tilus.cast %vb : !tilus.reg<256x64xf16> to !tilus.reg<256x64xf32>
  %z2 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %a = tilus.dot %pf, %vf, %z2 : (!tilus.reg<64x256xf32>, !tilus.reg<256x64xf32>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  %out = tilus.div %a, %l : (!tilus.reg<64x64xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x64xf32>
  %oh = tilus.cast %out : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
  tilus.store_global %oh, %go[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16>
}

// 3-D broadcasting: [4,8,16] * [4,1,16] + [8,1] - [16], bf16 in, f32 math, 8 warps
tilus.kernel @bcast3d(%x: !tilus.ptr<bf16>, %a: !tilus.ptr<f32>, %b: !tilus.ptr<f32>, %c: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(8) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "bcast3d_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<bf16> -> !tilus.global<4x8x16xbf16>
  %ga = tilus.global_view %a : !tilus.ptr<f32> -> !tilus.global<4x1x16xf32>
  %gb = tilus.global_view %b : !tilus.ptr<f32> -> !tilus.global<8x1xf32>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<16xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<4x8x16xf32>
  %t = tilus.load_global %gx[%c0, %c0, %c0] : !tilus.global<4x8x16xbf16> -> !tilus.reg<4x8x16xbf16>
  %tf = tilus.cast %t : !tilus.reg<4x8x16xbf16> to !tilus.reg<4x8x16xf32>
  %ra = tilus.load_global %ga[%c0, %c0, %c0] : !tilus.global<4x1x16xf32> -> !tilus.reg<4x1x16xf32>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<8x1xf32> -> !tilus.reg<8x1xf32>
  %rc = tilus.load_global %gc[%c0] : !tilus.global<16xf32> -> !tilus.reg<16xf32>
  %p = tilus.mul %tf, %ra : (!tilus.reg<4x8x16xf32>, !tilus.reg<4x1x16xf32>) -> !tilus.reg<4x8x16xf32>
  %q = tilus.add %p, %rb : (!tilus.reg<4x8x16xf32>, !tilus.reg<8x1xf32>) -> !tilus.reg<4x8x16xf32>
  %r = tilus.sub %q, %rc : (!tilus.reg<4x8x16xf32>, !tilus.reg<16xf32>) -> !tilus.reg<4x8x16xf32>
  tilus.store_global %r, %gy[%c0, %c0, %c0] : !tilus.reg<4x8x16xf32>, !tilus.global<4x8x16xf32>
}
tilus.kernel @bcast3d_ref(%x: !tilus.ptr<bf16>, %a: !tilus.ptr<f32>, %b: !tilus.ptr<f32>, %c: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %gx = tilus.global_view %x : !tilus.ptr<bf16> -> !tilus.global<4x8x16xbf16>
  %ga = tilus.global_view %a : !tilus.ptr<f32> -> !tilus.global<4x16xf32>
  %gb = tilus.global_view %b : !tilus.ptr<f32> -> !tilus.global<8xf32>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<16xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<4x8x16xf32>
  %rc = tilus.load_global %gc[%c0] : !tilus.global<16xf32> -> !tilus.reg<16xf32>
  scf.for %i = %c0 to %c4 step %c1 : i32 {
    %ra = tilus.load_global %ga[%i, %c0] : !tilus.global<4x16xf32> -> !tilus.reg<1x16xf32>
    scf.for %j = %c0 to %c8 step %c1 : i32 {
      %t = tilus.load_global %gx[%i, %j, %c0] : !tilus.global<4x8x16xbf16> -> !tilus.reg<1x1x16xbf16>
      %tf = tilus.cast %t : !tilus.reg<1x1x16xbf16> to !tilus.reg<1x1x16xf32>
      %bj = tilus.load_global %gb[%j] : !tilus.global<8xf32> -> !tilus.reg<1xf32>
      %p = tilus.mul %ra, %tf : (!tilus.reg<1x16xf32>, !tilus.reg<1x1x16xf32>) -> !tilus.reg<1x1x16xf32>
      %q = tilus.add %bj, %p : (!tilus.reg<1xf32>, !tilus.reg<1x1x16xf32>) -> !tilus.reg<1x1x16xf32>
      %r = tilus.sub %q, %rc : (!tilus.reg<1x1x16xf32>, !tilus.reg<16xf32>) -> !tilus.reg<1x1x16xf32>
      tilus.store_global %r, %gy[%i, %j, %c0] : !tilus.reg<1x1x16xf32>, !tilus.global<4x8x16xf32>
    }
  }
}

// shuffle of an f16 tile (without layouts), 2-D [2, 256] over 2 warps
tilus.kernel @f16_shuffle(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>)
    warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "f16_shuffle_ref"} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<2x256xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f16> -> !tilus.global<2x256xf16>
  %v = tilus.load_global %gx[%c0, %c0] : !tilus.global<2x256xf16> -> !tilus.reg<2x256xf16>
  %u = tilus.shuffle_up %v, %c3 : !tilus.reg<2x256xf16>
  %s = tilus.add %u, %v : (!tilus.reg<2x256xf16>, !tilus.reg<2x256xf16>) -> !tilus.reg<2x256xf16>
  tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<2x256xf16>, !tilus.global<2x256xf16>
}
tilus.kernel @f16_shuffle_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>)
    warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<2x256xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f16> -> !tilus.global<2x256xf16>
  %v = tilus.load_global %gx[%c0, %c0] : !tilus.global<2x256xf16> -> !tilus.reg<2x256xf16, layout = spatial(2, 32) * local(1, 8)>
  %u = tilus.shuffle_up %v, %c3 : !tilus.reg<2x256xf16, layout = spatial(2, 32) * local(1, 8)>
  %s = tilus.add %u, %v : (!tilus.reg<2x256xf16, layout = spatial(2, 32) * local(1, 8)>, !tilus.reg<2x256xf16, layout = spatial(2, 32) * local(1, 8)>) -> !tilus.reg<2x256xf16, layout = spatial(2, 32) * local(1, 8)>
  tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<2x256xf16, layout = spatial(2, 32) * local(1, 8)>, !tilus.global<2x256xf16>
}

// the smallest mma: 1 warp, 16x16 @ 16x8 f16 -> f32, accumulator loaded from global
tilus.kernel @tiny_mma(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["c"], tilus.reference = "tiny_mma_ref"} {
  %c0 = arith.constant 0 : i32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<16x16xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<16x8xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<16x8xf32>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<16x16xf16> -> !tilus.reg<16x16xf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<16x8xf16> -> !tilus.reg<16x8xf16>
  %rc = tilus.load_global %gc[%c0, %c0] : !tilus.global<16x8xf32> -> !tilus.reg<16x8xf32>
  %d = tilus.dot %ra, %rb, %rc : (!tilus.reg<16x16xf16>, !tilus.reg<16x8xf16>, !tilus.reg<16x8xf32>) -> !tilus.reg<16x8xf32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<16x8xf32>, !tilus.global<16x8xf32>
}
tilus.kernel @tiny_mma_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["c"]} {
  %c0 = arith.constant 0 : i32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<16x16xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<16x8xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<16x8xf32>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<16x16xf16> -> !tilus.reg<16x16xf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<16x8xf16> -> !tilus.reg<16x8xf16>
  %fa = tilus.cast %ra : !tilus.reg<16x16xf16> to !tilus.reg<16x16xf32>
  %fb = tilus.cast %rb : !tilus.reg<16x8xf16> to !tilus.reg<16x8xf32>
  %rc = tilus.load_global %gc[%c0, %c0] : !tilus.global<16x8xf32> -> !tilus.reg<16x8xf32>
  %d = tilus.dot %fa, %fb, %rc : (!tilus.reg<16x16xf32>, !tilus.reg<16x8xf32>, !tilus.reg<16x8xf32>) -> !tilus.reg<16x8xf32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<16x8xf32>, !tilus.global<16x8xf32>
}

// tile work in odd thread groups: threads(32, 64) (warps 1-2) with a cross-warp column reduction,
// threads(96, 16) (half a warp) with a row reduction, and a single thread handling a 1x4 tile
tilus.kernel @subgroups(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f32>, %w: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "z", "w"], tilus.reference = "subgroups_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %gz = tilus.global_view %z : !tilus.ptr<f32> -> !tilus.global<8x1xf32>
  %gw = tilus.global_view %w : !tilus.ptr<f32> -> !tilus.global<1x4xf32>
  threadgroup.group threads(32, 64) {
    %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
    %s = tilus.reduce sum %t dim(0) : !tilus.reg<64x32xf32> -> !tilus.reg<32xf32>
    tilus.store_global %s, %gy[%c0] : !tilus.reg<32xf32>, !tilus.global<32xf32>
  }
  threadgroup.group threads(96, 16) {
    %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<8x32xf32>
    %m = tilus.reduce max %t dim(1) keepdim : !tilus.reg<8x32xf32> -> !tilus.reg<8x1xf32>
    tilus.store_global %m, %gz[%c0, %c0] : !tilus.reg<8x1xf32>, !tilus.global<8x1xf32>
  }
  threadgroup.single_thread thread(5) {
    %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<1x4xf32>
    %e = tilus.exp %t : !tilus.reg<1x4xf32>
    tilus.store_global %e, %gw[%c0, %c0] : !tilus.reg<1x4xf32>, !tilus.global<1x4xf32>
  }
}
tilus.kernel @subgroups_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f32>, %w: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "z", "w"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<1x32xf32>
  %gz = tilus.global_view %z : !tilus.ptr<f32> -> !tilus.global<8x1xf32>
  %gw = tilus.global_view %w : !tilus.ptr<f32> -> !tilus.global<1x4xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %s = tilus.reduce sum %t dim(0) keepdim : !tilus.reg<64x32xf32> -> !tilus.reg<1x32xf32>
  tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<1x32xf32>, !tilus.global<1x32xf32>
  %t2 = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<8x32xf32>
  %m = tilus.reduce max %t2 dim(1) keepdim : !tilus.reg<8x32xf32> -> !tilus.reg<8x1xf32>
  tilus.store_global %m, %gz[%c0, %c0] : !tilus.reg<8x1xf32>, !tilus.global<8x1xf32>
  %t3 = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<1x4xf32>
  %e = tilus.exp %t3 : !tilus.reg<1x4xf32>
  tilus.store_global %e, %gw[%c0, %c0] : !tilus.reg<1x4xf32>, !tilus.global<1x4xf32>
}

// dots with small / odd dims: f16 32x8 @ 8x24 (K=8) on 1 warp, and bf16 16x32 @ 32x40 on 2 warps
tilus.kernel @dot_odd(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f32>, %d: !tilus.ptr<bf16>, %e: !tilus.ptr<bf16>, %f: !tilus.ptr<f32>)
    warps(2) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["c", "f"], tilus.reference = "dot_odd_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<32x8xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<8x24xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<32x24xf32>
  %gd = tilus.global_view %d : !tilus.ptr<bf16> -> !tilus.global<16x32xbf16>
  %ge = tilus.global_view %e : !tilus.ptr<bf16> -> !tilus.global<32x40xbf16>
  %gf = tilus.global_view %f : !tilus.ptr<f32> -> !tilus.global<16x40xf32>
  threadgroup.single_warp warp(0) {
    %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<32x8xf16> -> !tilus.reg<32x8xf16>
    %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<8x24xf16> -> !tilus.reg<8x24xf16>
    %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x24xf32>
    %r = tilus.dot %ra, %rb, %z : (!tilus.reg<32x8xf16>, !tilus.reg<8x24xf16>, !tilus.reg<32x24xf32>) -> !tilus.reg<32x24xf32>
    tilus.store_global %r, %gc[%c0, %c0] : !tilus.reg<32x24xf32>, !tilus.global<32x24xf32>
  }
  %rd = tilus.load_global %gd[%c0, %c0] : !tilus.global<16x32xbf16> -> !tilus.reg<16x32xbf16>
  %re = tilus.load_global %ge[%c0, %c0] : !tilus.global<32x40xbf16> -> !tilus.reg<32x40xbf16>
  %z2 = tilus.register_tensor init(%zero : f32) : !tilus.reg<16x40xf32>
  %r2 = tilus.dot %rd, %re, %z2 : (!tilus.reg<16x32xbf16>, !tilus.reg<32x40xbf16>, !tilus.reg<16x40xf32>) -> !tilus.reg<16x40xf32>
  tilus.store_global %r2, %gf[%c0, %c0] : !tilus.reg<16x40xf32>, !tilus.global<16x40xf32>
}
tilus.kernel @dot_odd_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f32>, %d: !tilus.ptr<bf16>, %e: !tilus.ptr<bf16>, %f: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["c", "f"]} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<32x8xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<8x24xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<32x24xf32>
  %gd = tilus.global_view %d : !tilus.ptr<bf16> -> !tilus.global<16x32xbf16>
  %ge = tilus.global_view %e : !tilus.ptr<bf16> -> !tilus.global<32x40xbf16>
  %gf = tilus.global_view %f : !tilus.ptr<f32> -> !tilus.global<16x40xf32>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<32x8xf16> -> !tilus.reg<32x8xf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<8x24xf16> -> !tilus.reg<8x24xf16>
  %fa = tilus.cast %ra : !tilus.reg<32x8xf16> to !tilus.reg<32x8xf32>
  %fb = tilus.cast %rb : !tilus.reg<8x24xf16> to !tilus.reg<8x24xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x24xf32>
  %r = tilus.dot %fa, %fb, %z : (!tilus.reg<32x8xf32>, !tilus.reg<8x24xf32>, !tilus.reg<32x24xf32>) -> !tilus.reg<32x24xf32>
  tilus.store_global %r, %gc[%c0, %c0] : !tilus.reg<32x24xf32>, !tilus.global<32x24xf32>
  %rd = tilus.load_global %gd[%c0, %c0] : !tilus.global<16x32xbf16> -> !tilus.reg<16x32xbf16>
  %re = tilus.load_global %ge[%c0, %c0] : !tilus.global<32x40xbf16> -> !tilus.reg<32x40xbf16>
  %fd = tilus.cast %rd : !tilus.reg<16x32xbf16> to !tilus.reg<16x32xf32>
  %fe = tilus.cast %re : !tilus.reg<32x40xbf16> to !tilus.reg<32x40xf32>
  %z2 = tilus.register_tensor init(%zero : f32) : !tilus.reg<16x40xf32>
  %r2 = tilus.dot %fd, %fe, %z2 : (!tilus.reg<16x32xf32>, !tilus.reg<32x40xf32>, !tilus.reg<16x40xf32>) -> !tilus.reg<16x40xf32>
  tilus.store_global %r2, %gf[%c0, %c0] : !tilus.reg<16x40xf32>, !tilus.global<16x40xf32>
}

// dot variants: 8 warps with M = 64 (too small for two warpgroups), A from a transposed view, i8 x i8 -> i32
tilus.kernel @dot_variants(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f32>, %p: !tilus.ptr<i8>, %q: !tilus.ptr<i8>, %r: !tilus.ptr<i32>)
    warps(8) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["c", "r"], tilus.reference = "dot_variants_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  %gat = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<64x32xf16, strides = [1, 64]>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<32x128xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<64x128xf32>
  %gp = tilus.global_view %p : !tilus.ptr<i8> -> !tilus.global<32x32xi8>
  %gq = tilus.global_view %q : !tilus.ptr<i8> -> !tilus.global<32x32xi8>
  %gr = tilus.global_view %r : !tilus.ptr<i32> -> !tilus.global<32x32xi32>
  %ra = tilus.load_global %gat[%c0, %c0] : !tilus.global<64x32xf16, strides = [1, 64]> -> !tilus.reg<64x32xf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<32x128xf16> -> !tilus.reg<32x128xf16>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x128xf32>
  %d = tilus.dot %ra, %rb, %z : (!tilus.reg<64x32xf16>, !tilus.reg<32x128xf16>, !tilus.reg<64x128xf32>) -> !tilus.reg<64x128xf32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<64x128xf32>, !tilus.global<64x128xf32>
  %rp = tilus.load_global %gp[%c0, %c0] : !tilus.global<32x32xi8> -> !tilus.reg<32x32xi8>
  %rq = tilus.load_global %gq[%c0, %c0] : !tilus.global<32x32xi8> -> !tilus.reg<32x32xi8>
  %zi = tilus.register_tensor init(%izero : i32) : !tilus.reg<32x32xi32>
  %e = tilus.dot %rp, %rq, %zi : (!tilus.reg<32x32xi8>, !tilus.reg<32x32xi8>, !tilus.reg<32x32xi32>) -> !tilus.reg<32x32xi32>
  tilus.store_global %e, %gr[%c0, %c0] : !tilus.reg<32x32xi32>, !tilus.global<32x32xi32>
}
tilus.kernel @dot_variants_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f32>, %p: !tilus.ptr<i8>, %q: !tilus.ptr<i8>, %r: !tilus.ptr<i32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["c", "r"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<32x64xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<32x128xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<64x128xf32>
  %gp = tilus.global_view %p : !tilus.ptr<i8> -> !tilus.global<32x32xi8>
  %gq = tilus.global_view %q : !tilus.ptr<i8> -> !tilus.global<32x32xi8>
  %gr = tilus.global_view %r : !tilus.ptr<i32> -> !tilus.global<32x32xi32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x128xf32>
  %acc = scf.for %k = %c0 to %c32 step %c1 iter_args(%s = %z) -> (!tilus.reg<64x128xf32>) : i32 {
    scf.yield %s : !tilus.reg<64x128xf32>
  }
  %ga2 = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<64x32xf16, strides = [1, 64]>
  %ra = tilus.load_global %ga2[%c0, %c0] : !tilus.global<64x32xf16, strides = [1, 64]> -> !tilus.reg<64x32xf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<32x128xf16> -> !tilus.reg<32x128xf16>
  %fa = tilus.cast %ra : !tilus.reg<64x32xf16> to !tilus.reg<64x32xf32>
  %fb = tilus.cast %rb : !tilus.reg<32x128xf16> to !tilus.reg<32x128xf32>
  %d = tilus.dot %fa, %fb, %acc : (!tilus.reg<64x32xf32>, !tilus.reg<32x128xf32>, !tilus.reg<64x128xf32>) -> !tilus.reg<64x128xf32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<64x128xf32>, !tilus.global<64x128xf32>
  %rp = tilus.load_global %gp[%c0, %c0] : !tilus.global<32x32xi8> -> !tilus.reg<32x32xi8>
  %rq = tilus.load_global %gq[%c0, %c0] : !tilus.global<32x32xi8> -> !tilus.reg<32x32xi8>
  %ip = tilus.cast %rp : !tilus.reg<32x32xi8> to !tilus.reg<32x32xi32>
  %iq = tilus.cast %rq : !tilus.reg<32x32xi8> to !tilus.reg<32x32xi32>
  %zi = tilus.register_tensor init(%izero : i32) : !tilus.reg<32x32xi32>
  %e = tilus.dot %ip, %iq, %zi : (!tilus.reg<32x32xi32>, !tilus.reg<32x32xi32>, !tilus.reg<32x32xi32>) -> !tilus.reg<32x32xi32>
  tilus.store_global %e, %gr[%c0, %c0] : !tilus.reg<32x32xi32>, !tilus.global<32x32xi32>
}

// reductions across lanes of f64, i8, i16 and u8 tiles (and element-wise ops on them)
tilus.kernel @dtypes_reduce(%a: !tilus.ptr<f64>, %b: !tilus.ptr<i8>, %c: !tilus.ptr<i16>, %ra: !tilus.ptr<f64>, %rb: !tilus.ptr<i8>, %rc: !tilus.ptr<i16>)
    warps(2) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["ra", "rb", "rc"], tilus.reference = "dtypes_reduce_ref"} {
  %c0 = arith.constant 0 : i32
  %ga = tilus.global_view %a : !tilus.ptr<f64> -> !tilus.global<4x64xf64>
  %gb = tilus.global_view %b : !tilus.ptr<i8> -> !tilus.global<4x64xi8>
  %gc = tilus.global_view %c : !tilus.ptr<i16> -> !tilus.global<4x64xi16>
  %gra = tilus.global_view %ra : !tilus.ptr<f64> -> !tilus.global<4x1xf64>
  %grb = tilus.global_view %rb : !tilus.ptr<i8> -> !tilus.global<4x1xi8>
  %grc = tilus.global_view %rc : !tilus.ptr<i16> -> !tilus.global<4x1xi16>
  %ta = tilus.load_global %ga[%c0, %c0] : !tilus.global<4x64xf64> -> !tilus.reg<4x64xf64>
  %tb = tilus.load_global %gb[%c0, %c0] : !tilus.global<4x64xi8> -> !tilus.reg<4x64xi8>
  %tc = tilus.load_global %gc[%c0, %c0] : !tilus.global<4x64xi16> -> !tilus.reg<4x64xi16>
  %sa = tilus.reduce sum %ta dim(1) keepdim : !tilus.reg<4x64xf64> -> !tilus.reg<4x1xf64>
  %sb = tilus.reduce max %tb dim(1) keepdim : !tilus.reg<4x64xi8> -> !tilus.reg<4x1xi8>
  %sc = tilus.reduce sum %tc dim(1) keepdim : !tilus.reg<4x64xi16> -> !tilus.reg<4x1xi16>
  tilus.store_global %sa, %gra[%c0, %c0] : !tilus.reg<4x1xf64>, !tilus.global<4x1xf64>
  tilus.store_global %sb, %grb[%c0, %c0] : !tilus.reg<4x1xi8>, !tilus.global<4x1xi8>
  tilus.store_global %sc, %grc[%c0, %c0] : !tilus.reg<4x1xi16>, !tilus.global<4x1xi16>
}
tilus.kernel @dtypes_reduce_ref(%a: !tilus.ptr<f64>, %b: !tilus.ptr<i8>, %c: !tilus.ptr<i16>, %ra: !tilus.ptr<f64>, %rb: !tilus.ptr<i8>, %rc: !tilus.ptr<i16>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["ra", "rb", "rc"]} {
  %c0 = arith.constant 0 : i32
  %ga = tilus.global_view %a : !tilus.ptr<f64> -> !tilus.global<4x64xf64>
  %gb = tilus.global_view %b : !tilus.ptr<i8> -> !tilus.global<4x64xi8>
  %gc = tilus.global_view %c : !tilus.ptr<i16> -> !tilus.global<4x64xi16>
  %gra = tilus.global_view %ra : !tilus.ptr<f64> -> !tilus.global<4x1xf64>
  %grb = tilus.global_view %rb : !tilus.ptr<i8> -> !tilus.global<4x1xi8>
  %grc = tilus.global_view %rc : !tilus.ptr<i16> -> !tilus.global<4x1xi16>
  %ta = tilus.load_global %ga[%c0, %c0] : !tilus.global<4x64xf64> -> !tilus.reg<4x64xf64, layout = spatial(4, 1) * local(1, 64) * replicate(8)>
  %tb = tilus.load_global %gb[%c0, %c0] : !tilus.global<4x64xi8> -> !tilus.reg<4x64xi8, layout = spatial(4, 1) * local(1, 64) * replicate(8)>
  %tc = tilus.load_global %gc[%c0, %c0] : !tilus.global<4x64xi16> -> !tilus.reg<4x64xi16, layout = spatial(4, 1) * local(1, 64) * replicate(8)>
  %sa = tilus.reduce sum %ta dim(1) keepdim : !tilus.reg<4x64xf64, layout = spatial(4, 1) * local(1, 64) * replicate(8)> -> !tilus.reg<4x1xf64>
  %sb = tilus.reduce max %tb dim(1) keepdim : !tilus.reg<4x64xi8, layout = spatial(4, 1) * local(1, 64) * replicate(8)> -> !tilus.reg<4x1xi8>
  %sc = tilus.reduce sum %tc dim(1) keepdim : !tilus.reg<4x64xi16, layout = spatial(4, 1) * local(1, 64) * replicate(8)> -> !tilus.reg<4x1xi16>
  tilus.store_global %sa, %gra[%c0, %c0] : !tilus.reg<4x1xf64>, !tilus.global<4x1xf64>
  tilus.store_global %sb, %grb[%c0, %c0] : !tilus.reg<4x1xi8>, !tilus.global<4x1xi8>
  tilus.store_global %sc, %grc[%c0, %c0] : !tilus.reg<4x1xi16>, !tilus.global<4x1xi16>
}


tilus.kernel @f64_i16_reduce(%a: !tilus.ptr<f64>, %c: !tilus.ptr<i16>, %ra: !tilus.ptr<f64>, %rc: !tilus.ptr<i16>)
    warps(2) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["ra", "rc"], tilus.reference = "f64_i16_reduce_ref"} {
  %c0 = arith.constant 0 : i32
  %ga = tilus.global_view %a : !tilus.ptr<f64> -> !tilus.global<4x64xf64>
  %gc = tilus.global_view %c : !tilus.ptr<i16> -> !tilus.global<4x64xi16>
  %gra = tilus.global_view %ra : !tilus.ptr<f64> -> !tilus.global<4x1xf64>
  %grc = tilus.global_view %rc : !tilus.ptr<i16> -> !tilus.global<4x1xi16>
  %ta = tilus.load_global %ga[%c0, %c0] : !tilus.global<4x64xf64> -> !tilus.reg<4x64xf64>
  %tc = tilus.load_global %gc[%c0, %c0] : !tilus.global<4x64xi16> -> !tilus.reg<4x64xi16>
  %sa = tilus.reduce sum %ta dim(1) keepdim : !tilus.reg<4x64xf64> -> !tilus.reg<4x1xf64>
  %sc = tilus.reduce sum %tc dim(1) keepdim : !tilus.reg<4x64xi16> -> !tilus.reg<4x1xi16>
  tilus.store_global %sa, %gra[%c0, %c0] : !tilus.reg<4x1xf64>, !tilus.global<4x1xf64>
  tilus.store_global %sc, %grc[%c0, %c0] : !tilus.reg<4x1xi16>, !tilus.global<4x1xi16>
}
tilus.kernel @f64_i16_reduce_ref(%a: !tilus.ptr<f64>, %c: !tilus.ptr<i16>, %ra: !tilus.ptr<f64>, %rc: !tilus.ptr<i16>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["ra", "rc"]} {
  %c0 = arith.constant 0 : i32
  %ga = tilus.global_view %a : !tilus.ptr<f64> -> !tilus.global<4x64xf64>
  %gc = tilus.global_view %c : !tilus.ptr<i16> -> !tilus.global<4x64xi16>
  %gra = tilus.global_view %ra : !tilus.ptr<f64> -> !tilus.global<4x1xf64>
  %grc = tilus.global_view %rc : !tilus.ptr<i16> -> !tilus.global<4x1xi16>
  %ta = tilus.load_global %ga[%c0, %c0] : !tilus.global<4x64xf64> -> !tilus.reg<4x64xf64, layout = spatial(4, 1) * local(1, 64) * replicate(8)>
  %tc = tilus.load_global %gc[%c0, %c0] : !tilus.global<4x64xi16> -> !tilus.reg<4x64xi16, layout = spatial(4, 1) * local(1, 64) * replicate(8)>
  %sa = tilus.reduce sum %ta dim(1) keepdim : !tilus.reg<4x64xf64, layout = spatial(4, 1) * local(1, 64) * replicate(8)> -> !tilus.reg<4x1xf64>
  %sc = tilus.reduce sum %tc dim(1) keepdim : !tilus.reg<4x64xi16, layout = spatial(4, 1) * local(1, 64) * replicate(8)> -> !tilus.reg<4x1xi16>
  tilus.store_global %sa, %gra[%c0, %c0] : !tilus.reg<4x1xf64>, !tilus.global<4x1xf64>
  tilus.store_global %sc, %grc[%c0, %c0] : !tilus.reg<4x1xi16>, !tilus.global<4x1xi16>
}

// scf.if whose branches load with different contiguous dims (row-major vs transposed view)
tilus.kernel @if_anchors(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (2)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "if_anchors_ref"} {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gxt = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x32xf32, strides = [1, 32]>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %is0 = arith.cmpi eq, %bx, %c0 : i32
  %t = scf.if %is0 -> (!tilus.reg<32x32xf32>) {
    %a = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32>
    scf.yield %a : !tilus.reg<32x32xf32>
  } else {
    %b = tilus.load_global %gxt[%c0, %c0] : !tilus.global<32x32xf32, strides = [1, 32]> -> !tilus.reg<32x32xf32>
    scf.yield %b : !tilus.reg<32x32xf32>
  }
  %r = arith.muli %bx, %c32 : i32
  %e = tilus.exp %t : !tilus.reg<32x32xf32>
  tilus.store_global %e, %gy[%r, %c0] : !tilus.reg<32x32xf32>, !tilus.global<64x32xf32>
}
tilus.kernel @if_anchors_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gxt = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x32xf32, strides = [1, 32]>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %a = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32>
  %b = tilus.load_global %gxt[%c0, %c0] : !tilus.global<32x32xf32, strides = [1, 32]> -> !tilus.reg<32x32xf32>
  %ea = tilus.exp %a : !tilus.reg<32x32xf32>
  %eb = tilus.exp %b : !tilus.reg<32x32xf32>
  tilus.store_global %ea, %gy[%c0, %c0] : !tilus.reg<32x32xf32>, !tilus.global<64x32xf32>
  tilus.store_global %eb, %gy[%c32, %c0] : !tilus.reg<32x32xf32>, !tilus.global<64x32xf32>
}

// nested scf.for loops carrying tiles: outer over row blocks carrying a column max, inner over k carrying a sum
tilus.kernel @nested_for(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f32>)
    warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "nested_for_ref"} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %c4 = arith.constant 4 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e30 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<4x64x64xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<1x64xf32>
  %m0 = tilus.register_tensor init(%ninf : f32) : !tilus.reg<1x64xf32>
  %res = scf.for %b = %c0 to %c4 step %c1 iter_args(%m = %m0) -> (!tilus.reg<1x64xf32>) : i32 {
    %s0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<16x64xf32>
    %s = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %s0) -> (!tilus.reg<16x64xf32>) : i32 {
      %t3 = tilus.load_global %gx[%b, %k, %c0] : !tilus.global<4x64x64xf16> -> !tilus.reg<1x16x64xf16>
      %t = tilus.reduce sum %t3 dim(0) : !tilus.reg<1x16x64xf16> -> !tilus.reg<16x64xf16>
      %f = tilus.cast %t : !tilus.reg<16x64xf16> to !tilus.reg<16x64xf32>
      %a2 = tilus.add %acc, %f : (!tilus.reg<16x64xf32>, !tilus.reg<16x64xf32>) -> !tilus.reg<16x64xf32>
      scf.yield %a2 : !tilus.reg<16x64xf32>
    }
    %cm = tilus.reduce max %s dim(0) keepdim : !tilus.reg<16x64xf32> -> !tilus.reg<1x64xf32>
    %m2 = tilus.maximum %m, %cm : (!tilus.reg<1x64xf32>, !tilus.reg<1x64xf32>) -> !tilus.reg<1x64xf32>
    scf.yield %m2 : !tilus.reg<1x64xf32>
  }
  tilus.store_global %res, %gy[%c0, %c0] : !tilus.reg<1x64xf32>, !tilus.global<1x64xf32>
}
tilus.kernel @nested_for_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<4x4x16x64xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<1x64xf32>
  %t = tilus.load_global %gx[%c0, %c0, %c0, %c0] : !tilus.global<4x4x16x64xf16> -> !tilus.reg<4x4x16x64xf16>
  %f = tilus.cast %t : !tilus.reg<4x4x16x64xf16> to !tilus.reg<4x4x16x64xf32>
  %s = tilus.reduce sum %f dim(1) : !tilus.reg<4x4x16x64xf32> -> !tilus.reg<4x16x64xf32>
  %m1 = tilus.reduce max %s dim(1) : !tilus.reg<4x16x64xf32> -> !tilus.reg<4x64xf32>
  %m = tilus.reduce max %m1 dim(0) keepdim : !tilus.reg<4x64xf32> -> !tilus.reg<1x64xf32>
  tilus.store_global %m, %gy[%c0, %c0] : !tilus.reg<1x64xf32>, !tilus.global<1x64xf32>
}

// slice_register of a (layout-less) wgmma accumulator and of a reduced tile; reduce on a slice
tilus.kernel @slice_dot(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f32>, %r: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["c", "r"], tilus.reference = "slice_dot_ref"} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<32x128xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<64x128xf32>
  %gr = tilus.global_view %r : !tilus.ptr<f32> -> !tilus.global<64x1xf32>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<32x128xf16> -> !tilus.reg<32x128xf16>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x128xf32>
  %d = tilus.dot %ra, %rb, %z : (!tilus.reg<64x32xf16>, !tilus.reg<32x128xf16>, !tilus.reg<64x128xf32>) -> !tilus.reg<64x128xf32>
  %lo = tilus.slice_register %d [0, 0] : !tilus.reg<64x128xf32> -> !tilus.reg<64x64xf32>
  %hi = tilus.slice_register %d [0, 64] : !tilus.reg<64x128xf32> -> !tilus.reg<64x64xf32>
  tilus.store_global %hi, %gc[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x128xf32>
  tilus.store_global %lo, %gc[%c0, %c64] : !tilus.reg<64x64xf32>, !tilus.global<64x128xf32>
  %m = tilus.reduce max %hi dim(1) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<64x1xf32>
  tilus.store_global %m, %gr[%c0, %c0] : !tilus.reg<64x1xf32>, !tilus.global<64x1xf32>
}
tilus.kernel @slice_dot_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f32>, %r: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["c", "r"]} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<32x128xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<64x128xf32>
  %gr = tilus.global_view %r : !tilus.ptr<f32> -> !tilus.global<64x1xf32>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %rb0 = tilus.load_global %gb[%c0, %c0] : !tilus.global<32x128xf16> -> !tilus.reg<32x64xf16>
  %rb1 = tilus.load_global %gb[%c0, %c64] : !tilus.global<32x128xf16> -> !tilus.reg<32x64xf16>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %d0 = tilus.dot %ra, %rb0, %z : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  %d1 = tilus.dot %ra, %rb1, %z : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %d1, %gc[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x128xf32>
  tilus.store_global %d0, %gc[%c0, %c64] : !tilus.reg<64x64xf32>, !tilus.global<64x128xf32>
  %m = tilus.reduce max %d1 dim(1) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<64x1xf32>
  tilus.store_global %m, %gr[%c0, %c0] : !tilus.reg<64x1xf32>, !tilus.global<64x1xf32>
}

// dot epilogues: column sums (reduce dim 0) and row max (dim 1) of the accumulator, a transposed
// store of it, and where(cond[M,1], x[1,N], 0) broadcasting all three operands
tilus.kernel @dot_epilogue(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %ct: !tilus.ptr<f32>, %cs: !tilus.ptr<f32>, %rm: !tilus.ptr<f32>, %w: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["ct", "cs", "rm", "w"], tilus.reference = "dot_epilogue_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<32x64xf16>
  %gct = tilus.global_view %ct : !tilus.ptr<f32> -> !tilus.global<64x64xf32, strides = [1, 64]>
  %gcs = tilus.global_view %cs : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %grm = tilus.global_view %rm : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gw = tilus.global_view %w : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<32x64xf16> -> !tilus.reg<32x64xf16>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %d = tilus.dot %ra, %rb, %z : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %d, %gct[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x64xf32, strides = [1, 64]>
  %s = tilus.reduce sum %d dim(0) : !tilus.reg<64x64xf32> -> !tilus.reg<64xf32>
  tilus.store_global %s, %gcs[%c0] : !tilus.reg<64xf32>, !tilus.global<64xf32>
  %m = tilus.reduce max %d dim(1) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<64x1xf32>
  %mv = tilus.reduce max %m dim(1) : !tilus.reg<64x1xf32> -> !tilus.reg<64xf32>
  tilus.store_global %mv, %grm[%c0] : !tilus.reg<64xf32>, !tilus.global<64xf32>
  %zt = tilus.register_tensor init(%zero : f32) : !tilus.reg<1x1xf32>
  %pos = tilus.cmp gt %m, %zt : (!tilus.reg<64x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x1xi1>
  %srow = tilus.reduce sum %d dim(0) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<1x64xf32>
  %ww = tilus.where %pos, %srow, %zt : (!tilus.reg<64x1xi1>, !tilus.reg<1x64xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %ww, %gw[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x64xf32>
}
tilus.kernel @dot_epilogue_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %ct: !tilus.ptr<f32>, %cs: !tilus.ptr<f32>, %rm: !tilus.ptr<f32>, %w: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["ct", "cs", "rm", "w"]} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<32x64xf16>
  %gct = tilus.global_view %ct : !tilus.ptr<f32> -> !tilus.global<64x64xf32, strides = [1, 64]>
  %gcs = tilus.global_view %cs : !tilus.ptr<f32> -> !tilus.global<1x64xf32>
  %grm = tilus.global_view %rm : !tilus.ptr<f32> -> !tilus.global<64x1xf32>
  %gw = tilus.global_view %w : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<32x64xf16> -> !tilus.reg<32x64xf16>
  %fa = tilus.cast %ra : !tilus.reg<64x32xf16> to !tilus.reg<64x32xf32>
  %fb = tilus.cast %rb : !tilus.reg<32x64xf16> to !tilus.reg<32x64xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %d = tilus.dot %fa, %fb, %z : (!tilus.reg<64x32xf32>, !tilus.reg<32x64xf32>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %d, %gct[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x64xf32, strides = [1, 64]>
  %s = tilus.reduce sum %d dim(0) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<1x64xf32>
  tilus.store_global %s, %gcs[%c0, %c0] : !tilus.reg<1x64xf32>, !tilus.global<1x64xf32>
  %m = tilus.reduce max %d dim(1) keepdim : !tilus.reg<64x64xf32> -> !tilus.reg<64x1xf32>
  tilus.store_global %m, %grm[%c0, %c0] : !tilus.reg<64x1xf32>, !tilus.global<64x1xf32>
  %zt = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %ones = arith.constant 1.0 : f32
  %mb = tilus.add %zt, %m : (!tilus.reg<64x64xf32>, !tilus.reg<64x1xf32>) -> !tilus.reg<64x64xf32>
  %sb = tilus.add %zt, %s : (!tilus.reg<64x64xf32>, !tilus.reg<1x64xf32>) -> !tilus.reg<64x64xf32>
  %pos = tilus.cmp gt %mb, %zt : (!tilus.reg<64x64xf32>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xi1>
  %ww = tilus.where %pos, %sb, %zt : (!tilus.reg<64x64xi1>, !tilus.reg<64x64xf32>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %ww, %gw[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x64xf32>
}

// store_shared of a computed [32, 128] f32 tile into a refined [32, 2, 64] view (boxes of 64
// columns), then load_shared back as [32, 128] from the same refined view and as one box
tilus.kernel @shared_refine(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "shared_refine_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x128xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x128xf32>
  %gz = tilus.global_view %z : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x128xf32> -> !tilus.reg<32x128xf32>
  %e = tilus.exp %t : !tilus.reg<32x128xf32>
  %s = tilus.shared_tensor : !tilus.shared<2x32x64xf32>
  %v = tilus.permute_shared %s [1, 0, 2] : !tilus.shared<2x32x64xf32> -> !tilus.shared<32x2x64xf32, strides = [64, 2048, 1]>
  tilus.store_shared %e, %v : !tilus.reg<32x128xf32>, !tilus.shared<32x2x64xf32, strides = [64, 2048, 1]>
  threadgroup.sync
  %back = tilus.load_shared %v : !tilus.shared<32x2x64xf32, strides = [64, 2048, 1]> -> !tilus.reg<32x128xf32>
  tilus.store_global %back, %gy[%c0, %c0] : !tilus.reg<32x128xf32>, !tilus.global<32x128xf32>
  %box = tilus.slice_shared %s[%c1] : !tilus.shared<2x32x64xf32> -> !tilus.shared<32x64xf32>
  %b1 = tilus.load_shared %box : !tilus.shared<32x64xf32> -> !tilus.reg<32x64xf32>
  tilus.store_global %b1, %gz[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
}
tilus.kernel @shared_refine_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x128xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x128xf32>
  %gz = tilus.global_view %z : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x128xf32> -> !tilus.reg<32x128xf32>
  %e = tilus.exp %t : !tilus.reg<32x128xf32>
  tilus.store_global %e, %gy[%c0, %c0] : !tilus.reg<32x128xf32>, !tilus.global<32x128xf32>
  %t2 = tilus.load_global %gx[%c0, %c64] : !tilus.global<32x128xf32> -> !tilus.reg<32x64xf32>
  %e2 = tilus.exp %t2 : !tilus.reg<32x64xf32>
  tilus.store_global %e2, %gz[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
}

// f16 tile through a 128B-swizzled shared buffer, read back transposed through permute_shared
tilus.kernel @swizzle(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %z: !tilus.ptr<f16>)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "swizzle_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gz = tilus.global_view %z : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<64x64xf16>
  %s = tilus.shared_tensor : !tilus.shared<64x64xf16, swizzle = 128B>
  tilus.store_shared %t, %s : !tilus.reg<64x64xf16>, !tilus.shared<64x64xf16, swizzle = 128B>
  threadgroup.sync
  %u = tilus.load_shared %s : !tilus.shared<64x64xf16, swizzle = 128B> -> !tilus.reg<64x64xf16>
  %n = tilus.neg %u : !tilus.reg<64x64xf16>
  tilus.store_global %n, %gy[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16>
  %p = tilus.permute_shared %s [1, 0] : !tilus.shared<64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, strides = [1, 64], swizzle = 128B>
  %v = tilus.load_shared %p : !tilus.shared<64x64xf16, strides = [1, 64], swizzle = 128B> -> !tilus.reg<64x64xf16>
  tilus.store_global %v, %gz[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16>
}
tilus.kernel @swizzle_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %z: !tilus.ptr<f16>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gxt = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<64x64xf16, strides = [1, 64]>
  %gy = tilus.global_view %y : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gz = tilus.global_view %z : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<64x64xf16>
  %n = tilus.neg %t : !tilus.reg<64x64xf16>
  tilus.store_global %n, %gy[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16>
  %tt = tilus.load_global %gxt[%c0, %c0] : !tilus.global<64x64xf16, strides = [1, 64]> -> !tilus.reg<64x64xf16>
  tilus.store_global %tt, %gz[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16>
}

// unary math and float mod across dtypes: f32 and f64 mod, f16 exp2/log/sqrt/tanh, i64 abs/neg
tilus.kernel @math(%x: !tilus.ptr<f32>, %h: !tilus.ptr<f16>, %d: !tilus.ptr<f64>, %l: !tilus.ptr<i64>,
                %ym: !tilus.ptr<f32>, %yh: !tilus.ptr<f16>, %yd: !tilus.ptr<f64>, %yl: !tilus.ptr<i64>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (1)>)
    attributes {tilus.outputs = ["ym", "yh", "yd", "yl"], tilus.reference = "math_ref"} {
  %c0 = arith.constant 0 : i32
  %q = arith.constant 0.3 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gh = tilus.global_view %h : !tilus.ptr<f16> -> !tilus.global<64xf16>
  %gd = tilus.global_view %d : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %gl = tilus.global_view %l : !tilus.ptr<i64> -> !tilus.global<64xi64>
  %gym = tilus.global_view %ym : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gyh = tilus.global_view %yh : !tilus.ptr<f16> -> !tilus.global<64xf16>
  %gyd = tilus.global_view %yd : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %gyl = tilus.global_view %yl : !tilus.ptr<i64> -> !tilus.global<64xi64>
  %tx = tilus.load_global %gx[%c0] : !tilus.global<64xf32> -> !tilus.reg<64xf32>
  %qt = tilus.register_tensor init(%q : f32) : !tilus.reg<1xf32>
  %m = tilus.mod %tx, %qt : (!tilus.reg<64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64xf32>
  tilus.store_global %m, %gym[%c0] : !tilus.reg<64xf32>, !tilus.global<64xf32>
  %th = tilus.load_global %gh[%c0] : !tilus.global<64xf16> -> !tilus.reg<64xf16>
  %a = tilus.abs %th : !tilus.reg<64xf16>
  %e2 = tilus.exp2 %th : !tilus.reg<64xf16>
  %lg = tilus.log %e2 : !tilus.reg<64xf16>
  %sq = tilus.sqrt %a : !tilus.reg<64xf16>
  %th2 = tilus.tanh %sq : !tilus.reg<64xf16>
  %sh = tilus.add %lg, %th2 : (!tilus.reg<64xf16>, !tilus.reg<64xf16>) -> !tilus.reg<64xf16>
  tilus.store_global %sh, %gyh[%c0] : !tilus.reg<64xf16>, !tilus.global<64xf16>
  %td = tilus.load_global %gd[%c0] : !tilus.global<64xf64> -> !tilus.reg<64xf64>
  %ed = tilus.mul %td, %td : (!tilus.reg<64xf64>, !tilus.reg<64xf64>) -> !tilus.reg<64xf64>
  %qd = arith.constant 0.25 : f64
  %qdt = tilus.register_tensor init(%qd : f64) : !tilus.reg<1xf64>
  %rd = tilus.mod %ed, %qdt : (!tilus.reg<64xf64>, !tilus.reg<1xf64>) -> !tilus.reg<64xf64>
  tilus.store_global %rd, %gyd[%c0] : !tilus.reg<64xf64>, !tilus.global<64xf64>
  %tl = tilus.load_global %gl[%c0] : !tilus.global<64xi64> -> !tilus.reg<64xi64>
  %al = tilus.abs %tl : !tilus.reg<64xi64>
  %nl = tilus.neg %al : !tilus.reg<64xi64>
  tilus.store_global %nl, %gyl[%c0] : !tilus.reg<64xi64>, !tilus.global<64xi64>
}
tilus.kernel @math_ref(%x: !tilus.ptr<f32>, %h: !tilus.ptr<f16>, %d: !tilus.ptr<f64>, %l: !tilus.ptr<i64>,
                %ym: !tilus.ptr<f32>, %yh: !tilus.ptr<f16>, %yd: !tilus.ptr<f64>, %yl: !tilus.ptr<i64>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (1)>)
    attributes {tilus.outputs = ["ym", "yh", "yd", "yl"]} {
  %c0 = arith.constant 0 : i32
  %q = arith.constant 0.3 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gh = tilus.global_view %h : !tilus.ptr<f16> -> !tilus.global<64xf16>
  %gd = tilus.global_view %d : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %gl = tilus.global_view %l : !tilus.ptr<i64> -> !tilus.global<64xi64>
  %gym = tilus.global_view %ym : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gyh = tilus.global_view %yh : !tilus.ptr<f16> -> !tilus.global<64xf16>
  %gyd = tilus.global_view %yd : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %gyl = tilus.global_view %yl : !tilus.ptr<i64> -> !tilus.global<64xi64>
  %tx = tilus.load_global %gx[%c0] : !tilus.global<64xf32> -> !tilus.reg<64xf32>
  %qt = tilus.register_tensor init(%q : f32) : !tilus.reg<64xf32>
  %dv = tilus.div %tx, %qt : (!tilus.reg<64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64xf32>
  %di = tilus.cast %dv : !tilus.reg<64xf32> to !tilus.reg<64xi32>
  %df = tilus.cast %di : !tilus.reg<64xi32> to !tilus.reg<64xf32>
  %pq = tilus.mul %df, %qt : (!tilus.reg<64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64xf32>
  %m = tilus.sub %tx, %pq : (!tilus.reg<64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64xf32>
  tilus.store_global %m, %gym[%c0] : !tilus.reg<64xf32>, !tilus.global<64xf32>
  %th = tilus.load_global %gh[%c0] : !tilus.global<64xf16> -> !tilus.reg<64xf16>
  %e2 = tilus.exp2 %th : !tilus.reg<64xf16>
  %lg = tilus.log %e2 : !tilus.reg<64xf16>
  %n = tilus.neg %th : !tilus.reg<64xf16>
  %a = tilus.maximum %th, %n : (!tilus.reg<64xf16>, !tilus.reg<64xf16>) -> !tilus.reg<64xf16>
  %sq = tilus.sqrt %a : !tilus.reg<64xf16>
  %th2 = tilus.tanh %sq : !tilus.reg<64xf16>
  %sh = tilus.add %th2, %lg : (!tilus.reg<64xf16>, !tilus.reg<64xf16>) -> !tilus.reg<64xf16>
  tilus.store_global %sh, %gyh[%c0] : !tilus.reg<64xf16>, !tilus.global<64xf16>
  %td = tilus.load_global %gd[%c0] : !tilus.global<64xf64> -> !tilus.reg<64xf64>
  %ed = tilus.mul %td, %td : (!tilus.reg<64xf64>, !tilus.reg<64xf64>) -> !tilus.reg<64xf64>
  %qd = arith.constant 0.25 : f64
  %qdt = tilus.register_tensor init(%qd : f64) : !tilus.reg<64xf64>
  %dd = tilus.div %ed, %qdt : (!tilus.reg<64xf64>, !tilus.reg<64xf64>) -> !tilus.reg<64xf64>
  %ddi = tilus.cast %dd : !tilus.reg<64xf64> to !tilus.reg<64xi32>
  %ddf = tilus.cast %ddi : !tilus.reg<64xi32> to !tilus.reg<64xf64>
  %pd = tilus.mul %ddf, %qdt : (!tilus.reg<64xf64>, !tilus.reg<64xf64>) -> !tilus.reg<64xf64>
  %rd = tilus.sub %ed, %pd : (!tilus.reg<64xf64>, !tilus.reg<64xf64>) -> !tilus.reg<64xf64>
  tilus.store_global %rd, %gyd[%c0] : !tilus.reg<64xf64>, !tilus.global<64xf64>
  %tl = tilus.load_global %gl[%c0] : !tilus.global<64xi64> -> !tilus.reg<64xi64>
  %zl = arith.constant 0 : i64
  %z = tilus.register_tensor init(%zl : i64) : !tilus.reg<64xi64>
  %nl0 = tilus.sub %z, %tl : (!tilus.reg<64xi64>, !tilus.reg<64xi64>) -> !tilus.reg<64xi64>
  %mn = tilus.minimum %tl, %nl0 : (!tilus.reg<64xi64>, !tilus.reg<64xi64>) -> !tilus.reg<64xi64>
  tilus.store_global %mn, %gyl[%c0] : !tilus.reg<64xi64>, !tilus.global<64xi64>
}

// views with a leading dimension (strides [ld, 1]), a strided inner dimension (every other
// element, strides [?, 2]) row sums and element-wise
tilus.kernel @strided_views(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f32>, %m: i32, %ld: i32)
    warps(2) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>)
    attributes {tilus.args = {m = 20 : i32, ld = 80 : i32}, tilus.outputs = ["y", "z"], tilus.reference = "strided_views_ref"} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %gx = tilus.global_view %x[%m, %c32] strides[%ld] : !tilus.ptr<f32> -> !tilus.global<?x?xf32, strides = [?, 1]>
  %gxs = tilus.global_view %x[%m, %c32] strides[%ld] : !tilus.ptr<f32> -> !tilus.global<?x?xf32, strides = [?, 2]>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f32> -> !tilus.global<?x1xf32>
  %a = tilus.load_global %gx[%c0, %c0] : !tilus.global<?x?xf32, strides = [?, 1]> -> !tilus.reg<32x32xf32>
  %b = tilus.load_global %gxs[%c0, %c0] : !tilus.global<?x?xf32, strides = [?, 2]> -> !tilus.reg<32x32xf32>
  %s = tilus.add %a, %b : (!tilus.reg<32x32xf32>, !tilus.reg<32x32xf32>) -> !tilus.reg<32x32xf32>
  %r = tilus.reduce sum %s dim(1) keepdim : !tilus.reg<32x32xf32> -> !tilus.reg<32x1xf32>
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<32x1xf32>, !tilus.global<?x1xf32>
  %e = tilus.exp %s : !tilus.reg<32x32xf32>
  %gzt = tilus.global_view %z[%m, %c32] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  tilus.store_global %e, %gzt[%c0, %c0] : !tilus.reg<32x32xf32>, !tilus.global<?x?xf32>
}
tilus.kernel @strided_views_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<f32>, %m: i32, %ld: i32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d3)>)
    attributes {tilus.args = {m = 20 : i32, ld = 80 : i32}, tilus.outputs = ["y", "z"]} {
  %i = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %gx = tilus.global_view %x[%m, %c32] strides[%ld] : !tilus.ptr<f32> -> !tilus.global<?x?xf32, strides = [?, 1]>
  %gxs = tilus.global_view %x[%m, %c32] strides[%ld] : !tilus.ptr<f32> -> !tilus.global<?x?xf32, strides = [?, 2]>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f32> -> !tilus.global<?x1xf32>
  %gz = tilus.global_view %z[%m, %c32] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %a = tilus.load_global %gx[%i, %c0] : !tilus.global<?x?xf32, strides = [?, 1]> -> !tilus.reg<1x32xf32>
  %b = tilus.load_global %gxs[%i, %c0] : !tilus.global<?x?xf32, strides = [?, 2]> -> !tilus.reg<1x32xf32>
  %s = tilus.add %b, %a : (!tilus.reg<1x32xf32>, !tilus.reg<1x32xf32>) -> !tilus.reg<1x32xf32>
  %r = tilus.reduce sum %s dim(1) keepdim : !tilus.reg<1x32xf32> -> !tilus.reg<1x1xf32>
  tilus.store_global %r, %gy[%i, %c0] : !tilus.reg<1x1xf32>, !tilus.global<?x1xf32>
  %e = tilus.exp %s : !tilus.reg<1x32xf32>
  tilus.store_global %e, %gz[%i, %c0] : !tilus.reg<1x32xf32>, !tilus.global<?x?xf32>
}

// tiled GEMM without layouts: 8 warps, 128x64 tiles, K loop of 32 with the next tiles' loads,
// masked edges (m=200, n=100, k=96), epilogue: bias row, tanh-GELU-like, f16 store
tilus.kernel @gemm_epilogue(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %bias: !tilus.ptr<f32>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(8) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4 ceildiv 128, d5 ceildiv 64)>)
    attributes {tilus.args = {m = 200 : i32, n = 100 : i32, k = 96 : i32}, tilus.outputs = ["c"], tilus.reference = "gemm_epilogue_ref"} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %om = arith.muli %bx, %c128 : i32
  %on = arith.muli %by, %c64 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%k, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gbias = tilus.global_view %bias[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x64xf32>
  %a0 = tilus.load_global %ga[%om, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<128x32xf16>
  %b0 = tilus.load_global %gb[%c0, %on] : !tilus.global<?x?xf16> -> !tilus.reg<32x64xf16>
  %res:3 = scf.for %kk = %c0 to %k step %c32 iter_args(%acc = %acc0, %ra = %a0, %rb = %b0) -> (!tilus.reg<128x64xf32>, !tilus.reg<128x32xf16>, !tilus.reg<32x64xf16>) : i32 {
    %kn = arith.addi %kk, %c32 : i32
    %na = tilus.load_global %ga[%om, %kn] : !tilus.global<?x?xf16> -> !tilus.reg<128x32xf16>
    %nb = tilus.load_global %gb[%kn, %on] : !tilus.global<?x?xf16> -> !tilus.reg<32x64xf16>
    %d = tilus.dot %ra, %rb, %acc : (!tilus.reg<128x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<128x64xf32>) -> !tilus.reg<128x64xf32>
    scf.yield %d, %na, %nb : !tilus.reg<128x64xf32>, !tilus.reg<128x32xf16>, !tilus.reg<32x64xf16>
  }
  %bv = tilus.load_global %gbias[%on] : !tilus.global<?xf32> -> !tilus.reg<64xf32>
  %x = tilus.add %res#0, %bv : (!tilus.reg<128x64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<128x64xf32>
  %th = tilus.tanh %x : !tilus.reg<128x64xf32>
  %o = tilus.register_tensor init(%one : f32) : !tilus.reg<1x1xf32>
  %h = tilus.register_tensor init(%half : f32) : !tilus.reg<1x1xf32>
  %t1 = tilus.add %th, %o : (!tilus.reg<128x64xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<128x64xf32>
  %t2 = tilus.mul %t1, %h : (!tilus.reg<128x64xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<128x64xf32>
  %g = tilus.mul %x, %t2 : (!tilus.reg<128x64xf32>, !tilus.reg<128x64xf32>) -> !tilus.reg<128x64xf32>
  %gh = tilus.cast %g : !tilus.reg<128x64xf32> to !tilus.reg<128x64xf16>
  tilus.store_global %gh, %gc[%om, %on] : !tilus.reg<128x64xf16>, !tilus.global<?x?xf16>
}
tilus.kernel @gemm_epilogue_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %bias: !tilus.ptr<f32>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(2) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4 ceildiv 16)>)
    attributes {tilus.args = {m = 200 : i32, n = 100 : i32, k = 96 : i32}, tilus.outputs = ["c"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %bx = tilus.block_id x
  %om = arith.muli %bx, %c16 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%k, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gbias = tilus.global_view %bias[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<16x128xf32>
  %acc = scf.for %kk = %c0 to %k step %c1 iter_args(%s = %acc0) -> (!tilus.reg<16x128xf32>) : i32 {
    %col = tilus.load_global %ga[%om, %kk] : !tilus.global<?x?xf16> -> !tilus.reg<16x1xf16>
    %row = tilus.load_global %gb[%kk, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<1x128xf16>
    %cf = tilus.cast %col : !tilus.reg<16x1xf16> to !tilus.reg<16x1xf32>
    %rf = tilus.cast %row : !tilus.reg<1x128xf16> to !tilus.reg<1x128xf32>
    %p = tilus.mul %cf, %rf : (!tilus.reg<16x1xf32>, !tilus.reg<1x128xf32>) -> !tilus.reg<16x128xf32>
    %s2 = tilus.add %s, %p : (!tilus.reg<16x128xf32>, !tilus.reg<16x128xf32>) -> !tilus.reg<16x128xf32>
    scf.yield %s2 : !tilus.reg<16x128xf32>
  }
  %bv = tilus.load_global %gbias[%c0] : !tilus.global<?xf32> -> !tilus.reg<128xf32>
  %x = tilus.add %acc, %bv : (!tilus.reg<16x128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<16x128xf32>
  %th = tilus.tanh %x : !tilus.reg<16x128xf32>
  %o = tilus.register_tensor init(%one : f32) : !tilus.reg<16x128xf32>
  %h = tilus.register_tensor init(%half : f32) : !tilus.reg<16x128xf32>
  %t1 = tilus.add %o, %th : (!tilus.reg<16x128xf32>, !tilus.reg<16x128xf32>) -> !tilus.reg<16x128xf32>
  %t2 = tilus.mul %h, %t1 : (!tilus.reg<16x128xf32>, !tilus.reg<16x128xf32>) -> !tilus.reg<16x128xf32>
  %g = tilus.mul %t2, %x : (!tilus.reg<16x128xf32>, !tilus.reg<16x128xf32>) -> !tilus.reg<16x128xf32>
  %gh = tilus.cast %g : !tilus.reg<16x128xf32> to !tilus.reg<16x128xf16>
  tilus.store_global %gh, %gc[%om, %c0] : !tilus.reg<16x128xf16>, !tilus.global<?x?xf16>
}

// dots with f16 / bf16 accumulators (the SIMT path accumulates in f32 and rounds once), c loaded from global
tilus.kernel @dot_half_acc(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %p: !tilus.ptr<bf16>, %q: !tilus.ptr<bf16>, %r: !tilus.ptr<bf16>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["c", "r"], tilus.reference = "dot_half_acc_ref"} {
  %c0 = arith.constant 0 : i32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<32x64xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gp = tilus.global_view %p : !tilus.ptr<bf16> -> !tilus.global<16x16xbf16>
  %gq = tilus.global_view %q : !tilus.ptr<bf16> -> !tilus.global<16x8xbf16>
  %gr = tilus.global_view %r : !tilus.ptr<bf16> -> !tilus.global<16x8xbf16>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<32x64xf16> -> !tilus.reg<32x64xf16>
  %rc = tilus.load_global %gc[%c0, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<64x64xf16>
  %d = tilus.dot %ra, %rb, %rc : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf16>) -> !tilus.reg<64x64xf16>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16>
  %rp = tilus.load_global %gp[%c0, %c0] : !tilus.global<16x16xbf16> -> !tilus.reg<16x16xbf16>
  %rq = tilus.load_global %gq[%c0, %c0] : !tilus.global<16x8xbf16> -> !tilus.reg<16x8xbf16>
  %rr = tilus.load_global %gr[%c0, %c0] : !tilus.global<16x8xbf16> -> !tilus.reg<16x8xbf16>
  %e = tilus.dot %rp, %rq, %rr : (!tilus.reg<16x16xbf16>, !tilus.reg<16x8xbf16>, !tilus.reg<16x8xbf16>) -> !tilus.reg<16x8xbf16>
  tilus.store_global %e, %gr[%c0, %c0] : !tilus.reg<16x8xbf16>, !tilus.global<16x8xbf16>
}
tilus.kernel @dot_half_acc_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %p: !tilus.ptr<bf16>, %q: !tilus.ptr<bf16>, %r: !tilus.ptr<bf16>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["c", "r"]} {
  %c0 = arith.constant 0 : i32
  %ga = tilus.global_view %a : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gb = tilus.global_view %b : !tilus.ptr<f16> -> !tilus.global<32x64xf16>
  %gc = tilus.global_view %c : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %gp = tilus.global_view %p : !tilus.ptr<bf16> -> !tilus.global<16x16xbf16>
  %gq = tilus.global_view %q : !tilus.ptr<bf16> -> !tilus.global<16x8xbf16>
  %gr = tilus.global_view %r : !tilus.ptr<bf16> -> !tilus.global<16x8xbf16>
  %ra = tilus.load_global %ga[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %rb = tilus.load_global %gb[%c0, %c0] : !tilus.global<32x64xf16> -> !tilus.reg<32x64xf16>
  %rc = tilus.load_global %gc[%c0, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<64x64xf16>
  %fc = tilus.cast %rc : !tilus.reg<64x64xf16> to !tilus.reg<64x64xf32>
  %d = tilus.dot %ra, %rb, %fc : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  %dh = tilus.cast %d : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
  tilus.store_global %dh, %gc[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16>
  %rp = tilus.load_global %gp[%c0, %c0] : !tilus.global<16x16xbf16> -> !tilus.reg<16x16xbf16>
  %rq = tilus.load_global %gq[%c0, %c0] : !tilus.global<16x8xbf16> -> !tilus.reg<16x8xbf16>
  %rr = tilus.load_global %gr[%c0, %c0] : !tilus.global<16x8xbf16> -> !tilus.reg<16x8xbf16>
  %fr = tilus.cast %rr : !tilus.reg<16x8xbf16> to !tilus.reg<16x8xf32>
  %e = tilus.dot %rp, %rq, %fr : (!tilus.reg<16x16xbf16>, !tilus.reg<16x8xbf16>, !tilus.reg<16x8xf32>) -> !tilus.reg<16x8xf32>
  %eh = tilus.cast %e : !tilus.reg<16x8xf32> to !tilus.reg<16x8xbf16>
  tilus.store_global %eh, %gr[%c0, %c0] : !tilus.reg<16x8xbf16>, !tilus.global<16x8xbf16>
}
