// threadgroup.setmaxnreg: the register split of a warp-specialized kernel (a producer warpgroup
// releases registers, two consumer warpgroups claim them), in custom and generic form, run by
// the interpreter, lowered to PTX and accepted by ptxas.
//
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
// CHECK:      threadgroup.warp_group warps(8, 4) {
// CHECK-NEXT:   threadgroup.setmaxnreg dec 40
// CHECK:      threadgroup.warp_group warps(0, 8) {
// CHECK-NEXT:   threadgroup.setmaxnreg inc 232
// GENERIC: "threadgroup.setmaxnreg"() <{action = 1 : i64, count = 40 : i64}> : () -> ()
//
// 384 threads start with 168 registers each (65536 / 384, rounded down to a multiple of 8):
// 64512 of the 65536. The consumers' inc waits until the producer's dec has returned 128 x 128
// registers to the pool, on every schedule: 128 x 40 + 256 x 232 = 64512 fits.
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --schedule random --seed 5 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --schedule random --seed 6 | FileCheck %s --check-prefix=INTERP
// INTERP: grid: 1x1x1 blocks of 384 threads (12 warps)
//
// A split that overcommits the register file waits forever, as on the GPU:
// 128 x 40 + 256 x 256 = 70656 > 65536.
// RUN: sed 's/inc 232/inc 256/' %s | not tilus-run - 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: deadlock
// OVER: threads [0, 256) wait at threadgroup.setmaxnreg inc for 22528 registers of the block's pool, which has 17408 free
//
// dec must not raise and inc must not lower a warp's count:
// RUN: sed 's/dec 40/dec 176/' %s | not tilus-run - 2>&1 | FileCheck %s --check-prefix=RAISE
// RAISE: setmaxnreg.dec 176 would raise warp 8's register count of 168
// RUN: sed 's/inc 232/inc 160/' %s | not tilus-run - 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER: setmaxnreg.inc 160 would lower warp 0's register count of 168
//
// The lowering writes the instruction per group, and `.maxnreg 168` (the count every warp starts
// with) so that ptxas knows the register count at entry (it ignores setmaxnreg otherwise).
// RUN: tilus-run %s --dump-ptx 2>/dev/null | FileCheck %s --check-prefix=PTX
// PTX: .maxntid 384, 1, 1
// PTX-NEXT: .maxnreg 168
// PTX: setmaxnreg.dec.sync.aligned.u32 40;
// PTX: setmaxnreg.inc.sync.aligned.u32 232;

tilus.kernel @register_split(%x: !tilus.ptr<f32>) warps(12) blocks(affine_map<(d0) -> (1)>) {
  threadgroup.warp_group warps(8, 4) {
    threadgroup.setmaxnreg dec 40
  }
  threadgroup.warp_group warps(0, 8) {
    threadgroup.setmaxnreg inc 232
  }
}
