// Upstream syntax that MLIR 22 accepts and tilus-opt once refused or read differently:
// whitespace around the `x` of shapes, a function with unnamed parameters whose body names
// them in its entry label, `cf.cond_br` weights, `scf.while` attributes after the keyword,
// arith conversions of vectors, tensors and memrefs, `cf.switch` case values truncated to the
// flag's width, and opaque dialect symbols whose escapes MLIR keeps as written.

func.func private @shapes(vector<1 x f32>, vector<2 x [4] x f32>, tensor<* x f32>,
                          tensor<4 x ? x i8>, memref<2 x 32 x f32>, memref<* x f32, 1>)

func.func @unnamed_params(i32, i64) -> i64 {
^bb0(%a: i32, %b: i64):
  %0 = "foo.use"(%a, %b) : (i32, i64) -> i64
  return %0 : i64
}

func.func @weights(%c: i1) {
  cf.cond_br %c weights([60, 40]), ^bb1, ^bb2
^bb1:
  "cf.cond_br"(%c)[^bb2, ^bb2] <{branch_weights = array<i32: 0, 7>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> ()
^bb2:
  return
}

func.func @while_attrs(%c: i1, %i: index) -> index {
  %0 = scf.while (%a = %i) : (index) -> index {
    scf.condition(%c) %a : index
  } do {
  ^bb0(%b: index):
    scf.yield %b : index
  } attributes {foo = "bar"}
  return %0 : index
}

func.func @shaped_casts(%v: vector<[8]xi64>, %t: tensor<8x8xf32>, %m: memref<4xi32>,
                        %n: memref<?xindex>) {
  %0 = arith.bitcast %v : vector<[8]xi64> to vector<[8]xf64>
  %1 = arith.bitcast %t : tensor<8x8xf32> to tensor<8x8xi32>
  %2 = arith.bitcast %m : memref<4xi32> to memref<4xf32>
  %3 = arith.index_cast %m : memref<4xi32> to memref<4xindex>
  %4 = arith.index_castui %n : memref<?xindex> to memref<?xi64>
  %5 = arith.constant dense<[1, 1]> : vector<[2]xi32>
  return
}

func.func @switch_truncates(%f: i8) {
  cf.switch %f : i8, [
    default: ^bb1,
    256: ^bb1,
    -129: ^bb1,
    255: ^bb1
  ]
^bb1:
  return
}

"foo.opaque"() {a = #foo<"\"escaped\\\n\"">, b = #foo<"a\22b">, t = !foo<"x\"y">} : () -> ()

// Enum keywords may be strings, and a single result type may go without parentheses.
func.func @keyword_strings_and_arrows(%a: i32, %f: f64, %c: i1, %lb: index,
                                      %t: tensor<4xf32>) -> i1 {
  %0 = arith.cmpi "slt", %a, %a : i32
  %1 = arith.truncf %f "to_nearest_even" : f64 to f32
  %2 = scf.if %c -> i32 {
    scf.yield %a : i32
  } else {
    scf.yield %a : i32
  }
  %3 = scf.for %i = %lb to %lb step %lb iter_args(%x = %a) -> i32 {
    scf.yield %x : i32
  }
  scf.for %i = %lb to %lb step %lb iter_args() -> () {
  }
  %4 = scf.forall (%i) in (4) shared_outs(%o = %t) -> tensor<4xf32> {
    scf.forall.in_parallel {
    }
  }
  return %0 : i1
}

// Decimal literals in formats where tilus-opt once rounded differently from MLIR: an f64
// subnormal is a normal f80; f8E8M0FNU holds powers of two, rounded to the nearest in value,
// with zero becoming the smallest and overflow the NaN.
"t.floats"() {a = 4.9e-324 : f80, b = 1.0e-310 : f80, c = 0.0 : f8E8M0FNU, d = 1.45 : f8E8M0FNU,
              e = 3.4028235e38 : f8E8M0FNU, f = dense<[1.0e-40, 1.5, 6.0]> : tensor<3xf8E8M0FNU>} : () -> ()
