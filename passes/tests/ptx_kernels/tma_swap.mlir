// Hand-written ptx.entry: loop with swapped block arguments, guarded shared store, a TMA load
// through a !ptx.tensormap parameter, inline assembly, an edge with copies.
ptx.shared_decl @smem align 1024
ptx.shared_decl @buf[256] align 16

ptx.entry @swap(%p: i64, %n: i32, %map: !ptx.tensormap) attributes {target = "sm_90a", maxntid = 128 : i64, reqnctapercluster = 2 : i64} {
  %t = ptx.special tid.x : i32
  %s = ptx.addressof @smem : i32
  cf.br ^head(%t, %n : i32, i32)
^head(%a: i32, %b: i32):
  %c = ptx.inst "setp.lt.s32" %a, %b : (i32, i32) -> i1
  cf.cond_br %c, ^body, ^exit
^body:
  ptx.inst "st.shared.u32" [%s+4], %a if %c : (i32, i32) -> ()
  cf.br ^head(%b, %a : i32, i32)
^exit:
  %l:2 = ptx.asm "mov.u32 $0, %laneid;\n add.u32 $1, $0, 1;" : () -> (i32, i32)
  ptx.inst "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" [%s], [%map, {%a, %b}], [%s] : (i32, !ptx.tensormap, i32, i32, i32) -> ()
  %z = ptx.inst "setp.eq.u32" %l#1, 0 : (i32) -> i1
  cf.cond_br %z, ^done(%l#1 : i32), ^other
^done(%v: i32):
  ptx.ret
^other:
  ptx.ret
}
