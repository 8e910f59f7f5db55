// convert-func-to-ptx reports functions that cannot be kernels.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --convert-func-to-ptx --no-output

// expected-error@+1 {{cannot make a kernel of a function that returns values}}
func.func @returns(%a: i32) -> i32 {
  return %a : i32
}

// -----

// expected-error@+1 {{cannot make a kernel parameter of argument #0 of type 'i1' (integers, pointers as i64, floats or !ptx.tensormap)}}
func.func @pred_param(%a: i1) {
  return
}

// -----

// expected-error@+1 {{cannot make a kernel parameter of argument #0 of type 'memref<4xf32>'}}
func.func @memref_param(%a: memref<4xf32>) {
  return
}
