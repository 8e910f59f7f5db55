// Every tilus verifier rule, with its message, and malformed tilus type bodies (parse errors,
// reported at the type).
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

// ----- tilus.kernel

// expected-error@+1 {{'tilus.kernel' op expects warps in [1, 32], but found 0}}
tilus.kernel @no_warps() warps(0) blocks(affine_map<() -> (1)>) {
}

// -----

// `arg_names` (written by the custom form, carried by the generic form) names every parameter
// once; in generic form it can be written wrong.
// expected-error@+1 {{'tilus.kernel' op expects one name per parameter in arg_names (2), but found 1}}
"tilus.kernel"() <{arg_names = ["p"], blocks = affine_map<(d0, d1) -> (1)>, function_type = (!tilus.ptr<f16>, i32) -> (), sym_name = "short_names", warps = 4 : i64}> ({
^bb0(%arg0: !tilus.ptr<f16>, %arg1: i32):
}) : () -> ()

// -----

// expected-error@+1 {{'tilus.kernel' op expects distinct, non-empty parameter names in arg_names, but found 'm' twice or empty}}
"tilus.kernel"() <{arg_names = ["m", "m"], blocks = affine_map<(d0, d1) -> (1)>, function_type = (i32, i32) -> (), sym_name = "twice", warps = 4 : i64}> ({
^bb0(%arg0: i32, %arg1: i32):
}) : () -> ()

// -----

// expected-error@+1 {{'tilus.kernel' op expects warps in [1, 32], but found 33}}
tilus.kernel @too_many_warps() warps(33) blocks(affine_map<() -> (1)>) {
}

// -----

// expected-error@+1 {{'tilus.kernel' op expects a blocks map with 2 dimensions (one per parameter) and no symbols, but found 1 dimension and 0 symbols}}
tilus.kernel @grid_dims(%p: !tilus.ptr<f16>, %m: i32) warps(4) blocks(affine_map<(d0) -> (d0 ceildiv 64)>) {
}

// -----

// expected-error@+1 {{'tilus.kernel' op expects a blocks map with 1 dimension (one per parameter) and no symbols, but found 1 dimension and 1 symbol}}
tilus.kernel @grid_symbols(%m: i32) warps(4) blocks(affine_map<(d0)[s0] -> (d0 ceildiv s0)>) {
}

// -----

// expected-error@+1 {{'tilus.kernel' op expects a blocks map with 1 to 3 results (x, y, z), but found 4}}
tilus.kernel @grid_rank() warps(4) blocks(affine_map<() -> (1, 1, 1, 1)>) {
}

// -----

// expected-error@+1 {{'tilus.kernel' op expects 1 to 3 positive cluster extents, but found (2, 0, 1)}}
tilus.kernel @cluster_zero() warps(4) blocks(affine_map<() -> (2)>) cluster(2, 0, 1) {
}

// -----

// expected-error@+1 {{'tilus.kernel' op expects 1 to 3 positive cluster extents, but found (1, 1, 1, 1)}}
tilus.kernel @cluster_rank() warps(4) blocks(affine_map<() -> (2)>) cluster(1, 1, 1, 1) {
}

// -----

// expected-error@+1 {{'tilus.kernel' op expects a function_type without results, but found 1 result}}
"tilus.kernel"() <{sym_name = "results", function_type = () -> i32, warps = 4 : i64, blocks = affine_map<() -> (1)>}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'tilus.kernel' op expects entry block arguments (i32) matching function_type, but found (f32)}}
"tilus.kernel"() <{sym_name = "args", function_type = (i32) -> (), warps = 4 : i64, blocks = affine_map<(d0) -> (d0)>}> ({
^bb0(%x: f32):
}) : () -> ()

// -----

// expected-error@+1 {{'tilus.kernel' op attribute 'blocks' failed to satisfy constraint: affine map attribute, but found 4 : i64}}
"tilus.kernel"() <{sym_name = "grid", function_type = () -> (), warps = 4 : i64, blocks = 4 : i64}> ({
}) : () -> ()

// -----

// ----- tilus.global_view

tilus.kernel @view_dtype(%p: !tilus.ptr<f16>, %m: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.global_view' op expects a view of the pointer's element type 'f16', but found 'f32'}}
  %g = tilus.global_view %p[%m] : !tilus.ptr<f16> -> !tilus.global<?x64xf32>
}

// -----

tilus.kernel @view_extents(%p: !tilus.ptr<f16>, %m: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.global_view' op expects 2 extent operands (one per '?' in the shape), but found 1}}
  %g = tilus.global_view %p[%m] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
}

// -----

tilus.kernel @view_strides(%p: !tilus.ptr<f16>, %m: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.global_view' op expects 1 stride operand (one per '?' in the strides), but found 0}}
  %g = tilus.global_view %p[%m] : !tilus.ptr<f16> -> !tilus.global<?x64xf16, strides = [?, 1]>
}

// -----

// ----- tensors

tilus.kernel @smem_too_big() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'tilus.shared_tensor' op expects a shared tensor of at most 232448 bytes, but found 262144 bytes}}
  %s = tilus.shared_tensor : !tilus.shared<4x256x128xf16>
}

// -----

tilus.kernel @free_a_view(%i: i32) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<2x64x64xf16>
  %t = tilus.slice_shared %s[%i] : !tilus.shared<2x64x64xf16> -> !tilus.shared<64x64xf16>
  // expected-error@+1 {{'tilus.free_shared' op expects a tensor made by 'tilus.shared_tensor', but found one made by 'tilus.slice_shared'}}
  tilus.free_shared %t : !tilus.shared<64x64xf16>
}

// -----

tilus.kernel @init_type(%x: f16) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // expected-error@+1 {{'tilus.register_tensor' op expects an init value of the element type 'f32', but found 'f16'}}
  %r = tilus.register_tensor init(%x : f16) : !tilus.reg<64x64xf32>
}

// -----

// A register layout spans the threads of the group that makes the tensor: 128 in the root
// group of a 4-warp kernel.
tilus.kernel @layout_threads_root() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'tilus.register_tensor' op expects a result layout over 128 threads (its group is the whole block: threads [0, 128) (128 threads)), but found one over 64 threads}}
  %r = tilus.register_tensor : !tilus.reg<64x4xf32, layout = spatial(16, 4) * local(4, 1)>
}

// -----

// ... and 32 inside a single warp.
tilus.kernel @layout_threads_group() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.single_warp warp(1) {
    // expected-error@+1 {{'tilus.register_tensor' op expects a result layout over 32 threads (its group is threads [32, 64) (32 threads)), but found one over 128 threads}}
    %r = tilus.register_tensor : !tilus.reg<128x4xf32, layout = spatial(32, 4) * local(4, 1)>
  }
}

// -----

// The rule holds for every op that makes a register tensor.
tilus.kernel @layout_threads_load(%g: !tilus.global<64x64xf16>, %i: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.load_global' op expects a result layout over 128 threads (its group is the whole block: threads [0, 128) (128 threads)), but found one over 32 threads}}
  %r = tilus.load_global %g[%i, %i] : !tilus.global<64x64xf16> -> !tilus.reg<32x64xf16, layout = spatial(32, 1) * local(1, 64)>
}

// -----

// ----- loads and stores

tilus.kernel @load_offsets(%g: !tilus.global<?x?xf16>, %i: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.load_global' op expects 2 offsets (one per dimension of the view), but found 1}}
  %r = tilus.load_global %g[%i] : !tilus.global<?x?xf16> -> !tilus.reg<64x64xf16>
}

// -----

tilus.kernel @load_rank(%g: !tilus.global<?x?xf16>, %i: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.load_global' op expects a result of the view's rank 2, but found rank 1}}
  %r = tilus.load_global %g[%i, %i] : !tilus.global<?x?xf16> -> !tilus.reg<64xf16>
}

// -----

tilus.kernel @load_dtype(%g: !tilus.global<?x?xf16>, %i: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.load_global' op expects view and result of one element type, but found 'f16' and 'f32'}}
  %r = tilus.load_global %g[%i, %i] : !tilus.global<?x?xf16> -> !tilus.reg<64x64xf32>
}

// -----

tilus.kernel @store_offsets(%g: !tilus.global<?x?xf16>, %r: !tilus.reg<64x64xf16>, %i: i32) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  // expected-error@+1 {{'tilus.store_global' op expects 2 offsets (one per dimension of the view), but found 3}}
  tilus.store_global %r, %g[%i, %i, %i] : !tilus.reg<64x64xf16>, !tilus.global<?x?xf16>
}

// -----

tilus.kernel @store_rank(%g: !tilus.global<?x?x?xf16>, %r: !tilus.reg<64x64xf16>, %i: i32) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  // expected-error@+1 {{'tilus.store_global' op expects a value of the view's rank 3, but found rank 2}}
  tilus.store_global %r, %g[%i, %i, %i] : !tilus.reg<64x64xf16>, !tilus.global<?x?x?xf16>
}

// -----

tilus.kernel @store_dtype(%g: !tilus.global<?x?xf16>, %r: !tilus.reg<64x64xf32>, %i: i32) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  // expected-error@+1 {{'tilus.store_global' op expects value and view of one element type, but found 'f32' and 'f16'}}
  tilus.store_global %r, %g[%i, %i] : !tilus.reg<64x64xf32>, !tilus.global<?x?xf16>
}

// -----

tilus.kernel @load_shared_shape() warps(4) blocks(affine_map<() -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<64x32xf16>
  // expected-error@+1 {{'tilus.load_shared' op expects the shared tensor's shape to be the register tensor's 32x32 or to split its dimensions into consecutive ones of the same product, but found 64x32}}
  %r = tilus.load_shared %s : !tilus.shared<64x32xf16> -> !tilus.reg<32x32xf16>
}

// -----

// A split covers each register dimension with consecutive shared dimensions, in order: a
// [256, 64] tensor holds as many elements as a [64, 256] tile but is not a split of it (a
// transpose is a permuted view).
tilus.kernel @store_shared_split_order(%r: !tilus.reg<64x256xf16>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<256x64xf16>
  // expected-error@+1 {{'tilus.store_shared' op expects the shared tensor's shape to be the register tensor's 64x256 or to split its dimensions into consecutive ones of the same product, but found 256x64}}
  tilus.store_shared %r, %s : !tilus.reg<64x256xf16>, !tilus.shared<256x64xf16>
}

// -----

tilus.kernel @store_shared_split_product(%r: !tilus.reg<64x256xf16>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<64x3x64xf16>
  // expected-error@+1 {{'tilus.store_shared' op expects the shared tensor's shape to be the register tensor's 64x256 or to split its dimensions into consecutive ones of the same product, but found 64x3x64}}
  tilus.store_shared %r, %s : !tilus.reg<64x256xf16>, !tilus.shared<64x3x64xf16>
}

// -----

tilus.kernel @store_shared_dtype(%r: !tilus.reg<64x32xf32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<64x32xf16>
  // expected-error@+1 {{'tilus.store_shared' op expects value and shared tensor of one element type, but found 'f32' and 'f16'}}
  tilus.store_shared %r, %s : !tilus.reg<64x32xf32>, !tilus.shared<64x32xf16>
}

// -----

// ----- shared views

tilus.kernel @slice_all(%i: i32) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<3x128x64xf16>
  // expected-error@+1 {{'tilus.slice_shared' op expects 1 to 2 indices (fewer than the rank 3), but found 3}}
  %t = tilus.slice_shared %s[%i, %i, %i] : !tilus.shared<3x128x64xf16> -> !tilus.shared<64xf16>
}

// -----

// Slicing keeps the swizzle.
tilus.kernel @slice_result(%i: i32) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<3x128x64xf16, swizzle = 128B>
  // expected-error@+1 {{'tilus.slice_shared' op expects result type '!tilus.shared<128x64xf16, swizzle = 128B>', but found '!tilus.shared<128x64xf16>'}}
  %t = tilus.slice_shared %s[%i] : !tilus.shared<3x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16>
}

// -----

tilus.kernel @permute_not_a_permutation() warps(4) blocks(affine_map<() -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<64x128xf16>
  // expected-error@+1 {{'tilus.permute_shared' op expects a permutation of [0, 2), but found [1, 1]}}
  %t = tilus.permute_shared %s [1, 1] : !tilus.shared<64x128xf16> -> !tilus.shared<128x64xf16>
}

// -----

// A transpose is not row-major: the result type carries the permuted strides.
tilus.kernel @permute_result() warps(4) blocks(affine_map<() -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<64x128xf16>
  // expected-error@+1 {{'tilus.permute_shared' op expects result type '!tilus.shared<128x64xf16, strides = [1, 128]>', but found '!tilus.shared<128x64xf16>'}}
  %t = tilus.permute_shared %s [1, 0] : !tilus.shared<64x128xf16> -> !tilus.shared<128x64xf16>
}

// -----

// A reshape reads the same bytes in row-major order: a transposed view is not row-major.
tilus.kernel @reshape_of_transpose() warps(4) blocks(affine_map<() -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<64x128xf16>
  %t = tilus.permute_shared %s [1, 0] : !tilus.shared<64x128xf16> -> !tilus.shared<128x64xf16, strides = [1, 128]>
  // expected-error@+1 {{'tilus.reshape_shared' op expects a row-major source (strides [64, 1]), but found strides [1, 128]}}
  %r = tilus.reshape_shared %t : !tilus.shared<128x64xf16, strides = [1, 128]> -> !tilus.shared<8192xf16>
}

// -----

tilus.kernel @reshape_count() warps(4) blocks(affine_map<() -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<2x128x64xf16, swizzle = 128B>
  // expected-error@+1 {{'tilus.reshape_shared' op expects a result with as many elements as the source (2x128x64 = 16384), but found 128x64 = 8192}}
  %r = tilus.reshape_shared %s : !tilus.shared<2x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
}

// -----

// The swizzle applies to addresses, so a reshape keeps it.
tilus.kernel @reshape_swizzle() warps(4) blocks(affine_map<() -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<2x128x64xf16, swizzle = 128B>
  // expected-error@+1 {{'tilus.reshape_shared' op expects result type '!tilus.shared<256x64xf16, swizzle = 128B>', but found '!tilus.shared<256x64xf16>'}}
  %r = tilus.reshape_shared %s : !tilus.shared<2x128x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16>
}

// -----

// ----- values

tilus.kernel @cast_shape(%x: !tilus.reg<64xf32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // expected-error@+1 {{'tilus.cast' op expects operand and result of one shape, but found 64 and 32}}
  %y = tilus.cast %x : !tilus.reg<64xf32> to !tilus.reg<32xf16>
}

// -----

tilus.kernel @cast_layout(%x: !tilus.reg<32x4xf32, layout = spatial(32, 4)>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // expected-error@+1 {{'tilus.cast' op expects operand and result to have the same layout, but found 'spatial(32, 4)' and 'column_spatial(32, 4)'}}
  %y = tilus.cast %x : !tilus.reg<32x4xf32, layout = spatial(32, 4)> to !tilus.reg<32x4xf16, layout = column_spatial(32, 4)>
}

// -----

tilus.kernel @broadcast_incompatible(%a: !tilus.reg<64x128xf32>, %b: !tilus.reg<64x64xf32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.add' op expects operand shapes that broadcast, but found 64x128 and 64x64}}
  %c = tilus.add %a, %b : (!tilus.reg<64x128xf32>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x128xf32>
}

// -----

tilus.kernel @broadcast_result(%a: !tilus.reg<64x1xf32>, %b: !tilus.reg<128xf32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.mul' op expects a result of the broadcast shape 64x128, but found 64x1}}
  %c = tilus.mul %a, %b : (!tilus.reg<64x1xf32>, !tilus.reg<128xf32>) -> !tilus.reg<64x1xf32>
}

// -----

tilus.kernel @binary_dtype(%a: !tilus.reg<64xf32>, %b: !tilus.reg<64xf16>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.sub' op expects operands of one element type, but found 'f32' and 'f16'}}
  %c = tilus.sub %a, %b : (!tilus.reg<64xf32>, !tilus.reg<64xf16>) -> !tilus.reg<64xf32>
}

// -----

tilus.kernel @binary_result_dtype(%a: !tilus.reg<64xi32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // expected-error@+1 {{'tilus.div' op expects operands and result of one element type, but found 'i32' and 'f32'}}
  %c = tilus.div %a, %a : (!tilus.reg<64xi32>, !tilus.reg<64xi32>) -> !tilus.reg<64xf32>
}

// -----

// Elementwise ops move no data: an operand of the result's shape has the result's layout.
tilus.kernel @binary_layout(%a: !tilus.reg<128xf32, layout = spatial(128)>, %b: !tilus.reg<1xf32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.maximum' op expects an operand of the result's shape and the result to have the same layout, but found 'spatial(128)' and 'spatial(64) * local(2)'}}
  %c = tilus.maximum %a, %b : (!tilus.reg<128xf32, layout = spatial(128)>, !tilus.reg<1xf32>) -> !tilus.reg<128xf32, layout = spatial(64) * local(2)>
}

// -----

tilus.kernel @cmp_result(%a: !tilus.reg<64xi32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // expected-error@+1 {{'tilus.cmp' op expects a result of element type 'i1', but found 'i32'}}
  %c = tilus.cmp lt %a, %a : (!tilus.reg<64xi32>, !tilus.reg<64xi32>) -> !tilus.reg<64xi32>
}

// -----

tilus.kernel @exp_int(%a: !tilus.reg<64xi32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // expected-error@+1 {{'tilus.exp' op expects a float element type, but found 'i32'}}
  %c = tilus.exp %a : !tilus.reg<64xi32>
}

// -----

tilus.kernel @where_cond(%c: !tilus.reg<64xf32>, %x: !tilus.reg<64xf32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.where' op expects a condition of element type 'i1', but found 'f32'}}
  %r = tilus.where %c, %x, %x : (!tilus.reg<64xf32>, !tilus.reg<64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64xf32>
}

// -----

tilus.kernel @where_values(%c: !tilus.reg<64xi1>, %x: !tilus.reg<64xf32>, %y: !tilus.reg<1xf16>) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  // expected-error@+1 {{'tilus.where' op expects both values of one element type, but found 'f32' and 'f16'}}
  %r = tilus.where %c, %x, %y : (!tilus.reg<64xi1>, !tilus.reg<64xf32>, !tilus.reg<1xf16>) -> !tilus.reg<64xf32>
}

// -----

tilus.kernel @where_shape(%c: !tilus.reg<32x1xi1>, %x: !tilus.reg<64xf32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.where' op expects a result of the broadcast shape 32x64, but found 64}}
  %r = tilus.where %c, %x, %x : (!tilus.reg<32x1xi1>, !tilus.reg<64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64xf32>
}

// -----

// ----- reductions

tilus.kernel @reduce_dim(%x: !tilus.reg<64x128xf32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // expected-error@+1 {{'tilus.reduce' op expects dim in [0, 2), but found 2}}
  %r = tilus.reduce sum %x dim(2) : !tilus.reg<64x128xf32> -> !tilus.reg<64xf32>
}

// -----

tilus.kernel @reduce_rank1(%x: !tilus.reg<128xf32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // expected-error@+1 {{'tilus.reduce' op expects keepdim when reducing a rank-1 tensor (register tensors have at least one dimension), but found none}}
  %r = tilus.reduce sum %x dim(0) : !tilus.reg<128xf32> -> !tilus.reg<1xf32>
}

// -----

tilus.kernel @reduce_any_float(%x: !tilus.reg<64x128xf32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // expected-error@+1 {{'tilus.reduce' op expects element type 'i1' for 'any' and 'all', but found 'f32'}}
  %r = tilus.reduce any %x dim(1) : !tilus.reg<64x128xf32> -> !tilus.reg<64xf32>
}

// -----

tilus.kernel @reduce_shape(%x: !tilus.reg<64x128xf32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // expected-error@+1 {{'tilus.reduce' op expects a result of shape 64x1, but found 64}}
  %r = tilus.reduce max %x dim(1) keepdim : !tilus.reg<64x128xf32> -> !tilus.reg<64xf32>
}

// -----

// A reduced tensor is replicated over the threads that held the reduced dimension.
tilus.kernel @reduce_layout(%x: !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // expected-error@+1 {{'tilus.reduce' op expects the result layout 'spatial(4, 1) * replicate(32)' (the operand's, reduced), but found 'replicate(32) * spatial(4, 1)'}}
  %r = tilus.reduce sum %x dim(1) keepdim : !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)> -> !tilus.reg<4x1xf32, layout = replicate(32) * spatial(4, 1)>
}

// -----

// In generic form the kind is an integer; only 0 to 4 name kinds.
tilus.kernel @reduce_kind(%x: !tilus.reg<64x128xf32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // expected-error@+1 {{'tilus.reduce' op expects kind to be one of 0 (sum), 1 (max), 2 (min), 3 (any), 4 (all), but found 7}}
  %r = "tilus.reduce"(%x) <{kind = 7 : i64, dim = 1 : i64}> : (!tilus.reg<64x128xf32>) -> !tilus.reg<64xf32>
}

// -----

tilus.kernel @reduce_kind_keyword(%x: !tilus.reg<64x128xf32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // expected-error@+1 {{expected reduction kind for 'kind', one of: sum, max, min, any, all, but found 'prod'}}
  %r = tilus.reduce prod %x dim(1) : !tilus.reg<64x128xf32> -> !tilus.reg<64xf32>
}

// -----

tilus.kernel @shuffle_partial_warp(%x: !tilus.reg<16xf32>, %d: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.group threads(0, 16) {
    // expected-error@+1 {{'tilus.shuffle_down' op must be issued by whole warps (a multiple of 32 threads starting at a multiple of 32), but its group is threads [0, 16) (16 threads)}}
    %y = tilus.shuffle_down %x, %d : !tilus.reg<16xf32>
  }
}

// -----

// ----- dot

tilus.kernel @dot_k(%a: !tilus.reg<64x16xf16>, %b: !tilus.reg<32x32xf16>, %c: !tilus.reg<64x32xf32>) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  // expected-error@+1 {{'tilus.dot' op expects b of shape 16xN (K = 16 from a), but found 32x32}}
  %d = tilus.dot %a, %b, %c : (!tilus.reg<64x16xf16>, !tilus.reg<32x32xf16>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
}

// -----

tilus.kernel @dot_mn(%a: !tilus.reg<64x16xf16>, %b: !tilus.reg<16x32xf16>, %c: !tilus.reg<64x64xf32>) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  // expected-error@+1 {{'tilus.dot' op expects c of shape 64x32 (M x N), but found 64x64}}
  %d = tilus.dot %a, %b, %c : (!tilus.reg<64x16xf16>, !tilus.reg<16x32xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x32xf32>
}

// -----

tilus.kernel @dot_rank(%a: !tilus.reg<64xf16>, %b: !tilus.reg<16x32xf16>, %c: !tilus.reg<64x32xf32>) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  // expected-error@+1 {{'tilus.dot' op expects a of rank 2, but found rank 1}}
  %d = tilus.dot %a, %b, %c : (!tilus.reg<64xf16>, !tilus.reg<16x32xf16>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
}

// -----

tilus.kernel @dot_inputs(%a: !tilus.reg<64x16xf16>, %b: !tilus.reg<16x32xbf16>, %c: !tilus.reg<64x32xf32>) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  // expected-error@+1 {{'tilus.dot' op expects a and b of one element type, but found 'f16' and 'bf16'}}
  %d = tilus.dot %a, %b, %c : (!tilus.reg<64x16xf16>, !tilus.reg<16x32xbf16>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
}

// -----

tilus.kernel @dot_acc(%a: !tilus.reg<64x16xf16>, %b: !tilus.reg<16x32xf16>, %c: !tilus.reg<64x32xf32>) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  // expected-error@+1 {{'tilus.dot' op expects c and the result of one element type, but found 'f32' and 'f16'}}
  %d = tilus.dot %a, %b, %c : (!tilus.reg<64x16xf16>, !tilus.reg<16x32xf16>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf16>
}

// -----

// ----- fast_divmod

tilus.kernel @divmod_zero(%a: i32) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %z = arith.constant 0 : i32
  // expected-error@+1 {{'tilus.fast_divmod' op expects a positive divisor, but found 0}}
  %q, %r = tilus.fast_divmod %a, %z
}

// -----

tilus.kernel @divmod_varying(%a: i32) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %b = tilus.block_id x
  %c = arith.addi %a, %b : i32
  // expected-error@+1 {{'tilus.fast_divmod' op expects a grid-constant divisor (kernel parameters, constants, tilus.num_blocks and arith on them), but found a value defined by 'tilus.block_id'}}
  %q, %r = tilus.fast_divmod %a, %c
}

// -----

tilus.kernel @divmod_loop(%a: i32, %n: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error@+1 {{'tilus.fast_divmod' op expects a grid-constant divisor (kernel parameters, constants, tilus.num_blocks and arith on them), but found a block argument of 'scf.for'}}
    %q, %r = tilus.fast_divmod %a, %i
  }
}

// -----

// ----- semaphores

tilus.kernel @semaphore_dtype(%g: !tilus.global<?xi64>, %i: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  threadgroup.single_thread {
    // expected-error@+1 {{'tilus.lock_semaphore' op expects a semaphore view of element type 'i32', but found 'i64'}}
    tilus.lock_semaphore %g[%i], %i : !tilus.global<?xi64>
  }
}

// -----

tilus.kernel @semaphore_offsets(%g: !tilus.global<?xi32>, %i: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  threadgroup.single_thread {
    // expected-error@+1 {{'tilus.release_semaphore' op expects 1 offset (one per dimension of the view), but found 2}}
    tilus.release_semaphore %g[%i, %i], %i : !tilus.global<?xi32>
  }
}

// -----

tilus.kernel @semaphore_one_thread(%g: !tilus.global<?xi32>, %i: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.single_warp {
    // expected-error@+1 {{'tilus.lock_semaphore' op must be issued by exactly one thread, but its group is threads [0, 32) (32 threads)}}
    tilus.lock_semaphore %g[%i], %i : !tilus.global<?xi32>
  }
}

// -----

tilus.kernel @semaphore_root(%g: !tilus.global<?xi32>, %i: i32) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  // expected-error@+1 {{'tilus.release_semaphore' op must be issued by exactly one thread, but its group is the whole block: threads [0, 128) (128 threads)}}
  tilus.release_semaphore %g[%i], %i : !tilus.global<?xi32>
}

// -----

// ----- malformed types: parse errors at the type

tilus.kernel @dynamic_shared() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{invalid '!tilus.shared' type: expected static extents in a shared tensor type, found '?'}}
  %s = tilus.shared_tensor : !tilus.shared<?x4xf16>
}

// -----

tilus.kernel @layout_shape() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{invalid '!tilus.reg' type: expected a layout of shape [64, 4] (the tensor's), found one of shape [32, 4]}}
  %r = tilus.register_tensor : !tilus.reg<64x4xf16, layout = spatial(32, 4)>
}

// -----

// expected-error@+1 {{invalid '!tilus.tmem' type: expected 32, 64 or 128 lanes in dimension 0, found 100}}
tilus.kernel @tmem_lanes(%t: !tilus.tmem<100x4xf32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
}

// -----

// expected-error@+1 {{invalid '!tilus.reg' type: expected an element type (f16, bf16, f32, f64, tf32, f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, f4E2M1FN, iN, siN, uiN), found 'q7'}}
func.func private @bad_dtype(!tilus.reg<4x4xq7>)

// -----

// expected-error@+1 {{invalid '!tilus.reg' type: expected an integer element type of 1 to 64 bits, found 'i65'}}
func.func private @wide_int(!tilus.reg<4x4xi65>)

// -----

// expected-error@+1 {{invalid '!tilus.shared' type: expected a shape and an element type such as '128x64xf16', found 'f16'}}
func.func private @no_shape(!tilus.shared<f16>)

// -----

// expected-error@+1 {{invalid '!tilus.reg' type: expected a positive extent, found '0'}}
func.func private @zero_extent(!tilus.reg<0x4xf16>)

// -----

// expected-error@+1 {{invalid '!tilus.global' type: expected a positive extent or '?', found '-2'}}
func.func private @negative_extent(!tilus.global<-2x4xf16>)

// -----

// expected-error@+1 {{invalid '!tilus.shared' type: expected 'key = value' after the shape, found 'swizzle'}}
func.func private @no_value(!tilus.shared<4x4xf16, swizzle>)

// -----

// expected-error@+1 {{invalid '!tilus.global' type: expected a list '[s0, s1, ...]' for strides, found '4'}}
func.func private @strides_not_list(!tilus.global<4x4xf16, strides = 4>)

// -----

// expected-error@+1 {{invalid '!tilus.shared' type: expected a non-negative stride, found '?'}}
func.func private @dynamic_shared_stride(!tilus.shared<4x4xf16, strides = [?, 1]>)

// -----

// expected-error@+1 {{invalid '!tilus.global' type: expected 2 strides (one per dimension), found 1}}
func.func private @stride_count(!tilus.global<4x4xf16, strides = [1]>)

// -----

// expected-error@+1 {{invalid '!tilus.shared' type: expected a swizzle mode (none, 32B, 64B, 128B), found '16B'}}
func.func private @bad_swizzle(!tilus.shared<8x64xf16, swizzle = 16B>)

// -----

// expected-error@+1 {{invalid '!tilus.shared' type: expected 'strides' or 'swizzle' after the shape of a shared tensor type, found 'layout'}}
func.func private @shared_layout_key(!tilus.shared<4x4xf16, layout = spatial(4, 4)>)

// -----

// expected-error@+1 {{invalid '!tilus.tmem' type: expected at least 2 dimensions (lanes, columns...), found 1}}
func.func private @tmem_rank(!tilus.tmem<128xf32>)

// -----

// expected-error@+1 {{invalid '!tilus.tmem' type: expected an element type of at most 32 bits in tensor memory, found 'f64'}}
func.func private @tmem_f64(!tilus.tmem<128x4xf64>)

// -----

// expected-error@+1 {{invalid '!tilus.reg' type: expected '<' with a shape and an element type}}
func.func private @no_body(!tilus.reg)

// -----

// A misspelled type of a registered dialect is an error at the type, listing the dialect's types.
// expected-error@+1 {{unknown type '!tilus.sharde': dialect 'tilus' declares !tilus.ptr, !tilus.global, !tilus.shared, !tilus.reg, !tilus.tmem}}
func.func @misspelled_type(%x: !tilus.sharde<4xf16>) {
  return
}
