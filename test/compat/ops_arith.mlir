// Every op of MLIR 22's arith dialect, in custom form (with the optional
// flags each takes) and then in generic form.

func.func @int(%a: i32, %b: i32, %v: vector<4xi32>, %i: index, %vc: vector<4xi1>) -> i32 {
  %c = arith.constant 7 : i32
  %cv = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b overflow<nsw, nuw> : i32
  %2 = arith.subi %a, %b overflow<nsw> : i32
  %3 = arith.muli %a, %b overflow<nuw> : i32
  %4 = arith.divsi %a, %b : i32
  %5 = arith.divui %a, %b : i32
  %6 = arith.ceildivsi %a, %b : i32
  %7 = arith.ceildivui %a, %b : i32
  %8 = arith.floordivsi %a, %b : i32
  %9 = arith.remsi %a, %b : i32
  %10 = arith.remui %a, %b : i32
  %11 = arith.andi %a, %b : i32
  %12 = arith.ori %a, %b : i32
  %13 = arith.xori %a, %b : i32
  %14 = arith.shli %a, %b overflow<nsw> : i32
  %15 = arith.shrsi %a, %b : i32
  %16 = arith.shrui %a, %b : i32
  %17 = arith.maxsi %a, %b : i32
  %18 = arith.maxui %a, %b : i32
  %19 = arith.minsi %a, %b : i32
  %20 = arith.minui %a, %b : i32
  %sum, %overflow = arith.addui_extended %a, %b : i32, i1
  %vsum, %voverflow = arith.addui_extended %v, %cv : vector<4xi32>, vector<4xi1>
  %low, %high = arith.mulsi_extended %a, %b : i32
  %ulow, %uhigh = arith.mului_extended %v, %cv : vector<4xi32>
  %21 = arith.cmpi slt, %a, %b : i32
  %22 = arith.cmpi uge, %a, %b : i32
  %23 = arith.select %21, %a, %b : i32
  %24 = arith.select %vc, %v, %cv : vector<4xi1>, vector<4xi32>
  %25 = arith.index_cast %a : i32 to index
  %26 = arith.index_castui %i : index to i64
  %27 = arith.extsi %a : i32 to i64
  %28 = arith.extui %a : i32 to i64
  %29 = arith.trunci %27 : i64 to i16
  %30 = arith.trunci %28 overflow<nsw> : i64 to i8
  return %0 : i32
}

func.func @float(%x: f32, %y: f32, %h: f16, %a: i32, %s: f8E8M0FNU, %q: f4E2M1FN, %t: tensor<2xf32>) -> f32 {
  %c = arith.constant 1.500000e+00 : f32
  %0 = arith.addf %x, %y : f32
  %1 = arith.subf %x, %y fastmath<nnan, ninf> : f32
  %2 = arith.mulf %x, %y fastmath<fast> : f32
  %3 = arith.divf %x, %y : f32
  %4 = arith.remf %x, %y : f32
  %5 = arith.maximumf %x, %y : f32
  %6 = arith.minimumf %x, %y : f32
  %7 = arith.maxnumf %x, %y fastmath<nsz> : f32
  %8 = arith.minnumf %t, %t : tensor<2xf32>
  %9 = arith.negf %x : f32
  %10 = arith.cmpf olt, %x, %y : f32
  %11 = arith.cmpf uno, %x, %y fastmath<nnan> : f32
  %12 = arith.extf %h : f16 to f32
  %13 = arith.extf %h fastmath<contract> : f16 to f64
  %14 = arith.truncf %x : f32 to f16
  %15 = arith.truncf %x to_nearest_away : f32 to bf16
  %16 = arith.truncf %x toward_zero fastmath<fast> : f32 to f16
  %17 = arith.sitofp %a : i32 to f32
  %18 = arith.uitofp %a : i32 to f64
  %19 = arith.fptosi %x : f32 to i32
  %20 = arith.fptoui %x : f32 to i16
  %21 = arith.bitcast %x : f32 to i32
  %22 = arith.scaling_extf %q, %s : f4E2M1FN, f8E8M0FNU to f32
  %23 = arith.scaling_extf %h, %s fastmath<fast> : f16, f8E8M0FNU to f32
  %24 = arith.scaling_truncf %x, %s : f32, f8E8M0FNU to f4E2M1FN
  %25 = arith.scaling_truncf %x, %s downward fastmath<nnan> : f32, f8E8M0FNU to f4E2M1FN
  return %0 : f32
}

"func.func"() <{function_type = (i32, i32, f32, f8E8M0FNU) -> (), sym_name = "generic"}> ({
^bb0(%a: i32, %b: i32, %x: f32, %s: f8E8M0FNU):
  %0 = "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
  %1 = "arith.ceildivui"(%a, %b) : (i32, i32) -> i32
  %2:2 = "arith.addui_extended"(%a, %b) : (i32, i32) -> (i32, i1)
  %3:2 = "arith.mulsi_extended"(%a, %b) : (i32, i32) -> (i32, i32)
  %4:2 = "arith.mului_extended"(%a, %b) : (i32, i32) -> (i32, i32)
  %5 = "arith.remf"(%x, %x) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %6 = "arith.maxnumf"(%x, %x) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
  %7 = "arith.minnumf"(%x, %x) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %8 = "arith.truncf"(%x) <{fastmath = #arith.fastmath<nnan>, roundingmode = 3 : i32}> : (f32) -> f16
  %9 = "arith.scaling_truncf"(%x, %s) <{roundingmode = 0 : i32}> : (f32, f8E8M0FNU) -> f4E2M1FN
  %10 = "arith.scaling_extf"(%9, %s) : (f4E2M1FN, f8E8M0FNU) -> f32
  %11 = "arith.trunci"(%a) <{overflowFlags = #arith.overflow<nuw>}> : (i32) -> i8
  %12 = "arith.cmpi"(%a, %b) <{predicate = 9 : i64}> : (i32, i32) -> i1
  %13 = "arith.cmpf"(%x, %x) <{fastmath = #arith.fastmath<none>, predicate = 15 : i64}> : (f32, f32) -> i1
  "func.return"() : () -> ()
}) : () -> ()
