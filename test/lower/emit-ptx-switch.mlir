// tilus-opt --emit-ptx: cf.switch (what convert-scf-to-cf makes of scf.index_switch) is a
// setp.eq and a predicated bra per case, in order, then the default edge's copies and bra; a
// case edge whose destination takes arguments goes through a stub making its copies. Case
// values are printed as signed integers of the flag's width (4294967295 in i32 is -1).
// RUN: tilus-opt %s --emit-ptx | FileCheck %s
// RUN: tilus-opt %s --emit-ptx > %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// REQUIRES: ptxas

// CHECK-LABEL: .visible .entry switch(
// CHECK:       	ld.param.u32 	%r1, [switch_param_1];
// CHECK-NEXT:  	ld.param.u64 	%rd2, [switch_param_2];
// CHECK-NEXT:  	setp.eq.s32 	%p1, %r1, -3;
// CHECK-NEXT:  	@%p1 bra 	$L__BB0_1;
// CHECK-NEXT:  	setp.eq.s32 	%p1, %r1, 7;
// CHECK-NEXT:  	@%p1 bra 	$L__BB0_2;
// CHECK-NEXT:  	setp.eq.s32 	%p1, %r1, 9;
// CHECK-NEXT:  	@%p1 bra 	$L__E0_1;
// CHECK-NEXT:  	setp.eq.s32 	%p1, %r1, -1;
// CHECK-NEXT:  	@%p1 bra 	$L__BB0_1;
// CHECK-NEXT:  	mov.b32 	%r1, 0;
// CHECK-NEXT:  	bra.uni 	$L__BB0_2;
// CHECK-NEXT:  $L__E0_1:
// CHECK-NEXT:  	mov.b32 	%r1, 5;
// CHECK-NEXT:  	bra.uni 	$L__BB0_2;
// CHECK-NEXT:  $L__BB0_1:
// CHECK-NEXT:  	mov.b32 	%r1, 1;
// CHECK-NEXT:  $L__BB0_2:
// CHECK-NEXT:  	setp.eq.s64 	%p2, %rd2, -9223372036854775808;
// CHECK-NEXT:  	@%p2 bra 	$L__BB0_3;
// CHECK-NEXT:  $L__BB0_3:
// CHECK-NEXT:  	st.global.u32 	[%rd1], %r1;
// CHECK-NEXT:  	ret;
ptx.entry @switch(%p: i64, %n: i32, %w: i64) attributes {target = "sm_90a", maxntid = 32 : i64} {
  %z = ptx.inst "mov.u32" 0 : () -> i32
  %five = ptx.inst "mov.u32" 5 : () -> i32
  cf.switch %n : i32, [
    default: ^join(%z : i32),
    -3: ^neg,
    7: ^join(%n : i32),
    9: ^join(%five : i32),
    4294967295: ^neg
  ]
^neg:
  %one = ptx.inst "mov.u32" 1 : () -> i32
  cf.br ^join(%one : i32)
^join(%v: i32):
  cf.switch %w : i64, [
    default: ^end,
    -9223372036854775808: ^end
  ]
^end:
  ptx.inst "st.global.u32" [%p], %v : (i64, i32) -> ()
  ptx.ret
}
