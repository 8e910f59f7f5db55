// lower-tiles reports what it cannot lower, at the op.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --lower-tiles --no-output

tilus.kernel @mismatch(%p: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %g = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %v = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %a = tilus.load_global %g[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
  %b = tilus.load_global %v[%c0] : !tilus.global<32xf32> -> !tilus.reg<32xf32, layout = spatial(32)>
  // A row vector spread over the lanes cannot be broadcast over rows held by those lanes.
  // expected-error@+1 {{lower-tiles: the operand layout 'spatial(32)' does not give thread 1 the element [0] that register 0 of 'local(1, 32) * spatial(32, 1)' needs (use layout.convert)}}
  %c = tilus.add %a, %b : (!tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>, !tilus.reg<32xf32, layout = spatial(32)>) -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
}

// -----

tilus.kernel @dot() warps(1) blocks(affine_map<() -> (1)>) {
  %z = arith.constant 0 : i32
  %h = arith.constant 0 : i8
  %a = tilus.register_tensor init(%h : i8) : !tilus.reg<16x16xi8>
  %c = tilus.register_tensor init(%z : i32) : !tilus.reg<16x16xi32>
  // expected-error@+1 {{lower-tiles: tilus.dot: only an f32 accumulator and result are lowered}}
  %d = tilus.dot %a, %a, %c : (!tilus.reg<16x16xi8>, !tilus.reg<16x16xi8>, !tilus.reg<16x16xi32>) -> !tilus.reg<16x16xi32>
}
