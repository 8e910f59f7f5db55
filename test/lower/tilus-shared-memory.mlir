// plan-shared-memory: static offsets in one dynamic buffer (first fit, 128-byte alignment,
// 1024 for a 128B swizzle, 8 for barriers, space reused after free_shared), the total on the
// kernel, and tilus.shared_addr / mbarrier.addr as the buffer's address plus offsets.
// RUN: tilus-opt %s --plan-shared-memory | FileCheck %s

// CHECK:       ptx.shared_decl @smem align 1024
// CHECK-LABEL: tilus.kernel @plan
// CHECK-SAME:    attributes {tilus.smem_bytes = 33792 : i64}
// CHECK:         tilus.shared_tensor {tilus.smem_offset = 0 : i64} : !tilus.shared<4x1xf32>
// CHECK-NEXT:    mbarrier.alloc counts [1, 1, 128] {tilus.smem_offset = 16 : i64}
// CHECK-NEXT:    tilus.shared_tensor {tilus.smem_offset = 1024 : i64} : !tilus.shared<2x128x64xf16, swizzle = 128B>
// CHECK-NEXT:    tilus.free_shared
// After the free, [0, 16) is free again but too small next to the barriers: 128.
// CHECK-NEXT:    tilus.shared_tensor {tilus.smem_offset = 128 : i64} : !tilus.shared<16xf32>
// The slice's address: base + 1024 + i * 16384.
// CHECK:         %[[B:.*]] = ptx.addressof @smem : i32
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1024 : i32
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[B]], %[[C]] : i32
// CHECK-NEXT:    %[[C14:.*]] = arith.constant 14 : i32
// CHECK-NEXT:    %[[O:.*]] = arith.shli %i, %[[C14]] : i32
// CHECK-NEXT:    arith.addi %[[S]], %[[O]] : i32
// Barrier 1: base + 16 + 8 * 1.
// CHECK:         ptx.addressof @smem : i32
// CHECK-NEXT:    arith.constant 16 : i32
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    arith.constant 3 : i32
// CHECK-NEXT:    arith.shli
// CHECK-NEXT:    arith.addi
// CHECK-NOT:     tilus.shared_addr
// CHECK-NOT:     mbarrier.addr
tilus.kernel @plan(%i: i32) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %c1 = arith.constant 1 : i32
  %a = tilus.shared_tensor : !tilus.shared<4x1xf32>
  %bars = mbarrier.alloc counts [1, 1, 128] : !mbarrier.barriers<3>
  %s = tilus.shared_tensor : !tilus.shared<2x128x64xf16, swizzle = 128B>
  tilus.free_shared %a : !tilus.shared<4x1xf32>
  %b = tilus.shared_tensor : !tilus.shared<16xf32>
  %v = tilus.slice_shared %s[%i] : !tilus.shared<2x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
  %av = tilus.shared_addr %v : !tilus.shared<128x64xf16, swizzle = 128B> -> i32
  %ab = mbarrier.addr %bars[%c1 : i32] : !mbarrier.barriers<3> -> i32
}
