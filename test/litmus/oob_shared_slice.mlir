// Litmus: a stage index one past the end of a 4-stage shared buffer: the store writes the
// 512 bytes after the allocation.
// LITMUS: oob
tilus.kernel @oob_shared_slice(%stage: i32) warps(1) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.args = {stage = 4 : i32}} {
  %one = arith.constant 1.0 : f32
  %buf = tilus.shared_tensor : !tilus.shared<4x32x4xf32>
  %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<4x32x4xf32> -> !tilus.shared<32x4xf32>
  %t = tilus.register_tensor init(%one : f32) : !tilus.reg<32x4xf32>
  tilus.store_shared %t, %slot : !tilus.reg<32x4xf32>, !tilus.shared<32x4xf32>
  tilus.free_shared %buf : !tilus.shared<4x32x4xf32>
}
