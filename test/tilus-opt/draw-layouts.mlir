// Layout pictures of a kernel: `--draw-layouts=DIR` writes one picture per register or shared
// tile an op makes, named `KERNEL.LINE_COL.OP`, and one per shared store or load with its bank
// conflicts (`.access`); it prints what it wrote instead of the IR. Here a warp stores a 32x32
// f32 tile column by column (each thread holds a row): every st.shared of the warp hits one
// bank 32 times. The 128B swizzle spreads 8 rows over the 8 chunks of a 128-byte row, leaving
// 4-way conflicts; `--draw-layout` draws one type from the command line the same way.
//
// RUN: rm -rf %t && tilus-opt %s --draw-layouts=%t --draw-format=text | FileCheck %s --check-prefix=LIST
// RUN: cat %t/columns.22_3.tilus.store_shared.access.txt | FileCheck %s --check-prefix=PLAIN
// RUN: cat %t/columns.24_3.tilus.store_shared.access.txt | FileCheck %s --check-prefix=SWIZZLED
// RUN: cat %t/columns.20_8.tilus.register_tensor.txt | FileCheck %s --check-prefix=REG
// RUN: tilus-opt --draw-layout='!tilus.shared<32x32xf32, swizzle = 128B> -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>' | FileCheck %s --check-prefix=LOAD
// A type that is not a tile is an error pointing into the flag's text:
// RUN: not tilus-opt --draw-layout='!tilus.ptr<f32>' 2>&1 | FileCheck %s --check-prefix=ERR

tilus.kernel @columns() warps(1) blocks(affine_map<() -> (1)>) {
  %zero = arith.constant 0.0 : f32
  %plain = tilus.shared_tensor : !tilus.shared<32x32xf32>
  %swz = tilus.shared_tensor : !tilus.shared<32x32xf32, swizzle = 128B>
  %t = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
  threadgroup.sync
  tilus.store_shared %t, %plain : !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>, !tilus.shared<32x32xf32>
  threadgroup.sync
  tilus.store_shared %t, %swz : !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>, !tilus.shared<32x32xf32, swizzle = 128B>
  tilus.free_shared %plain : !tilus.shared<32x32xf32>
  tilus.free_shared %swz : !tilus.shared<32x32xf32, swizzle = 128B>
}

// LIST-DAG: wrote {{.*}}columns.18_12.tilus.shared_tensor.txt
// LIST-DAG: wrote {{.*}}columns.19_10.tilus.shared_tensor.txt
// LIST-DAG: wrote {{.*}}columns.20_8.tilus.register_tensor.txt
// LIST-DAG: wrote {{.*}}columns.22_3.tilus.store_shared.access.txt
// LIST-DAG: wrote {{.*}}columns.24_3.tilus.store_shared.access.txt

// PLAIN:      @columns: tilus.store_shared at 22:3: bank conflicts of the access
// PLAIN:      R0 warp 0: 32 lanes, 32 wavefronts (ideal 1)  CONFLICT: bank 0 serves 32 words (byte addresses 0, 128, 256
// PLAIN:      summary: 32 instructions, 32 with bank conflicts (worst 32-way); 1024 wavefronts, ideal 32 (32.00x)

// SWIZZLED:   R0 warp 0: 32 lanes, 4 wavefronts (ideal 1)
// SWIZZLED:   summary: 32 instructions, 32 with bank conflicts (worst 4-way); 128 wavefronts, ideal 32 (4.00x)

// REG:        register layout local(1, 32) * spatial(32, 1) of shape [32, 32] (f32): 32 threads (1 warp), 32 registers per thread
// REG:        0   T0:R0  T0:R1  T0:R2

// LOAD:       load f32: register layout
// LOAD:       summary: 32 instructions, 32 with bank conflicts (worst 4-way)

// ERR:        × '!tilus.ptr<f32>' is not a tile type
