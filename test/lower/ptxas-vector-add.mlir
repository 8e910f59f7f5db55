// The PTX that `tilus-opt --emit-ptx` writes for a kernel is accepted by the PTX assembler.
// Skipped (reported as ignored) where no ptxas is available; scripts/test.sh fetches one.
//
// REQUIRES: ptxas
// RUN: tilus-opt %S/../../examples/vector_add.mlir --tilus-to-ptx --emit-ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file %t.ptx
//
// CHECK: .target sm_90a
// CHECK: .entry vector_add(
