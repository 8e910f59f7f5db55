// The width and kind rules of arith's conversions (MLIR's areCastCompatible and
// SameOperandsAndResultShape), with mlir-opt 22's messages: extensions widen, truncations
// narrow, bitcasts keep the width, index_cast has `index` on exactly one side.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

func.func @extsi_narrows(%a: i32) -> i16 {
  // expected-error@+1 {{'arith.extsi' op operand type 'i32' and result type 'i16' are cast incompatible}}
  %0 = arith.extsi %a : i32 to i16
  return %0 : i16
}

// -----

func.func @extui_same_width(%a: i32) -> i32 {
  // expected-error@+1 {{'arith.extui' op operand type 'i32' and result type 'i32' are cast incompatible}}
  %0 = arith.extui %a : i32 to i32
  return %0 : i32
}

// -----

func.func @extsi_to_index(%a: i32) -> index {
  // expected-error@+1 {{'arith.extsi' op result #0 must be signless-fixed-width-integer-like, but got 'index'}}
  %0 = arith.extsi %a : i32 to index
  return %0 : index
}

// -----

func.func @trunci_widens(%a: i16) -> i32 {
  // expected-error@+1 {{'arith.trunci' op operand type 'i16' and result type 'i32' are cast incompatible}}
  %0 = arith.trunci %a : i16 to i32
  return %0 : i32
}

// -----

func.func @extf_narrows(%a: f32) -> f16 {
  // expected-error@+1 {{'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible}}
  %0 = arith.extf %a : f32 to f16
  return %0 : f16
}

// -----

// bf16 and f16 have one width: neither extends the other.
func.func @extf_same_width(%a: bf16) -> f16 {
  // expected-error@+1 {{'arith.extf' op operand type 'bf16' and result type 'f16' are cast incompatible}}
  %0 = arith.extf %a : bf16 to f16
  return %0 : f16
}

// -----

func.func @truncf_widens(%a: f16) -> f32 {
  // expected-error@+1 {{'arith.truncf' op operand type 'f16' and result type 'f32' are cast incompatible}}
  %0 = arith.truncf %a : f16 to f32
  return %0 : f32
}

// -----

func.func @bitcast_between_widths(%a: i32) -> f16 {
  // expected-error@+1 {{'arith.bitcast' op operand type 'i32' and result type 'f16' are cast incompatible}}
  %0 = arith.bitcast %a : i32 to f16
  return %0 : f16
}

// -----

func.func @bitcast_index(%a: index) -> i64 {
  // expected-error@+1 {{'arith.bitcast' op operand #0 must be signless-integer-or-float-like or memref of signless-integer or float, but got 'index'}}
  %0 = arith.bitcast %a : index to i64
  return %0 : i64
}

// -----

func.func @index_cast_without_index(%a: i32) -> i64 {
  // expected-error@+1 {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.index_cast %a : i32 to i64
  return %0 : i64
}

// -----

func.func @index_castui_both_index(%a: index) -> index {
  // expected-error@+1 {{'arith.index_castui' op operand type 'index' and result type 'index' are cast incompatible}}
  %0 = arith.index_castui %a : index to index
  return %0 : index
}

// -----

func.func @sitofp_from_index(%a: index) -> f32 {
  // expected-error@+1 {{'arith.sitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'index'}}
  %0 = arith.sitofp %a : index to f32
  return %0 : f32
}

// -----

func.func @fptoui_to_index(%a: f32) -> index {
  // expected-error@+1 {{'arith.fptoui' op result #0 must be signless-fixed-width-integer-like, but got 'index'}}
  %0 = arith.fptoui %a : f32 to index
  return %0 : index
}

// -----

func.func @vector_to_scalar(%a: vector<2xi8>) -> i16 {
  // expected-error@+1 {{'arith.extsi' op requires the same shape for all operands and results}}
  %0 = arith.extsi %a : vector<2xi8> to i16
  return %0 : i16
}

// -----

func.func @vector_shapes_differ(%a: vector<2xf32>) -> vector<3xi32> {
  // expected-error@+1 {{'arith.fptosi' op requires the same shape for all operands and results}}
  %0 = arith.fptosi %a : vector<2xf32> to vector<3xi32>
  return %0 : vector<3xi32>
}

// -----

func.func @tensor_to_vector(%a: tensor<2xi8>) -> vector<2xi16> {
  // expected-error@+1 {{'arith.extsi' op failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.extsi %a : tensor<2xi8> to vector<2xi16>
  return %0 : vector<2xi16>
}

// -----

// What each rule allows.
func.func @valid_casts(%i: i32, %x: index, %f: f16) {
  %0 = arith.extsi %i : i32 to i64
  %1 = arith.trunci %i : i32 to i8
  %2 = arith.extf %f : f16 to f32
  %3 = arith.truncf %2 : f32 to bf16
  %4 = arith.bitcast %i : i32 to f32
  %5 = arith.index_cast %x : index to i32
  %6 = arith.index_castui %i : i32 to index
  %7 = arith.sitofp %i : i32 to f16
  %8 = arith.fptoui %f : f16 to i64
  return
}

// -----

// An enum property outside its keywords would print as a keyword nothing reads back.
func.func @cmpi_predicate_out_of_range(%a: i32) -> i1 {
  // expected-error@+1 {{'arith.cmpi' op expects predicate to be one of 0 (eq), 1 (ne), 2 (slt), 3 (sle), 4 (sgt), 5 (sge), 6 (ult), 7 (ule), 8 (ugt), 9 (uge), but found 10}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 10 : i64}> : (i32, i32) -> i1
  return %0 : i1
}

// -----

func.func @cmpf_predicate_negative(%a: f32) -> i1 {
  // expected-error@+1 {{'arith.cmpf' op expects predicate to be one of 0 (false), 1 (oeq)}}
  %0 = "arith.cmpf"(%a, %a) <{predicate = -1 : i64}> : (f32, f32) -> i1
  return %0 : i1
}
