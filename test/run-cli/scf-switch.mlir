// scf.index_switch and scf.execute_region in kernels: the interpreter runs them (a switch's
// threads take the case of their own index: a per-thread index splits the unit as nested
// scf.ifs would, and the parts reconverge after the op), lower-tiles carries register tensors
// through their results (one value per register, as scf.if), and convert-scf-to-cf lowers them
// as MLIR does (a cf.switch on the index cast to i32; the execute_region's blocks inlined;
// test/lower/scf-to-cf-mlir.mlir compares with mlir-opt), which the PTX emitter turns into
// setp.eq and predicated branches. Before, "the interpreter does not support
// 'scf.index_switch'" ('scf.execute_region'), "lower-tiles: cannot lower 'scf.index_switch'
// producing register tensors", and the PTX emitter could not emit either.
//
// A uniform index (a kernel argument) picking how a tile and a scalar are computed, against
// the same choice made with scf.if; every case, the default, and an index that no case has:
// RUN: tilus-run %s --kernel switch_tiles --arg k=0 | FileCheck %s --check-prefix=TILES
// RUN: tilus-run %s --kernel switch_tiles --arg k=1 | FileCheck %s --check-prefix=TILES
// RUN: tilus-run %s --kernel switch_tiles | FileCheck %s --check-prefix=TILES
// RUN: tilus-run %s --kernel switch_tiles --arg k=-4 | FileCheck %s --check-prefix=TILES
// RUN: tilus-run %s --kernel switch_tiles --arg k=9 | FileCheck %s --check-prefix=TILES
// RUN: tilus-run %s --kernel switch_tiles --arg k=9 --schedule random --seed 3 | FileCheck %s --check-prefix=TILES
// TILES: check y vs reference @switch_tiles_ref: ok
//
// An index that differs between threads (t % 5: three cases, the default for the other two,
// one case with an scf.if of its own), yielding a scalar and a register tile:
// RUN: tilus-run %s --kernel switch_divergent | FileCheck %s --check-prefix=DIV
// RUN: tilus-run %s --kernel switch_divergent --schedule random --seed 5 | FileCheck %s --check-prefix=DIV
// RUN: tilus-run %s --kernel switch_divergent --schedule random --seed 11 | FileCheck %s --check-prefix=DIV
// DIV: check y vs reference @switch_divergent_ref: ok
// DIV: check z vs reference @switch_divergent_ref: ok
//
// An execute_region yielding a tile and a scalar, against the same ops inline:
// RUN: tilus-run %s --kernel execute_region | FileCheck %s --check-prefix=EXEC
// EXEC: check y vs reference @execute_region_ref: ok
//
// An execute_region of several blocks, its cf.cond_br taken per thread (odd threads yield 2,
// even ones 1; test/run-cli/cf-regions.mlir has more of these):
// RUN: tilus-run %s --kernel execute_blocks | FileCheck %s --check-prefix=BLOCKS
// BLOCKS: check y vs reference @execute_blocks_ref: ok
//
// The PTX (the switch's compares and branches, the tiles as registers) assembles:
// RUN: tilus-run %s --kernel switch_tiles --dump-ptx > %t.tiles.ptx
// RUN: tilus-run %s --kernel switch_divergent --dump-ptx > %t.div.ptx
// RUN: tilus-run %s --kernel execute_region --dump-ptx > %t.exec.ptx
// RUN: tilus-run %s --kernel execute_blocks --dump-ptx > %t.blocks.ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file %t.tiles.ptx
// PTX: .entry switch_tiles(
// PTX: setp.eq.s32 [[P:%p[0-9]+]], %r{{[0-9]+}}, 0;
// PTX-NEXT: @[[P]] bra
// PTX-NEXT: setp.eq.s32 [[P]], %r{{[0-9]+}}, 1;
// PTX-NEXT: @[[P]] bra
// PTX-NEXT: setp.eq.s32 [[P]], %r{{[0-9]+}}, 2;
// PTX-NEXT: @[[P]] bra
// PTX-NEXT: bra.uni
// RUN: FileCheck %s --check-prefix=DIVPTX --input-file %t.div.ptx
// DIVPTX: .entry switch_divergent(
// DIVPTX: setp.eq.s32 [[P:%p[0-9]+]], %r{{[0-9]+}}, 0;
// DIVPTX: setp.eq.s32 [[P]], %r{{[0-9]+}}, 3;
// RUN: %ptxas -arch=sm_90a %t.tiles.ptx -o %t.tiles.cubin
// RUN: %ptxas -arch=sm_90a %t.div.ptx -o %t.div.cubin
// RUN: %ptxas -arch=sm_90a %t.exec.ptx -o %t.exec.cubin
// RUN: %ptxas -arch=sm_90a %t.blocks.ptx -o %t.blocks.cubin
// REQUIRES: ptxas

// y = s * f_k(x) where the case k picks f_k (x, x / 2, x + x + x through a loop, x * x) and
// the scalar s (1, 5, 3, 4): a different y for each case.
tilus.kernel @switch_tiles(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %k: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {k = 2 : i32}, tilus.outputs = ["y"], tilus.reference = "switch_tiles_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %half = arith.constant 0.5 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %h = tilus.register_tensor init(%half : f32) : !tilus.reg<1x1xf32>
  %idx = arith.index_cast %k : i32 to index
  %r:2 = scf.index_switch %idx -> i32, !tilus.reg<64x32xf32>
  case 0 {
    %s = arith.constant 1 : i32
    scf.yield %s, %t : i32, !tilus.reg<64x32xf32>
  }
  case 1 {
    %s = arith.constant 5 : i32
    %a = tilus.mul %t, %h : (!tilus.reg<64x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x32xf32>
    scf.yield %s, %a : i32, !tilus.reg<64x32xf32>
  }
  case 2 {
    %s = arith.constant 3 : i32
    %a = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %t) -> (!tilus.reg<64x32xf32>) : i32 {
      %d = tilus.add %acc, %t : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
      scf.yield %d : !tilus.reg<64x32xf32>
    }
    scf.yield %s, %a : i32, !tilus.reg<64x32xf32>
  }
  default {
    %s = arith.constant 4 : i32
    %a = tilus.mul %t, %t : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
    scf.yield %s, %a : i32, !tilus.reg<64x32xf32>
  }
  %sf = arith.sitofp %r#0 : i32 to f32
  %st = tilus.register_tensor init(%sf : f32) : !tilus.reg<1x1xf32>
  %out = tilus.mul %r#1, %st : (!tilus.reg<64x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x32xf32>
  tilus.store_global %out, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}

tilus.kernel @switch_tiles_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %k: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %half = arith.constant 0.5 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %h = tilus.register_tensor init(%half : f32) : !tilus.reg<1x1xf32>
  %is0 = arith.cmpi eq, %k, %c0 : i32
  %is1 = arith.cmpi eq, %k, %c1 : i32
  %is2 = arith.cmpi eq, %k, %c2 : i32
  %r:2 = scf.if %is0 -> (f32, !tilus.reg<64x32xf32>) {
    %s = arith.constant 1.0 : f32
    scf.yield %s, %t : f32, !tilus.reg<64x32xf32>
  } else {
    %r1:2 = scf.if %is1 -> (f32, !tilus.reg<64x32xf32>) {
      %s = arith.constant 5.0 : f32
      %a = tilus.mul %t, %h : (!tilus.reg<64x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x32xf32>
      scf.yield %s, %a : f32, !tilus.reg<64x32xf32>
    } else {
      %r2:2 = scf.if %is2 -> (f32, !tilus.reg<64x32xf32>) {
        %s = arith.constant 3.0 : f32
        %d = tilus.add %t, %t : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
        %a = tilus.add %d, %t : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
        scf.yield %s, %a : f32, !tilus.reg<64x32xf32>
      } else {
        %s = arith.constant 4.0 : f32
        %a = tilus.mul %t, %t : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
        scf.yield %s, %a : f32, !tilus.reg<64x32xf32>
      }
      scf.yield %r2#0, %r2#1 : f32, !tilus.reg<64x32xf32>
    }
    scf.yield %r1#0, %r1#1 : f32, !tilus.reg<64x32xf32>
  }
  %st = tilus.register_tensor init(%r#0 : f32) : !tilus.reg<1x1xf32>
  %out = tilus.mul %r#1, %st : (!tilus.reg<64x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x32xf32>
  tilus.store_global %out, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}

// Thread t takes case t % 5: 10 for case 0, 2 t for case 1, 100 or 200 (t < 32 or not) for
// case 3, t + 1000 for the default (2 and 4); z gets the scalar result, y the tile result.
tilus.kernel @switch_divergent(%y: !tilus.ptr<i32>, %z: !tilus.ptr<i32>) warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "switch_divergent_ref"} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c5 = arith.constant 5 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %gz = tilus.global_view %z : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %tid = tilus.thread_id
  %m = arith.remui %tid, %c5 : i32
  %idx = arith.index_cast %m : i32 to index
  %r:2 = scf.index_switch %idx -> i32, !tilus.reg<64xi32, layout = spatial(64)>
  case 0 {
    %v = arith.constant 10 : i32
    %t = tilus.register_tensor init(%v : i32) : !tilus.reg<64xi32, layout = spatial(64)>
    scf.yield %v, %t : i32, !tilus.reg<64xi32, layout = spatial(64)>
  }
  case 1 {
    %v = arith.muli %tid, %c2 : i32
    %t = tilus.register_tensor init(%v : i32) : !tilus.reg<64xi32, layout = spatial(64)>
    scf.yield %v, %t : i32, !tilus.reg<64xi32, layout = spatial(64)>
  }
  case 3 {
    %c32 = arith.constant 32 : i32
    %low = arith.cmpi ult, %tid, %c32 : i32
    %v = scf.if %low -> (i32) {
      %a = arith.constant 100 : i32
      scf.yield %a : i32
    } else {
      %b = arith.constant 200 : i32
      scf.yield %b : i32
    }
    %t = tilus.register_tensor init(%v : i32) : !tilus.reg<64xi32, layout = spatial(64)>
    scf.yield %v, %t : i32, !tilus.reg<64xi32, layout = spatial(64)>
  }
  default {
    %c1000 = arith.constant 1000 : i32
    %v = arith.addi %tid, %c1000 : i32
    %t = tilus.register_tensor init(%v : i32) : !tilus.reg<64xi32, layout = spatial(64)>
    scf.yield %v, %t : i32, !tilus.reg<64xi32, layout = spatial(64)>
  }
  %s = tilus.register_tensor init(%r#0 : i32) : !tilus.reg<64xi32, layout = spatial(64)>
  tilus.store_global %r#1, %gy[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
  tilus.store_global %s, %gz[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
}

// The same values by arith.select.
tilus.kernel @switch_divergent_ref(%y: !tilus.ptr<i32>, %z: !tilus.ptr<i32>) warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c10 = arith.constant 10 : i32
  %c32 = arith.constant 32 : i32
  %c100 = arith.constant 100 : i32
  %c200 = arith.constant 200 : i32
  %c1000 = arith.constant 1000 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %gz = tilus.global_view %z : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %tid = tilus.thread_id
  %m = arith.remui %tid, %c5 : i32
  %twice = arith.muli %tid, %c2 : i32
  %low = arith.cmpi ult, %tid, %c32 : i32
  %v3 = arith.select %low, %c100, %c200 : i32
  %vd = arith.addi %tid, %c1000 : i32
  %is0 = arith.cmpi eq, %m, %c0 : i32
  %is1 = arith.cmpi eq, %m, %c1 : i32
  %is3 = arith.cmpi eq, %m, %c3 : i32
  %a = arith.select %is3, %v3, %vd : i32
  %b = arith.select %is1, %twice, %a : i32
  %v = arith.select %is0, %c10, %b : i32
  %t = tilus.register_tensor init(%v : i32) : !tilus.reg<64xi32, layout = spatial(64)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
  tilus.store_global %t, %gz[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
}

// y = (x + x) * 3, the sum made in an execute_region with the scalar 3.
tilus.kernel @execute_region(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "execute_region_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %r:2 = scf.execute_region -> (!tilus.reg<64x32xf32>, f32) {
    %d = tilus.add %t, %t : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
    %s = arith.constant 3.0 : f32
    scf.yield %d, %s : !tilus.reg<64x32xf32>, f32
  }
  %st = tilus.register_tensor init(%r#1 : f32) : !tilus.reg<1x1xf32>
  %out = tilus.mul %r#0, %st : (!tilus.reg<64x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x32xf32>
  tilus.store_global %out, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}

tilus.kernel @execute_region_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %three = arith.constant 3.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %d = tilus.add %t, %t : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
  %st = tilus.register_tensor init(%three : f32) : !tilus.reg<1x1xf32>
  %out = tilus.mul %d, %st : (!tilus.reg<64x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x32xf32>
  tilus.store_global %out, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}

// y[t] = 1 for even threads, 2 for odd ones, chosen by branches between the blocks of an
// execute_region.
tilus.kernel @execute_blocks(%y: !tilus.ptr<i32>) warps(2) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "execute_blocks_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %tid = tilus.thread_id
  %odd = arith.andi %tid, %c1 : i32
  %is_odd = arith.cmpi ne, %odd, %c0 : i32
  %v = scf.execute_region -> i32 {
    cf.cond_br %is_odd, ^bb1, ^bb2
  ^bb1:
    %two = arith.constant 2 : i32
    scf.yield %two : i32
  ^bb2:
    scf.yield %c1 : i32
  }
  %t = tilus.register_tensor init(%v : i32) : !tilus.reg<64xi32, layout = spatial(64)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
}

// 1 + (t & 1), without branches.
tilus.kernel @execute_blocks_ref(%y: !tilus.ptr<i32>) warps(2) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %tid = tilus.thread_id
  %odd = arith.andi %tid, %c1 : i32
  %v = arith.addi %odd, %c1 : i32
  %t = tilus.register_tensor init(%v : i32) : !tilus.reg<64xi32, layout = spatial(64)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
}
