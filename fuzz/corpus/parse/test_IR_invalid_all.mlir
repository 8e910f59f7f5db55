// Verifier rules, one per split: each error must be reported with MLIR's wording at the op.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @dominance() -> i32 {
  // expected-error@+1 {{operand #0 does not dominate this use}}
  %0 = arith.addi %1, %1 : i32
  // expected-note@+1 {{operand defined here}}
  %1 = arith.constant 1 : i32
  return %0 : i32
}

// -----

func.func @cross_block(%c: i1) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  // expected-note@+1 {{operand defined here}}
  %x = arith.constant 1 : i32
  cf.br ^bb2
^bb2:
  // expected-error@+1 {{operand #0 does not dominate this use}}
  return %x : i32
}

// -----

func.func @no_terminator() {
  // expected-error@+1 {{block with no terminator}}
  %0 = arith.constant 1 : i32
}

// -----

func.func @terminator_not_last() {
  // expected-error@+1 {{'func.return' op must be the last operation in the parent block}}
  "func.return"() : () -> ()
  %0 = arith.constant 1 : i32
  return
}

// -----

func.func @f() {
  return
}
// expected-error@+1 {{redefinition of symbol named 'f'}}
func.func @f() {
  return
}
// expected-note@-7 {{see existing symbol definition here}}

// -----

func.func @successor_types(%a: i64) {
  // expected-error@+1 {{'cf.br' op type mismatch for bb argument #0 of successor #0: expected 'i32' (the block argument's type), but the operand is 'i64'}}
  cf.br ^bb1(%a : i64)
^bb1(%x: i32):
  return
}

// -----

func.func @successor_count() {
  // expected-error@+1 {{'cf.br' op branch has 0 operands for successor #0, but target block has 1}}
  cf.br ^bb1
^bb1(%x: i32):
  return
}

// -----

func.func @isolated(%a: i32) {
  "foo.region"() ({
    func.func @inner() -> i32 {
      // An isolated op does not see values from outside: the name is unknown there.
      // expected-error@+1 {{use of undeclared SSA value name '%a'}}
      return %a : i32
    }
  }) : () -> ()
  return
}

// -----

func.func @operand_constraint(%a: f32) -> f32 {
  // expected-error@+1 {{'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = "arith.addi"(%a, %a) : (f32, f32) -> f32
  return %0 : f32
}

// -----

func.func @same_type(%a: i32, %b: i64) {
  // expected-error@+1 {{'arith.addi' op requires the same type for all operands and results, but found 'i32' and 'i64'}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  return
}

// -----

// expected-error@+1 {{'func.return' op expects parent op 'func.func'}}
"func.return"() : () -> ()

// -----

func.func @missing_attr() -> i32 {
  // expected-error@+1 {{'arith.constant' op requires attribute 'value'}}
  %0 = "arith.constant"() : () -> i32
  return %0 : i32
}

// -----

func.func @attr_constraint() {
  %x = arith.constant 1 : i32
  // expected-error@+1 {{'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: integer comparison predicate, but found "slt"}}
  %0 = "arith.cmpi"(%x, %x) {predicate = "slt"} : (i32, i32) -> i1
  return
}

// -----

func.func @constant_type() {
  // expected-error@+1 {{'arith.constant' op value type 'i64' must match result type 'i32'}}
  %0 = "arith.constant"() {value = 1 : i64} : () -> i32
  return
}

// -----

// expected-note@+1 {{enclosing function is here}}
func.func @return_count() -> i32 {
  // expected-error@+1 {{'func.return' op has 0 operands, but enclosing function (@return_count) returns 1}}
  return
}

// -----

func.func @call_unknown() {
  // expected-error@+1 {{'func.call' op 'nowhere' does not reference a valid function}}
  func.call @nowhere() : () -> ()
  return
}

// -----

func.func private @callee(i32) -> i32
func.func @call_types(%a: i64) {
  // expected-error@+1 {{'func.call' op operand type mismatch: expected operand type 'i32', but provided 'i64' for operand number 0}}
  %0 = func.call @callee(%a) : (i64) -> i32
  return
}

// -----

func.func @operand_count(%a: i32) {
  // expected-error@+1 {{'arith.addi' op requires 2 operands, but found 1}}
  %0 = "arith.addi"(%a) : (i32) -> i32
  return
}

// -----

// expected-error@+1 {{unregistered operation 'arith.frobnicate' found in dialect ('arith') that does not allow unknown operations}}
"arith.frobnicate"() : () -> ()

// -----

func.func @entry_args(%a: i32) {
// expected-error@+1 {{invalid block name in region with named arguments}}
^bb0(%x: i64):
  return
}
