// Every scalar arith op convert-arith-to-ptx handles, results stored so nothing is dead.
func.func @allops(%out: i64, %a: i32, %b: i32, %la: i64, %lb: i64, %x: f32, %y: f32, %hx: f16, %hy: f16, %bx: bf16, %dx: f64, %sa: i16) {
  %t = arith.constant true
  %c7 = arith.constant 7 : i32
  %ci = arith.constant -3 : i64
  %cx = arith.constant 1.5 : f32
  %ch = arith.constant 1.0 : f16
  %cd = arith.constant 2.5 : f64
  %cb = arith.constant 1.0 : bf16
  %ix = arith.constant 5 : index
  %s16 = arith.constant 9 : i16
  %0 = arith.addi %a, %b : i32
  %1 = arith.subi %0, %c7 : i32
  %2 = arith.muli %1, %b : i32
  %3 = arith.divsi %2, %a : i32
  %4 = arith.divui %3, %a : i32
  %5 = arith.remsi %4, %b : i32
  %6 = arith.remui %5, %b : i32
  %7 = arith.andi %6, %a : i32
  %8 = arith.ori %7, %a : i32
  %9 = arith.xori %8, %a : i32
  %10 = arith.shli %9, %b : i32
  %11 = arith.shrsi %10, %b : i32
  %12 = arith.shrui %11, %b : i32
  %13 = arith.maxsi %12, %a : i32
  %14 = arith.minsi %13, %a : i32
  %15 = arith.maxui %14, %a : i32
  %16 = arith.minui %15, %a : i32
  %l0 = arith.addi %la, %lb : i64
  %l1 = arith.muli %l0, %ci : i64
  %l2 = arith.shli %l1, %lb : i64
  %l3 = arith.shrsi %l2, %lb : i64
  %l4 = arith.divui %l3, %lb : i64
  %s1 = arith.addi %sa, %s16 : i16
  %s2 = arith.muli %s1, %sa : i16
  %f0 = arith.addf %x, %y : f32
  %f1 = arith.subf %f0, %cx : f32
  %f2 = arith.mulf %f1, %y fastmath<contract> : f32
  %f3 = arith.divf %f2, %y : f32
  %f4 = arith.maximumf %f3, %x : f32
  %f5 = arith.minimumf %f4, %y : f32
  %f6 = arith.negf %f5 : f32
  %h0 = arith.addf %hx, %hy : f16
  %h1 = arith.mulf %h0, %ch : f16
  %h2 = arith.divf %h1, %hy : f16
  %h3 = arith.maximumf %h2, %hx : f16
  %h4 = arith.negf %h3 : f16
  %b0 = arith.addf %bx, %cb : bf16
  %b1 = arith.minimumf %b0, %bx : bf16
  %d0 = arith.mulf %dx, %cd : f64
  %d1 = arith.divf %d0, %dx : f64
  %d2 = arith.maximumf %d1, %dx : f64
  %p0 = arith.cmpi slt, %a, %b : i32
  %p1 = arith.cmpi uge, %la, %lb : i64
  %p2 = arith.cmpi eq, %a, %c7 : i32
  %p3 = arith.cmpf olt, %x, %y : f32
  %p4 = arith.cmpf uno, %x, %y : f32
  %p5 = arith.cmpf une, %hx, %hy : f16
  %p6 = arith.cmpf true, %x, %y : f32
  %p7 = arith.andi %p0, %p1 : i1
  %p8 = arith.ori %p7, %p2 : i1
  %p9 = arith.xori %p8, %t : i1
  %p10 = arith.cmpi ne, %p9, %p3 : i1
  %p11 = arith.select %p4, %p10, %p5 : i1
  %p12 = arith.andi %p11, %p6 : i1
  %sel = arith.select %p12, %16, %a : i32
  %self = arith.select %p0, %f6, %x : f32
  %selh = arith.select %p1, %h4, %hx : f16
  %e0 = arith.extsi %sel : i32 to i64
  %e1 = arith.extui %sel : i32 to i64
  %e2 = arith.trunci %e1 : i64 to i32
  %e3 = arith.extui %p12 : i1 to i32
  %e4 = arith.extsi %p12 : i1 to i32
  %e5 = arith.trunci %e2 : i32 to i1
  %e6 = arith.index_cast %e2 : i32 to index
  %e7 = arith.addi %e6, %ix : index
  %e8 = arith.index_cast %e7 : index to i64
  %e9 = arith.index_castui %sel : i32 to index
  %e10 = arith.extsi %s2 : i16 to i32
  %e11 = arith.trunci %e10 : i32 to i16
  %c0 = arith.sitofp %e2 : i32 to f32
  %c1 = arith.uitofp %l4 : i64 to f32
  %c2 = arith.fptosi %self : f32 to i32
  %c3 = arith.fptoui %self : f32 to i64
  %c4 = arith.truncf %self : f32 to f16
  %c5 = arith.truncf %self : f32 to bf16
  %c6 = arith.extf %selh : f16 to f32
  %c7b = arith.extf %b1 : bf16 to f32
  %c8 = arith.truncf %d2 : f64 to f32
  %c9 = arith.extf %c0 : f32 to f64
  %c10 = arith.sitofp %e2 : i32 to f16
  %c11 = arith.bitcast %c1 : f32 to i32
  %c12 = arith.bitcast %c4 : f16 to i16
  %c13 = arith.fptosi %hx : f16 to i32
  %v0 = arith.addi %e3, %e4 : i32
  %v1 = arith.addi %v0, %c2 : i32
  %v2 = arith.addi %v1, %c11 : i32
  %v3 = arith.addi %v2, %c13 : i32
  %w0 = arith.addi %e0, %e8 : i64
  %w1 = arith.addi %w0, %c3 : i64
  %w2 = arith.index_cast %e9 : index to i64
  %w3 = arith.addi %w1, %w2 : i64
  %g0 = arith.addf %c6, %c7b : f32
  %g1 = arith.addf %g0, %c8 : f32
  %g2 = arith.extf %c5 : bf16 to f32
  %g3 = arith.addf %g1, %g2 : f32
  %g4 = arith.extf %c10 : f16 to f32
  %g5 = arith.addf %g3, %g4 : f32
  ptx.inst "st.global.u32" [%out], %v3 : (i64, i32) -> ()
  ptx.inst "st.global.u64" [%out+8], %w3 : (i64, i64) -> ()
  ptx.inst "st.global.f32" [%out+16], %g5 : (i64, f32) -> ()
  ptx.inst "st.global.f64" [%out+24], %c9 : (i64, f64) -> ()
  ptx.inst "st.global.b16" [%out+32], %c12 : (i64, i16) -> ()
  ptx.inst "st.global.b16" [%out+34], %e11 : (i64, i16) -> ()
  ptx.inst "st.global.u32" [%out+36], %e2 if %e5 : (i64, i32) -> ()
  return
}
