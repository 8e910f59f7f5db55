// lower-tiles: global semaphores become an acquire-load spin and a release store, and an
// `scf.if` that yields register tensors yields their registers (one result per register, in
// the layout the result type names). The PTX assembles and the kernel runs on the
// interpreter (blocks take turns through the semaphore, each adds its tile or not).
//
// RUN: tilus-opt %s --plan-shared-memory --lower-tiles | FileCheck %s --check-prefix=TILES
// RUN: tilus-opt %s --tilus-to-ptx --emit-ptx | FileCheck %s --check-prefix=PTX
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// REQUIRES: ptxas
// RUN: tilus-opt %s --tilus-to-ptx --emit-ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// TILES-LABEL: tilus.kernel @turns
// TILES:         ptx.asm "{{.*}}ld.acquire.gpu.global.b32 V, [$0];{{.*}}"
// TILES:         arith.andi %{{.*}}, %c1_i32 : i32
// TILES:         %{{.*}}:2 = scf.if %{{.*}} -> (f32, f32) {
// TILES:           %[[S0:.*]] = arith.addf %[[ACC:[0-9]+]]#0, %{{.*}}#0 : f32
// TILES-NEXT:      %[[S1:.*]] = arith.addf %[[ACC]]#1, %{{.*}}#1 : f32
// TILES-NEXT:      scf.yield %[[S0]], %[[S1]] : f32, f32
// TILES-NEXT:    } else {
// TILES-NEXT:      scf.yield %[[ACC]]#0, %[[ACC]]#1 : f32, f32
// TILES-NEXT:    }
// TILES:         ptx.inst "st.release.gpu.global.b32"
// PTX:         LAB_SEM:
// PTX-NEXT:    ld.acquire.gpu.global.b32 V, [%rd{{[0-9]+}}];
// PTX-NEXT:    setp.ne.s32 P, V, %r{{[0-9]+}};
// PTX-NEXT:    @P bra LAB_SEM;
// PTX:         st.release.gpu.global.b32
// INTERP: check y vs reference @turns_ref: ok

// Block b waits for the value b, adds x[b] to the running sum in y when b is odd (an scf.if
// yielding the tile), and hands on b + 1.
tilus.kernel @turns(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %sem: !tilus.ptr<i32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (4)>)
    attributes {tilus.inputs = {y = "zeros", sem = "zeros"}, tilus.outputs = ["y"], tilus.reference = "turns_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c64 = arith.constant 64 : i32
  %bx = tilus.block_id x
  %c256 = arith.constant 256 : i32
  %gx = tilus.global_view %x[%c256] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y[%c64] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gs = tilus.global_view %sem[%c1] : !tilus.ptr<i32> -> !tilus.global<?xi32>
  threadgroup.single_thread {
    tilus.lock_semaphore %gs[%c0], %bx : !tilus.global<?xi32>
  }
  threadgroup.sync
  %acc = tilus.load_global %gy[%c0] : !tilus.global<?xf32> -> !tilus.reg<64xf32, layout = spatial(32) * local(2)>
  %odd = arith.andi %bx, %c1 : i32
  %take = arith.cmpi ne, %odd, %c0 : i32
  %sum = scf.if %take -> (!tilus.reg<64xf32, layout = spatial(32) * local(2)>) {
    %off = arith.muli %bx, %c64 : i32
    %r = tilus.load_global %gx[%off] : !tilus.global<?xf32> -> !tilus.reg<64xf32, layout = spatial(32) * local(2)>
    %s = tilus.add %acc, %r : (!tilus.reg<64xf32, layout = spatial(32) * local(2)>, !tilus.reg<64xf32, layout = spatial(32) * local(2)>) -> !tilus.reg<64xf32, layout = spatial(32) * local(2)>
    scf.yield %s : !tilus.reg<64xf32, layout = spatial(32) * local(2)>
  } else {
    scf.yield %acc : !tilus.reg<64xf32, layout = spatial(32) * local(2)>
  }
  tilus.store_global %sum, %gy[%c0] : !tilus.reg<64xf32, layout = spatial(32) * local(2)>, !tilus.global<?xf32>
  threadgroup.sync
  %next = arith.addi %bx, %c1 : i32
  threadgroup.single_thread {
    tilus.release_semaphore %gs[%c0], %next : !tilus.global<?xi32>
  }
}

// y = x[1] + x[3].
tilus.kernel @turns_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %sem: !tilus.ptr<i32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c192 = arith.constant 192 : i32
  %c256 = arith.constant 256 : i32
  %gx = tilus.global_view %x[%c256] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y[%c64] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %a = tilus.load_global %gx[%c64] : !tilus.global<?xf32> -> !tilus.reg<64xf32>
  %b = tilus.load_global %gx[%c192] : !tilus.global<?xf32> -> !tilus.reg<64xf32>
  %s = tilus.add %a, %b : (!tilus.reg<64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64xf32>
  tilus.store_global %s, %gy[%c0] : !tilus.reg<64xf32>, !tilus.global<?xf32>
}
