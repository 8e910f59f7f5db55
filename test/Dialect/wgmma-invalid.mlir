// Every wgmma verifier rule, with its message.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

// Warps 1-4 are 128 threads but do not start at a multiple of 128.
tilus.kernel @fence_unaligned() warps(8) blocks(affine_map<() -> (1)>) {
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.warp_group warps(1, 4) {
    // expected-error@+1 {{'wgmma.fence' op must be issued by a full warpgroup (128 threads starting at a multiple of 128), but its group is threads [32, 160) (128 threads)}}
    wgmma.fence
  }
}

// -----

tilus.kernel @commit_one_warp() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.single_warp {
    // expected-error@+1 {{'wgmma.commit_group' op must be issued by a full warpgroup (128 threads starting at a multiple of 128), but its group is threads [0, 32) (32 threads)}}
    wgmma.commit_group
  }
}

// -----

tilus.kernel @wait_whole_block() warps(8) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'wgmma.wait_group' op must be issued by a full warpgroup (128 threads starting at a multiple of 128), but its group is the whole block: threads [0, 256) (256 threads)}}
  wgmma.wait_group 0
}

// -----

tilus.kernel @wait_too_many() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'wgmma.wait_group' op expects a pending group count in [0, 7], but found 8}}
  wgmma.wait_group 8
}

// -----

tilus.kernel @mma_unaligned() warps(8) blocks(affine_map<() -> (1)>) {
  %a = tilus.shared_tensor : !tilus.shared<64x16xf16>
  %b = tilus.shared_tensor : !tilus.shared<16x64xf16>
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.warp_group warps(1, 4) {
    %c = tilus.register_tensor : !tilus.reg<64x64xf32>
    // expected-error@+1 {{'wgmma.mma' op must be issued by a full warpgroup (128 threads starting at a multiple of 128), but its group is threads [32, 160) (128 threads)}}
    %d = wgmma.mma %a, %b, %c : !tilus.shared<64x16xf16>, !tilus.shared<16x64xf16>, !tilus.reg<64x64xf32>
  }
}

// -----

func.func @result_type(%a: !tilus.shared<64x16xf16>, %b: !tilus.shared<16x64xf16>, %c: !tilus.reg<64x64xf32>) {
  // expected-error@+1 {{'wgmma.mma' op expects a result of the accumulator's type '!tilus.reg<64x64xf32>', but found '!tilus.reg<64x64xf16>'}}
  %d = "wgmma.mma"(%a, %b, %c) : (!tilus.shared<64x16xf16>, !tilus.shared<16x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf16>
  return
}

// -----

func.func @rank(%a: !tilus.shared<2x64x16xf16>, %b: !tilus.shared<16x64xf16>, %c: !tilus.reg<64x64xf32>) {
  // expected-error@+1 {{'wgmma.mma' op expects a of rank 2, but found rank 3}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<2x64x16xf16>, !tilus.shared<16x64xf16>, !tilus.reg<64x64xf32>
  return
}

// -----

func.func @k_mismatch(%a: !tilus.shared<64x16xf16>, %b: !tilus.shared<32x64xf16>, %c: !tilus.reg<64x64xf32>) {
  // expected-error@+1 {{'wgmma.mma' op expects b of 16 rows (the K of a: 64x16xf16), but found 32}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x16xf16>, !tilus.shared<32x64xf16>, !tilus.reg<64x64xf32>
  return
}

// -----

func.func @acc_shape(%a: !tilus.shared<64x16xf16>, %b: !tilus.shared<16x64xf16>, %c: !tilus.reg<64x32xf32>) {
  // expected-error@+1 {{'wgmma.mma' op expects an accumulator of shape 64x64 (M of a, N of b), but found 64x32}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x16xf16>, !tilus.shared<16x64xf16>, !tilus.reg<64x32xf32>
  return
}

// -----

func.func @mixed_inputs(%a: !tilus.shared<64x16xf16>, %b: !tilus.shared<16x64xbf16>, %c: !tilus.reg<64x64xf32>) {
  // expected-error@+1 {{'wgmma.mma' op expects a and b of one element type, but found f16 and bf16}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x16xf16>, !tilus.shared<16x64xbf16>, !tilus.reg<64x64xf32>
  return
}

// -----

func.func @f32_inputs(%a: !tilus.shared<64x16xf32>, %b: !tilus.shared<16x64xf32>, %c: !tilus.reg<64x64xf32>) {
  // expected-error@+1 {{'wgmma.mma' op expects inputs of f16, bf16, tf32, f8E4M3FN, f8E5M2 or 8-bit integers, but found f32}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x16xf32>, !tilus.shared<16x64xf32>, !tilus.reg<64x64xf32>
  return
}

// -----

func.func @bf16_into_f16(%a: !tilus.shared<64x16xbf16>, %b: !tilus.shared<16x64xbf16>, %c: !tilus.reg<64x64xf16>) {
  // expected-error@+1 {{'wgmma.mma' op expects an accumulator of f32 for bf16 inputs, but found f16}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x16xbf16>, !tilus.shared<16x64xbf16>, !tilus.reg<64x64xf16>
  return
}

// -----

func.func @int_into_float(%a: !tilus.shared<64x32xi8>, %b: !tilus.shared<32x64xi8>, %c: !tilus.reg<64x64xf32>) {
  // expected-error@+1 {{'wgmma.mma' op expects an accumulator of i32 for i8 inputs, but found f32}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x32xi8>, !tilus.shared<32x64xi8>, !tilus.reg<64x64xf32>
  return
}

// -----

func.func @m_not_64(%a: !tilus.shared<32x16xf16>, %b: !tilus.shared<16x64xf16>, %c: !tilus.reg<32x64xf32>) {
  // expected-error@+1 {{'wgmma.mma' op expects M to be a multiple of 64, but found 32}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<32x16xf16>, !tilus.shared<16x64xf16>, !tilus.reg<32x64xf32>
  return
}

// -----

func.func @n_not_8(%a: !tilus.shared<64x16xf16>, %b: !tilus.shared<16x12xf16>, %c: !tilus.reg<64x12xf32>) {
  // expected-error@+1 {{'wgmma.mma' op expects N to be a multiple of 8, but found 12}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x16xf16>, !tilus.shared<16x12xf16>, !tilus.reg<64x12xf32>
  return
}

// -----

// fp8 steps K by 32.
func.func @k_step(%a: !tilus.shared<64x16xf8E4M3FN>, %b: !tilus.shared<16x64xf8E4M3FN>, %c: !tilus.reg<64x64xf32>) {
  // expected-error@+1 {{'wgmma.mma' op expects K to be a multiple of 32 (the instruction K for f8E4M3FN), but found 16}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x16xf8E4M3FN>, !tilus.shared<16x64xf8E4M3FN>, !tilus.reg<64x64xf32>
  return
}

// -----

// A plain row-major split is not the fragment the hardware writes.
func.func @acc_layout(%a: !tilus.shared<64x16xf16>, %b: !tilus.shared<16x64xf16>, %c: !tilus.reg<64x64xf32, layout = spatial(32, 4) * local(2, 16)>) {
  // expected-error@+1 {{'wgmma.mma' op expects the accumulator in the wgmma accumulator layout spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2), but found spatial(32, 4) * local(2, 16)}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x16xf16>, !tilus.shared<16x64xf16>, !tilus.reg<64x64xf32, layout = spatial(32, 4) * local(2, 16)>
  return
}

// -----

// Same thread count, but lanes hold 2x1 instead of 1x2 element pairs: not the D fragment.
func.func @acc_layout_pairs(%a: !tilus.shared<64x16xf16>, %b: !tilus.shared<16x64xf16>, %c: !tilus.reg<64x64xf32, layout = column_spatial(4, 1) * column_local(2, 8) * spatial(4, 8) * local(2, 1)>) {
  // expected-error@+1 {{'wgmma.mma' op expects the accumulator in the wgmma accumulator layout spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2), but found spatial(4, 1) * column_local(2, 8) * spatial(4, 8) * local(2, 1)}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x16xf16>, !tilus.shared<16x64xf16>, !tilus.reg<64x64xf32, layout = column_spatial(4, 1) * column_local(2, 8) * spatial(4, 8) * local(2, 1)>
  return
}
