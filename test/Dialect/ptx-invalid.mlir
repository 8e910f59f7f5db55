// The ptx verifier's rules, each with its message.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

ptx.entry @k() attributes {target = "sm_90a"} {
  // expected-error@+1 {{'ptx.inst' op opcode must not be empty}}
  ptx.inst ""
  ptx.ret
}

// -----

ptx.entry @k() attributes {target = "sm_90a"} {
  // expected-error@+1 {{'ptx.inst' op opcode 'add s32' has the character ' '; an opcode is letters, digits, '.', '_' and ':'}}
  ptx.inst "add s32"
  ptx.ret
}

// -----

ptx.entry @k(%a: i32) attributes {target = "sm_90a"} {
  // expected-error@+1 {{'ptx.inst' op result #0 must be a PTX register type (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64, vector<2xf16>, vector<2xbf16> or !ptx.tensormap), but got 'vector<4xf32>'}}
  %v = "ptx.inst"() <{opcode = "mov.b32", form = "0", operandSegmentSizes = array<i32: 0, 0>}> : () -> vector<4xf32>
  ptx.ret
}

// -----

ptx.entry @k(%a: i32) attributes {target = "sm_90a"} {
  // expected-error@+1 {{'ptx.inst' op form refers to operand $1, but there are 1 operands}}
  %v = "ptx.inst"(%a) <{opcode = "mov.b32", form = "$1", operandSegmentSizes = array<i32: 1, 0>}> : (i32) -> i32
  ptx.ret
}

// -----

ptx.entry @k(%a: i32) attributes {target = "sm_90a"} {
  // expected-error@+1 {{'ptx.inst' op operand #1 does not appear in the form}}
  %v = "ptx.inst"(%a, %a) <{opcode = "add.s32", form = "$0, 1", operandSegmentSizes = array<i32: 2, 0>}> : (i32, i32) -> i32
  ptx.ret
}

// -----

ptx.entry @k(%a: i32) attributes {target = "sm_90a"} {
  // expected-error@+1 {{'ptx.inst' op form must not contain ';' (use ptx.asm for several instructions)}}
  %v = "ptx.inst"(%a) <{opcode = "mov.b32", form = "$0; trap", operandSegmentSizes = array<i32: 1, 0>}> : (i32) -> i32
  ptx.ret
}

// -----

ptx.entry @k() attributes {target = "sm_90a"} {
  // expected-error@+1 {{'ptx.special' op unknown special register 'tidx'}}
  %t = ptx.special tidx : i32
  ptx.ret
}

// -----

ptx.entry @k() attributes {target = "sm_90a"} {
  // expected-error@+1 {{'ptx.special' op %clock64 is i64, but the result is 'i32'}}
  %t = ptx.special clock64 : i32
  ptx.ret
}

// -----

// expected-error@+1 {{'ptx.entry' op parameter #0 has type 'i1'; a kernel parameter must be an integer (i8..i64, pointers as i64), a float (f16, bf16, f32, f64) or !ptx.tensormap}}
ptx.entry @k(%p: i1) attributes {target = "sm_90a"} {
  ptx.ret
}

// -----

// expected-error@+1 {{'ptx.entry' op attribute 'target' failed to satisfy constraint: PTX target string (e.g. "sm_90a"), but found "hopper"}}
ptx.entry @k() attributes {target = "hopper"} {
  ptx.ret
}

// -----

ptx.entry @k(%a: i32) attributes {target = "sm_90a"} {
  // expected-error@+1 {{'ptx.asm' op refers to $2, but there are 2 results and operands}}
  %r = ptx.asm "mov.u32 $0, $2;" %a : (i32) -> i32
  ptx.ret
}

// -----

// expected-error@+1 {{'ptx.shared_decl' op alignment must be a power of two, but is 24}}
ptx.shared_decl @s align 24

// -----

ptx.entry @k() attributes {target = "sm_90a"} {
  // expected-error@+1 {{'ptx.addressof' op '@nothere' does not name a 'ptx.shared_decl'}}
  %a = ptx.addressof @nothere : i32
  ptx.ret
}

// -----

// expected-error@+1 {{'!ptx.tensormap' takes no parameters}}
ptx.entry @k(%m: !ptx.tensormap<2>) attributes {target = "sm_90a"} {
  ptx.ret
}

// -----

func.func @f() {
  // expected-error@+1 {{'ptx.ret' op expects parent op 'ptx.entry'}}
  ptx.ret
}
