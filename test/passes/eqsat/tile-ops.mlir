// Pure tile ops are e-graph nodes too: `tilus.cast`, `layout.convert`, `tilus.permute_shared`
// and the element-wise ops, each with its result type (shape, element type, layout) as a child,
// so values of different types never merge. Their rules undo or compose conversions and views.
// The kernels give the interpreter the same outputs before and after.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(eqsat)' | FileCheck %s
// RUN: tilus-run %s | grep '^output' > %t.before
// RUN: tilus-run %s --pass-pipeline='builtin.module(eqsat)' | grep '^output' > %t.after
// RUN: diff %t.before %t.after

// Widening then narrowing back is the value itself: f16 → f32 → f16, and i8 → i32 → i8
// (every f16 is an f32, every i8 an i32). The add then reads the loaded tile twice.
// CHECK-LABEL: tilus.kernel @cast_round_trip
// CHECK:       %[[X:.*]] = tilus.load_global
// CHECK-NOT:   tilus.cast
// CHECK:       tilus.add %[[X]], %[[X]]
tilus.kernel @cast_round_trip(%a: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 1024)>)
    attributes {tilus.args = {n = 3000 : i32}, tilus.inputs = {c = "zeros"}, tilus.outputs = ["c"]} {
  %bx = tilus.block_id x
  %tile = arith.constant 1024 : i32
  %off = arith.muli %bx, %tile : i32
  %ga = tilus.global_view %a[%n] : !tilus.ptr<f16> -> !tilus.global<?xf16>
  %gc = tilus.global_view %c[%n] : !tilus.ptr<f16> -> !tilus.global<?xf16>
  %x = tilus.load_global %ga[%off] : !tilus.global<?xf16> -> !tilus.reg<1024xf16, layout = local(2) * spatial(128) * local(4)>
  %w = tilus.cast %x : !tilus.reg<1024xf16, layout = local(2) * spatial(128) * local(4)> to !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  %y = tilus.cast %w : !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)> to !tilus.reg<1024xf16, layout = local(2) * spatial(128) * local(4)>
  %z = tilus.add %x, %y : (!tilus.reg<1024xf16, layout = local(2) * spatial(128) * local(4)>, !tilus.reg<1024xf16, layout = local(2) * spatial(128) * local(4)>) -> !tilus.reg<1024xf16, layout = local(2) * spatial(128) * local(4)>
  tilus.store_global %z, %gc[%off] : !tilus.reg<1024xf16, layout = local(2) * spatial(128) * local(4)>, !tilus.global<?xf16>
}

// A cast through an exact intermediate is the direct cast: f16 → f32 → bf16 is f16 → bf16
// (one rounding of the same value).
// CHECK-LABEL: tilus.kernel @cast_through_exact
// CHECK:       %[[X:.*]] = tilus.load_global
// CHECK-NEXT:  %[[B:.*]] = tilus.cast %[[X]] : !tilus.reg<1024xf16, {{.*}}> to !tilus.reg<1024xbf16,
// CHECK-NOT:   tilus.cast
// CHECK:       tilus.cast %[[B]] : {{.*}}bf16{{.*}} to {{.*}}xf32
tilus.kernel @cast_through_exact(%a: !tilus.ptr<f16>, %c: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 1024)>)
    attributes {tilus.args = {n = 3000 : i32}, tilus.inputs = {c = "zeros"}, tilus.outputs = ["c"]} {
  %bx = tilus.block_id x
  %tile = arith.constant 1024 : i32
  %off = arith.muli %bx, %tile : i32
  %ga = tilus.global_view %a[%n] : !tilus.ptr<f16> -> !tilus.global<?xf16>
  %gc = tilus.global_view %c[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %x = tilus.load_global %ga[%off] : !tilus.global<?xf16> -> !tilus.reg<1024xf16, layout = local(2) * spatial(128) * local(4)>
  %w = tilus.cast %x : !tilus.reg<1024xf16, layout = local(2) * spatial(128) * local(4)> to !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  %b = tilus.cast %w : !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)> to !tilus.reg<1024xbf16, layout = local(2) * spatial(128) * local(4)>
  %y = tilus.cast %b : !tilus.reg<1024xbf16, layout = local(2) * spatial(128) * local(4)> to !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  tilus.store_global %y, %gc[%off] : !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>, !tilus.global<?xf32>
}

// Narrowing first loses bits: f32 → f16 → f32 is not the value, and stays.
// CHECK-LABEL: tilus.kernel @cast_inexact
// CHECK:       tilus.cast {{.*}} to !tilus.reg<1024xf16,
// CHECK:       tilus.cast {{.*}} to !tilus.reg<1024xf32,
tilus.kernel @cast_inexact(%a: !tilus.ptr<f32>, %c: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 1024)>)
    attributes {tilus.args = {n = 3000 : i32}, tilus.inputs = {c = "zeros"}, tilus.outputs = ["c"]} {
  %bx = tilus.block_id x
  %tile = arith.constant 1024 : i32
  %off = arith.muli %bx, %tile : i32
  %ga = tilus.global_view %a[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gc = tilus.global_view %c[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %x = tilus.load_global %ga[%off] : !tilus.global<?xf32> -> !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  %h = tilus.cast %x : !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)> to !tilus.reg<1024xf16, layout = local(2) * spatial(128) * local(4)>
  %y = tilus.cast %h : !tilus.reg<1024xf16, layout = local(2) * spatial(128) * local(4)> to !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  tilus.store_global %y, %gc[%off] : !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>, !tilus.global<?xf32>
}

// Only the last layout of a chain of conversions matters, and a conversion back to the
// value's own layout is the value.
// CHECK-LABEL: tilus.kernel @convert_chains
// CHECK:       %[[X:.*]] = tilus.load_global
// CHECK-NEXT:  %[[C:.*]] = layout.convert %[[X]] : !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)> to !tilus.reg<1024xf32, layout = local(4) * spatial(128) * local(2)>
// CHECK-NOT:   layout.convert
// CHECK:       tilus.store_global %[[C]]
// CHECK-NOT:   layout.convert
// CHECK:       tilus.store_global %[[X]]
tilus.kernel @convert_chains(%a: !tilus.ptr<f32>, %c: !tilus.ptr<f32>, %d: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d3 ceildiv 1024)>)
    attributes {tilus.args = {n = 3000 : i32}, tilus.inputs = {c = "zeros", d = "zeros"}, tilus.outputs = ["c", "d"]} {
  %bx = tilus.block_id x
  %tile = arith.constant 1024 : i32
  %off = arith.muli %bx, %tile : i32
  %ga = tilus.global_view %a[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gc = tilus.global_view %c[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gd = tilus.global_view %d[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %x = tilus.load_global %ga[%off] : !tilus.global<?xf32> -> !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  %p = layout.convert %x : !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)> to !tilus.reg<1024xf32, layout = spatial(128) * local(8)>
  %q = layout.convert %p : !tilus.reg<1024xf32, layout = spatial(128) * local(8)> to !tilus.reg<1024xf32, layout = local(4) * spatial(128) * local(2)>
  tilus.store_global %q, %gc[%off] : !tilus.reg<1024xf32, layout = local(4) * spatial(128) * local(2)>, !tilus.global<?xf32>
  %r = layout.convert %q : !tilus.reg<1024xf32, layout = local(4) * spatial(128) * local(2)> to !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  tilus.store_global %r, %gd[%off] : !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>, !tilus.global<?xf32>
}

// Views compose: two transposes of a shared tile are the tile itself.
// CHECK-LABEL: tilus.kernel @permute_twice
// CHECK:       %[[S:.*]] = tilus.shared_tensor
// CHECK-NOT:   tilus.permute_shared
// CHECK:       tilus.load_shared %[[S]]
tilus.kernel @permute_twice(%a: !tilus.ptr<f32>, %c: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.inputs = {c = "zeros"}, tilus.outputs = ["c"]} {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %c4 = arith.constant 4 : i32
  %ga = tilus.global_view %a[%c8, %c4] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %gc = tilus.global_view %c[%c8, %c4] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %x = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xf32> -> !tilus.reg<8x4xf32>
  %s = tilus.shared_tensor : !tilus.shared<8x4xf32>
  tilus.store_shared %x, %s : !tilus.reg<8x4xf32>, !tilus.shared<8x4xf32>
  %t = tilus.permute_shared %s [1, 0] : !tilus.shared<8x4xf32> -> !tilus.shared<4x8xf32, strides = [1, 4]>
  %u = tilus.permute_shared %t [1, 0] : !tilus.shared<4x8xf32, strides = [1, 4]> -> !tilus.shared<8x4xf32>
  %y = tilus.load_shared %u : !tilus.shared<8x4xf32> -> !tilus.reg<8x4xf32>
  tilus.store_global %y, %gc[%c0, %c0] : !tilus.reg<8x4xf32>, !tilus.global<?x?xf32>
  tilus.free_shared %s : !tilus.shared<8x4xf32>
}

// Two rotations of a 3-d view are one: [1, 2, 0] after [1, 2, 0] is [2, 0, 1].
// CHECK-LABEL: tilus.kernel @permute_compose
// CHECK:       %[[S:.*]] = tilus.shared_tensor
// CHECK:       tilus.permute_shared %[[S]] [2, 0, 1] : !tilus.shared<2x4x8xf32> -> !tilus.shared<8x2x4xf32, strides = [1, 32, 8]>
// CHECK-NOT:   tilus.permute_shared
tilus.kernel @permute_compose(%a: !tilus.ptr<f32>, %c: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.inputs = {c = "zeros"}, tilus.outputs = ["c"]} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %ga = tilus.global_view %a[%c2, %c4, %c8] : !tilus.ptr<f32> -> !tilus.global<?x?x?xf32>
  %gc = tilus.global_view %c[%c8, %c2, %c4] : !tilus.ptr<f32> -> !tilus.global<?x?x?xf32>
  %x = tilus.load_global %ga[%c0, %c0, %c0] : !tilus.global<?x?x?xf32> -> !tilus.reg<2x4x8xf32>
  %s = tilus.shared_tensor : !tilus.shared<2x4x8xf32>
  tilus.store_shared %x, %s : !tilus.reg<2x4x8xf32>, !tilus.shared<2x4x8xf32>
  %t = tilus.permute_shared %s [1, 2, 0] : !tilus.shared<2x4x8xf32> -> !tilus.shared<4x8x2xf32, strides = [8, 1, 32]>
  %u = tilus.permute_shared %t [1, 2, 0] : !tilus.shared<4x8x2xf32, strides = [8, 1, 32]> -> !tilus.shared<8x2x4xf32, strides = [1, 32, 8]>
  %y = tilus.load_shared %u : !tilus.shared<8x2x4xf32, strides = [1, 32, 8]> -> !tilus.reg<8x2x4xf32>
  tilus.store_global %y, %gc[%c0, %c0, %c0] : !tilus.reg<8x2x4xf32>, !tilus.global<?x?x?xf32>
  tilus.free_shared %s : !tilus.shared<2x4x8xf32>
}

// Element-wise ops are nodes with their type: the same sum computed twice is computed once,
// and the product of the same operands (another op) stays apart.
// CHECK-LABEL: tilus.kernel @elementwise_shared
// CHECK:       %[[S:.*]] = tilus.add
// CHECK-NOT:   tilus.add
// CHECK:       tilus.store_global %[[S]]
// CHECK:       tilus.mul
// CHECK:       tilus.store_global %[[S]]
tilus.kernel @elementwise_shared(%a: !tilus.ptr<f32>, %c: !tilus.ptr<f32>, %d: !tilus.ptr<f32>, %e: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.inputs = {c = "zeros", d = "zeros", e = "zeros"}, tilus.outputs = ["c", "d", "e"]} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %ga = tilus.global_view %a[%c64] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gc = tilus.global_view %c[%c64] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gd = tilus.global_view %d[%c64] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %ge = tilus.global_view %e[%c64] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %x = tilus.load_global %ga[%c0] : !tilus.global<?xf32> -> !tilus.reg<64xf32>
  %y = tilus.exp %x : !tilus.reg<64xf32>
  %s1 = tilus.add %x, %y : (!tilus.reg<64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64xf32>
  tilus.store_global %s1, %gc[%c0] : !tilus.reg<64xf32>, !tilus.global<?xf32>
  %p = tilus.mul %x, %y : (!tilus.reg<64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64xf32>
  tilus.store_global %p, %gd[%c0] : !tilus.reg<64xf32>, !tilus.global<?xf32>
  %s2 = tilus.add %x, %y : (!tilus.reg<64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64xf32>
  tilus.store_global %s2, %ge[%c0] : !tilus.reg<64xf32>, !tilus.global<?xf32>
}
