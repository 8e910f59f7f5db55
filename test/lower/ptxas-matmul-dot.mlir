// The tiled matmul example (examples/matmul_dot.mlir: a layout-less tilus.dot on wgmma, 128 x
// 256 block tile, 255 registers) assembles for sm_90a with no register spills. Skipped (reported as
// ignored) where no ptxas is available; scripts/test.sh fetches one.
//
// REQUIRES: ptxas
// RUN: tilus-run %S/../../examples/matmul_dot.mlir --dump-ptx > %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2> %t.log
// RUN: FileCheck %s --input-file %t.log
//
// CHECK: Compiling entry function 'matmul_dot' for 'sm_90a'
// CHECK: 0 bytes spill stores, 0 bytes spill loads
