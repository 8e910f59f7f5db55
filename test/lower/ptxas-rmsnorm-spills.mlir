// The CK-Tile RMSNorm example (examples/rmsnorm.mlir: 256 elements of each [256, 256] tile per
// thread) assembles for sm_90a without spilling registers (issue 16). What keeps it in the
// register file, beside the example's [256, 1] running sum: lower-tiles carries 16-bit tiles
// across a load's fast/slow join as 32-bit words, moves each element-wise chain (unpack, widen,
// scale, narrow, pack) down to the store that uses it, and stores in branches of 64 bytes a
// thread, so one x tile and no y tile is live at a time. Skipped (reported as ignored) where no
// ptxas is available; scripts/test.sh fetches one.
//
// REQUIRES: ptxas
// RUN: tilus-run %S/../../examples/rmsnorm.mlir --dump-ptx > %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2> %t.log
// RUN: FileCheck %s --input-file %t.log
// RUN: FileCheck %s --input-file %t.ptx --check-prefix=PTX
//
// CHECK: Compiling entry function 'rmsnorm' for 'sm_90a'
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//
// The x tile's fast path: 8-byte vectors (the layout's innermost local(4) of f16), joined as
// words; pass 2's stores in 8-byte vectors too.
// PTX: ld.global.v2.b32
// PTX: st.global.v2.b32
