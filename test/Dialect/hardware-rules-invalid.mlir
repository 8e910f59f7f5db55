// Hardware rules checked where the IR breaks them (issue 20), each with the limit it comes from.
// Grid extents that depend on parameters are checked by tilus-run before it runs the kernel
// (test/run-cli); constant ones are checked here.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{'tilus.kernel' op expects grid extent x in [1, 2147483647], but found 0}}
tilus.kernel @empty_grid() warps(1) blocks(affine_map<() -> (0)>) {
}

// -----

// expected-error@+1 {{'tilus.kernel' op expects grid extent x in [1, 2147483647], but found 2147483648}}
tilus.kernel @grid_x_too_large() warps(1) blocks(affine_map<() -> (2147483648)>) {
}

// -----

// expected-error@+1 {{'tilus.kernel' op expects grid extent y in [1, 65535], but found 65536}}
tilus.kernel @grid_y_too_large() warps(1) blocks(affine_map<() -> (1, 65536)>) {
}

// -----

// expected-error@+1 {{'tilus.kernel' op expects grid extent x (3) to be a multiple of the cluster extent 2}}
tilus.kernel @grid_not_whole_clusters() warps(1) blocks(affine_map<() -> (3)>) cluster(2, 1, 1) {
}

// -----

// A parameter-dependent extent is left to tilus-run; the constant one is still checked.
// expected-error@+1 {{'tilus.kernel' op expects grid extent y (3) to be a multiple of the cluster extent 2}}
tilus.kernel @mixed_grid(%n: i32) warps(1) blocks(affine_map<(d0) -> (d0, 3)>) cluster(1, 2) {
}

// -----

// expected-error@+1 {{'tilus.kernel' op expects at most 16 CTAs in a cluster, but found (4, 4, 2) = 32}}
tilus.kernel @cluster_too_large() warps(1) blocks(affine_map<() -> (4, 4, 2)>) cluster(4, 4, 2) {
}

// -----

// 16 CTAs (non-portable) are allowed.
tilus.kernel @cluster_of_16() warps(1) blocks(affine_map<() -> (16)>) cluster(16) {
}

// -----

// Two tensors that each fit, together past 227 KiB (232448 bytes): reported at the second.
// expected-note@+1 {{in this kernel}}
tilus.kernel @shared_total() warps(4) blocks(affine_map<() -> (1)>) {
  %a = tilus.shared_tensor : !tilus.shared<4x128x64xf16, swizzle = 128B>
  // expected-error@+1 {{'tilus.shared_tensor' op expects the block's shared memory to fit in 232448 bytes, but this allocation of 180224 bytes (aligned to 1024) ends at byte 245760}}
  %b = tilus.shared_tensor : !tilus.shared<4x352x64xf16, swizzle = 128B>
}

// -----

// Freed memory is reused (first fit, as plan-shared-memory places it): this fits.
tilus.kernel @shared_reused() warps(4) blocks(affine_map<() -> (1)>) {
  %a = tilus.shared_tensor : !tilus.shared<4x128x64xf16, swizzle = 128B>
  tilus.free_shared %a : !tilus.shared<4x128x64xf16, swizzle = 128B>
  %b = tilus.shared_tensor : !tilus.shared<4x352x64xf16, swizzle = 128B>
}

// -----

// Barriers live in shared memory too (8 bytes each).
tilus.kernel @shared_with_barriers() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-note@-1 {{in this kernel}}
  %a = tilus.shared_tensor : !tilus.shared<113x1024xf16>
  // expected-error@+1 {{'mbarrier.alloc' op expects the block's shared memory to fit in 232448 bytes, but this allocation of 2048 bytes (aligned to 8) ends at byte 233472}}
  %bars = mbarrier.alloc : !mbarrier.barriers<256>
}

// -----

// A 128B-swizzled TMA destination starts at a multiple of 1024 bytes.
tilus.kernel @tma_swizzle_alignment(%p: !tilus.ptr<f16>, %n: i32) warps(1) blocks(affine_map<(d0, d1) -> (1)>) {
  %g = tilus.global_view %p[%n] : !tilus.ptr<f16> -> !tilus.global<?x64xf16>
  %s = tilus.shared_tensor : !tilus.shared<16x4x64xf16, swizzle = 128B>
  %bars = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  // Stage 2 starts 2 * 4 * 64 * 2 = 1024 bytes in: aligned.
  %ok = tilus.slice_shared %s[%c2] : !tilus.shared<16x4x64xf16, swizzle = 128B> -> !tilus.shared<4x64xf16, swizzle = 128B>
  // Stage 1 starts 512 bytes in.
  %bad = tilus.slice_shared %s[%c1] : !tilus.shared<16x4x64xf16, swizzle = 128B> -> !tilus.shared<4x64xf16, swizzle = 128B>
  threadgroup.single_thread {
    tma.global_to_shared %g[%c0, %c0 : i32, i32], %ok, %bars[%c0 : i32]
        : !tilus.global<?x64xf16>, !tilus.shared<4x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
    // expected-error@+1 {{'tma.global_to_shared' op expects a 128B-swizzled destination aligned to 1024 bytes, but it starts 512 bytes into its allocation}}
    tma.global_to_shared %g[%c0, %c0 : i32, i32], %bad, %bars[%c0 : i32]
        : !tilus.global<?x64xf16>, !tilus.shared<4x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
  }
}

// -----

// A multicast mask names CTAs of the cluster only.
tilus.kernel @multicast_outside_cluster() warps(1) blocks(affine_map<() -> (2)>) cluster(2) {
  %bars = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %c0 = arith.constant 0 : i32
  %bytes = arith.constant 128 : i32
  %mask = arith.constant 5 : i32
  // expected-error@+1 {{'mbarrier.arrive_expect_tx_multicast' op expects a multicast mask of CTA ranks below 2, but found 0x5 (the kernel's cluster has 2 CTAs)}}
  mbarrier.arrive_expect_tx_multicast %bars[%c0 : i32], %bytes, mask(%mask) : !mbarrier.barriers<1>
}

// -----

tilus.kernel @remote_rank_outside_cluster() warps(1) blocks(affine_map<() -> (4)>) cluster(4) {
  %bars = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %c0 = arith.constant 0 : i32
  %bytes = arith.constant 128 : i32
  %rank = arith.constant 4 : i32
  threadgroup.single_thread {
    // expected-error@+1 {{'mbarrier.arrive_expect_tx_remote' op expects a CTA rank below 4, but found 4 (the kernel's cluster has 4 CTAs)}}
    mbarrier.arrive_expect_tx_remote %bars[%c0 : i32], %bytes, rank(%rank) : !mbarrier.barriers<1>
  }
}

// -----

// cta_group(2) runs on a CTA pair: the cluster must hold one.
// expected-note@+1 {{the kernel}}
tilus.kernel @cta_pair_without_cluster() warps(4) blocks(affine_map<() -> (2)>) {
  // expected-error@+1 {{'tcgen05.alloc' op expects cta_group 2 in a kernel whose cluster holds CTA pairs (an even number of CTAs), but the cluster has 1}}
  %t = tcgen05.alloc cta_group(2) : !tilus.tmem<128x32xf32>
}

// -----

tilus.kernel @tma_cta_pair_without_cluster(%p: !tilus.ptr<f16>, %n: i32) warps(1) blocks(affine_map<(d0, d1) -> (1)>) {
  %g = tilus.global_view %p[%n] : !tilus.ptr<f16> -> !tilus.global<?x64xf16>
  %s = tilus.shared_tensor : !tilus.shared<64x64xf16>
  %bars = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %c0 = arith.constant 0 : i32
  threadgroup.single_thread {
    // expected-error@+1 {{'tma.global_to_shared' op expects cta_group 2 in a kernel whose cluster holds CTA pairs (an even number of CTAs), but the cluster has 1}}
    tma.global_to_shared %g[%c0, %c0 : i32, i32], %s, %bars[%c0 : i32] cta_group(2)
        : !tilus.global<?x64xf16>, !tilus.shared<64x64xf16>, !mbarrier.barriers<1>
  }
}

// -----

// Tensor memory must be freed before the kernel exits.
tilus.kernel @tmem_never_freed() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'tcgen05.alloc' op expects the tensor memory it allocates (32 columns) to be freed by a 'tcgen05.dealloc' before the kernel exits, but it is never freed}}
  %t = tcgen05.alloc : !tilus.tmem<128x32xf32>
}

// -----

// Only f16/bf16 operands may be MN-major: an fp8 B with N contiguous is rejected.
tilus.kernel @fp8_mn_major() warps(4) blocks(affine_map<() -> (1)>) {
  %a = tilus.shared_tensor : !tilus.shared<64x32xf8E4M3FN>
  %b = tilus.shared_tensor : !tilus.shared<32x64xf8E4M3FN>
  %c = tilus.register_tensor : !tilus.reg<64x64xf32>
  // expected-error@+1 {{'wgmma.mma' op expects b K-major (stride 1 along K, dimension 0) for f8E4M3FN inputs, but found strides [64, 1]}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x32xf8E4M3FN>, !tilus.shared<32x64xf8E4M3FN>, !tilus.reg<64x64xf32>
}

// -----

tilus.kernel @tf32_a_mn_major() warps(4) blocks(affine_map<() -> (1)>) {
  %a = tilus.shared_tensor : !tilus.shared<64x8xtf32, strides = [1, 64]>
  %b = tilus.shared_tensor : !tilus.shared<8x64xtf32, strides = [1, 8]>
  %c = tilus.register_tensor : !tilus.reg<64x64xf32>
  // expected-error@+1 {{'wgmma.mma' op expects a K-major (stride 1 along K, dimension 1) for tf32 inputs, but found strides [1, 64]}}
  %d = wgmma.mma %a, %b, %c : !tilus.shared<64x8xtf32, strides = [1, 64]>, !tilus.shared<8x64xtf32, strides = [1, 8]>, !tilus.reg<64x64xf32>
}

// -----

// A view's extents and strides are fixed for the launch (TMA tensor maps are made on the host
// from them): parameters, constants and pure arithmetic on them only.
tilus.kernel @view_extent_from_block_id(%p: !tilus.ptr<f32>, %n: i32) warps(1) blocks(affine_map<(d0, d1) -> (4)>) {
  // expected-note@+1 {{the value comes from here}}
  %bx = tilus.block_id x
  %e = arith.addi %n, %bx : i32
  // expected-error@+1 {{'tilus.global_view' op expects extents and strides that are the same in every block (kernel parameters, constants and pure arithmetic on them), but extent 0 depends on 'tilus.block_id'}}
  %g = tilus.global_view %p[%e] : !tilus.ptr<f32> -> !tilus.global<?xf32>
}

// -----

tilus.kernel @view_stride_from_loop(%p: !tilus.ptr<f32>, %n: i32) warps(1) blocks(affine_map<(d0, d1) -> (4)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-note@+1 {{the value comes from here}}
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error@+1 {{but stride 0 depends on a block argument that is not a kernel parameter (a loop variable or carried value)}}
    %g = tilus.global_view %p[%n] strides[%i] : !tilus.ptr<f32> -> !tilus.global<?x4xf32, strides = [?, 1]>
  }
}

// -----

// Arithmetic on parameters and constants is the same in every block.
tilus.kernel @view_from_parameters(%p: !tilus.ptr<f32>, %n: i32, %ld: i32) warps(1) blocks(affine_map<(d0, d1, d2) -> (4)>) {
  %c2 = arith.constant 2 : i32
  %rows = arith.muli %n, %c2 : i32
  %nb = tilus.num_blocks x
  %g = tilus.global_view %p[%rows] strides[%ld] : !tilus.ptr<f32> -> !tilus.global<?x4xf32, strides = [?, 1]>
}
