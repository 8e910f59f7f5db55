// Syntax errors, one per split, each reported at the offending token with its exact message.
// With --verify-diagnostics every error (and note) announced in a comment must be produced on
// the line it names, and nothing else may be reported. These are errors of the parser; the
// verifier's errors are in invalid.mlir.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// An op in custom form must belong to a registered dialect.
func.func @unknown_custom_op() {
  // expected-error@+1 {{custom op 'arith.frobnicate' is unknown}}
  %0 = arith.frobnicate : i32
  return
}

// -----

// A bare op name is also looked up in the default dialects of the enclosing ops.
func.func @unknown_bare_op() {
  // expected-error@+1 {{custom op 'frobnicate' is unknown (tried 'func.frobnicate' as well)}}
  %0 = frobnicate : i32
  return
}

// -----

// A region that is never closed: the error is at the end of the input, i.e. on the line after
// the last one of this split.
func.func @unterminated_region() {
  %0 = arith.constant 1 : i32
// expected-error@+1 {{expected '}' to end the region}}
// -----

// Types: an unknown keyword where a type is expected.
// expected-error@+1 {{expected type, found 'i33x'}}
"t.op"() : () -> (i33x)

// -----

// An attribute alias must be defined before it is used.
// expected-error@+1 {{undefined symbol alias id 'undefined_alias'}}
"t.op"() {a = #undefined_alias} : () -> ()

// -----

// So must a type alias.
// expected-error@+1 {{undefined symbol alias id 'undefined_type'}}
"t.op"() : () -> !undefined_type

// -----

// An alias is defined once.
#a = 1
// expected-error@+1 {{redefinition of attribute alias id 'a'}}
#a = 2

// -----

func.func @undeclared_value() {
  // expected-error@+1 {{use of undeclared SSA value name '%nope'}}
  "t.use"(%nope) : (i32) -> ()
  return
}

// -----

func.func @redefined_value() {
  // expected-note@+1 {{previously defined here}}
  %x = arith.constant 1 : i32
  // expected-error@+1 {{redefinition of SSA value '%x'}}
  %x = arith.constant 2 : i32
  return
}

// -----

// Every use of a value must give it the same type.
func.func @type_mismatch() {
  // expected-note@+1 {{'%x' is defined here with type 'i32'}}
  %x = "t.def"() : () -> i32
  // expected-error@+1 {{use of value '%x' expects different type than prior uses: 'i64' vs 'i32'}}
  "t.use"(%x) : (i64) -> ()
  return
}

// -----

func.func @custom_type_mismatch() {
  // expected-note@+1 {{'%0' is defined here with type 'i32'}}
  %0 = arith.constant 1 : i32
  // expected-error@+1 {{use of value '%0' expects different type than prior uses: 'i64' vs 'i32'}}
  %1 = arith.addi %0, %0 : i64
  return
}

// -----

// Integer literals must fit their type (i8 holds -128 to 255).
// expected-error@+1 {{integer constant out of range for attribute}}
"t.op"() {a = 256 : i8} : () -> ()

// -----

// expected-error@+1 {{integer constant out of range for attribute}}
"t.op"() {a = 0x1FF : i8} : () -> ()

// -----

// expected-error@+1 {{integer constant out of range for attribute}}
"t.op"() {a = 99999999999999999999 : i64} : () -> ()

// -----

// expected-error@+1 {{floating point value not valid for specified type}}
"t.op"() {a = 1.5 : i32} : () -> ()

// -----

func.func @undefined_block() {
  // expected-error@+1 {{reference to an undefined block '^missing'}}
  cf.br ^missing
}

// -----

func.func @redefined_block() {
// expected-note@+1 {{previously defined here}}
^bb0:
  return
// expected-error@+1 {{redefinition of block '^bb0'}}
^bb0:
  return
}

// -----

// An attribute dictionary names each attribute once.
// expected-error@+1 {{attribute 'a' occurs more than once in the attribute list}}
"t.op"() {a = 1, a = 2} : () -> ()

// -----

// expected-error@+1 {{expected attribute, found '}'}}
"t.op"() {a = } : () -> ()

// -----

// The generic form's function type lists one type per operand.
func.func @operand_type_count(%a: i32) {
  // expected-error@+1 {{expected 2 operand types but had 1}}
  "t.use"(%a, %a) : (i32) -> ()
  return
}

// -----

// expected-error@+1 {{expected 0 operand types but had 1}}
"t.op"() : (i32) -> ()

// -----

func.func @operand_type_count_one(%a: i32) {
  // expected-error@+1 {{expected 1 operand type but had 2}}
  "t.use"(%a) : (i32, i32) -> ()
  return
}

// -----

// `%0:2 = ` binds two results; the op must define exactly that many, in custom form...
func.func @result_count_custom() {
  // expected-error@+1 {{operation defines 1 results but was provided 2 to bind}}
  %0:2 = arith.constant 1 : i32
  return
}

// -----

// ... and in generic form, in both directions.
func.func @result_count_generic() {
  // expected-error@+1 {{operation defines 1 results but was provided 2 to bind}}
  %0:2 = "t.def"() : () -> i32
  return
}

// -----

// expected-error@+1 {{operation defines 2 results but was provided 1 to bind}}
%0 = "t.def"() : () -> (i32, i32)

// -----

%0 = "t.op"() : () -> (i32)
// expected-error@+1 {{result number 1 of '%0' is out of range (it has 1 results)}}
"t.use"(%0#1) : (i32) -> ()

// -----

// Text after an op starts the next op; a bare word is taken as a custom op name.
// expected-error@+1 {{custom op 'garbage' is unknown (tried 'builtin.garbage' as well)}}
"t.op"() : () -> () garbage

// -----

// MLIR reads a type only after a dialect attribute, not after an alias of one.
#a = #t.attr<1>
// expected-error@+1 {{a type follows only a dialect attribute, not an attribute alias}}
"t.op"() {a = #a : i32} : () -> ()

// -----

// Op names without a dialect prefix take the region's default dialect, as in MLIR: func in a
// function (not builtin)...
func.func @builtin_op_unprefixed_in_func(%x: i32) -> i64 {
  // expected-error@+1 {{custom op 'unrealized_conversion_cast' is unknown (tried 'func.unrealized_conversion_cast' as well)}}
  %y = unrealized_conversion_cast %x : i32 to i64
  return %y : i64
}

// -----

func.func @module_in_func() {
  // expected-error@+1 {{custom op 'module' is unknown (tried 'func.module' as well)}}
  module {
  }
  return
}

// -----

// ... and none in the body of an op that names no default dialect (MLIR: "Dialect `' not
// found for custom op 'call'").
func.func @g() {
  return
}
func.func @call_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{custom op 'call' is unknown}}
    call @g() : () -> ()
  }
  return
}

