// ptxas accepts setmaxnreg in the PTX tilus-run writes for test/run/setmaxnreg.mlir, and honours
// it: with `.maxnreg 168` it sizes the kernel at 168 registers (65536 / 384 threads) instead
// of warning that it cannot tell the register count at entry and ignoring the instruction.
//
// REQUIRES: ptxas
// RUN: tilus-run %S/../run/setmaxnreg.mlir --dump-ptx > %t.ptx 2>/dev/null
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s
// CHECK-NOT: setmaxnreg' ignored
// CHECK: Used 168 registers
