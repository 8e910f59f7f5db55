// infer-layouts: every register tensor of a kernel gets a layout, written into its type. One
// kernel per anchor kind and propagation case.
// RUN: tilus-opt %s --split-input-file --infer-layouts | FileCheck %s

// A global load is an anchor: 16-byte vectors along the row (8 f16), lanes along the row,
// warps over the rows. The f32 cast and the f16 store get the same thread mapping (not a
// 4-element f32 default): nothing to convert.
// CHECK-LABEL: tilus.kernel @mixed_precision
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<4x256xf16, layout = spatial(4, 32) * local(1, 8)>
// CHECK:         tilus.cast {{.*}} to !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
// CHECK:         tilus.exp {{.*}} : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
// CHECK-NOT:     layout.convert
// CHECK:         tilus.store_global {{.*}} : !tilus.reg<4x256xf16, layout = spatial(4, 32) * local(1, 8)>
tilus.kernel @mixed_precision(%p: !tilus.ptr<f16>, %q: !tilus.ptr<f16>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %g = tilus.global_view %p : !tilus.ptr<f16> -> !tilus.global<4x256xf16>
  %h = tilus.global_view %q : !tilus.ptr<f16> -> !tilus.global<4x256xf16>
  %a = tilus.load_global %g[%c0, %c0] : !tilus.global<4x256xf16> -> !tilus.reg<4x256xf16>
  %b = tilus.cast %a : !tilus.reg<4x256xf16> to !tilus.reg<4x256xf32>
  %e = tilus.exp %b : !tilus.reg<4x256xf32>
  %c = tilus.cast %e : !tilus.reg<4x256xf32> to !tilus.reg<4x256xf16>
  tilus.store_global %c, %h[%c0, %c0] : !tilus.reg<4x256xf16>, !tilus.global<4x256xf16>
}

// -----

// A layout the user wrote is kept, and everything tied to it follows it.
// CHECK-LABEL: tilus.kernel @written
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<32x32xf32, layout = local(1, 32) * spatial(32, 1)>
// CHECK:         tilus.mul {{.*}} -> !tilus.reg<32x32xf32, layout = local(1, 32) * spatial(32, 1)>
tilus.kernel @written(%p: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %g = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %a = tilus.load_global %g[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
  %b = tilus.mul %a, %a : (!tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>, !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>) -> !tilus.reg<32x32xf32>
  tilus.store_global %b, %g[%c0, %c0] : !tilus.reg<32x32xf32>, !tilus.global<32x32xf32>
}

// -----

// A reduction: warps go to the dimension that is not reduced, so each row's sum stays in one
// warp (shuffles, no shared memory); the result is the input's layout reduced, and the
// [8, 1] broadcast back over the row moves no data.
// CHECK-LABEL: tilus.kernel @row_reduce
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<8x512xf32, layout = spatial(4, 1) * local(2, 4) * spatial(1, 32) * local(1, 4)>
// CHECK:         tilus.reduce max {{.*}} -> !tilus.reg<8x1xf32, layout = spatial(4, 1) * local(2, 1) * replicate(32)>
// CHECK:         tilus.sub {{.*}} -> !tilus.reg<8x512xf32, layout = spatial(4, 1) * local(2, 4) * spatial(1, 32) * local(1, 4)>
// CHECK-NOT:     layout.convert
tilus.kernel @row_reduce(%p: !tilus.ptr<f32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %g = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<8x512xf32>
  %a = tilus.load_global %g[%c0, %c0] : !tilus.global<8x512xf32> -> !tilus.reg<8x512xf32>
  %m = tilus.reduce max %a dim(1) keepdim : !tilus.reg<8x512xf32> -> !tilus.reg<8x1xf32>
  %d = tilus.sub %a, %m : (!tilus.reg<8x512xf32>, !tilus.reg<8x1xf32>) -> !tilus.reg<8x512xf32>
  tilus.store_global %d, %g[%c0, %c0] : !tilus.reg<8x512xf32>, !tilus.global<8x512xf32>
}

// -----

// A row vector broadcast over rows: its load takes the tile's layout with the row digits
// replicated (a broadcast operand follows the result), and a splat scalar is replicated over
// every thread.
// CHECK-LABEL: tilus.kernel @broadcast
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<16x128xf32, layout = spatial(4, 32) * local(4, 4)>
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>
// CHECK:         tilus.register_tensor init({{.*}}) : !tilus.reg<1x1xf32, layout = replicate(128) * local(1, 1)>
// CHECK-NOT:     layout.convert
tilus.kernel @broadcast(%p: !tilus.ptr<f32>, %q: !tilus.ptr<f32>, %s: f32) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %g = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<16x128xf32>
  %v = tilus.global_view %q : !tilus.ptr<f32> -> !tilus.global<128xf32>
  %a = tilus.load_global %g[%c0, %c0] : !tilus.global<16x128xf32> -> !tilus.reg<16x128xf32>
  %w = tilus.load_global %v[%c0] : !tilus.global<128xf32> -> !tilus.reg<128xf32>
  %k = tilus.register_tensor init(%s : f32) : !tilus.reg<1x1xf32>
  %b = tilus.mul %a, %w : (!tilus.reg<16x128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<16x128xf32>
  %c = tilus.mul %b, %k : (!tilus.reg<16x128xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<16x128xf32>
  tilus.store_global %c, %g[%c0, %c0] : !tilus.reg<16x128xf32>, !tilus.global<16x128xf32>
}

// -----

// scf.for: the init, the iter_arg, the yielded value and the result share one layout, taken
// from the load in the body; scf.if results likewise.
// CHECK-LABEL: tilus.kernel @loops
// CHECK:         tilus.register_tensor init({{.*}}) : !tilus.reg<2x256xf32, layout = spatial(2, 2) * spatial(1, 32) * local(1, 4)>
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (!tilus.reg<2x256xf32, layout = spatial(2, 2) * spatial(1, 32) * local(1, 4)>)
// CHECK:           tilus.load_global {{.*}} -> !tilus.reg<2x256xf32, layout = spatial(2, 2) * spatial(1, 32) * local(1, 4)>
// CHECK:         scf.if {{.*}} -> (!tilus.reg<2x256xf32, layout = spatial(2, 2) * spatial(1, 32) * local(1, 4)>)
tilus.kernel @loops(%p: !tilus.ptr<f32>, %n: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %g = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<2x256xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<2x256xf32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (!tilus.reg<2x256xf32>) : i32 {
    %t = tilus.load_global %g[%c0, %c0] : !tilus.global<2x256xf32> -> !tilus.reg<2x256xf32>
    %s = tilus.add %a, %t : (!tilus.reg<2x256xf32>, !tilus.reg<2x256xf32>) -> !tilus.reg<2x256xf32>
    scf.yield %s : !tilus.reg<2x256xf32>
  }
  %cond = arith.cmpi sgt, %n, %c0 : i32
  %r = scf.if %cond -> (!tilus.reg<2x256xf32>) {
    scf.yield %acc : !tilus.reg<2x256xf32>
  } else {
    scf.yield %z : !tilus.reg<2x256xf32>
  }
  tilus.store_global %r, %g[%c0, %c0] : !tilus.reg<2x256xf32>, !tilus.global<2x256xf32>
}

// -----

// Two anchors that disagree (a row-major load, a store through a transposed view): one
// layout.convert, on the cheapest edge between them: the f16 value before the store, not the
// f32 values (half the bytes). Along the transposed view each thread takes 4 adjacent columns
// of 8 rows (column_local(8, 4)), so the conversion reads 4 columns of a row at once.
// CHECK-LABEL: tilus.kernel @cheapest
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<64x64xf16, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 8)>
// CHECK:         tilus.exp {{.*}} : !tilus.reg<64x64xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 8)>
// CHECK:         tilus.cast {{.*}} to !tilus.reg<64x64xf16, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 8)>
// CHECK-NEXT:    layout.convert {{.*}} to !tilus.reg<64x64xf16, layout = spatial(1, 4) * column_spatial(8, 4) * column_local(8, 4)>
// CHECK-NEXT:    tilus.store_global
tilus.kernel @cheapest(%p: !tilus.ptr<f16>, %q: !tilus.ptr<f16>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %g = tilus.global_view %p : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %h = tilus.global_view %q strides[%c64] : !tilus.ptr<f16> -> !tilus.global<64x64xf16, strides = [1, ?]>
  %a = tilus.load_global %g[%c0, %c0] : !tilus.global<64x64xf16> -> !tilus.reg<64x64xf16>
  %b = tilus.cast %a : !tilus.reg<64x64xf16> to !tilus.reg<64x64xf32>
  %e = tilus.exp %b : !tilus.reg<64x64xf32>
  %c = tilus.cast %e : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
  tilus.store_global %c, %h[%c0, %c0] : !tilus.reg<64x64xf16>, !tilus.global<64x64xf16, strides = [1, ?]>
}

// -----

// A reduction whose result class is fixed by a written layout elsewhere: the reduction
// computes in its input's layout and a convert after it gives the written one.
// CHECK-LABEL: tilus.kernel @reduce_then_convert
// CHECK:         %[[R:.*]] = tilus.reduce sum {{.*}} -> !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>
// CHECK-NEXT:    %[[C:.*]] = layout.convert %[[R]] {{.*}} to !tilus.reg<128xf32, layout = spatial(128)>
// CHECK:         tilus.add %[[C]]
tilus.kernel @reduce_then_convert(%p: !tilus.ptr<f32>, %q: !tilus.ptr<f32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %g = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<16x128xf32>
  %v = tilus.global_view %q : !tilus.ptr<f32> -> !tilus.global<128xf32>
  %a = tilus.load_global %g[%c0, %c0] : !tilus.global<16x128xf32> -> !tilus.reg<16x128xf32>
  %s = tilus.reduce sum %a dim(0) : !tilus.reg<16x128xf32> -> !tilus.reg<128xf32>
  %w = tilus.load_global %v[%c0] : !tilus.global<128xf32> -> !tilus.reg<128xf32, layout = spatial(128)>
  %t = tilus.add %s, %w : (!tilus.reg<128xf32>, !tilus.reg<128xf32, layout = spatial(128)>) -> !tilus.reg<128xf32, layout = spatial(128)>
  tilus.store_global %t, %v[%c0] : !tilus.reg<128xf32, layout = spatial(128)>, !tilus.global<128xf32>
}

// -----

// tilus.dot: the result and c take the dot anchor; shuffles keep the layout the interpreter
// gives a tile without one, since which lane is next door is their meaning.
// CHECK-LABEL: tilus.kernel @dot_and_shuffle
// CHECK:         tilus.dot {{.*}} -> !tilus.reg<16x16xf32, layout = local(2, 1) * spatial(8, 4) * local(1, 4)>
// CHECK:         tilus.shuffle_up {{.*}} : !tilus.reg<32xf32, layout = replicate(4) * spatial(8) * local(4)>
tilus.kernel @dot_and_shuffle(%p: !tilus.ptr<f32>, %s: f32) warps(1) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %g = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<16x16xf32>
  %v = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %a = tilus.load_global %g[%c0, %c0] : !tilus.global<16x16xf32> -> !tilus.reg<16x16xf32>
  %c = tilus.register_tensor init(%s : f32) : !tilus.reg<16x16xf32>
  %d = tilus.dot %a, %a, %c : (!tilus.reg<16x16xf32>, !tilus.reg<16x16xf32>, !tilus.reg<16x16xf32>) -> !tilus.reg<16x16xf32>
  tilus.store_global %d, %g[%c0, %c0] : !tilus.reg<16x16xf32>, !tilus.global<16x16xf32>
  %x = tilus.load_global %v[%c0] : !tilus.global<32xf32> -> !tilus.reg<32xf32>
  %y = tilus.shuffle_up %x, %c1 : !tilus.reg<32xf32>
  tilus.store_global %y, %v[%c0] : !tilus.reg<32xf32>, !tilus.global<32xf32>
}

// -----

// An f16 dot the tensor cores take: the result and c take the accumulator fragment of the
// instruction lower-tiles will use, so the accumulator of a k-loop never moves; a and b keep
// their load layouts (the lowering stages them through shared memory). On sm_90a (the
// default target) the 4 warps are one warpgroup and the dot lowers to wgmma: the wgmma
// accumulator, wgmma_accumulator(64, 64, inst_n = 64). On sm_80, mma.sync's fragment
// (layout_mma::dot_layouts: 2 x 2 warps of 32 x 32, each repeating the m16n8 fragment 2 x 4
// times).
// RUN: tilus-opt %s --split-input-file --pass-pipeline='builtin.module(infer-layouts{target=sm_80})' | FileCheck %s --check-prefix=SM80
// CHECK-LABEL: tilus.kernel @dot_on_tensor_cores
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<64x32xf16, layout =
// CHECK:         tilus.dot {{.*}} -> !tilus.reg<64x64xf32, layout = [[ACC:spatial\(4, 1\) \* column_local\(2, 8\) \* spatial\(8, 4\) \* local\(1, 2\)]]>
// CHECK:         tilus.store_global {{.*}} : !tilus.reg<64x64xf32, layout = [[ACC]]>
// SM80-LABEL:    tilus.kernel @dot_on_tensor_cores
// SM80:          tilus.dot {{.*}} -> !tilus.reg<64x64xf32, layout = [[ACC:spatial\(2, 2\) \* local\(2, 1\) \* column_local\(2, 4\) \* spatial\(8, 4\) \* local\(1, 2\)]]>
// SM80:          tilus.store_global {{.*}} : !tilus.reg<64x64xf32, layout = [[ACC]]>
tilus.kernel @dot_on_tensor_cores(%pa: !tilus.ptr<f16>, %pb: !tilus.ptr<f16>, %pc: !tilus.ptr<f32>) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %pa : !tilus.ptr<f16> -> !tilus.global<64x32xf16>
  %gb = tilus.global_view %pb : !tilus.ptr<f16> -> !tilus.global<32x64xf16>
  %gc = tilus.global_view %pc : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %a = tilus.load_global %ga[%c0, %c0] : !tilus.global<64x32xf16> -> !tilus.reg<64x32xf16>
  %b = tilus.load_global %gb[%c0, %c0] : !tilus.global<32x64xf16> -> !tilus.reg<32x64xf16>
  %c = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %d = tilus.dot %a, %b, %c : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x64xf32>
}

// -----

// A column vector of a row-major view whose last extent is 1 is contiguous along its rows:
// its access asks for vectors down dimension 0, which the tile's broadcast layout (each thread
// 8 consecutive rows, every lane of the row's warp holding them) gives, so the column is loaded
// in the layout the broadcast needs and nothing is converted. (Before, the access was taken
// along the one-element dimension 1, and the load was laid out one row per thread and
// converted through shared memory.)
// CHECK-LABEL: tilus.kernel @column_vector
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<32x128xf32, layout = [[T:spatial\(4, 32\) \* local\(8, 4\)]]>
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<32x1xf32, layout = [[COL:spatial\(4, 1\) \* local\(8, 1\) \* replicate\(32\)]]>
// CHECK-NOT:     layout.convert
// CHECK:         tilus.mul {{.*}} : (!tilus.reg<32x1xf32, layout = [[COL]]>, !tilus.reg<32x128xf32, layout = [[T]]>)
tilus.kernel @column_vector(%x: !tilus.ptr<f32>, %c: !tilus.ptr<f32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x128xf32>
  %gc = tilus.global_view %c : !tilus.ptr<f32> -> !tilus.global<32x1xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x128xf32> -> !tilus.reg<32x128xf32>
  %cc = tilus.load_global %gc[%c0, %c0] : !tilus.global<32x1xf32> -> !tilus.reg<32x1xf32>
  %m = tilus.mul %cc, %t : (!tilus.reg<32x1xf32>, !tilus.reg<32x128xf32>) -> !tilus.reg<32x128xf32>
  tilus.store_global %m, %gx[%c0, %c0] : !tilus.reg<32x128xf32>, !tilus.global<32x128xf32>
}

// -----

// Online softmax: the running max and sum are [8, 1] tiles made before the loop that loads the
// [8, 64] blocks. When nothing else decides, the biggest tile with a global access is laid out
// first (not the first in program order, here the statistics, whose store of an [8, 1] column
// would have given them a layout of their own and three converts per iteration): the block's
// access layout, whose row reductions then give the statistics their layout.
// CHECK-LABEL: tilus.kernel @online_softmax
// CHECK:         tilus.register_tensor {{.*}} : !tilus.reg<8x1xf32, layout = [[S:spatial\(4, 1\) \* spatial\(2, 1\) \* replicate\(16\)]]>
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<8x64xf32, layout = spatial(4, 1) * spatial(2, 16) * local(1, 4)>
// CHECK:         tilus.reduce max {{.*}} -> !tilus.reg<8x1xf32, layout = [[S]]>
// CHECK-NOT:     layout.convert
// CHECK:         tilus.store_global {{.*}} : !tilus.reg<8x1xf32, layout = [[S]]>
tilus.kernel @online_softmax(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
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

// -----

// A reduction over a dimension of one element only drops it (a [1, 16, 32] block of a 3-D view
// read as [16, 32]). The f32 accumulator is laid out first (the biggest tile with an access,
// its store); the load takes the accumulator's layout back through the reduction, with the
// dimension of one element put in, so the block reduces in place and nothing is converted in
// the loop. (Before, the load kept a layout of its own and its [16, 32] f16 block was
// converted every iteration.)
// CHECK-LABEL: tilus.kernel @drop_unit_dim
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<1x16x32xf16, layout = spatial(1, 2, 1) * local(1, 2, 1) * spatial(1, 4, 8) * local(1, 1, 4)>
// CHECK-NEXT:    tilus.reduce sum {{.*}} -> !tilus.reg<16x32xf16, layout = [[L:spatial\(2, 1\) \* local\(2, 1\) \* spatial\(4, 8\) \* local\(1, 4\)]]>
// CHECK-NOT:     layout.convert
// CHECK:         tilus.store_global {{.*}} : !tilus.reg<16x32xf32, layout = [[L]]>
tilus.kernel @drop_unit_dim(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f32>) warps(2) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant 0.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<4x16x32xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<16x32xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<16x32xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (!tilus.reg<16x32xf32>) : i32 {
    %t3 = tilus.load_global %gx[%i, %c0, %c0] : !tilus.global<4x16x32xf16> -> !tilus.reg<1x16x32xf16>
    %t = tilus.reduce sum %t3 dim(0) : !tilus.reg<1x16x32xf16> -> !tilus.reg<16x32xf16>
    %f = tilus.cast %t : !tilus.reg<16x32xf16> to !tilus.reg<16x32xf32>
    %a = tilus.add %acc, %f : (!tilus.reg<16x32xf32>, !tilus.reg<16x32xf32>) -> !tilus.reg<16x32xf32>
    scf.yield %a : !tilus.reg<16x32xf32>
  }
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<16x32xf32>, !tilus.global<16x32xf32>
}
