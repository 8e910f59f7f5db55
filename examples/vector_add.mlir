// Elementwise add of two f32 vectors: c = a + b.
//
// The smallest complete Tilus kernel: a 1-D grid of `n ceildiv 1024` blocks of 4 warps, each
// block loading one 1024-element tile of `a` and of `b` into registers, adding them and storing
// the tile of `c`. Mirrors the kernel skeleton of spec §1.1 (grid as an affine map of the
// parameters, `warps`) and §2.2 (global views; out-of-range elements read as 0 and are not
// written, so the last, partial tile needs no mask).
//
// The register layout `local(2) * spatial(128) * local(4)` gives each of the 128 threads two
// 4-element (16-byte) vectors, with adjacent threads on adjacent vectors: the coalesced access
// CK-Tile calls "vector size 4" (seed 002). It is optional: without it a layout pass chooses.
//
// Check: tilus-opt examples/vector_add.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// Run on the CPU interpreter with the kernel's default arguments (tilus.args):
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// INTERP: grid: 3x1x1 blocks of 128 threads (4 warps)
// INTERP: output c: f32[3000]

// CHECK-LABEL: tilus.kernel @vector_add
// CHECK-SAME:    warps(4) blocks(#map)
// CHECK:         tilus.block_id x
// CHECK:         tilus.global_view %{{.*}}[%{{.*}}] : !tilus.ptr<f32> -> !tilus.global<?xf32>
// CHECK:         tilus.load_global {{.*}} -> !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
// CHECK:         tilus.add
// CHECK:         tilus.store_global
tilus.kernel @vector_add(%a: !tilus.ptr<f32>, %b: !tilus.ptr<f32>, %c: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d3 ceildiv 1024)>)
    attributes {tilus.args = {n = 3000 : i32}, tilus.inputs = {c = "zeros"}, tilus.outputs = ["c"]} {
  // This block's tile starts at element 1024 * blockIdx.x.
  %bx = tilus.block_id x
  %tile = arith.constant 1024 : i32
  %off = arith.muli %bx, %tile : i32
  // Views of the three vectors; `n` is the one dynamic extent.
  %ga = tilus.global_view %a[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gb = tilus.global_view %b[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gc = tilus.global_view %c[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %x = tilus.load_global %ga[%off] : !tilus.global<?xf32> -> !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  %y = tilus.load_global %gb[%off] : !tilus.global<?xf32> -> !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  %z = tilus.add %x, %y : (!tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>, !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>) -> !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  tilus.store_global %z, %gc[%off] : !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>, !tilus.global<?xf32>
}
