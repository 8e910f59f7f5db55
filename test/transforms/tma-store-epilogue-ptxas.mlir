// ptxas (sm_90a) accepts the kernels with the TMA-store epilogue: the persistent matmul
// (examples/hopper_matmul_v1_persistent.mlir) through pipeline, warp-specialize and
// tma-store-epilogue, lowered by tilus-run --dump-ptx. With K = 2 (v4's configuration: 12
// warps, 168 registers at entry, consumers raised to 232) the two 64 x 256 accumulators and the
// epilogue (64 st.shared.b32 a thread, four 2-D bulk stores of [64, 64] boxes) fit without a
// spill for 2 and 3 stages and both release forms, with the previous tile carried as 64
// registers of f16 pairs (overlap-epilogue). The main kernel's PTX has, per consumer
// warpgroup, six bulk tensor stores each with its commit (box 0 at the next tile's first
// k-step, after a k loop of no step and after the tile loop; the deferred boxes in the k loop,
// after a short one and after the tile loop), three `wait_group.read` and fences (one with
// each box 0) and one final `wait_group`.
//
// REQUIRES: ptxas
// RUN: for f in 0 1; do \
// RUN:   for n in 2 3; do \
// RUN:     tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline="builtin.module(pipeline{stages=$n},warp-specialize{consumer-warpgroups=2 mma-in-flight=$f},tma-store-epilogue)" -o %t.mlir || exit 1; \
// RUN:     tilus-run %t.mlir --dump-ptx > %t.ptx 2>/dev/null || exit 1; \
// RUN:     %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin > %t.log 2>&1 || { cat %t.log; exit 1; }; \
// RUN:     echo "groups=2 stages=$n in-flight=$f: $(grep -o 'Used [0-9]* registers' %t.log | head -1), $(grep -o '[0-9]* bytes spill stores' %t.log | head -1)$(grep -o "setmaxnreg' ignored" %t.log)"; \
// RUN:   done; \
// RUN: done | FileCheck %s
// CHECK-NOT: ignored
// CHECK-COUNT-2: groups=2 stages={{[23]}} in-flight=0: Used 168 registers, 0 bytes spill stores{{$}}
// CHECK-COUNT-2: groups=2 stages={{[23]}} in-flight=1: Used 168 registers, 0 bytes spill stores{{$}}
//
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline="builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2 mma-in-flight=1},tma-store-epilogue,canonicalize)" -o %t.k2.mlir
// RUN: tilus-run %t.k2.mlir --dump-ptx > %t.k2.ptx 2>/dev/null
// RUN: awk '/^.visible .entry/ { p = ($0 ~ /hopper_matmul_v1_persistent/) } p' %t.k2.ptx > %t.k2.main.ptx
// RUN: grep -c 'cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group' %t.k2.main.ptx | FileCheck %s --check-prefix=TWELVE
// TWELVE: {{^12$}}
// RUN: grep -c 'cp.async.bulk.commit_group' %t.k2.main.ptx | FileCheck %s --check-prefix=TWELVE
// RUN: grep -c 'cp.async.bulk.wait_group.read' %t.k2.main.ptx | FileCheck %s --check-prefix=SIX
// RUN: grep -c 'fence.proxy.async.shared::cta' %t.k2.main.ptx | FileCheck %s --check-prefix=SIX
// SIX: {{^6$}}
// RUN: %ptxas -arch=sm_90a -v %t.k2.ptx -o %t.k2.cubin 2>&1 | FileCheck %s --check-prefix=K2
// K2: Used 168 registers
//
// K = 1 (one warpgroup holds the whole 128 x 256 f32 accumulator and spills, as without the
// pass): accepted, with four [128, 64] boxes, and no overlap (its 128 x 256 f16 tile would take
// 128 more registers a thread).
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline="builtin.module(pipeline{stages=3},warp-specialize,tma-store-epilogue)" -o %t.k1.mlir
// RUN: tilus-run %t.k1.mlir --dump-ptx > %t.k1.ptx 2>/dev/null
// RUN: %ptxas -arch=sm_90a -v %t.k1.ptx -o %t.k1.cubin 2>&1 | FileCheck %s --check-prefix=K1
// K1-NOT: ignored
// K1: Used 248 registers
//
// v5 through the pass (v6's epilogue, one 16 KiB buffer per warpgroup for both halves):
// assembled without spills, with four `wait_group.read` (one a half) and eight bulk stores (two
// [64, 64] boxes a half).
// RUN: tilus-opt %S/../../examples/hopper_matmul_v5_cluster.mlir --pass-pipeline="builtin.module(tma-store-epilogue,canonicalize)" -o %t.v5.mlir
// RUN: tilus-run %t.v5.mlir --dump-ptx > %t.v5.ptx 2>/dev/null
// RUN: awk '/^.visible .entry/ { p = ($0 ~ /hopper_matmul_cluster/) } p' %t.v5.ptx > %t.v5.main.ptx
// RUN: grep -c 'cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group' %t.v5.main.ptx | FileCheck %s --check-prefix=EIGHT
// EIGHT: {{^8$}}
// RUN: grep -c 'cp.async.bulk.wait_group.read' %t.v5.main.ptx | FileCheck %s --check-prefix=FOUR
// FOUR: {{^4$}}
// RUN: %ptxas -arch=sm_90a -v %t.v5.ptx -o %t.v5.cubin 2>&1 | FileCheck %s --check-prefix=V5
// V5: 0 bytes spill stores
