// Vector add: one element per thread, index = ctaid.x * ntid.x + tid.x, bounds-checked with scf.if.
func.func @vadd(%a: i64, %b: i64, %c: i64, %n: i32) {
  %tid = ptx.special tid.x : i32
  %ctaid = ptx.special ctaid.x : i32
  %ntid = ptx.special ntid.x : i32
  %base = arith.muli %ctaid, %ntid : i32
  %i = arith.addi %base, %tid : i32
  %in = arith.cmpi slt, %i, %n : i32
  scf.if %in {
    %i64 = arith.extsi %i : i32 to i64
    %c4 = arith.constant 4 : i64
    %off = arith.muli %i64, %c4 : i64
    %pa = arith.addi %a, %off : i64
    %pb = arith.addi %b, %off : i64
    %pc = arith.addi %c, %off : i64
    %x = ptx.inst "ld.global.f32" [%pa] : (i64) -> f32
    %y = ptx.inst "ld.global.f32" [%pb] : (i64) -> f32
    %s = arith.addf %x, %y : f32
    ptx.inst "st.global.f32" [%pc], %s : (i64, f32) -> ()
  }
  return
}
