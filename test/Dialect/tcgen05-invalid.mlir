// Every tcgen05 verifier rule, with its message.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

tilus.kernel @alloc_cta_group() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'tcgen05.alloc' op expects cta_group 1 or 2, but found 3}}
  %t = tcgen05.alloc cta_group(3) : !tilus.tmem<128x32xf32>
}

// -----

tilus.kernel @alloc_too_wide() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'tcgen05.alloc' op expects at most 512 tensor-memory columns, but found 1024 for 128x4x160xf32}}
  %t = tcgen05.alloc : !tilus.tmem<128x4x160xf32>
}

// -----

tilus.kernel @alloc_one_thread() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.single_thread {
    // expected-error@+1 {{'tcgen05.alloc' op must be issued by at least 32 threads, but its group is 1 elected thread at an offset unknown at compile time}}
    %t = tcgen05.alloc : !tilus.tmem<128x32xf32>
  }
}

// -----

tilus.kernel @alloc_unaligned() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.group threads(16, 64) {
    // expected-error@+1 {{'tcgen05.alloc' op must be issued by whole warps (a multiple of 32 threads starting at a multiple of 32), but its group is threads [16, 80) (64 threads)}}
    %t = tcgen05.alloc : !tilus.tmem<128x32xf32>
  }
}

// -----

tilus.kernel @dealloc_slice() warps(4) blocks(affine_map<() -> (1)>) {
  %c0 = arith.constant 0 : index
  %t = tcgen05.alloc : !tilus.tmem<128x64xf32>
  %s = tcgen05.slice %t[%c0] : !tilus.tmem<128x64xf32> -> !tilus.tmem<128x32xf32>
  // expected-error@+1 {{'tcgen05.dealloc' op expects a tensor returned by 'tcgen05.alloc', but found the result of 'tcgen05.slice'}}
  tcgen05.dealloc %s : !tilus.tmem<128x32xf32>
  tcgen05.dealloc %t : !tilus.tmem<128x64xf32>
}

// -----

tilus.kernel @dealloc_half_warp() warps(4) blocks(affine_map<() -> (1)>) {
  %t = tcgen05.alloc : !tilus.tmem<128x32xf32>
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.group threads(0, 16) {
    // expected-error@+1 {{'tcgen05.dealloc' op must be issued by at least 32 threads, but its group is threads [0, 16) (16 threads)}}
    tcgen05.dealloc %t : !tilus.tmem<128x32xf32>
  }
}

// -----

// A cta_group::2 allocation fixes the CTA pair for the whole kernel.
tilus.kernel @mixed_cta_groups() warps(4) blocks(affine_map<() -> (2)>) cluster(2, 1, 1) {
  // expected-note@+1 {{the kernel's first tcgen05 op with a CTA group}}
  %t = tcgen05.alloc cta_group(2) : !tilus.tmem<128x32xf32>
  // expected-error@+1 {{'tcgen05.relinquish_alloc_permit' op expects cta_group 2 like every tcgen05 op of the kernel (the first one, 'tcgen05.alloc', uses it), but found 1}}
  tcgen05.relinquish_alloc_permit
  tcgen05.dealloc %t cta_group(2) : !tilus.tmem<128x32xf32>
}

// -----

tilus.kernel @mma_two_warps() warps(4) blocks(affine_map<() -> (1)>) {
  %p = arith.constant true
  %a = tilus.shared_tensor : !tilus.shared<128x16xf16>
  %b = tilus.shared_tensor : !tilus.shared<16x64xf16>
  %d = tcgen05.alloc : !tilus.tmem<128x64xf32>
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.group threads(0, 64) {
    // expected-error@+1 {{'tcgen05.mma' op must be issued by one warp (32 threads starting at a multiple of 32), but its group is threads [0, 64) (64 threads)}}
    tcgen05.mma %a, %b, %d, enable_input_d(%p) : !tilus.shared<128x16xf16>, !tilus.shared<16x64xf16>, !tilus.tmem<128x64xf32>
  }
  tcgen05.dealloc %d : !tilus.tmem<128x64xf32>
}

// -----

func.func @mma_rank(%a: !tilus.shared<128x16xf16>, %b: !tilus.shared<16x64xf16>, %d: !tilus.tmem<128x1x64xf32>, %p: i1) {
  // expected-error@+1 {{'tcgen05.mma' op expects d of rank 2, but found rank 3}}
  tcgen05.mma %a, %b, %d, enable_input_d(%p) : !tilus.shared<128x16xf16>, !tilus.shared<16x64xf16>, !tilus.tmem<128x1x64xf32>
  return
}

// -----

func.func @mma_k(%a: !tilus.shared<128x16xf16>, %b: !tilus.shared<32x64xf16>, %d: !tilus.tmem<128x64xf32>, %p: i1) {
  // expected-error@+1 {{'tcgen05.mma' op expects b of 16 rows (the K of a), but found 32}}
  tcgen05.mma %a, %b, %d, enable_input_d(%p) : !tilus.shared<128x16xf16>, !tilus.shared<32x64xf16>, !tilus.tmem<128x64xf32>
  return
}

// -----

func.func @mma_d_shape(%a: !tilus.shared<128x16xf16>, %b: !tilus.shared<16x64xf16>, %d: !tilus.tmem<128x128xf32>, %p: i1) {
  // expected-error@+1 {{'tcgen05.mma' op expects d of shape 128x64 (M of a, N of b), but found 128x128}}
  tcgen05.mma %a, %b, %d, enable_input_d(%p) : !tilus.shared<128x16xf16>, !tilus.shared<16x64xf16>, !tilus.tmem<128x128xf32>
  return
}

// -----

// With cta_group 2 each CTA holds half of B's columns but all of D's.
func.func @mma_pair_d_shape(%a: !tilus.shared<128x16xf16>, %b: !tilus.shared<16x128xf16>, %d: !tilus.tmem<128x128xf32>, %p: i1) {
  // expected-error@+1 {{'tcgen05.mma' op expects d of shape 128x256 (M of a, twice the N of b: each CTA holds half of b), but found 128x128}}
  tcgen05.mma %a, %b, %d, enable_input_d(%p) cta_group(2) : !tilus.shared<128x16xf16>, !tilus.shared<16x128xf16>, !tilus.tmem<128x128xf32>
  return
}

// -----

func.func @mma_kinds(%a: !tilus.shared<128x16xf16>, %b: !tilus.shared<16x64xbf16>, %d: !tilus.tmem<128x64xf32>, %p: i1) {
  // expected-error@+1 {{'tcgen05.mma' op expects a and b of one MMA kind (f16 x f16, bf16 x bf16, tf32 x tf32, fp8/fp6/fp4 x fp8/fp6/fp4, or 8-bit integers), but found f16 and bf16}}
  tcgen05.mma %a, %b, %d, enable_input_d(%p) : !tilus.shared<128x16xf16>, !tilus.shared<16x64xbf16>, !tilus.tmem<128x64xf32>
  return
}

// -----

func.func @mma_f32_inputs(%a: !tilus.shared<128x16xf32>, %b: !tilus.shared<16x64xf32>, %d: !tilus.tmem<128x64xf32>, %p: i1) {
  // expected-error@+1 {{'tcgen05.mma' op expects a and b of one MMA kind (f16 x f16, bf16 x bf16, tf32 x tf32, fp8/fp6/fp4 x fp8/fp6/fp4, or 8-bit integers), but found f32 and f32}}
  tcgen05.mma %a, %b, %d, enable_input_d(%p) : !tilus.shared<128x16xf32>, !tilus.shared<16x64xf32>, !tilus.tmem<128x64xf32>
  return
}

// -----

func.func @mma_d_type(%a: !tilus.shared<128x16xbf16>, %b: !tilus.shared<16x64xbf16>, %d: !tilus.tmem<128x64xf16>, %p: i1) {
  // expected-error@+1 {{'tcgen05.mma' op expects d of f32 for bf16 inputs (kind::f16), but found f16}}
  tcgen05.mma %a, %b, %d, enable_input_d(%p) : !tilus.shared<128x16xbf16>, !tilus.shared<16x64xbf16>, !tilus.tmem<128x64xf16>
  return
}

// -----

func.func @mma_i8_d_type(%a: !tilus.shared<128x32xi8>, %b: !tilus.shared<32x64xi8>, %d: !tilus.tmem<128x64xf32>, %p: i1) {
  // expected-error@+1 {{'tcgen05.mma' op expects d of i32 for i8 inputs (kind::i8), but found f32}}
  tcgen05.mma %a, %b, %d, enable_input_d(%p) : !tilus.shared<128x32xi8>, !tilus.shared<32x64xi8>, !tilus.tmem<128x64xf32>
  return
}

// -----

func.func @mma_k_step(%a: !tilus.shared<128x16xf8E5M2>, %b: !tilus.shared<16x64xf8E5M2>, %d: !tilus.tmem<128x64xf32>, %p: i1) {
  // expected-error@+1 {{'tcgen05.mma' op expects K to be a multiple of 32 (kind::f8f6f4), but found 16}}
  tcgen05.mma %a, %b, %d, enable_input_d(%p) : !tilus.shared<128x16xf8E5M2>, !tilus.shared<16x64xf8E5M2>, !tilus.tmem<128x64xf32>
  return
}

// -----

func.func @mma_m(%a: !tilus.shared<32x16xf16>, %b: !tilus.shared<16x64xf16>, %d: !tilus.tmem<32x64xf32>, %p: i1) {
  // expected-error@+1 {{'tcgen05.mma' op expects a of 64 or 128 rows (instruction M 64 or 128 with cta_group 1), but found 32}}
  tcgen05.mma %a, %b, %d, enable_input_d(%p) : !tilus.shared<32x16xf16>, !tilus.shared<16x64xf16>, !tilus.tmem<32x64xf32>
  return
}

// -----

// M = 128 steps N by 16 (M = 64 would take N = 8).
func.func @mma_n(%a: !tilus.shared<128x16xf16>, %b: !tilus.shared<16x8xf16>, %d: !tilus.tmem<128x8xf32>, %p: i1) {
  // expected-error@+1 {{'tcgen05.mma' op expects N to be a multiple of 16 for instruction M 128 with cta_group 1, but found 8}}
  tcgen05.mma %a, %b, %d, enable_input_d(%p) : !tilus.shared<128x16xf16>, !tilus.shared<16x8xf16>, !tilus.tmem<128x8xf32>
  return
}

// -----

// A CTA pair runs one instruction per K step: N is at most 256.
func.func @mma_pair_n(%a: !tilus.shared<128x16xf16>, %b: !tilus.shared<16x256xf16>, %d: !tilus.tmem<128x512xf32>, %p: i1) {
  // expected-error@+1 {{'tcgen05.mma' op expects N to be a multiple of 16 in [16, 256] for instruction M 256 with cta_group 2, but found 512}}
  tcgen05.mma %a, %b, %d, enable_input_d(%p) cta_group(2) : !tilus.shared<128x16xf16>, !tilus.shared<16x256xf16>, !tilus.tmem<128x512xf32>
  return
}

// -----

func.func @mma_swizzle(%a: !tilus.shared<128x64xf16, swizzle = 128B>, %b: !tilus.shared<64x64xf16, swizzle = 64B>, %d: !tilus.tmem<128x64xf32>, %p: i1) {
  // expected-error@+1 {{'tcgen05.mma' op expects a and b with one swizzle mode, but found 128B and 64B}}
  tcgen05.mma %a, %b, %d, enable_input_d(%p) : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x64xf16, swizzle = 64B>, !tilus.tmem<128x64xf32>
  return
}

// -----

tilus.kernel @commit_whole_block() warps(4) blocks(affine_map<() -> (1)>) {
  %i = arith.constant 0 : i32
  %bars = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  // expected-error@+1 {{'tcgen05.commit' op must be issued by one warp (32 threads starting at a multiple of 32), but its group is the whole block: threads [0, 128) (128 threads)}}
  tcgen05.commit %bars[%i : i32] : !mbarrier.barriers<1>
}

// -----

func.func @commit_index(%bars: !mbarrier.barriers<2>) {
  %i = arith.constant 2 : i32
  // expected-error@+1 {{'tcgen05.commit' op expects a barrier index in [0, 2), but found 2}}
  tcgen05.commit %bars[%i : i32] : !mbarrier.barriers<2>
  return
}

// -----

func.func @commit_mask(%bars: !mbarrier.barriers<2>, %i: i32) {
  %m = arith.constant 0 : i32
  // expected-error@+1 {{'tcgen05.commit' op expects a 16-bit multicast CTA mask with a bit set, but found 0}}
  tcgen05.commit %bars[%i : i32] multicast(%m) : !mbarrier.barriers<2>
  return
}

// -----

func.func @ld_rank(%t: !tilus.tmem<128x2x16xf32>) {
  // expected-error@+1 {{'tcgen05.ld' op expects a 2-D tensor-memory tile, but found rank 3}}
  %r = tcgen05.ld %t : !tilus.tmem<128x2x16xf32> -> !tilus.reg<128x2x16xf32>
  return
}

// -----

func.func @ld_shape(%t: !tilus.tmem<128x16xf32>) {
  // expected-error@+1 {{'tcgen05.ld' op expects a register tensor of the tile's shape and element type 128x16xf32, but found 128x16xf16}}
  %r = tcgen05.ld %t : !tilus.tmem<128x16xf32> -> !tilus.reg<128x16xf16>
  return
}

// -----

func.func @ld_layout_threads(%t: !tilus.tmem<128x16xf32>) {
  // expected-error@+1 {{'tcgen05.ld' op expects a register layout over 128 threads (one per lane), but found 64 threads}}
  %r = tcgen05.ld %t : !tilus.tmem<128x16xf32> -> !tilus.reg<128x16xf32, layout = local(2, 1) * spatial(64, 1) * local(1, 16)>
  return
}

// -----

// Rows 32-63 would land in warp 0, which cannot read lane quarter 1.
func.func @ld_layout_quarter(%t: !tilus.tmem<128x32xf32>) {
  // expected-error@+1 {{'tcgen05.ld' op expects a register layout in which warp w holds only rows [32w, 32w + 32) (its lane quarter), but found row 32 in thread 0}}
  %r = tcgen05.ld %t : !tilus.tmem<128x32xf32> -> !tilus.reg<128x32xf32, layout = local(4, 1) * spatial(32, 4) * local(1, 8)>
  return
}

// -----

tilus.kernel @ld_one_warp() warps(4) blocks(affine_map<() -> (1)>) {
  %t = tcgen05.alloc : !tilus.tmem<128x32xf32>
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.single_warp {
    // expected-error@+1 {{'tcgen05.ld' op must be issued by 128 threads (one per lane) starting at a multiple of 128 plus 0 (the tile's first lane), but its group is threads [0, 32) (32 threads)}}
    %r = tcgen05.ld %t : !tilus.tmem<128x32xf32> -> !tilus.reg<128x32xf32>
  }
  tcgen05.dealloc %t : !tilus.tmem<128x32xf32>
}

// -----

// Lanes 0-31 belong to warp 0 (mod 4); warp 1 may only touch lanes 32-63.
tilus.kernel @st_wrong_quarter() warps(4) blocks(affine_map<() -> (1)>) {
  %c0 = arith.constant 0 : index
  %t = tcgen05.alloc : !tilus.tmem<128x32xf32>
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.single_warp warp(1) {
    %q = tcgen05.slice %t[%c0] : !tilus.tmem<128x32xf32> -> !tilus.tmem<32x32xf32>
    %r = tilus.register_tensor : !tilus.reg<32x32xf32>
    // expected-error@+1 {{'tcgen05.st' op must be issued by 32 threads (one per lane) starting at a multiple of 128 plus 0 (the tile's first lane), but its group is threads [32, 64) (32 threads)}}
    tcgen05.st %r, %q : !tilus.reg<32x32xf32>, !tilus.tmem<32x32xf32>
  }
  tcgen05.dealloc %t : !tilus.tmem<128x32xf32>
}

// -----

func.func @st_shape(%t: !tilus.tmem<128x16xf32>, %r: !tilus.reg<128x32xf32>) {
  // expected-error@+1 {{'tcgen05.st' op expects a register tensor of the tile's shape and element type 128x16xf32, but found 128x32xf32}}
  tcgen05.st %r, %t : !tilus.reg<128x32xf32>, !tilus.tmem<128x16xf32>
  return
}

// -----

tilus.kernel @cp_whole_block() warps(4) blocks(affine_map<() -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<128x32xf16>
  %t = tcgen05.alloc : !tilus.tmem<128x32xf16>
  // expected-error@+1 {{'tcgen05.cp' op must be issued by one warp (32 threads starting at a multiple of 32), but its group is the whole block: threads [0, 128) (128 threads)}}
  tcgen05.cp %s, %t : !tilus.shared<128x32xf16>, !tilus.tmem<128x32xf16>
  tcgen05.dealloc %t : !tilus.tmem<128x32xf16>
}

// -----

func.func @cp_rows(%s: !tilus.shared<64x32xf16>, %t: !tilus.tmem<64x32xf16>) {
  // expected-error@+1 {{'tcgen05.cp' op expects a source of 128 rows, but found 64x32xf16}}
  tcgen05.cp %s, %t : !tilus.shared<64x32xf16>, !tilus.tmem<64x32xf16>
  return
}

// -----

func.func @cp_shape(%s: !tilus.shared<128x32xf16>, %t: !tilus.tmem<128x16xf32>) {
  // expected-error@+1 {{'tcgen05.cp' op expects a destination of the source's shape and element type 128x32xf16, but found 128x16xf32}}
  tcgen05.cp %s, %t : !tilus.shared<128x32xf16>, !tilus.tmem<128x16xf32>
  return
}

// -----

func.func @cp_row_bits(%s: !tilus.shared<128x4xf16>, %t: !tilus.tmem<128x4xf16>) {
  // expected-error@+1 {{'tcgen05.cp' op expects rows of a multiple of 128 bits, but found 64 bits}}
  tcgen05.cp %s, %t : !tilus.shared<128x4xf16>, !tilus.tmem<128x4xf16>
  return
}

// -----

func.func @slice_offsets(%t: !tilus.tmem<128x2x64xf32>, %i: index) {
  // expected-error@+1 {{'tcgen05.slice' op expects 2 offsets (one per column dimension of 128x2x64xf32), but found 1}}
  %s = tcgen05.slice %t[%i] : !tilus.tmem<128x2x64xf32> -> !tilus.tmem<128x64xf32>
  return
}

// -----

func.func @slice_dtype(%t: !tilus.tmem<128x64xf32>, %i: index) {
  // expected-error@+1 {{'tcgen05.slice' op expects a result of element type f32, but found f16}}
  %s = tcgen05.slice %t[%i] : !tilus.tmem<128x64xf32> -> !tilus.tmem<128x32xf16>
  return
}

// -----

func.func @slice_lanes(%t: !tilus.tmem<128x64xf32>, %i: index) {
  // expected-error@+1 {{'tcgen05.slice' op expects a lane offset that is a multiple of 32 with lane_offset + 64 <= 128 lanes, but found 96}}
  %s = tcgen05.slice %t[%i] lane_offset(96) : !tilus.tmem<128x64xf32> -> !tilus.tmem<64x64xf32>
  return
}

// -----

func.func @slice_rank(%t: !tilus.tmem<128x64xf32>, %i: index) {
  // expected-error@+1 {{'tcgen05.slice' op expects a result of rank at most 2, but found rank 3}}
  %s = tcgen05.slice %t[%i] : !tilus.tmem<128x64xf32> -> !tilus.tmem<128x1x64xf32>
  return
}

// -----

func.func @slice_extent(%t: !tilus.tmem<128x64xf32>, %i: index) {
  // expected-error@+1 {{'tcgen05.slice' op expects at most 64 elements in dimension 1 of the source, but found 128 (128x64xf32 -> 128x128xf32)}}
  %s = tcgen05.slice %t[%i] : !tilus.tmem<128x64xf32> -> !tilus.tmem<128x128xf32>
  return
}

// -----

// Half of each of two rows is not one run of columns.
func.func @slice_contiguous(%t: !tilus.tmem<128x2x64xf32>, %i: index) {
  // expected-error@+1 {{'tcgen05.slice' op expects a row-major contiguous box (every column dimension after the result's first one whole), but found 32 of 64 in dimension 2}}
  %s = tcgen05.slice %t[%i, %i] : !tilus.tmem<128x2x64xf32> -> !tilus.tmem<128x2x32xf32>
  return
}

// -----

func.func @slice_bounds(%t: !tilus.tmem<128x64xf32>) {
  %c48 = arith.constant 48 : index
  // expected-error@+1 {{'tcgen05.slice' op expects offset + extent <= 64 in dimension 1, but found 48 + 32}}
  %s = tcgen05.slice %t[%c48] : !tilus.tmem<128x64xf32> -> !tilus.tmem<128x32xf32>
  return
}

// -----

func.func @view_bits(%t: !tilus.tmem<128x64xf32>) {
  // expected-error@+1 {{'tcgen05.view' op expects a result of 128 lanes and 2048 bits per lane (like !tilus.tmem<128x64xf32>), but found 128 lanes and 1024 bits per lane (!tilus.tmem<128x64xf16>)}}
  %v = tcgen05.view %t : !tilus.tmem<128x64xf32> -> !tilus.tmem<128x64xf16>
  return
}
