// tilus-opt --emit-ptx: constants as PTX immediates and join copies (passes/src/ptx_imm.rs,
// passes/src/ptx_emit.rs). ptxas accepts this file's PTX: ptxas-immediates.mlir.
// RUN: tilus-opt %s --emit-ptx | FileCheck %s

// Constants as immediates. A literal goes where the instruction's types take it (integers into
// integer and bit types, 0f into .f32, 0d into .f64) and the operand stands alone: either
// source of add/sub, both of setp, selp's values, a small shift amount of a 64-bit shift.
// A register stays for half floats (ptxas rejects `add.f16 %h, %h, 0x3C00`), for a
// negative literal of another width than the instruction's (`cvt.s64.s32` of -1), and inside
// a vector `{...}` or an address `[...]`; the constant's mov is printed only then.
// CHECK-LABEL: .visible .entry imm(
// CHECK-NEXT:  	.param .u64 imm_param_0,
// CHECK-NEXT:  	.param .u32 imm_param_1,
// CHECK-NEXT:  	.param .b16 imm_param_2,
// CHECK-NEXT:  	.param .f32 imm_param_3
// CHECK-NEXT:  )
// CHECK-NEXT:  {
// CHECK-NEXT:  	.reg .pred 	%p<2>;
// CHECK-NEXT:  	.reg .b16 	%h<4>;
// CHECK-NEXT:  	.reg .b32 	%r<8>;
// CHECK-NEXT:  	.reg .b64 	%rd<6>;
// CHECK-NEXT:  	.reg .f32 	%f<3>;
// CHECK-EMPTY:
// CHECK-NEXT:  	ld.param.u64 	%rd1, [imm_param_0];
// CHECK-NEXT:  	ld.param.u32 	%r1, [imm_param_1];
// CHECK-NEXT:  	ld.param.b16 	%h1, [imm_param_2];
// CHECK-NEXT:  	ld.param.f32 	%f1, [imm_param_3];
// CHECK-NEXT:  	mov.b32 	%r2, -1;
// CHECK-NEXT:  	mov.b32 	%r3, 3;
// CHECK-NEXT:  	mov.b16 	%h2, 0x3C00;
// CHECK-NEXT:  	mov.u32 	%r4, %tid.x;
// CHECK-NEXT:  	add.s32 	%r5, %r4, 7;
// CHECK-NEXT:  	sub.s32 	%r6, 7, %r5;
// CHECK-NEXT:  	setp.lt.u32 	%p1, %r6, -1;
// CHECK-NEXT:  	selp.b32 	%r7, 7, %r6, %p1;
// CHECK-NEXT:  	cvt.s64.s32 	%rd2, %r2;
// CHECK-NEXT:  	shl.b64 	%rd3, %rd2, 3;
// CHECK-NEXT:  	add.s64 	%rd4, %rd1, %rd3;
// CHECK-NEXT:  	add.s64 	%rd5, %rd4, 16;
// CHECK-NEXT:  	add.f32 	%f2, %f1, 0f3F800000;
// CHECK-NEXT:  	add.f16 	%h3, %h1, %h2;
// CHECK-NEXT:  	st.global.v2.b32 	[%rd5], {%r7, %r3};
// CHECK-NEXT:  	st.global.f32 	[%rd5+8], %f2;
// CHECK-NEXT:  	st.global.b16 	[%rd5+12], %h3;
// CHECK-NEXT:  	ret;
// CHECK-NEXT:  }
ptx.entry @imm(%p: i64, %n: i32, %h: f16, %x: f32) attributes {target = "sm_90a"} {
  %c7 = ptx.inst "mov.b32" 7 : () -> i32
  %cm1 = ptx.inst "mov.b32" -1 : () -> i32
  %c3 = ptx.inst "mov.b32" 3 : () -> i32
  %c16 = ptx.inst "mov.b64" 16 : () -> i64
  %one = ptx.inst "mov.f32" 0f3F800000 : () -> f32
  %hone = ptx.inst "mov.b16" 0x3C00 : () -> f16
  %t = ptx.special tid.x : i32
  %a = ptx.inst "add.s32" %t, %c7 : (i32, i32) -> i32
  %b = ptx.inst "sub.s32" %c7, %a : (i32, i32) -> i32
  %s = ptx.inst "setp.lt.u32" %b, %cm1 : (i32, i32) -> i1
  %sel = ptx.inst "selp.b32" %c7, %b, %s : (i32, i32, i1) -> i32
  %w = ptx.inst "cvt.s64.s32" %cm1 : (i32) -> i64
  %sh = ptx.inst "shl.b64" %w, %c3 : (i64, i32) -> i64
  %q = ptx.inst "add.s64" %p, %sh : (i64, i64) -> i64
  %q2 = ptx.inst "add.s64" %q, %c16 : (i64, i64) -> i64
  %f = ptx.inst "add.f32" %x, %one : (f32, f32) -> f32
  %hh = ptx.inst "add.f16" %h, %hone : (f16, f16) -> f16
  ptx.inst "st.global.v2.b32" [%q2], {%sel, %c3} : (i64, i32, i32) -> ()
  ptx.inst "st.global.f32" [%q2+8], %f : (i64, f32) -> ()
  ptx.inst "st.global.b16" [%q2+12], %hh : (i64, f16) -> ()
  ptx.ret
}

// Join copies: both arms' values take the join's registers, so no edge moves anything. The
// slow arm's constant is moved into the argument's register as a literal.
// CHECK-LABEL: .visible .entry diamond(
// CHECK-NEXT:  	.param .u64 diamond_param_0,
// CHECK-NEXT:  	.param .u32 diamond_param_1
// CHECK-NEXT:  )
// CHECK-NEXT:  {
// CHECK-NEXT:  	.reg .pred 	%p<2>;
// CHECK-NEXT:  	.reg .b32 	%r<6>;
// CHECK-NEXT:  	.reg .b64 	%rd<2>;
// CHECK-EMPTY:
// CHECK-NEXT:  	ld.param.u64 	%rd1, [diamond_param_0];
// CHECK-NEXT:  	ld.param.u32 	%r1, [diamond_param_1];
// CHECK-NEXT:  	mov.u32 	%r2, %tid.x;
// CHECK-NEXT:  	setp.lt.u32 	%p1, %r2, %r1;
// CHECK-NEXT:  	@!%p1 bra 	$L__BB1_2;
// CHECK-NEXT:  $L__BB1_1:
// CHECK-NEXT:  	ld.global.v2.b32 	{%r3, %r4}, [%rd1];
// CHECK-NEXT:  	bra.uni 	$L__BB1_3;
// CHECK-NEXT:  $L__BB1_2:
// CHECK-NEXT:  	mov.b32 %r3, 0;
// CHECK-NEXT:  	@%p1 ld.global.b32 %r3, [%rd1];
// CHECK-NEXT:  	mov.b32 	%r4, 0;
// CHECK-NEXT:  $L__BB1_3:
// CHECK-NEXT:  	add.s32 	%r5, %r3, %r4;
// CHECK-NEXT:  	st.global.b32 	[%rd1], %r5;
// CHECK-NEXT:  	ret;
// CHECK-NEXT:  }
ptx.entry @diamond(%p: i64, %n: i32) attributes {target = "sm_90a"} {
  %t = ptx.special tid.x : i32
  %c = ptx.inst "setp.lt.u32" %t, %n : (i32, i32) -> i1
  cf.cond_br %c, ^fast, ^slow
^fast:
  %v:2 = ptx.inst "ld.global.v2.b32" [%p] : (i64) -> (i32, i32)
  cf.br ^join(%v#0, %v#1 : i32, i32)
^slow:
  %z = ptx.inst "mov.b32" 0 : () -> i32
  %l = ptx.asm "mov.b32 $0, 0;\n@$2 ld.global.b32 $0, [$1];" %p, %c : (i64, i1) -> i32
  cf.br ^join(%l, %z : i32, i32)
^join(%a: i32, %b: i32):
  %s = ptx.inst "add.s32" %a, %b : (i32, i32) -> i32
  ptx.inst "st.global.b32" [%p], %s : (i64, i32) -> ()
  ptx.ret
}

// A loop: the back edge's values are made in the arguments' registers; the entry passes
// literals.
// CHECK-LABEL: .visible .entry loop(
// CHECK-NEXT:  	.param .u64 loop_param_0,
// CHECK-NEXT:  	.param .u32 loop_param_1
// CHECK-NEXT:  )
// CHECK-NEXT:  {
// CHECK-NEXT:  	.reg .pred 	%p<2>;
// CHECK-NEXT:  	.reg .b32 	%r<4>;
// CHECK-NEXT:  	.reg .b64 	%rd<2>;
// CHECK-EMPTY:
// CHECK-NEXT:  	ld.param.u64 	%rd1, [loop_param_0];
// CHECK-NEXT:  	ld.param.u32 	%r1, [loop_param_1];
// CHECK-NEXT:  	mov.b32 	%r2, 0;
// CHECK-NEXT:  	mov.b32 	%r3, 0;
// CHECK-NEXT:  $L__BB2_1:
// CHECK-NEXT:  	setp.lt.s32 	%p1, %r2, %r1;
// CHECK-NEXT:  	@!%p1 bra 	$L__BB2_3;
// CHECK-NEXT:  $L__BB2_2:
// CHECK-NEXT:  	add.s32 	%r3, %r3, %r2;
// CHECK-NEXT:  	add.s32 	%r2, %r2, 1;
// CHECK-NEXT:  	bra.uni 	$L__BB2_1;
// CHECK-NEXT:  $L__BB2_3:
// CHECK-NEXT:  	st.global.b32 	[%rd1], %r3;
// CHECK-NEXT:  	ret;
// CHECK-NEXT:  }
ptx.entry @loop(%p: i64, %n: i32) attributes {target = "sm_90a"} {
  %c0 = ptx.inst "mov.b32" 0 : () -> i32
  cf.br ^head(%c0, %c0 : i32, i32)
^head(%i: i32, %acc: i32):
  %go = ptx.inst "setp.lt.s32" %i, %n : (i32, i32) -> i1
  cf.cond_br %go, ^body, ^exit
^body:
  %acc2 = ptx.inst "add.s32" %acc, %i : (i32, i32) -> i32
  %i2 = ptx.inst "add.s32" %i, 1 : (i32) -> i32
  cf.br ^head(%i2, %acc2 : i32, i32)
^exit:
  ptx.inst "st.global.b32" [%p], %acc : (i64, i32) -> ()
  ptx.ret
}

// The argument is still read after the new value is made (the store of %i after %i2): they
// cannot share, the back edge keeps its copy.
// CHECK-LABEL: .visible .entry live_after(
// CHECK-NEXT:  	.param .u64 live_after_param_0,
// CHECK-NEXT:  	.param .u32 live_after_param_1
// CHECK-NEXT:  )
// CHECK-NEXT:  {
// CHECK-NEXT:  	.reg .pred 	%p<2>;
// CHECK-NEXT:  	.reg .b32 	%r<4>;
// CHECK-NEXT:  	.reg .b64 	%rd<2>;
// CHECK-EMPTY:
// CHECK-NEXT:  	ld.param.u64 	%rd1, [live_after_param_0];
// CHECK-NEXT:  	ld.param.u32 	%r1, [live_after_param_1];
// CHECK-NEXT:  	mov.b32 	%r2, 0;
// CHECK-NEXT:  $L__BB3_1:
// CHECK-NEXT:  	setp.lt.s32 	%p1, %r2, %r1;
// CHECK-NEXT:  	@!%p1 bra 	$L__BB3_3;
// CHECK-NEXT:  $L__BB3_2:
// CHECK-NEXT:  	add.s32 	%r3, %r2, 1;
// CHECK-NEXT:  	st.global.b32 	[%rd1], %r2;
// CHECK-NEXT:  	mov.b32 	%r2, %r3;
// CHECK-NEXT:  	bra.uni 	$L__BB3_1;
// CHECK-NEXT:  $L__BB3_3:
// CHECK-NEXT:  	ret;
// CHECK-NEXT:  }
ptx.entry @live_after(%p: i64, %n: i32) attributes {target = "sm_90a"} {
  %c0 = ptx.inst "mov.b32" 0 : () -> i32
  cf.br ^head(%c0 : i32)
^head(%i: i32):
  %go = ptx.inst "setp.lt.s32" %i, %n : (i32, i32) -> i1
  cf.cond_br %go, ^body, ^exit
^body:
  %i2 = ptx.inst "add.s32" %i, 1 : (i32) -> i32
  ptx.inst "st.global.b32" [%p], %i : (i64, i32) -> ()
  cf.br ^head(%i2 : i32)
^exit:
  ptx.ret
}

// A ptx.asm writes its result before it has read every operand: its operands never share
// its result's register, so %w keeps a register of its own and a copy into the join's.
// CHECK-LABEL: .visible .entry early_clobber(
// CHECK-NEXT:  	.param .u64 early_clobber_param_0,
// CHECK-NEXT:  	.param .u32 early_clobber_param_1
// CHECK-NEXT:  )
// CHECK-NEXT:  {
// CHECK-NEXT:  	.reg .pred 	%p<2>;
// CHECK-NEXT:  	.reg .b32 	%r<5>;
// CHECK-NEXT:  	.reg .b64 	%rd<2>;
// CHECK-EMPTY:
// CHECK-NEXT:  	ld.param.u64 	%rd1, [early_clobber_param_0];
// CHECK-NEXT:  	ld.param.u32 	%r1, [early_clobber_param_1];
// CHECK-NEXT:  	mov.u32 	%r2, %tid.x;
// CHECK-NEXT:  	add.s32 	%r3, %r2, %r1;
// CHECK-NEXT:  	setp.lt.u32 	%p1, %r2, %r1;
// CHECK-NEXT:  	@!%p1 bra 	$L__BB4_2;
// CHECK-NEXT:  $L__BB4_1:
// CHECK-NEXT:  	bra.uni 	$L__BB4_3;
// CHECK-NEXT:  $L__BB4_2:
// CHECK-NEXT:  	mov.b32 %r4, 0;
// CHECK-NEXT:  	add.s32 %r4, %r4, %r3;
// CHECK-NEXT:  	mov.b32 	%r3, %r4;
// CHECK-NEXT:  $L__BB4_3:
// CHECK-NEXT:  	st.global.b32 	[%rd1], %r3;
// CHECK-NEXT:  	ret;
// CHECK-NEXT:  }
ptx.entry @early_clobber(%p: i64, %n: i32) attributes {target = "sm_90a"} {
  %t = ptx.special tid.x : i32
  %v = ptx.inst "add.s32" %t, %n : (i32, i32) -> i32
  %c = ptx.inst "setp.lt.u32" %t, %n : (i32, i32) -> i1
  cf.cond_br %c, ^keep, ^redo
^keep:
  cf.br ^join(%v : i32)
^redo:
  %w = ptx.asm "mov.b32 $0, 0;\nadd.s32 $0, $0, $1;" %v : (i32) -> i32
  cf.br ^join(%w : i32)
^join(%x: i32):
  ptx.inst "st.global.b32" [%p], %x : (i64, i32) -> ()
  ptx.ret
}
