// lower-threadgroups: groups become scf.if on the absolute thread index, elect-any single
// threads use elect.sync, threadgroup.sync becomes bar.sync 0 / bar.warp.sync / bar.sync id, n.
// Ranges of whole warps from a warp boundary test the warp index, read once at the kernel's
// entry from lane 0 by shfl.sync.idx (warp-uniform for ptxas, which cannot tell tid / 32 is).
// RUN: tilus-opt %s --lower-threadgroups | FileCheck %s

// CHECK-LABEL: tilus.kernel @groups()
// CHECK-NEXT:    %[[T:.*]] = ptx.special tid.x : i32
// CHECK-NEXT:    %[[W:.*]] = ptx.asm "{{.*}}shr.u32 %tw, $1, 5;{{.*}}shfl.sync.idx.b32 $0, %tw, 0, 31, -1;{{.*}}" %[[T]] : (i32) -> i32
// threads [0, 64) are warps [0, 2): w < 2.
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[P:.*]] = arith.cmpi ult, %[[W]], %[[C2]] : i32
// CHECK-NEXT:    scf.if %[[P]] {
// threads [32, 64) are warp 1: w - 1 < 1.
// CHECK-NEXT:      %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-NEXT:      %[[D:.*]] = arith.addi %[[W]], %[[CM1]] : i32
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      arith.cmpi ult, %[[D]], %[[C1]] : i32
// CHECK-NEXT:      scf.if
// threads [40, 48) are part of a warp: tid - 40 < 8; thread_id is tid - 40; a 8-lane warp
// barrier over lanes 8..15.
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
// warps 2-3: w - 2 < 2; a second named barrier; warp_id is (tid - 64) / 32.
// CHECK-NEXT:    arith.constant -2 : i32
// CHECK-NEXT:    arith.addi %[[W]]
// CHECK-NEXT:    arith.constant 2 : i32
// CHECK-NEXT:    arith.cmpi ult
// CHECK-NEXT:    scf.if
// CHECK:           arith.constant -64 : i32
// CHECK-NEXT:      arith.addi
// CHECK-NEXT:      arith.constant 5 : i32
// CHECK-NEXT:      arith.shrui
// CHECK-NEXT:      ptx.inst "bar.sync" 2, 64
// The elected thread comes from the group's first warp (warp 2: w == 2).
// CHECK-NEXT:      ptx.asm "{{.*}}elect.sync _|%elect_p, 0xffffffff;{{.*}}"
// CHECK:           arith.constant 2 : i32
// CHECK-NEXT:      arith.cmpi eq, %[[W]]
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

// A ptx.entry that knows only an upper bound on its threads (maxntid) may run a partial last
// warp, where a full-mask shfl.sync would name lanes that do not exist: its warp ranges test
// tid.x. With tilus.threads the size is exact and the warp index is used.
// CHECK-LABEL: ptx.entry @bounded()
// CHECK-NOT:     shfl.sync
// CHECK:         %[[T:.*]] = ptx.special tid.x : i32
// CHECK-NEXT:    arith.constant -32 : i32
// CHECK-NEXT:    arith.addi %[[T]]
// CHECK-NEXT:    arith.constant 64 : i32
// CHECK-NEXT:    arith.cmpi ult
// CHECK-NEXT:    scf.if
ptx.entry @bounded() attributes {target = "sm_90a", maxntid = 128 : i64} {
  threadgroup.warp_group warps(1, 2) {
    threadgroup.sync
  }
  ptx.ret
}

// CHECK-LABEL: ptx.entry @exact()
// CHECK-NEXT:    %[[T:.*]] = ptx.special tid.x : i32
// CHECK-NEXT:    %[[W:.*]] = ptx.asm "{{.*}}shfl.sync.idx.b32{{.*}}" %[[T]]
// CHECK-NEXT:    arith.constant -4 : i32
// CHECK-NEXT:    arith.addi %[[W]]
// CHECK-NEXT:    arith.constant 4 : i32
// CHECK-NEXT:    arith.cmpi ult
// CHECK-NEXT:    scf.if
ptx.entry @exact() attributes {target = "sm_90a", maxntid = 256 : i64, tilus.threads = 256 : i64} {
  threadgroup.group threads(128, 128) {
    threadgroup.sync
  }
  ptx.ret
}
