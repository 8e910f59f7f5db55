// Scratch users on paths that program order does not show. The fence before a scratch user
// (fence_scratch) puts a barrier of the user's group when the previous user ran in another
// group; the previous user is that of every path to it: after a loop, the one before the loop
// (no trip) as well as the body's last; after an scf.if, each branch's last; in an scf.if's
// branch, the one before the scf.if. Each kernel below leaves warp 0 reading its tile of the
// scratch (the warp's barriers hold that warp only) on a path on which the block's next
// conversion comes without a barrier of the block in between, or, for the negative cases,
// has no such path. The interpreter has no scratch (it checks the kernels' meaning, on the
// paths with and without the loop's trips or each branch); the PTX checks show the barriers.
//
// RUN: tilus-run %s --kernel skip_loop | FileCheck %s --check-prefix=OK
// RUN: tilus-run %s --kernel skip_loop --arg n=2 | FileCheck %s --check-prefix=OK
// RUN: tilus-run %s --kernel while_skip | FileCheck %s --check-prefix=OK
// RUN: tilus-run %s --kernel while_skip --arg n=2 | FileCheck %s --check-prefix=OK
// RUN: tilus-run %s --kernel join_if | FileCheck %s --check-prefix=OK
// RUN: tilus-run %s --kernel join_if --arg c=0 | FileCheck %s --check-prefix=OK
// RUN: tilus-run %s --kernel else_from_entry | FileCheck %s --check-prefix=OK
// RUN: tilus-run %s --kernel else_from_entry --arg c=0 | FileCheck %s --check-prefix=OK
// OK: check y vs reference @{{copy_ref|copy_if_ref}}: ok
// OK: check v vs reference @{{copy_ref|copy_if_ref}}: ok
// RUN: tilus-run %s --kernel skip_loop_block --arg n=2 | FileCheck %s --check-prefix=OK-Y
// RUN: tilus-run %s --kernel join_if_block --arg c=0 | FileCheck %s --check-prefix=OK-Y
// OK-Y: check y vs reference @{{copy_ref|copy_if_ref}}: ok
//
// @skip_loop: warp 0 converts a tile, then the block converts one in a loop of %n trips and
// once after it. With no trip the last conversion follows the warp's: a barrier of the block
// now comes between the loop's end and the last conversion's stores. (The body's own
// conversion has the same barrier before it, for its first trip.)
// RUN: tilus-run %s --kernel skip_loop --dump-ptx | FileCheck %s --check-prefix=SKIP
// SKIP:      ld.shared.f32
// SKIP:      bar.warp.sync 0xffffffff;
// SKIP-NOT:  st.shared
// SKIP:      bar.sync 0;
// SKIP-NOT:  bar.
// SKIP:      st.shared.v4.f32
// SKIP:      ld.shared.v2.f32
// SKIP:      bar.sync 0;
// SKIP-NOT:  st.shared
// SKIP:      bar.sync 0;
// SKIP-NOT:  bar.
// SKIP:      st.shared.v4.f32
// SKIP:      bar.sync 0;
// SKIP:      ld.shared.v2.f32
// SKIP:      bar.sync 0;
// SKIP-NOT:  bar.
//
// The same with an scf.while whose body (the `do` region) may run no time; the condition has
// no scratch user, so the loop leaves with the paths into it or out of the body.
// RUN: tilus-run %s --kernel while_skip --dump-ptx | FileCheck %s --check-prefix=SKIP
//
// @join_if: warp 0 converts in the then-branch, the block in the else-branch, then the block
// once more after the scf.if. After the then-branch the last conversion follows the warp's:
// a barrier of the block now comes before it. The else-branch's conversion follows no user
// (the one before the scf.if on its path): no barrier before it.
// RUN: tilus-run %s --kernel join_if --dump-ptx | FileCheck %s --check-prefix=JOIN
// JOIN:      ld.shared.f32
// JOIN:      bar.warp.sync 0xffffffff;
// JOIN-NOT:  bar.sync
// JOIN:      st.shared.v4.f32
// JOIN:      bar.sync 0;
// JOIN:      ld.shared.v2.f32
// JOIN:      bar.sync 0;
// JOIN-NOT:  st.shared
// JOIN:      bar.sync 0;
// JOIN-NOT:  bar.
// JOIN:      st.shared.v4.f32
// JOIN:      bar.sync 0;
// JOIN:      ld.shared.v2.f32
// JOIN:      bar.sync 0;
// JOIN-NOT:  bar.
//
// Negative cases. @else_from_entry: the block converts, then warp 0 in the then-branch and the
// block in the else-branch. The else-branch's conversion follows the block's conversion before
// the scf.if, not the warp's (program order would have put a barrier before it).
// RUN: tilus-run %s --kernel else_from_entry --dump-ptx | FileCheck %s --check-prefix=ELSE
// ELSE:      ld.shared.v2.f32
// ELSE:      bar.sync 0;
// ELSE:      ld.shared.f32
// ELSE:      bar.warp.sync 0xffffffff;
// ELSE-NOT:  bar.
// ELSE:      st.shared.v4.f32
// ELSE:      bar.sync 0;
// ELSE:      ld.shared.v2.f32
// ELSE:      bar.sync 0;
// ELSE-NOT:  bar.
//
// @skip_loop_block and @join_if_block: every conversion is the block's, so every path has a
// barrier of the block after the previous conversion's loads: each conversion has its two
// barriers only.
// RUN: tilus-run %s --kernel skip_loop_block --dump-ptx | FileCheck %s --check-prefix=BLOCK
// RUN: tilus-run %s --kernel join_if_block --dump-ptx | FileCheck %s --check-prefix=BLOCK
// BLOCK-COUNT-6: bar.sync 0;
// BLOCK-NOT:     bar.

tilus.kernel @skip_loop(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>)
    attributes {tilus.args = {n = 0 : i32}, tilus.outputs = ["y", "v"], tilus.reference = "copy_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  threadgroup.single_warp warp(0) {
    %w0 = tilus.load_global %gu[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
    %d0 = layout.convert %w0 : !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)> to !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>
    tilus.store_global %d0, %gv[%c0, %c0] : !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>, !tilus.global<32x32xf32>
  }
  scf.for %i = %c0 to %n step %c1 : i32 {
    %t1 = tilus.load_global %gx[%c64, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    %c1_ = layout.convert %t1 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    tilus.store_global %c1_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
  }
  %t2 = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
  %c2_ = layout.convert %t2 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
  tilus.store_global %c2_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
}

tilus.kernel @while_skip(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>)
    attributes {tilus.args = {n = 0 : i32}, tilus.outputs = ["y", "v"], tilus.reference = "copy_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  threadgroup.single_warp warp(0) {
    %w0 = tilus.load_global %gu[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
    %d0 = layout.convert %w0 : !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)> to !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>
    tilus.store_global %d0, %gv[%c0, %c0] : !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>, !tilus.global<32x32xf32>
  }
  %e = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%j: i32):
    %t1 = tilus.load_global %gx[%c64, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    %c1_ = layout.convert %t1 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    tilus.store_global %c1_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
    %k = arith.addi %j, %c1 : i32
    scf.yield %k : i32
  }
  %t2 = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
  %c2_ = layout.convert %t2 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
  tilus.store_global %c2_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
}

tilus.kernel @join_if(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>, %c: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>)
    attributes {tilus.args = {c = 1 : i32}, tilus.outputs = ["y", "v"], tilus.reference = "copy_if_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %p = arith.cmpi ne, %c, %c0 : i32
  scf.if %p {
    threadgroup.single_warp warp(0) {
      %w0 = tilus.load_global %gu[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
      %d0 = layout.convert %w0 : !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)> to !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>
      tilus.store_global %d0, %gv[%c0, %c0] : !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>, !tilus.global<32x32xf32>
    }
  } else {
    %t1 = tilus.load_global %gx[%c64, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    %c1_ = layout.convert %t1 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    tilus.store_global %c1_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
  }
  %t2 = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
  %c2_ = layout.convert %t2 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
  tilus.store_global %c2_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
}

tilus.kernel @else_from_entry(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>, %c: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>)
    attributes {tilus.args = {c = 1 : i32}, tilus.outputs = ["y", "v"], tilus.reference = "copy_if_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %t0 = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
  %c0_ = layout.convert %t0 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
  tilus.store_global %c0_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
  %p = arith.cmpi ne, %c, %c0 : i32
  scf.if %p {
    threadgroup.single_warp warp(0) {
      %w1 = tilus.load_global %gu[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
      %d1 = layout.convert %w1 : !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)> to !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>
      tilus.store_global %d1, %gv[%c0, %c0] : !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>, !tilus.global<32x32xf32>
    }
  } else {
    %t2 = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    %c2_ = layout.convert %t2 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    tilus.store_global %c2_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
  }
}

// The block's conversions before, in and after a loop.
tilus.kernel @skip_loop_block(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>)
    attributes {tilus.args = {n = 0 : i32}, tilus.outputs = ["y"], tilus.reference = "copy_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %t0 = tilus.load_global %gx[%c64, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
  %c0_ = layout.convert %t0 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
  tilus.store_global %c0_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %t1 = tilus.load_global %gx[%c64, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    %c1_ = layout.convert %t1 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    tilus.store_global %c1_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
  }
  %t2 = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
  %c2_ = layout.convert %t2 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
  tilus.store_global %c2_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
}

// The block's conversions in both branches and after them.
tilus.kernel @join_if_block(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>, %c: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>)
    attributes {tilus.args = {c = 1 : i32}, tilus.outputs = ["y"], tilus.reference = "copy_if_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %p = arith.cmpi ne, %c, %c0 : i32
  scf.if %p {
    %t0 = tilus.load_global %gx[%c64, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    %c0_ = layout.convert %t0 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    tilus.store_global %c0_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
  } else {
    %t1 = tilus.load_global %gx[%c64, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    %c1_ = layout.convert %t1 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    tilus.store_global %c1_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
  }
  %t2 = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
  %c2_ = layout.convert %t2 : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
  tilus.store_global %c2_, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
}

// y = x[0:64], v = u.
tilus.kernel @copy_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>)
    attributes {tilus.outputs = ["y", "v"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32>
  tilus.store_global %t, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
  %w = tilus.load_global %gu[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32>
  tilus.store_global %w, %gv[%c0, %c0] : !tilus.reg<32x32xf32>, !tilus.global<32x32xf32>
}

// y = x[0:64], and v = u when %c is not 0.
tilus.kernel @copy_if_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>, %c: i32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>)
    attributes {tilus.outputs = ["y", "v"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32>
  tilus.store_global %t, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
  %p = arith.cmpi ne, %c, %c0 : i32
  scf.if %p {
    %w = tilus.load_global %gu[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32>
    tilus.store_global %w, %gv[%c0, %c0] : !tilus.reg<32x32xf32>, !tilus.global<32x32xf32>
  }
}
