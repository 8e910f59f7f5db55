// Where functions and kernels may be, as mlir-opt 22 rules: a declaration (no body) is not
// public, and a symbol lives directly in a symbol table (a module), not in a function or
// kernel body.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @public_declaration(i32)

// -----

// expected-error@+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func public @explicitly_public_declaration(i32)

// -----

func.func private @private_declaration(i32)

// -----

// expected-note@+1 {{'func.func' is not a symbol table}}
func.func @outer() {
  // expected-error@+1 {{'func.func' op symbol's parent must have the SymbolTable trait}}
  func.func private @inner()
  return
}

// -----

// expected-note@+1 {{'tilus.kernel' is not a symbol table}}
tilus.kernel @outer_kernel() warps(1) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'tilus.kernel' op symbol's parent must have the SymbolTable trait}}
  tilus.kernel @inner_kernel() warps(1) blocks(affine_map<() -> (1)>) {
  }
}

// -----

// A nested module is a symbol table: functions inside it are fine.
module {
  module @inner {
    func.func private @f()
  }
}
