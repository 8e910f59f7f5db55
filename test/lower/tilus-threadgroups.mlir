// lower-threadgroups: groups become scf.if on the absolute thread index, elect-any single
// threads use elect.sync, threadgroup.sync becomes bar.sync 0 / bar.warp.sync / bar.sync id, n.
// RUN: tilus-opt %s --lower-threadgroups | FileCheck %s

// CHECK-LABEL: tilus.kernel @groups()
// threads [0, 64): tid < 64.
// CHECK:         %[[T:.*]] = ptx.special tid.x : i32
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT:    %[[P:.*]] = arith.cmpi ult, %[[T]], %[[C64]] : i32
// CHECK-NEXT:    scf.if %[[P]] {
// threads [32, 64): tid - 32 < 32.
// CHECK:           arith.constant -32 : i32
// CHECK:           arith.cmpi ult
// CHECK-NEXT:      scf.if
// threads [40, 48): thread_id is tid - 40; a 8-lane warp barrier over lanes 8..15.
// CHECK:             arith.constant -40 : i32
// CHECK:             arith.constant 8 : i32
// CHECK:             scf.if
// CHECK-NEXT:          ptx.special tid.x
// CHECK-NEXT:          arith.constant -40 : i32
// CHECK-NEXT:          arith.addi
// CHECK-NEXT:          ptx.inst "bar.warp.sync" 0xff00
// CHECK-NEXT:        }
// CHECK-NEXT:        ptx.inst "bar.warp.sync" 0xffffffff
// CHECK-NEXT:      }
// CHECK-NEXT:      ptx.inst "bar.sync" 1, 64
// CHECK-NEXT:    }
// warps 2-3: a second named barrier; warp_id is (tid - 64) / 32.
// CHECK:         scf.if
// CHECK:           arith.constant -64 : i32
// CHECK-NEXT:      arith.addi
// CHECK-NEXT:      arith.constant 5 : i32
// CHECK-NEXT:      arith.shrui
// CHECK-NEXT:      ptx.inst "bar.sync" 2, 64
// The elected thread comes from the group's first warp (warp 2).
// CHECK-NEXT:      ptx.asm "{{.*}}elect.sync _|%elect_p, 0xffffffff;{{.*}}"
// CHECK:           arith.constant 2 : i32
// CHECK-NEXT:      arith.cmpi eq
// CHECK-NEXT:      arith.andi
// CHECK-NEXT:      scf.if
// A one-thread group needs no barrier; threads(0, 128) is the whole block: inlined, bar.sync 0.
// CHECK-NOT:       bar.
// CHECK:         ptx.inst "bar.sync" 0
// Not warp-aligned: tid - 3 < 50, and the elected thread is the group's first, tid == 3.
// CHECK:         arith.constant -3 : i32
// CHECK:         arith.constant 50 : i32
// CHECK:         scf.if
// CHECK:           arith.constant 3 : i32
// CHECK-NEXT:      arith.cmpi eq
// CHECK-NEXT:      scf.if
// CHECK-NEXT:        ptx.special laneid
tilus.kernel @groups() warps(4) blocks(affine_map<() -> (1)>) {
  threadgroup.group threads(0, 64) {
    threadgroup.group threads(32, 32) {
      threadgroup.group threads(8, 8) {
        %t = tilus.thread_id
        threadgroup.sync
      }
      threadgroup.sync
    }
    threadgroup.sync
  }
  threadgroup.warp_group warps(2, 2) {
    %w = tilus.warp_id
    threadgroup.sync
    threadgroup.single_thread {
      threadgroup.sync
    }
  }
  threadgroup.group threads(0, 128) {
    threadgroup.sync
  }
  threadgroup.single_thread thread(70) {
  }
  threadgroup.group threads(3, 50) {
    threadgroup.single_thread {
      %x = tilus.lane_id
    }
  }
}
