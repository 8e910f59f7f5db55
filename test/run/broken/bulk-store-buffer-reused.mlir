// BROKEN: a warp bulk-stores a shared tile to global memory (tma.shared_to_global) and
// overwrites the tile before `tma.wait_group 0 read` says the store has finished reading it.
//
// The user should see a race report at the tilus.store_shared that overwrites the tile, a
// note at the bulk store, and a help line that names `tma.wait_group N read`, the wait that
// releases a bulk store's source.
//
// RUN: not tilus-run %s --backend interp 2>&1 | FileCheck %s
// RUN: tilus-run %s --backend interp >/dev/null 2>&1; test $? -eq 1
//
// CHECK:      × tilus.store_shared writes shared memory [0, 8192) that an unfinished
// CHECK:      help: {{.*}}`tma.wait_group N read` after a bulk store from it
// CHECK:      ☞ the asynchronous access was issued here
// CHECK:      │       tma.shared_to_global %s, %gy[%c0, %c0 : i32, i32]
tilus.kernel @reuse(%y: !tilus.ptr<f16>) warps(1) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f16
  %two = arith.constant 2.0 : f16
  %gy = tilus.global_view %y : !tilus.ptr<f16> -> !tilus.global<64x64xf16>
  %s = tilus.shared_tensor : !tilus.shared<64x64xf16>
  %t1 = tilus.register_tensor init(%one : f16) : !tilus.reg<64x64xf16>
  %t2 = tilus.register_tensor init(%two : f16) : !tilus.reg<64x64xf16>
  tilus.store_shared %t1, %s : !tilus.reg<64x64xf16>, !tilus.shared<64x64xf16>
  tma.fence_proxy_async shared
  threadgroup.sync
  tma.shared_to_global %s, %gy[%c0, %c0 : i32, i32] : !tilus.shared<64x64xf16>, !tilus.global<64x64xf16>
  tma.commit_group
  // Missing: tma.wait_group 0 read
  tilus.store_shared %t2, %s : !tilus.reg<64x64xf16>, !tilus.shared<64x64xf16>
  tma.wait_group 0
}
