// Shared-window addresses: `ptx.addressof` of a `ptx.shared_decl` is a multiple of the
// buffer's alignment and leaves room for the whole buffer below 2^18, the size of the shared
// window (a static buffer's `size`, the dynamic buffer's `tilus.smem_bytes`). That decides the
// 14-bit mask of a wgmma matrix descriptor, `((addr >> 4) & 0x3FFF) | flags`, and with
// `(x + y) >> k = (x >> k) + (y >> k)` for a multiple `y` of 2^k, the descriptor of the next
// k-slice (32 bytes on) is the first descriptor plus 2.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat,canonicalize,cse)' | FileCheck %s

// CHECK-LABEL: ptx.entry @descriptors
// CHECK-NOT:     arith.andi
// CHECK:         %[[D0:.*]] = arith.addi %{{.*}}, %c4611686293305294848_i64
// CHECK-NEXT:    %[[D1:.*]] = arith.addi %{{.*}}, %c4611686293305294850_i64
// CHECK-NEXT:    ptx.inst "wgmma.mma_async" %[[D0]], %[[D1]]
ptx.shared_decl @buf[65536] align 1024
ptx.entry @descriptors() attributes {target = "sm_90a"} {
  %a = ptx.addressof @buf : i32
  %c4 = arith.constant 4 : i32
  %c32 = arith.constant 32 : i32
  %c16383 = arith.constant 16383 : i32
  %flags = arith.constant 4611686293305294848 : i64
  %s0 = arith.shrui %a, %c4 : i32
  %m0 = arith.andi %s0, %c16383 : i32
  %e0 = arith.extui %m0 : i32 to i64
  %d0 = arith.ori %e0, %flags : i64
  %a1 = arith.addi %a, %c32 : i32
  %s1 = arith.shrui %a1, %c4 : i32
  %m1 = arith.andi %s1, %c16383 : i32
  %e1 = arith.extui %m1 : i32 to i64
  %d1 = arith.ori %e1, %flags : i64
  ptx.inst "wgmma.mma_async" %d0, %d1 : (i64, i64) -> ()
  ptx.ret
}

// An address the pass cannot trace to a `ptx.shared_decl` (here an argument) may have any
// bits: the mask stays.
// CHECK-LABEL: ptx.entry @unknown
// CHECK:         arith.andi
ptx.entry @unknown(%a: i32) attributes {target = "sm_90a"} {
  %c4 = arith.constant 4 : i32
  %c16383 = arith.constant 16383 : i32
  %c48 = arith.constant 48 : i32
  %a1 = arith.addi %a, %c48 : i32
  %s0 = arith.shrui %a1, %c4 : i32
  %m0 = arith.andi %s0, %c16383 : i32
  ptx.inst "st.shared.b32" [%a], %m0 : (i32, i32) -> ()
  ptx.ret
}
