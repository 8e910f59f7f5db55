// What `tilus-run` prints: the report on standard output (kernel, backend, grid, schedule,
// arguments, inputs, steps, wall time, and per output its shape and a checksum), the backend
// note on standard error. Parameters are named as written in the signature; scalars come from
// --arg, else from the kernel's `tilus.args`.
//
// RUN: tilus-run %s --backend interp --arg n=64 | FileCheck %s
// CHECK:      kernel: @scale_add ({{.*}}report.mlir)
// CHECK-NEXT: backend: interp
// CHECK-NEXT: grid: 1x1x1 blocks of 128 threads (4 warps)
// CHECK-NEXT: schedule: deterministic
// CHECK-NEXT: args: n=64 alpha=2
// CHECK-NEXT: inputs: x=random y=ones (seed 0)
// CHECK-NEXT: steps: {{[0-9]+}} (1 block run)
// CHECK-NEXT: wall time: {{[0-9.]+}} ms
// CHECK-NEXT: output y: f32[64] sum={{.*}} hash={{[0-9a-f]+$}}
// CHECK-NOT:  {{.}}
//
// The default n (1000) makes 8 blocks; --arg overrides tilus.args; a float argument is rounded
// to the parameter's type.
// RUN: tilus-run %s --backend interp | FileCheck %s --check-prefix=DEFAULTS
// DEFAULTS: grid: 8x1x1 blocks
// DEFAULTS: args: n=1000 alpha=2
// RUN: tilus-run %s --backend interp --arg alpha=0.1 --arg n=5 | FileCheck %s --check-prefix=ALPHA
// ALPHA: args: n=5 alpha=0.1
// ALPHA: output y: f32[5]
//
// --backend auto (the default) says on standard error that it found no usable GPU.
// RUN: tilus-run %s 2>&1 >/dev/null | FileCheck %s --check-prefix=AUTO
// AUTO: tilus-run: no usable GPU ({{.*}}); running on the CPU interpreter
// RUN: tilus-run %s --backend interp 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=QUIET
// QUIET-NOT: {{.}}
//
// The same seed gives the same inputs and outputs; another seed other ones.
// RUN: tilus-run %s --seed 7 | grep '^output' > %t.a
// RUN: tilus-run %s --seed 7 | grep '^output' > %t.b
// RUN: tilus-run %s --seed 8 | grep '^output' > %t.c
// RUN: cmp %t.a %t.b && not cmp -s %t.a %t.c
//
// `--input y=zeros` replaces the kernel's `tilus.inputs`: y = 2 * x + 0.
// RUN: tilus-run %s --input y=zeros | FileCheck %s --check-prefix=ZEROS
// ZEROS: inputs: x=random y=zeros (seed 0)

// y = alpha * x + y over n elements, 128 per block.
tilus.kernel @scale_add(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32, %alpha: f32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d2 ceildiv 128)>)
    attributes {tilus.args = {n = 1000 : i32, alpha = 2.0 : f32}, tilus.inputs = {y = "ones"}, tilus.outputs = ["y"]} {
  %bx = tilus.block_id x
  %c128 = arith.constant 128 : i32
  %off = arith.muli %bx, %c128 : i32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %a = tilus.register_tensor init(%alpha : f32) : !tilus.reg<1xf32>
  %vx = tilus.load_global %gx[%off] : !tilus.global<?xf32> -> !tilus.reg<128xf32>
  %vy = tilus.load_global %gy[%off] : !tilus.global<?xf32> -> !tilus.reg<128xf32>
  %ax = tilus.mul %vx, %a : (!tilus.reg<128xf32>, !tilus.reg<1xf32>) -> !tilus.reg<128xf32>
  %r = tilus.add %ax, %vy : (!tilus.reg<128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<128xf32>
  tilus.store_global %r, %gy[%off] : !tilus.reg<128xf32>, !tilus.global<?xf32>
}
