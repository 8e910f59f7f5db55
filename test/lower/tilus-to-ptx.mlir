// tilus-to-ptx: the whole pipeline on the vector_add example, printed as PTX.
// RUN: tilus-opt %s --tilus-to-ptx --emit-ptx | FileCheck %s
// RUN: tilus-opt %s --pass-pipeline='builtin.module(tilus-to-ptx)' --emit-ptx | FileCheck %s
// RUN: tilus-opt %s --pass-pipeline='builtin.module(lower-async-to-ptx,plan-shared-memory,lower-tiles,lower-threadgroups,lower-tilus-kernel,canonicalize,cse,convert-scf-to-cf,convert-arith-to-ptx)' --emit-ptx | FileCheck %s

// CHECK:       .target sm_90a
// CHECK-LABEL: .visible .entry vector_add(
// CHECK-NEXT:    .param .u64 vector_add_param_0,
// CHECK-NEXT:    .param .u64 vector_add_param_1,
// CHECK-NEXT:    .param .u64 vector_add_param_2,
// CHECK-NEXT:    .param .u32 vector_add_param_3
// CHECK-NEXT:  )
// CHECK-NEXT:  .maxntid 128, 1, 1
// CHECK:         mov.u32 {{.*}}%tid.x;
// CHECK:         mov.u32 {{.*}}%ctaid.x;
// Fast path: two 16-byte loads per operand, an add.rn per element, two 16-byte stores.
// CHECK:         ld.global.v4.f32 {{.*}}, [%rd{{[0-9]+}}];
// CHECK-NEXT:    ld.global.v4.f32 {{.*}}, [%rd{{[0-9]+}}+2048];
// Slow path: predicated scalar loads that read 0 out of bounds.
// CHECK:         mov.f32 %f{{[0-9]+}}, 0f00000000;
// CHECK-NEXT:    @%p{{[0-9]+}} ld.global.f32 %f{{[0-9]+}}, [%rd{{[0-9]+}}];
// CHECK:         add.rn.f32
// CHECK:         st.global.v4.f32 [%rd{{[0-9]+}}], {%f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}};
// CHECK:         @%p{{[0-9]+}} st.global.f32
// CHECK:         ret;
tilus.kernel @vector_add(%a: !tilus.ptr<f32>, %b: !tilus.ptr<f32>, %c: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d3 ceildiv 1024)>) {
  %bx = tilus.block_id x
  %tile = arith.constant 1024 : i32
  %off = arith.muli %bx, %tile : i32
  %ga = tilus.global_view %a[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gb = tilus.global_view %b[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gc = tilus.global_view %c[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %x = tilus.load_global %ga[%off] : !tilus.global<?xf32> -> !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  %y = tilus.load_global %gb[%off] : !tilus.global<?xf32> -> !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  %z = tilus.add %x, %y : (!tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>, !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>) -> !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  tilus.store_global %z, %gc[%off] : !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>, !tilus.global<?xf32>
}
