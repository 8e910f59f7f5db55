// A loop's back edge between scratch users of different groups. Each trip of @loop_convert's
// loop converts a tile of the whole block through the shared scratch, then warp 0 alone
// converts one of its own. On the next trip the block's conversion stores into the scratch
// while warp 0 may still read its tile of the trip before: the warp's barriers hold that
// warp only, and the fence before a user (fence_scratch) compares it with the user before it
// in program order, which on the next trips is the body's last, not the one before the loop.
// A barrier of the loop's group now ends such a body. The interpreter has no scratch (it
// checks the kernels' meaning); the PTX and lower-tiles checks show the barrier.
//
// RUN: tilus-run %s --kernel loop_convert | FileCheck %s --check-prefix=LOOP
// LOOP: check y vs reference @loop_convert_ref: ok
// LOOP: check v vs reference @loop_convert_ref: ok
// RUN: tilus-run %s --kernel loop_carry | FileCheck %s --check-prefix=CARRY
// CARRY: check y vs reference @loop_carry_ref: ok
// CARRY: check v vs reference @loop_carry_ref: ok
// RUN: tilus-run %s --kernel loop_one_group | FileCheck %s --check-prefix=ONE
// ONE: check y vs reference @copy_ref: ok
//
// The warp's conversion (its stores, barrier, loads) is the body's last scratch user; a
// barrier of the block follows it before the loop's counter steps and branches back to the
// head, where the block's conversion stores again with no barrier before it.
// RUN: tilus-run %s --kernel loop_convert --dump-ptx | FileCheck %s --check-prefix=LOOP-PTX
// LOOP-PTX:      [[HEAD:\$L__BB0_[0-9]+]]:
// LOOP-PTX-NOT:  bar.sync
// LOOP-PTX:      st.shared.v4.f32
// LOOP-PTX:      bar.sync 0;
// LOOP-PTX:      ld.shared.v2.f32
// LOOP-PTX:      bar.sync 0;
// LOOP-PTX:      bar.warp.sync 0xffffffff;
// LOOP-PTX:      st.shared.v4.f32
// LOOP-PTX:      bar.warp.sync 0xffffffff;
// LOOP-PTX:      ld.shared.f32
// LOOP-PTX:      bar.warp.sync 0xffffffff;
// LOOP-PTX-NOT:  bar.
// LOOP-PTX:      bar.sync 0;
// LOOP-PTX-NEXT: add.s32 [[I:%r[0-9]+]], [[I]], 1;
// LOOP-PTX-NEXT: bra.uni [[HEAD]];
//
// The same at the end of a loop that carries a tile (lowered apart, its yield rebuilt; the sums
// of the carried tile move down after the barrier, to the yield that uses them), and of
// an scf.while's body (the interpreter and the PTX backend do not run scf.while yet; its
// back edge goes from the body's yield to the condition). A loop whose scratch users all run
// in one group gets no such barrier: each user's own barriers order it with the next trip.
// RUN: tilus-opt %s --pass-pipeline='builtin.module(infer-layouts,plan-shared-memory,lower-tiles)' | FileCheck %s --check-prefix=TILES
// TILES-LABEL: tilus.kernel @loop_carry
// TILES:         scf.for
// TILES:           threadgroup.single_warp
// TILES:             ptx.inst "ld.shared.f32"
// TILES:             threadgroup.sync
// TILES:           threadgroup.sync
// TILES-NOT:       ptx.inst
// TILES:           scf.yield
// TILES-LABEL: tilus.kernel @while_convert
// TILES:         scf.while
// TILES:         scf.condition
// TILES:           threadgroup.single_warp
// TILES:             ptx.inst "ld.shared.f32"
// TILES:             threadgroup.sync
// TILES:           threadgroup.sync
// TILES-NEXT:      scf.yield
// TILES-LABEL: tilus.kernel @loop_one_group
// TILES:         scf.for
// TILES-COUNT-4:   threadgroup.sync
// TILES-NOT:       threadgroup.sync
// TILES:           scf.yield

tilus.kernel @loop_convert(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "v"], tilus.reference = "loop_convert_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  scf.for %i = %c0 to %c2 step %c1 : i32 {
    %r = arith.muli %i, %c64 : i32
    %t = tilus.load_global %gx[%r, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    %c = layout.convert %t : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    tilus.store_global %c, %gy[%r, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<128x32xf32>
    threadgroup.single_warp warp(0) {
      %q = arith.muli %i, %c32 : i32
      %w = tilus.load_global %gu[%q, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
      %d = layout.convert %w : !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)> to !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>
      tilus.store_global %d, %gv[%q, %c0] : !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>, !tilus.global<64x32xf32>
    }
  }
}
tilus.kernel @loop_convert_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "v"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<128x32xf32>
  tilus.store_global %t, %gy[%c0, %c0] : !tilus.reg<128x32xf32>, !tilus.global<128x32xf32>
  %w = tilus.load_global %gu[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  tilus.store_global %w, %gv[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}

// @loop_convert with the block's converted tiles summed in a loop-carried tile.
tilus.kernel @loop_carry(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "v"], tilus.reference = "loop_carry_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
  %sum = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %z) -> (!tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>) : i32 {
    %r = arith.muli %i, %c64 : i32
    %t = tilus.load_global %gx[%r, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    %c = layout.convert %t : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    %s = tilus.add %a, %c : (!tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>) -> !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    threadgroup.single_warp warp(0) {
      %q = arith.muli %i, %c32 : i32
      %w = tilus.load_global %gu[%q, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
      %d = layout.convert %w : !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)> to !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>
      tilus.store_global %d, %gv[%q, %c0] : !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>, !tilus.global<64x32xf32>
    }
    scf.yield %s : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
  }
  tilus.store_global %sum, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<64x32xf32>
}
tilus.kernel @loop_carry_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "v"]} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %t0 = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32>
  %t1 = tilus.load_global %gx[%c64, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32>
  %s = tilus.add %t0, %t1 : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
  tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
  %w = tilus.load_global %gu[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  tilus.store_global %w, %gv[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}

// @loop_convert's body as an scf.while's.
tilus.kernel @while_convert(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "v"], tilus.reference = "loop_convert_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %n = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %c2 : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%j: i32):
    %r = arith.muli %j, %c64 : i32
    %t = tilus.load_global %gx[%r, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    %c = layout.convert %t : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    tilus.store_global %c, %gy[%r, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<128x32xf32>
    threadgroup.single_warp warp(0) {
      %q = arith.muli %j, %c32 : i32
      %w = tilus.load_global %gu[%q, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
      %d = layout.convert %w : !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)> to !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>
      tilus.store_global %d, %gv[%q, %c0] : !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>, !tilus.global<64x32xf32>
    }
    %k = arith.addi %j, %c1 : i32
    scf.yield %k : i32
  }
}

// Two conversions of the whole block in each trip: no barrier at the end of the body.
tilus.kernel @loop_one_group(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "copy_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  scf.for %i = %c0 to %c2 step %c1 : i32 {
    %r = arith.muli %i, %c64 : i32
    %t = tilus.load_global %gx[%r, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    %c = layout.convert %t : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    %d = layout.convert %c : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)> to !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    tilus.store_global %d, %gy[%r, %c0] : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>, !tilus.global<128x32xf32>
  }
}
tilus.kernel @copy_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<128x32xf32>
  tilus.store_global %t, %gy[%c0, %c0] : !tilus.reg<128x32xf32>, !tilus.global<128x32xf32>
}
