// The tma verifier's rules, each with its message. Box rules hold anywhere; group-shape rules
// are only checked inside a `tilus.kernel`.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

func.func @offsets_count(%g: !tilus.global<128x64xf16>, %s: !tilus.shared<64x64xf16>, %b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op expects 2 offsets (one per dimension of the global view '!tilus.global<128x64xf16>'), but found 1}}
  tma.global_to_shared %g[%i : i32], %s, %b[%i : i32] : !tilus.global<128x64xf16>, !tilus.shared<64x64xf16>, !mbarrier.barriers<1>
  return
}

// -----

func.func @dims_increasing(%g: !tilus.global<8x128x64xf16>, %s: !tilus.shared<64x64xf16>, %b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op expects dims to be strictly increasing dimensions of the global view (0 to 2), but found [2, 1]}}
  tma.global_to_shared %g[%i, %i, %i : i32, i32, i32], %s, %b[%i : i32] dims array<i64: 2, 1> : !tilus.global<8x128x64xf16>, !tilus.shared<64x64xf16>, !mbarrier.barriers<1>
  return
}

// -----

func.func @dims_rank(%g: !tilus.global<8x128x64xf16>, %s: !tilus.shared<64x64xf16>, %b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op expects a shared tensor of rank 1 (one dimension per entry of dims), but found rank 2}}
  tma.global_to_shared %g[%i, %i, %i : i32, i32, i32], %s, %b[%i : i32] dims array<i64: 2> : !tilus.global<8x128x64xf16>, !tilus.shared<64x64xf16>, !mbarrier.barriers<1>
  return
}

// -----

func.func @rank(%g: !tilus.global<8x128x64xf16>, %s: !tilus.shared<64x64xf16>, %b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op expects a shared tensor of rank 3 (the global view's rank, or one dimension per entry of dims), but found rank 2}}
  tma.global_to_shared %g[%i, %i, %i : i32, i32, i32], %s, %b[%i : i32] : !tilus.global<8x128x64xf16>, !tilus.shared<64x64xf16>, !mbarrier.barriers<1>
  return
}

// -----

func.func @box_rank(%g: !tilus.global<2x2x2x2x2x16xf16>, %s: !tilus.shared<2x2x2x2x2x16xf16>, %b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op expects a box of rank 1 to 5, but found rank 6}}
  tma.global_to_shared %g[%i, %i, %i, %i, %i, %i : i32, i32, i32, i32, i32, i32], %s, %b[%i : i32] : !tilus.global<2x2x2x2x2x16xf16>, !tilus.shared<2x2x2x2x2x16xf16>, !mbarrier.barriers<1>
  return
}

// -----

func.func @dtype(%g: !tilus.global<128x64xf16>, %s: !tilus.shared<64x64xbf16>, %b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op expects the shared tensor's element type to be f16 (the global view's), but found bf16}}
  tma.global_to_shared %g[%i, %i : i32, i32], %s, %b[%i : i32] : !tilus.global<128x64xf16>, !tilus.shared<64x64xbf16>, !mbarrier.barriers<1>
  return
}

// -----

func.func @extent(%g: !tilus.global<?x64xf16>, %s: !tilus.shared<512x8xf16>, %b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op expects every box extent to be at most 256, but found 512 in dimension 0}}
  tma.global_to_shared %g[%i, %i : i32, i32], %s, %b[%i : i32] : !tilus.global<?x64xf16>, !tilus.shared<512x8xf16>, !mbarrier.barriers<1>
  return
}

// -----

func.func @row_major(%g: !tilus.global<?x64xf16>, %s: !tilus.shared<64x64xf16, strides = [1, 64]>, %b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op expects a row-major shared tensor (strides [64, 1]; TMA writes the box densely), but found strides [1, 64]}}
  tma.global_to_shared %g[%i, %i : i32, i32], %s, %b[%i : i32] : !tilus.global<?x64xf16>, !tilus.shared<64x64xf16, strides = [1, 64]>, !mbarrier.barriers<1>
  return
}

// -----

func.func @row_bytes(%g: !tilus.global<?x64xf16>, %s: !tilus.shared<64x4xf16>, %b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op expects the innermost box row to be a multiple of 16 bytes, but found 8 bytes (4 x f16)}}
  tma.global_to_shared %g[%i, %i : i32, i32], %s, %b[%i : i32] : !tilus.global<?x64xf16>, !tilus.shared<64x4xf16>, !mbarrier.barriers<1>
  return
}

// -----

func.func @swizzle_span(%g: !tilus.global<?x4096xf16>, %s: !tilus.shared<64x64xf16, swizzle = 64B>, %b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op expects the innermost box row to fit the 64B swizzle span (64 bytes), but found 128 bytes (64 x f16)}}
  tma.global_to_shared %g[%i, %i : i32, i32], %s, %b[%i : i32] : !tilus.global<?x4096xf16>, !tilus.shared<64x64xf16, swizzle = 64B>, !mbarrier.barriers<1>
  return
}

// -----

func.func @inner_stride(%g: !tilus.global<64x64xf16, strides = [1, 64]>, %s: !tilus.shared<64x64xf16>, %b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op expects the global view's stride in dimension 1 (the box's innermost) to be 1, but found 64}}
  tma.global_to_shared %g[%i, %i : i32, i32], %s, %b[%i : i32] : !tilus.global<64x64xf16, strides = [1, 64]>, !tilus.shared<64x64xf16>, !mbarrier.barriers<1>
  return
}

// -----

func.func @outer_stride(%g: !tilus.global<?x64xf16, strides = [100, 1]>, %s: !tilus.shared<64x64xf16>, %b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op expects the global view's strides to be multiples of 16 bytes, but found 100 x f16 = 200 bytes in dimension 0}}
  tma.global_to_shared %g[%i, %i : i32, i32], %s, %b[%i : i32] : !tilus.global<?x64xf16, strides = [100, 1]>, !tilus.shared<64x64xf16>, !mbarrier.barriers<1>
  return
}

// -----

func.func @implied_stride(%s: !tilus.shared<32x8xf16>, %g: !tilus.global<?x100xf16>, %i: i32) {
  // expected-error@+1 {{'tma.shared_to_global' op expects the global view's strides to be multiples of 16 bytes, but found 100 x f16 = 200 bytes in dimension 0 (implied by the row-major layout)}}
  tma.shared_to_global %s, %g[%i, %i : i32, i32] : !tilus.shared<32x8xf16>, !tilus.global<?x100xf16>
  return
}

// -----

func.func @store_dtype(%s: !tilus.shared<32x8xf32>, %g: !tilus.global<?x64xf16>, %i: i32) {
  // expected-error@+1 {{'tma.shared_to_global' op expects the shared tensor's element type to be f16 (the global view's), but found f32}}
  tma.shared_to_global %s, %g[%i, %i : i32, i32] : !tilus.shared<32x8xf32>, !tilus.global<?x64xf16>
  return
}

// -----

func.func @not_barriers(%g: !tilus.global<128x64xf16>, %s: !tilus.shared<64x64xf16>, %b: i64, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op operand #4 must be mbarrier array (!mbarrier.barriers), but got 'i64'}}
  "tma.global_to_shared"(%g, %i, %i, %s, %b, %i) <{operandSegmentSizes = array<i32: 1, 2, 1, 1, 1, 0>}> : (!tilus.global<128x64xf16>, i32, i32, !tilus.shared<64x64xf16>, i64, i32) -> ()
  return
}

// -----

func.func @barrier_index(%g: !tilus.global<128x64xf16>, %s: !tilus.shared<64x64xf16>, %b: !mbarrier.barriers<2>, %i: i32) {
  %c3 = arith.constant 3 : i32
  // expected-error@+1 {{'tma.global_to_shared' op expects a barrier index in [0, 2) (the barriers of '!mbarrier.barriers<2>'), but found 3}}
  tma.global_to_shared %g[%i, %i : i32, i32], %s, %b[%c3 : i32] : !tilus.global<128x64xf16>, !tilus.shared<64x64xf16>, !mbarrier.barriers<2>
  return
}

// -----

func.func @multicast_mask(%g: !tilus.global<128x64xf16>, %s: !tilus.shared<64x64xf16>, %b: !mbarrier.barriers<1>, %i: i32) {
  %c0 = arith.constant 0 : i32
  // expected-error@+1 {{'tma.global_to_shared' op expects a multicast CTA mask (16 bits) in [1, 65535], but found 0}}
  tma.global_to_shared %g[%i, %i : i32, i32], %s, %b[%i : i32] multicast(%c0) : !tilus.global<128x64xf16>, !tilus.shared<64x64xf16>, !mbarrier.barriers<1>
  return
}

// -----

func.func @cta_group(%g: !tilus.global<128x64xf16>, %s: !tilus.shared<64x64xf16>, %b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'tma.global_to_shared' op expects cta_group 1 or 2, but found 4}}
  tma.global_to_shared %g[%i, %i : i32, i32], %s, %b[%i : i32] cta_group(4) : !tilus.global<128x64xf16>, !tilus.shared<64x64xf16>, !mbarrier.barriers<1>
  return
}

// -----

func.func @wait_group_n() {
  // expected-error@+1 {{'tma.wait_group' op expects n in [0, 6], but found 7}}
  tma.wait_group 7
  return
}

// -----

func.func @fence_space() {
  // expected-error@+1 {{'tma.fence_proxy_async' op expects space to be one of 0 (shared), 1 (global), but found 2}}
  "tma.fence_proxy_async"() <{space = 2 : i64}> : () -> ()
  return
}

// -----

func.func @fence_space_keyword() {
  // expected-error@+1 {{expected state space for 'space', one of: shared, global, but found 'local'}}
  tma.fence_proxy_async local
  return
}

// -----

// A copy issued by 32 threads that do not start at a warp boundary.
tilus.kernel @unaligned_warp(%p: !tilus.ptr<f16>, %m: i32) warps(4) blocks(affine_map<(d0, d1) -> (d1 ceildiv 64)>) {
  %g = tilus.global_view %p[%m] : !tilus.ptr<f16> -> !tilus.global<?x64xf16>
  %s = tilus.shared_tensor : !tilus.shared<64x64xf16, swizzle = 128B>
  %b = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %c0 = arith.constant 0 : i32
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.group threads(40, 32) {
    // expected-error@+1 {{'tma.global_to_shared' op must be issued by one thread, or one warp (32 threads starting at a multiple of 32), but its group is threads [40, 72) (32 threads)}}
    tma.global_to_shared %g[%c0, %c0 : i32, i32], %s, %b[%c0 : i32] : !tilus.global<?x64xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
  }
}

// -----

// Two warps are not one: TMA is issued by one thread or exactly one aligned warp.
tilus.kernel @two_warps(%p: !tilus.ptr<f16>, %m: i32) warps(4) blocks(affine_map<(d0, d1) -> (d1 ceildiv 64)>) {
  %g = tilus.global_view %p[%m] : !tilus.ptr<f16> -> !tilus.global<?x64xf16>
  %s = tilus.shared_tensor : !tilus.shared<64x64xf16, swizzle = 128B>
  %b = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %c0 = arith.constant 0 : i32
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.group threads(64, 64) {
    // expected-error@+1 {{'tma.global_to_shared' op must be issued by one thread, or one warp (32 threads starting at a multiple of 32), but its group is threads [64, 128) (64 threads)}}
    tma.global_to_shared %g[%c0, %c0 : i32, i32], %s, %b[%c0 : i32] : !tilus.global<?x64xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
  }
}

// -----

// A store by the whole block.
tilus.kernel @store_by_block(%p: !tilus.ptr<f32>, %m: i32) warps(4) blocks(affine_map<(d0, d1) -> (d1 ceildiv 64)>) {
  %g = tilus.global_view %p[%m] : !tilus.ptr<f32> -> !tilus.global<?x32xf32>
  %s = tilus.shared_tensor : !tilus.shared<64x32xf32>
  %c0 = arith.constant 0 : i32
  // expected-error@+1 {{'tma.shared_to_global' op must be issued by one thread, or one warp (32 threads starting at a multiple of 32), but its group is the whole block: threads [0, 128) (128 threads)}}
  tma.shared_to_global %s, %g[%c0, %c0 : i32, i32] : !tilus.shared<64x32xf32>, !tilus.global<?x32xf32>
}

// -----

// Bulk groups are per issuing thread: commit and wait from the issuing thread or warp.
tilus.kernel @commit_by_warps(%m: i32) warps(4) blocks(affine_map<(d0) -> (d0)>) {
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.warp_group warps(0, 2) {
    // expected-error@+1 {{'tma.commit_group' op must be issued by one thread, or one warp (32 threads starting at a multiple of 32), but its group is threads [0, 64) (64 threads)}}
    tma.commit_group
  }
}

// -----

tilus.kernel @wait_by_pair(%m: i32) warps(4) blocks(affine_map<(d0) -> (d0)>) {
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.group threads(0, 2) {
    // expected-error@+1 {{'tma.wait_group' op must be issued by one thread, or one warp (32 threads starting at a multiple of 32), but its group is threads [0, 2) (2 threads)}}
    tma.wait_group 0 read
  }
}

// -----

// The TMA pipeline of a warp-specialized kernel verifies: one warp (or one thread) issues,
// fences run on every thread.
tilus.kernel @groups_ok(%p: !tilus.ptr<f16>, %m: i32) warps(4) blocks(affine_map<(d0, d1) -> (d1 ceildiv 64)>) {
  %g = tilus.global_view %p[%m] : !tilus.ptr<f16> -> !tilus.global<?x64xf16>
  %s = tilus.shared_tensor : !tilus.shared<64x64xf16, swizzle = 128B>
  %b = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %c0 = arith.constant 0 : i32
  %bytes = arith.constant 8192 : i32
  threadgroup.single_warp warp(3) {
    threadgroup.single_thread {
      mbarrier.arrive_expect_tx %b[%c0 : i32], %bytes : !mbarrier.barriers<1>
    }
    tma.global_to_shared %g[%c0, %c0 : i32, i32], %s, %b[%c0 : i32] : !tilus.global<?x64xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
  }
  tma.fence_proxy_async shared
  threadgroup.sync
  threadgroup.single_thread {
    tma.shared_to_global %s, %g[%c0, %c0 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x64xf16>
    tma.commit_group
    tma.wait_group 0 read
  }
}
