// tilus-opt --emit-ptx: registers per class, parameters, labels, branches with block arguments
// (a swap goes through temporaries; the loop's arguments take the registers of the values
// that enter it, and the exit's argument the register of the value passed), guards,
// tensor-map parameters, shared memory, ptx.asm.
// RUN: tilus-opt %s --emit-ptx | FileCheck %s

// CHECK:      .version 8.7
// CHECK-NEXT: .target sm_90a
// CHECK-NEXT: .address_size 64
// CHECK-EMPTY:
// CHECK-NEXT: .extern .shared .align 1024 .b8 smem[];
// CHECK-NEXT: .shared .align 16 .b8 buf[256];
ptx.shared_decl @smem align 1024
ptx.shared_decl @buf[256] align 16

// CHECK-LABEL: .visible .entry swap(
// CHECK-NEXT:  	.param .u64 swap_param_0,
// CHECK-NEXT:  	.param .u32 swap_param_1,
// CHECK-NEXT:  	.param .align 64 .b8 swap_param_2[128]
// CHECK-NEXT:  )
// CHECK-NEXT:  .maxntid 128, 1, 1
// CHECK-NEXT:  .reqnctapercluster 2, 1, 1
// CHECK-NEXT:  {
// CHECK-NEXT:  	.reg .pred 	%p<3>;
// CHECK-NEXT:  	.reg .b32 	%r<8>;
// CHECK-NEXT:  	.reg .b64 	%rd<3>;
// CHECK-EMPTY:
// CHECK-NEXT:  	ld.param.u64 	%rd1, [swap_param_0];
// CHECK-NEXT:  	ld.param.u32 	%r1, [swap_param_1];
// CHECK-NEXT:  	mov.b64 	%rd2, swap_param_2;
// CHECK-NEXT:  	cvta.param.u64 	%rd2, %rd2;
// CHECK-NEXT:  	mov.u32 	%r2, %tid.x;
// CHECK-NEXT:  	mov.u32 	%r3, smem;
// CHECK-NEXT:  $L__BB0_1:
// CHECK-NEXT:  	setp.lt.s32 	%p1, %r2, %r1;
// CHECK-NEXT:  	@!%p1 bra 	$L__BB0_3;
// CHECK-NEXT:  $L__BB0_2:
// CHECK-NEXT:  	@%p1 st.shared.u32 	[%r3+4], %r2;
// CHECK-NEXT:  	mov.b32 	%r4, %r1;
// CHECK-NEXT:  	mov.b32 	%r5, %r2;
// CHECK-NEXT:  	mov.b32 	%r2, %r4;
// CHECK-NEXT:  	mov.b32 	%r1, %r5;
// CHECK-NEXT:  	bra.uni 	$L__BB0_1;
// CHECK-NEXT:  $L__BB0_3:
// CHECK-NEXT:  	mov.u32 %r6, %laneid;
// CHECK-NEXT:  	add.u32 %r7, %r6, 1;
// CHECK-NEXT:  	cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes 	[%r3], [%rd2, {%r2, %r1}], [%r3];
// CHECK-NEXT:  	setp.eq.u32 	%p2, %r7, 0;
// CHECK-NEXT:  	@!%p2 bra 	$L__BB0_5;
// CHECK-NEXT:  $L__BB0_4:
// CHECK-NEXT:  	ret;
// CHECK-NEXT:  $L__BB0_5:
// CHECK-NEXT:  	ret;
// CHECK-NEXT:  }
ptx.entry @swap(%p: i64, %n: i32, %map: !ptx.tensormap) attributes {target = "sm_90a", maxntid = 128 : i64, reqnctapercluster = 2 : i64} {
  %t = ptx.special tid.x : i32
  %s = ptx.addressof @smem : i32
  cf.br ^head(%t, %n : i32, i32)
^head(%a: i32, %b: i32):
  %c = ptx.inst "setp.lt.s32" %a, %b : (i32, i32) -> i1
  cf.cond_br %c, ^body, ^exit
^body:
  ptx.inst "st.shared.u32" [%s+4], %a if %c : (i32, i32) -> ()
  cf.br ^head(%b, %a : i32, i32)
^exit:
  %l:2 = ptx.asm "mov.u32 $0, %laneid;\n add.u32 $1, $0, 1;" : () -> (i32, i32)
  ptx.inst "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" [%s], [%map, {%a, %b}], [%s] : (i32, !ptx.tensormap, i32, i32, i32) -> ()
  %z = ptx.inst "setp.eq.u32" %l#1, 0 : (i32) -> i1
  cf.cond_br %z, ^done(%l#1 : i32), ^other
^done(%v: i32):
  ptx.ret
^other:
  ptx.ret
}
