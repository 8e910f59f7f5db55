// ptx: kernels, special registers, instructions in PTX operand syntax, inline assembly and
// shared memory, in custom and generic form; generic output is read back by tilus-opt and by
// mlir-opt.
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s | tilus-opt | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s

// CHECK:      ptx.shared_decl @smem align 1024
// CHECK-NEXT: ptx.shared_decl @buf[4096] align 16
// GENERIC:    "ptx.shared_decl"() <{alignment = 1024 : i64, sym_name = "smem"}> : () -> ()
// GENERIC:    "ptx.shared_decl"() <{alignment = 16 : i64, size = 4096 : i64, sym_name = "buf"}> : () -> ()
ptx.shared_decl @smem align 1024
ptx.shared_decl @buf[4096] align 16

// CHECK-LABEL: ptx.entry @k(%arg0: i64, %arg1: i32, %arg2: !ptx.tensormap) attributes {maxntid = 128 : i64, target = "sm_90a"} {
// CHECK-NEXT:    %[[T:.*]] = ptx.special tid.x : i32
// CHECK-NEXT:    %[[C:.*]] = ptx.special is_explicit_cluster : i1
// CHECK-NEXT:    %[[K:.*]] = ptx.inst "mov.b32" 4 : () -> i32
// CHECK-NEXT:    %[[X:.*]] = ptx.inst "mul.lo.s32" %[[T]], %[[K]] : (i32, i32) -> i32
// CHECK-NEXT:    %[[P:.*]] = ptx.inst "setp.lt.s32" %[[T]], %arg1 : (i32, i32) -> i1
// CHECK-NEXT:    %[[W:.*]] = ptx.inst "cvt.u64.u32" %[[X]] : (i32) -> i64
// CHECK-NEXT:    %[[A:.*]] = ptx.inst "add.s64" %arg0, %[[W]] : (i64, i64) -> i64
// CHECK-NEXT:    %[[V:.*]] = ptx.inst "ld.global.f32" [%[[A]]+4] if %[[P]] : (i64) -> f32
// CHECK-NEXT:    ptx.inst "st.global.f32" [%[[A]]], %[[V]] if !%[[P]] : (i64, f32) -> ()
// CHECK-NEXT:    %[[V4:.*]]:4 = ptx.inst "ld.global.v4.f32" [%[[A]]] : (i64) -> (f32, f32, f32, f32)
// CHECK-NEXT:    ptx.inst "st.global.v4.f32" [%[[A]]], {%[[V4]]#0, %[[V4]]#1, %[[V4]]#2, %[[V4]]#3} : (i64, f32, f32, f32, f32) -> ()
// CHECK-NEXT:    ptx.inst "bar.sync" 1, 128
// CHECK-NEXT:    ptx.inst "fence.proxy.async.shared::cta"
// CHECK-NEXT:    %[[S:.*]] = ptx.addressof @smem : i32
// CHECK-NEXT:    ptx.inst "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" [%[[S]]], [%arg2, {%[[T]], %[[X]]}], [%[[S]]] : (i32, !ptx.tensormap, i32, i32, i32) -> ()
// CHECK-NEXT:    ptx.inst "mbarrier.arrive.shared::cta.b64" _, [%[[S]]] : (i32) -> ()
// CHECK-NEXT:    ptx.inst "nop" {note = "x"}{{$}}
// CHECK-NEXT:    %[[R:.*]] = ptx.asm "mov.u32 $0, $1;" %[[T]] : (i32) -> i32
// CHECK-NEXT:    %{{.*}} = ptx.asm "mov.u32 $0, %laneid;" : () -> i32
// CHECK-NEXT:    cf.cond_br %[[P]], ^bb1(%[[R]] : i32), ^bb2
// CHECK-NEXT:  ^bb1(%{{.*}}: i32):
// CHECK-NEXT:    ptx.ret
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    ptx.ret
// GENERIC:       "ptx.entry"() <{function_type = (i64, i32, !ptx.tensormap) -> (), maxntid = 128 : i64, sym_name = "k", target = "sm_90a"}> ({
// GENERIC:         "ptx.special"() <{reg = "tid.x"}> : () -> i32
// GENERIC:         "ptx.inst"() <{form = "4", opcode = "mov.b32", operandSegmentSizes = array<i32: 0, 0>}> : () -> i32
// GENERIC:         "ptx.inst"(%{{.*}}, %{{.*}}) <{opcode = "mul.lo.s32", operandSegmentSizes = array<i32: 2, 0>}> : (i32, i32) -> i32
// GENERIC:         "ptx.inst"(%{{.*}}, %{{.*}}) <{form = "[$0+4]", opcode = "ld.global.f32", operandSegmentSizes = array<i32: 1, 1>}> : (i64, i1) -> f32
// GENERIC:         "ptx.inst"(%{{.*}}, %{{.*}}, %{{.*}}) <{form = "[$0], $1", guard_negated, opcode = "st.global.f32", operandSegmentSizes = array<i32: 2, 1>}> : (i64, f32, i1) -> ()
// GENERIC:         "ptx.asm"(%{{.*}}) <{asm_string = "mov.u32 $0, $1;"}> : (i32) -> i32
// GENERIC:         "ptx.ret"() : () -> ()
ptx.entry @k(%a: i64, %n: i32, %tm: !ptx.tensormap) attributes {target = "sm_90a", maxntid = 128 : i64} {
  %t = ptx.special tid.x : i32
  %cl = ptx.special is_explicit_cluster : i1
  %c = ptx.inst "mov.b32" 4 : () -> i32
  %x = ptx.inst "mul.lo.s32" %t, %c : (i32, i32) -> i32
  %p = ptx.inst "setp.lt.s32" %t, %n : (i32, i32) -> i1
  %w = ptx.inst "cvt.u64.u32" %x : (i32) -> i64
  %ad = ptx.inst "add.s64" %a, %w : (i64, i64) -> i64
  %v = ptx.inst "ld.global.f32" [%ad+4] if %p : (i64) -> f32
  ptx.inst "st.global.f32" [%ad], %v if !%p : (i64, f32) -> ()
  %v4:4 = ptx.inst "ld.global.v4.f32" [%ad] : (i64) -> (f32, f32, f32, f32)
  ptx.inst "st.global.v4.f32" [%ad], {%v4#0, %v4#1, %v4#2, %v4#3} : (i64, f32, f32, f32, f32) -> ()
  ptx.inst "bar.sync" 1, 128
  ptx.inst "fence.proxy.async.shared::cta"
  %s = ptx.addressof @smem : i32
  ptx.inst "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" [%s], [%tm, {%t, %x}], [%s] : (i32, !ptx.tensormap, i32, i32, i32) -> ()
  ptx.inst "mbarrier.arrive.shared::cta.b64" _, [%s] : (i32) -> ()
  ptx.inst "nop" {note = "x"} : () -> ()
  %r = ptx.asm "mov.u32 $0, $1;" %t : (i32) -> i32
  %l = ptx.asm "mov.u32 $0, %laneid;" : () -> i32
  cf.cond_br %p, ^bb1(%r : i32), ^bb2
^bb1(%z: i32):
  ptx.ret
^bb2:
  ptx.ret
}
