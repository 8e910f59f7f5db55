// Branch-free: every thread computes, only in-range threads store (a guarded st.global).
// out[i] = f16(max(x[i] * scale, 0)) and idx[i] = i32(x[i]) for i < n.
func.func @relu_f16(%x: i64, %out: i64, %idx: i64, %n: i32, %scale: f32) {
  %tid = ptx.special tid.x : i32
  %ctaid = ptx.special ctaid.x : i32
  %c128 = arith.constant 128 : i32
  %base = arith.muli %ctaid, %c128 : i32
  %i = arith.addi %base, %tid : i32
  %in = arith.cmpi slt, %i, %n : i32
  %i64 = arith.extsi %i : i32 to i64
  %c2 = arith.constant 2 : i64
  %c4 = arith.constant 4 : i64
  %off4 = arith.muli %i64, %c4 : i64
  %off2 = arith.muli %i64, %c2 : i64
  %px = arith.addi %x, %off4 : i64
  %v = ptx.inst "ld.global.f32" [%px] if %in : (i64) -> f32
  %s = arith.mulf %v, %scale : f32
  %zero = arith.constant 0.0 : f32
  %pos = arith.cmpf ogt, %s, %zero : f32
  %r = arith.select %pos, %s, %zero : f32
  %h = arith.truncf %r : f32 to f16
  %po = arith.addi %out, %off2 : i64
  ptx.inst "st.global.b16" [%po], %h if %in : (i64, f16) -> ()
  %k = arith.fptosi %v : f32 to i32
  %pi = arith.addi %idx, %off4 : i64
  ptx.inst "st.global.s32" [%pi+0], %k if %in : (i64, i32) -> ()
  return
}
