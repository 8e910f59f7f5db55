// cf branches between the blocks of an scf.execute_region, run by the interpreter: each thread
// takes its own successor; threads that take different ones split and reconverge when they
// leave the region. Before, "the interpreter runs an 'scf.execute_region' of one block only".
//
// A loop written with blocks, its trip count per thread (t % 7 trips: a back edge some threads
// take and others leave), against the closed form:
// RUN: tilus-run %s --kernel cfg_loop | FileCheck %s --check-prefix=LOOP
// RUN: tilus-run %s --kernel cfg_loop --schedule random --seed 5 | FileCheck %s --check-prefix=LOOP
// LOOP: check y vs reference @cfg_loop_ref: ok
//
// A three-way cf.switch on t % 4 (cases 0 and 2, the default for 1 and 3), passing block
// arguments, and a join block reached from every case:
// RUN: tilus-run %s --kernel cfg_switch | FileCheck %s --check-prefix=SWITCH
// SWITCH: check y vs reference @cfg_switch_ref: ok
//
// Register tiles yielded from several blocks: lower-tiles joins their registers at the yields
// (a tile may not cross a branch as a block argument), against the same choice by scf.if:
// RUN: tilus-run %s --kernel cfg_tiles | FileCheck %s --check-prefix=TILES
// RUN: tilus-run %s --kernel cfg_tiles --arg k=-3 | FileCheck %s --check-prefix=TILES
// TILES: check y vs reference @cfg_tiles_ref: ok
// RUN: tilus-run %s --kernel cfg_tiles --dump-ptx > %t.tiles.ptx
// RUN: %ptxas -arch=sm_90a %t.tiles.ptx -o %t.tiles.cubin
//
// cf.assert checks each thread; a failing one is reported with its message (status 1):
// RUN: not tilus-run %s --kernel cfg_assert 2>&1 | FileCheck %s --check-prefix=ASSERT
// ASSERT: 'cf.assert' failed in thread 40: t must be below 40
//
// The same kernels lower to PTX that assembles; on the GPU a failed cf.assert is a trap (the
// launch fails), its message a comment beside it:
// RUN: tilus-run %s --kernel cfg_loop --dump-ptx > %t.loop.ptx
// RUN: tilus-run %s --kernel cfg_switch --dump-ptx > %t.switch.ptx
// RUN: tilus-run %s --kernel cfg_assert --dump-ptx > %t.assert.ptx
// RUN: FileCheck %s --check-prefix=TRAP --input-file %t.assert.ptx
// TRAP: setp.lt.u32 [[P:%p[0-9]+]], %r{{[0-9]+}}, 40;
// TRAP-NEXT: // cf.assert: t must be below 40
// TRAP-NEXT: @![[P]] trap;
// RUN: %ptxas -arch=sm_90a %t.loop.ptx -o %t.loop.cubin
// RUN: %ptxas -arch=sm_90a %t.switch.ptx -o %t.switch.cubin
// RUN: %ptxas -arch=sm_90a %t.assert.ptx -o %t.assert.cubin
// REQUIRES: ptxas

// y[t] = 0 + 1 + ... + (t % 7 - 1), summed by a loop of blocks.
tilus.kernel @cfg_loop(%y: !tilus.ptr<i32>) warps(2) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "cfg_loop_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %tid = tilus.thread_id
  %n = arith.remui %tid, %c7 : i32
  %v = scf.execute_region -> i32 {
    cf.br ^head(%c0, %c0 : i32, i32)
  ^head(%i: i32, %acc: i32):
    %more = arith.cmpi slt, %i, %n : i32
    cf.cond_br %more, ^body, ^done(%acc : i32)
  ^body:
    %acc1 = arith.addi %acc, %i : i32
    %i1 = arith.addi %i, %c1 : i32
    cf.br ^head(%i1, %acc1 : i32, i32)
  ^done(%r: i32):
    scf.yield %r : i32
  }
  %t = tilus.register_tensor init(%v : i32) : !tilus.reg<64xi32, layout = spatial(64)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
}

// (n - 1) n / 2 with n = t % 7.
tilus.kernel @cfg_loop_ref(%y: !tilus.ptr<i32>) warps(2) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c7 = arith.constant 7 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %tid = tilus.thread_id
  %n = arith.remui %tid, %c7 : i32
  %n1 = arith.subi %n, %c1 : i32
  %p = arith.muli %n, %n1 : i32
  %s = arith.divsi %p, %c2 : i32
  %t = tilus.register_tensor init(%s : i32) : !tilus.reg<64xi32, layout = spatial(64)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
}

// y[t] = 10 * (t % 4 == 0) + 20 * (t % 4 == 2) + 30 * (t % 4 odd), plus t: each case passes
// its value to a join block that adds the thread id.
tilus.kernel @cfg_switch(%y: !tilus.ptr<i32>) warps(2) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "cfg_switch_ref"} {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c10 = arith.constant 10 : i32
  %c20 = arith.constant 20 : i32
  %c30 = arith.constant 30 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %tid = tilus.thread_id
  %m = arith.remui %tid, %c4 : i32
  %v = scf.execute_region -> i32 {
    cf.switch %m : i32, [
      default: ^join(%c30 : i32),
      0: ^zero,
      2: ^join(%c20 : i32)
    ]
  ^zero:
    cf.br ^join(%c10 : i32)
  ^join(%x: i32):
    %r = arith.addi %x, %tid : i32
    scf.yield %r : i32
  }
  %t = tilus.register_tensor init(%v : i32) : !tilus.reg<64xi32, layout = spatial(64)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
}

tilus.kernel @cfg_switch_ref(%y: !tilus.ptr<i32>) warps(2) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c10 = arith.constant 10 : i32
  %c20 = arith.constant 20 : i32
  %c30 = arith.constant 30 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %tid = tilus.thread_id
  %m = arith.remui %tid, %c4 : i32
  %is0 = arith.cmpi eq, %m, %c0 : i32
  %is2 = arith.cmpi eq, %m, %c2 : i32
  %a = arith.select %is2, %c20, %c30 : i32
  %b = arith.select %is0, %c10, %a : i32
  %r = arith.addi %b, %tid : i32
  %t = tilus.register_tensor init(%r : i32) : !tilus.reg<64xi32, layout = spatial(64)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
}

tilus.kernel @cfg_assert(%y: !tilus.ptr<i32>) warps(2) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c40 = arith.constant 40 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %tid = tilus.thread_id
  %ok = arith.cmpi ult, %tid, %c40 : i32
  cf.assert %ok, "t must be below 40"
  %t = tilus.register_tensor init(%tid : i32) : !tilus.reg<64xi32, layout = spatial(64)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
}

// y = x * 0.5 when k > 0, else x + x, chosen between blocks.
tilus.kernel @cfg_tiles(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %k: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {k = 2 : i32}, tilus.outputs = ["y"], tilus.reference = "cfg_tiles_ref"} {
  %c0 = arith.constant 0 : i32
  %half = arith.constant 0.5 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %h = tilus.register_tensor init(%half : f32) : !tilus.reg<1x1xf32>
  %pos = arith.cmpi sgt, %k, %c0 : i32
  %v = scf.execute_region -> !tilus.reg<64x32xf32> {
    cf.cond_br %pos, ^scale, ^double
  ^scale:
    %u = tilus.mul %t, %h : (!tilus.reg<64x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x32xf32>
    scf.yield %u : !tilus.reg<64x32xf32>
  ^double:
    %d = tilus.add %t, %t : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
    scf.yield %d : !tilus.reg<64x32xf32>
  }
  tilus.store_global %v, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}

tilus.kernel @cfg_tiles_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %k: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %half = arith.constant 0.5 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %h = tilus.register_tensor init(%half : f32) : !tilus.reg<1x1xf32>
  %pos = arith.cmpi sgt, %k, %c0 : i32
  %v = scf.if %pos -> !tilus.reg<64x32xf32> {
    %u = tilus.mul %t, %h : (!tilus.reg<64x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x32xf32>
    scf.yield %u : !tilus.reg<64x32xf32>
  } else {
    %d = tilus.add %t, %t : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
    scf.yield %d : !tilus.reg<64x32xf32>
  }
  tilus.store_global %v, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}
