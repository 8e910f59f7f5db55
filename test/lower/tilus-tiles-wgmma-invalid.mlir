// The tile-operand contract of ptx.inst (docs/design/lowering.md, "Tile operands"): a register
// tile is admitted only as operand 0 of an instruction with `tile_block`, and lower-tiles checks
// that a wgmma accumulator's registers are the wgmma D fragment.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --lower-tiles --no-output

tilus.kernel @no_tile_block() warps(4) blocks(affine_map<() -> (1)>) {
  %z = arith.constant 0.0 : f32
  %acc = tilus.register_tensor init(%z : f32) : !tilus.reg<64x16xf32, layout = column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
  %d = arith.constant 0 : i64
  // expected-error@+1 {{'ptx.inst' op a register tile operand or result needs the attribute 'tile_block = array<i64: b, n>'}}
  %r = ptx.inst "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16" {%acc}, %d, %d, 1, 1, 1, 0, 0 : (!tilus.reg<64x16xf32, layout = column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>, i64, i64) -> !tilus.reg<64x16xf32, layout = column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>
}

// -----

tilus.kernel @tied_types() warps(4) blocks(affine_map<() -> (1)>) {
  %z = arith.constant 0.0 : f32
  %d = arith.constant 0 : i64
  // expected-error@+1 {{'ptx.inst' op 'tied' must be an integer N <= #results, #operands, with operand i and result i of one type}}
  %r:2 = ptx.inst "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" {%z, %d}, %d, %d, 1, 1, 1, 0, 0 {tied = 2 : i64} : (f32, i64, i64, i64) -> (f32, f32)
}

// -----

// The 8-column chunk and the 8-row half swapped in the register order: not the wgmma D layout.
tilus.kernel @not_the_fragment() warps(4) blocks(affine_map<() -> (1)>) {
  %z = arith.constant 0.0 : f32
  %acc = tilus.register_tensor init(%z : f32) : !tilus.reg<64x16xf32, layout = column_spatial(4, 1) * local(2, 2) * spatial(8, 4) * local(1, 2)>
  %d = arith.constant 0 : i64
  // expected-error@+1 {{puts thread 0, register 2 at [0, 8], but register 2 of wgmma block 0 holds [8, 0]}}
  %r = ptx.inst "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16" {%acc}, %d, %d, 1, 1, 1, 0, 0 {tile_block = array<i64: 0, 1>} : (!tilus.reg<64x16xf32, layout = column_spatial(4, 1) * local(2, 2) * spatial(8, 4) * local(1, 2)>, i64, i64) -> !tilus.reg<64x16xf32, layout = column_spatial(4, 1) * local(2, 2) * spatial(8, 4) * local(1, 2)>
}
