// Verifier rules of MLIR 22 that tilus-opt once let through, found by running MLIR's own
// test inputs: each split is rejected by mlir-opt with the message given (MLIR's wording).
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @constant_unsigned() {
  // expected-error@+1 {{'arith.constant' op integer return type must be signless}}
  %0 = arith.constant 7 : ui32
  return
}

// -----

func.func @constant_scalable_not_splat() {
  // expected-error@+1 {{'arith.constant' op intializing scalable vectors with elements attribute is not supported unless it's a vector splat}}
  %0 = arith.constant dense<[[3, 3], [1, 2]]> : vector<2 x [2] x i32>
  return
}

// -----

func.func @trunci_scalable_to_fixed(%a: vector<[4]xi32>) {
  // expected-error@+1 {{'arith.trunci' op requires the same shape for all operands and results}}
  %0 = arith.trunci %a : vector<[4]xi32> to vector<4xi8>
  return
}

// -----

func.func @bitcast_fixed_to_scalable(%a: vector<4xf32>) {
  // expected-error@+1 {{'arith.bitcast' op requires the same shape for all operands and results}}
  %0 = arith.bitcast %a : vector<4xf32> to vector<[4]xi32>
  return
}

// -----

func.func @select_rank0_mask(%c: tensor<i1>, %a: tensor<2xi64>) {
  // expected-error@+1 {{'arith.select' op failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %c, %a, %a : tensor<i1>, tensor<2xi64>
  return
}

// -----

func.func @select_mask_encoding(%c: tensor<8xi1, "bar">, %a: tensor<8xi32, "foo">) {
  // expected-error@+1 {{'arith.select' op expected condition type to have the same shape as the result type}}
  %0 = arith.select %c, %a, %a : tensor<8xi1, "bar">, tensor<8xi32, "foo">
  return
}

// -----

func.func @if_region_arguments(%c: i1) {
  // expected-error@+1 {{'scf.if' op region #0 should have no arguments}}
  "scf.if"(%c) ({
  ^bb0(%x: index):
    scf.yield
  }, {}) : (i1) -> ()
  return
}

// -----

// expected-error@+1 {{'func.func' op arguments may only have dialect attributes}}
func.func private @arg_attr_without_dialect(i1 {non_dialect_attr = 10})

// -----

// expected-error@+1 {{'func.func' op results may only have dialect attributes}}
func.func private @result_attr_without_dialect() -> (i1 {non_dialect_attr = 10})

// -----

func.func @weights_count(%c: i1) {
  // expected-error@+1 {{expects number of branch weights to match number of successors: 1 vs 2}}
  cf.cond_br %c weights([100]), ^bb1, ^bb2
^bb1:
  return
^bb2:
  return
}

// -----

func.func @weights_zero(%c: i1) {
  // expected-error@+1 {{branch weights cannot all be zero}}
  cf.cond_br %c weights([0, 0]), ^bb1, ^bb2
^bb1:
  return
^bb2:
  return
}

// -----

// The region of an unregistered op is a graph region for its own values, but a value of the
// enclosing function body still has to dominate the use.
func.func @use_before_def_from_graph_region() {
  "foo.region"() ({
    // expected-error@+1 {{operand #0 does not dominate this use}}
    "foo.use"(%x) : (i32) -> ()
  }) : () -> ()
  // expected-note@+1 {{operand defined here}}
  %x = "foo.def"() : () -> i32
  return
}

// -----

// expected-note@+1 {{operand defined as a block argument (block #1 in a parent region)}}
func.func @block_arg_from_graph_region() {
^bb0:
  %f = "foo.region"() ({
    // expected-error@+1 {{operand #0 does not dominate this use}}
    "foo.use"(%x) : (i32) -> ()
  }) : () -> (i32)
  cf.br ^bb1(%f : i32)
^bb1(%x : i32):
  return
}

// -----

func.func @extf_changes_encoding(%a: tensor<2xf32, "foo">) {
  // expected-error@+1 {{'arith.extf' op operand type 'tensor<2xf32, "foo">' and result type 'tensor<2xf64, "bar">' are cast incompatible}}
  %0 = arith.extf %a : tensor<2xf32, "foo"> to tensor<2xf64, "bar">
  return
}

// -----

func.func @cast_unranked(%t: tensor<*xi32>) {
  // expected-error@+1 {{'arith.extsi' op failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.extsi %t : tensor<*xi32> to tensor<*xi64>
  return
}
