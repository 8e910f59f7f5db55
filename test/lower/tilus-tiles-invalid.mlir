// lower-tiles reports what it cannot lower, at the op.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --lower-tiles --no-output

tilus.kernel @mismatch(%p: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %g = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %v = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %a = tilus.load_global %g[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
  %b = tilus.load_global %v[%c0] : !tilus.global<32xf32> -> !tilus.reg<32xf32, layout = spatial(32)>
  // A row vector spread over the lanes cannot be broadcast over rows held by those lanes.
  // expected-error@+1 {{lower-tiles: the operand's layout 'spatial(32)' does not give thread 1 the element [0] that register 0 of the layout 'local(1, 32) * spatial(32, 1)' needs; insert a layout.convert to 'local(1, 32) * spatial(32, 1)' (infer-layouts does this where the layouts are its own choice)}}
  %c = tilus.add %a, %b : (!tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>, !tilus.reg<32xf32, layout = spatial(32)>) -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
}

// -----

// The issue-16 kernel shape: an f16 load, its f32 cast, no layouts, and lower-tiles run
// without infer-layouts. The message names the missing step, not a default layout.
tilus.kernel @unwritten(%p: !tilus.ptr<f16>, %q: !tilus.ptr<f32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %g = tilus.global_view %p : !tilus.ptr<f16> -> !tilus.global<4x256xf16>
  %h = tilus.global_view %q : !tilus.ptr<f32> -> !tilus.global<4x256xf32>
  %a = tilus.load_global %g[%c0, %c0] : !tilus.global<4x256xf16> -> !tilus.reg<4x256xf16>
  %b = tilus.cast %a : !tilus.reg<4x256xf16> to !tilus.reg<4x256xf32>
  %y = tilus.load_global %h[%c0, %c0] : !tilus.global<4x256xf32> -> !tilus.reg<4x256xf32>
  // expected-error@+1 {{lower-tiles: a register tensor without a layout reached lower-tiles beside one with another layout; run infer-layouts first (tilus-to-ptx runs it unless infer-layouts=false), which chooses one layout for both or inserts the layout.convert between them}}
  %c = tilus.add %b, %y : (!tilus.reg<4x256xf32>, !tilus.reg<4x256xf32>) -> !tilus.reg<4x256xf32>
}

// -----

tilus.kernel @dot() warps(1) blocks(affine_map<() -> (1)>) {
  %z = arith.constant 0.0 : f64
  %a = tilus.register_tensor init(%z : f64) : !tilus.reg<16x16xf64>
  // expected-error@+1 {{lower-tiles: tilus.dot: only f32, f16, bf16 and i32 accumulators and results are lowered}}
  %d = tilus.dot %a, %a, %a : (!tilus.reg<16x16xf64>, !tilus.reg<16x16xf64>, !tilus.reg<16x16xf64>) -> !tilus.reg<16x16xf64>
}

// -----

// An f32 accumulator, but operands of a type the SIMT dot does not convert.
tilus.kernel @dot_operand() warps(1) blocks(affine_map<() -> (1)>) {
  %z = arith.constant 0.0 : f64
  %y = arith.constant 0.0 : f32
  %a = tilus.register_tensor init(%z : f64) : !tilus.reg<16x16xf64>
  %c = tilus.register_tensor init(%y : f32) : !tilus.reg<16x16xf32>
  // expected-error@+1 {{lower-tiles: tilus.dot: A of type f64 is not lowered (f16, bf16, f32; integers of up to 32 bits with an i32 accumulator)}}
  %d = tilus.dot %a, %a, %c : (!tilus.reg<16x16xf64>, !tilus.reg<16x16xf64>, !tilus.reg<16x16xf32>) -> !tilus.reg<16x16xf32>
}

// -----

// Two warpgroups side by side each convert a 256x128 f32 tile (128 KiB) through the scratch:
// each fits in shared memory, both do not, since groups that run at once get disjoint regions.
// expected-error@+1 {{lower-tiles: the kernel needs 270336 bytes of shared memory, more than the 232448 an sm_90 block may have: 0 before the scratch and 270336 of scratch for conversions, cross-warp reductions and dots' staging (groups that run side by side each have a region of their own)}}
tilus.kernel @scratch_budget(%p: !tilus.ptr<f32>) warps(8) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %g = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<256x128xf32>
  threadgroup.warp_group warps(0, 4) {
    %t = tilus.load_global %g[%c0, %c0] : !tilus.global<256x128xf32> -> !tilus.reg<256x128xf32, layout = spatial(4, 1) * local(16, 1) * spatial(4, 8) * local(1, 16)>
    %c = layout.convert %t : !tilus.reg<256x128xf32, layout = spatial(4, 1) * local(16, 1) * spatial(4, 8) * local(1, 16)> to !tilus.reg<256x128xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(32, 8)>
    tilus.store_global %c, %g[%c0, %c0] : !tilus.reg<256x128xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(32, 8)>, !tilus.global<256x128xf32>
  }
  threadgroup.warp_group warps(4, 4) {
    %t = tilus.load_global %g[%c0, %c0] : !tilus.global<256x128xf32> -> !tilus.reg<256x128xf32, layout = spatial(4, 1) * local(16, 1) * spatial(4, 8) * local(1, 16)>
    %c = layout.convert %t : !tilus.reg<256x128xf32, layout = spatial(4, 1) * local(16, 1) * spatial(4, 8) * local(1, 16)> to !tilus.reg<256x128xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(32, 8)>
    tilus.store_global %c, %g[%c0, %c0] : !tilus.reg<256x128xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(32, 8)>, !tilus.global<256x128xf32>
  }
}
