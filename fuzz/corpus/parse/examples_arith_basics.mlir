// Integer and float arithmetic with the builtin, func and arith dialects: what tilus-opt parses,
// verifies and prints today. Run: cargo run --release -p tilus-opt -- examples/arith_basics.mlir
func.func @axpy_scalar(%a: f32, %x: f32, %y: f32) -> f32 {
  %0 = arith.mulf %a, %x : f32
  %1 = arith.addf %0, %y : f32
  return %1 : f32
}

// Clamp an index into [0, n): the kind of bounds logic tile kernels do per thread.
func.func @clamp(%i: i32, %n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %last = arith.subi %n, %c1 : i32
  %lo = arith.maxsi %i, %c0 : i32
  %hi = arith.minsi %lo, %last : i32
  return %hi : i32
}

// Blocks per grid for n elements and a block size: ceil(n / bs) with index arithmetic.
func.func @num_blocks(%n: index, %bs: index) -> index {
  %0 = arith.ceildivsi %n, %bs : index
  return %0 : index
}

func.func @main(%n: index) -> (f32, i32, index) {
  %a = arith.constant 2.0 : f32
  %x = arith.constant 1.5 : f32
  %y = arith.constant -0.5 : f32
  %r = func.call @axpy_scalar(%a, %x, %y) : (f32, f32, f32) -> f32
  %i = arith.constant 1000 : i32
  %lim = arith.constant 256 : i32
  %c = func.call @clamp(%i, %lim) : (i32, i32) -> i32
  %bs = arith.constant 128 : index
  %nb = func.call @num_blocks(%n, %bs) : (index, index) -> index
  return %r, %c, %nb : f32, i32, index
}
