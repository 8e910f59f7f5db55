// The ptx dialect's generic form is MLIR's: mlir-opt reads it and prints it back unchanged.
// REQUIRES: mlir-opt
// RUN: tilus-opt %s --print-op-generic >%t.generic
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %t.generic | tilus-opt >%t.back
// RUN: tilus-opt %s | diff - %t.back

ptx.shared_decl @smem align 1024
ptx.entry @k(%a: i64, %n: i32, %tm: !ptx.tensormap) attributes {target = "sm_90a", maxntid = 128 : i64} {
  %t = ptx.special tid.x : i32
  %p = ptx.inst "setp.lt.s32" %t, %n : (i32, i32) -> i1
  %v = ptx.inst "ld.global.f32" [%a+4] if %p : (i64) -> f32
  ptx.inst "st.global.f32" [%a], %v if !%p : (i64, f32) -> ()
  %s = ptx.addressof @smem : i32
  ptx.inst "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" [%s], [%tm, {%t, %t}], [%s] : (i32, !ptx.tensormap, i32, i32, i32) -> ()
  %r = ptx.asm "mov.u32 $0, $1;" %t : (i32) -> i32
  cf.cond_br %p, ^bb1(%r : i32), ^bb2
^bb1(%z: i32):
  ptx.ret
^bb2:
  ptx.ret
}
