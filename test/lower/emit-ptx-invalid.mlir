// --emit-ptx reports what it cannot print, at the op.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --emit-ptx

// expected-error@+1 {{cannot emit 'func.func' as PTX: a module to emit holds only 'ptx.entry' and 'ptx.shared_decl' ops (run convert-func-to-ptx first)}}
func.func @f() {
  return
}

// -----

ptx.entry @k(%a: i32) attributes {target = "sm_90a"} {
  // expected-error@+1 {{cannot emit 'arith.addi' as PTX (run convert-arith-to-ptx first)}}
  %0 = arith.addi %a, %a : i32
  ptx.ret
}

// -----

// expected-note@+1 {{the first kernel is here}}
ptx.entry @k1() attributes {target = "sm_90a"} {
  ptx.ret
}
// expected-error@+1 {{cannot emit PTX: kernel target 'sm_100a' differs from 'sm_90a' of the first kernel (one PTX file has one .target)}}
ptx.entry @k2() attributes {target = "sm_100a"} {
  ptx.ret
}

// -----

// expected-error@+1 {{cannot emit PTX: the module has no 'ptx.entry' (run convert-func-to-ptx first)}}
module {
}

// -----

// An i8 flag sits in a 16-bit register whose upper bits nothing defines: no compare.
ptx.entry @switch_i8(%a: i8) attributes {target = "sm_90a"} {
  // expected-error@+1 {{cannot emit a 'cf.switch' on 'i8' as PTX (it compares 16-, 32- or 64-bit integers)}}
  cf.switch %a : i8, [
    default: ^bb1,
    1: ^bb1
  ]
^bb1:
  ptx.ret
}
