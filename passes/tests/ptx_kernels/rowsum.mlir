// Each thread sums one row of an m x n f32 matrix: out[i] = sum_j a[i*n + j].
func.func @rowsum(%a: i64, %out: i64, %m: i32, %n: i32) {
  %tid = ptx.special tid.x : i32
  %ctaid = ptx.special ctaid.x : i32
  %ntid = ptx.special ntid.x : i32
  %base = arith.muli %ctaid, %ntid : i32
  %i = arith.addi %base, %tid : i32
  %in = arith.cmpi slt, %i, %m : i32
  scf.if %in {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant 0.0 : f32
    %row = arith.muli %i, %n : i32
    %sum = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
      %k = arith.addi %row, %j : i32
      %k64 = arith.extui %k : i32 to i64
      %c4 = arith.constant 4 : i64
      %off = arith.muli %k64, %c4 : i64
      %p = arith.addi %a, %off : i64
      %x = ptx.inst "ld.global.f32" [%p] : (i64) -> f32
      %acc2 = arith.addf %acc, %x : f32
      scf.yield %acc2 : f32
    }
    %i64 = arith.extsi %i : i32 to i64
    %c4 = arith.constant 4 : i64
    %off = arith.muli %i64, %c4 : i64
    %po = arith.addi %out, %off : i64
    ptx.inst "st.global.f32" [%po], %sum : (i64, f32) -> ()
  }
  return
}
