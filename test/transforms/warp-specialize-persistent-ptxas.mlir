// ptxas (sm_90a) accepts the persistent kernels that pipeline and warp-specialize make of
// examples/hopper_matmul_v1_persistent.mlir, lowered by tilus-run --dump-ptx, with setmaxnreg
// honoured (no "setmaxnreg ignored" warning). K = 2 (v4's configuration: 12 warps, 168
// registers at entry, consumers raised to 232) holds its two 64 x 256 accumulators without a
// spill, for every stage count and both release forms. K = 1 puts the whole 128 x 256 f32
// accumulator (256 registers a thread) in one warpgroup, more than a thread can hold: ptxas
// accepts it at 248 registers and spills, so K = 1 is checked for acceptance only.
//
// REQUIRES: ptxas
// RUN: for f in 0 1; do \
// RUN:   for n in 2 3 4; do \
// RUN:     tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline="builtin.module(pipeline{stages=$n},warp-specialize{consumer-warpgroups=2 mma-in-flight=$f})" -o %t.mlir || exit 1; \
// RUN:     tilus-run %t.mlir --dump-ptx > %t.ptx 2>/dev/null || exit 1; \
// RUN:     %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin > %t.log 2>&1 || { cat %t.log; exit 1; }; \
// RUN:     echo "groups=2 stages=$n in-flight=$f: $(grep -o 'Used [0-9]* registers' %t.log), $(grep -o '[0-9]* bytes spill stores' %t.log)$(grep -o "setmaxnreg' ignored" %t.log)"; \
// RUN:   done; \
// RUN: done | FileCheck %s
// CHECK-NOT: ignored
// CHECK-COUNT-3: groups=2 stages={{[2-4]}} in-flight=0: Used 168 registers, 0 bytes spill stores{{$}}
// CHECK-COUNT-3: groups=2 stages={{[2-4]}} in-flight=1: Used 168 registers, 0 bytes spill stores{{$}}
//
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline="builtin.module(pipeline{stages=3},warp-specialize)" -o %t.k1.mlir
// RUN: tilus-run %t.k1.mlir --dump-ptx > %t.k1.ptx 2>/dev/null
// RUN: %ptxas -arch=sm_90a -v %t.k1.ptx -o %t.k1.cubin 2>&1 | FileCheck %s --check-prefix=K1
// K1-NOT: ignored
// K1: Used 248 registers
