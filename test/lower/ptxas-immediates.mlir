// The PTX of emit-ptx-immediates.mlir (constants as immediates, coalesced join copies) is
// accepted by the PTX assembler. Skipped (reported as ignored) where no ptxas is available.
//
// REQUIRES: ptxas
// RUN: tilus-opt %S/emit-ptx-immediates.mlir --emit-ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file %t.ptx
//
// CHECK: .visible .entry imm(
// CHECK: add.s32 {{.*}}, 7;
