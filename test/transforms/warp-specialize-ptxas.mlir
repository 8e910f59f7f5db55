// ptxas accepts every variant the warp-specialize sweep runs (stages 1 .. 6 x K = 1 .. 3
// consumer warpgroups, with the default setmaxnreg split), lowered by tilus-run --dump-ptx, and
// honours setmaxnreg: no "setmaxnreg ignored" warning, the register count at entry is the
// .maxnreg the split was planned from (248, 168 and 128 for 8, 12 and 16 warps), and nothing
// spills.
//
// REQUIRES: ptxas
// RUN: for g in 1 2 3; do \
// RUN:   if [ $g = 3 ]; then in=%S/inputs/matmul-bm192.mlir; else in=%S/../../examples/hopper_matmul_v1_wgmma.mlir; fi; \
// RUN:   for n in 1 2 3 4 5 6; do \
// RUN:     tilus-opt $in --pass-pipeline="builtin.module(pipeline{stages=$n},warp-specialize{consumer-warpgroups=$g})" -o %t.mlir || exit 1; \
// RUN:     tilus-run %t.mlir --dump-ptx > %t.ptx 2>/dev/null || exit 1; \
// RUN:     %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin > %t.log 2>&1 || { cat %t.log; exit 1; }; \
// RUN:     echo "groups=$g stages=$n: $(grep -o 'Used [0-9]* registers' %t.log), $(grep -o '[0-9]* bytes spill stores' %t.log)$(grep -o "setmaxnreg' ignored" %t.log)"; \
// RUN:   done; \
// RUN: done | FileCheck %s
// CHECK-NOT: ignored
// CHECK-COUNT-6: groups=1 stages={{[1-6]}}: Used 248 registers, 0 bytes spill stores{{$}}
// CHECK-COUNT-6: groups=2 stages={{[1-6]}}: Used 168 registers, 0 bytes spill stores{{$}}
// CHECK-COUNT-6: groups=3 stages={{[1-6]}}: Used 128 registers, 0 bytes spill stores{{$}}
