// Size checks near 2^63 and 2^64 (issue 20): every bound is computed in wider integers, so an
// extent or index this large is reported, never wrapped into a small size that passes.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

// begin + num wraps to a negative i64; in i128 it is far past the block.
tilus.kernel @group_begin_plus_num() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'threadgroup.group' op expects begin + num <= 128 (the size of the enclosing group, the whole block: threads [0, 128) (128 threads)), but found 9223372036854775807 + 9223372036854775807 = 18446744073709551614}}
  threadgroup.group threads(9223372036854775807, 9223372036854775807) {
  }
}

// -----

// 32 * 2^58 is 2^63: as an i64 it wraps to the most negative value.
tilus.kernel @single_warp_index() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'threadgroup.single_warp' op expects warp 288230376151711744 (threads [9223372036854775808, 9223372036854775840)) inside the enclosing group of 128 threads (the whole block: threads [0, 128) (128 threads))}}
  threadgroup.single_warp warp(288230376151711744) {
  }
}

// -----

tilus.kernel @warp_group_range() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'threadgroup.warp_group' op expects 32 * (warp_begin + num_warps) <= 128 (the size of the enclosing group, the whole block: threads [0, 128) (128 threads)), but found 32 * (288230376151711743 + 288230376151711743) = 18446744073709551552}}
  threadgroup.warp_group warps(288230376151711743, 288230376151711743) {
  }
}

// -----

// 2^32 x 2^32 elements is 2^64: the element count wraps to 0 in i64.
tilus.kernel @shared_elements() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{expected a tensor of at most 2^59 bytes, found 18446744073709551616 elements of 16 bits}}
  %s = tilus.shared_tensor : !tilus.shared<4294967296x4294967296xf16>
}

// -----

// 2^61 elements of 32 bits is 2^66 bits: the byte count wraps in i64.
tilus.kernel @shared_bytes() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{expected a tensor of at most 2^59 bytes, found 2305843009213693952 elements of 32 bits}}
  %s = tilus.shared_tensor : !tilus.shared<2305843009213693952xf32>
}

// -----

// Below the type's bound, the 227 KiB limit applies.
tilus.kernel @shared_bytes_large() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'tilus.shared_tensor' op expects a shared tensor of at most 232448 bytes, but found 288230376151711744 bytes}}
  %s = tilus.shared_tensor : !tilus.shared<72057594037927936xf32>
}

// -----

tilus.kernel @tmem_columns() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{expected a tensor of at most 2^59 bytes, found 590295810358705651712 elements of 32 bits}}
  %t = tcgen05.alloc : !tilus.tmem<128x4611686018427387904xf32>
}

// -----

// Below the type's bound, 2^50 f32 columns are reported as such.
tilus.kernel @tmem_columns_large() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'tcgen05.alloc' op expects at most 512 tensor-memory columns, but found 1125899906842624 for 32x1125899906842624}}
  %t = tcgen05.alloc : !tilus.tmem<32x1125899906842624xf32>
}

// -----

tilus.kernel @register_elements() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{expected a tensor of at most 2^59 bytes, found 18446744073709551616 elements of 32 bits}}
  %r = tilus.register_tensor : !tilus.reg<4294967296x4294967296xf32>
}
