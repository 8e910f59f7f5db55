// The assembly-format directives that replaced hand-written parsers and printers, one op for
// each (see docs/guide/defining-ops.md, "Format directives"). Every op must print as written,
// read its own output back, and survive the generic form.
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s | tilus-opt | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s

// `($sym_name^)? attr-dict-with-keyword $bodyRegion` (builtin.module): a symbol name
// (`AttrForm::SymbolName`) anchors an optional group; the dictionary comes after `attributes`.
// CHECK-LABEL: module @directives attributes {test.note = "kept"} {
// GENERIC-LABEL: "builtin.module"() <{sym_name = "directives"}> ({
module @directives attributes {test.note = "kept"} {

// `$sym_name (`[` $size^ `]`)? `align` $alignment attr-dict` (ptx.shared_decl): the optional
// group with punctuation around its anchor.
// CHECK:         ptx.shared_decl @dyn align 128
// CHECK-NEXT:    ptx.shared_decl @buf[4096] align 16
// GENERIC:       "ptx.shared_decl"() <{alignment = 128 : i64, sym_name = "dyn"}> : () -> ()
// GENERIC-NEXT:  "ptx.shared_decl"() <{alignment = 16 : i64, size = 4096 : i64, sym_name = "buf"}> : () -> ()
ptx.shared_decl @dyn align 128
ptx.shared_decl @buf[4096] align 16

// `custom<RegisterName>($reg)` (ptx.special) and `$asm_string $args attr-dict `:`
// functional-type($args, $results)` (ptx.asm): a hook for one piece, and a function type over two
// named groups; the string literal leaves the `:` to the format.
// CHECK-LABEL: ptx.entry @k
// CHECK:         %[[T:.*]] = ptx.special tid.x : i32
// CHECK-NEXT:    %{{.*}} = ptx.asm "add.u32 $0, $1, $2;" %[[T]], %[[T]] : (i32, i32) -> i32
// CHECK-NEXT:    %{{.*}} = ptx.asm "mov.u32 $0, %laneid;" : () -> i32
// GENERIC:       "ptx.special"() <{reg = "tid.x"}> : () -> i32
// GENERIC-NEXT:  "ptx.asm"(%{{.*}}, %{{.*}}) <{asm_string = "add.u32 $0, $1, $2;"}> : (i32, i32) -> i32
// GENERIC-NEXT:  "ptx.asm"() <{asm_string = "mov.u32 $0, %laneid;"}> : () -> i32
ptx.entry @k(%a: i64) attributes {target = "sm_90a"} {
  %t = ptx.special tid.x : i32
  %s = ptx.asm "add.u32 $0, $1, $2;" %t, %t : (i32, i32) -> i32
  %l = ptx.asm "mov.u32 $0, %laneid;" : () -> i32
  ptx.ret
}

// `custom<SelectTypes>(type($condition), type($result))` (arith.select): the condition's type is
// written only when it is not `i1`. `custom<CalleeType>(...)` (func.call_indirect): the callee's
// function type gives the argument and result types.
// CHECK-LABEL: func.func @hooks
// CHECK:         %{{.*}} = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %{{.*}} = arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xi32>
// CHECK-NEXT:    %{{.*}} = {{(func.)?}}call_indirect %{{.*}}(%{{.*}}) : (i32) -> i32
// GENERIC:       "arith.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (i1, i32, i32) -> i32
// GENERIC-NEXT:  "arith.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<4xi1>, vector<4xi32>, vector<4xi32>) -> vector<4xi32>
// GENERIC-NEXT:  "func.call_indirect"(%{{.*}}, %{{.*}}) : ((i32) -> i32, i32) -> i32
func.func @hooks(%c: i1, %x: i32, %y: i32, %vc: vector<4xi1>, %v: vector<4xi32>, %f: (i32) -> i32) -> i32 {
  %0 = arith.select %c, %x, %y : i32
  %1 = arith.select %vc, %v, %v : vector<4xi1>, vector<4xi32>
  %2 = func.call_indirect %f(%0) : (i32) -> i32
  return %2 : i32
}

// `(`read` $read^)?` (tma.wait_group): a unit attribute as an anchor is spelled by the group's
// keyword alone. `(`counts` $counts^)?` (mbarrier.alloc) and `$src $perm` (tilus.permute_shared):
// integer lists (`AttrForm::IntList`) print bare. `$kind ... (`keepdim` $keepdim^)?`
// (tilus.reduce): a keyword enum, and a unit anchor after a literal.
// CHECK-LABEL: tilus.kernel @lists
// CHECK:         %{{.*}} = mbarrier.alloc counts [1, 128] : !mbarrier.barriers<2>
// CHECK-NEXT:    %{{.*}} = mbarrier.alloc : !mbarrier.barriers<1>
// CHECK:         %{{.*}} = tilus.permute_shared %{{.*}} [1, 0] : !tilus.shared<32x64xf16> -> !tilus.shared<64x32xf16, strides = [1, 64]>
// CHECK-NEXT:    %{{.*}} = tilus.reduce max %{{.*}} dim(1) keepdim : !tilus.reg<64x128xf32> -> !tilus.reg<64x1xf32>
// CHECK-NEXT:    %{{.*}} = tilus.reduce sum %{{.*}} dim(0) : !tilus.reg<64x128xf32> -> !tilus.reg<128xf32>
// CHECK:         tma.wait_group 0 read
// CHECK-NEXT:    tma.wait_group 6
// GENERIC:       "mbarrier.alloc"() <{counts = array<i64: 1, 128>}> : () -> !mbarrier.barriers<2>
// GENERIC-NEXT:  "mbarrier.alloc"() : () -> !mbarrier.barriers<1>
// GENERIC:       "tilus.permute_shared"(%{{.*}}) <{perm = array<i64: 1, 0>}>
// GENERIC-NEXT:  "tilus.reduce"(%{{.*}}) <{dim = 1 : i64, keepdim, kind = 1 : i64}>
// GENERIC-NEXT:  "tilus.reduce"(%{{.*}}) <{dim = 0 : i64, kind = 0 : i64}>
// GENERIC:       "tma.wait_group"() <{n = 0 : i64, read}> : () -> ()
// GENERIC-NEXT:  "tma.wait_group"() <{n = 6 : i64}> : () -> ()
// GENERIC:       }) {test.note = "kept"} : () -> ()
tilus.kernel @lists(%x: !tilus.reg<64x128xf32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %bars = mbarrier.alloc counts [1, 128] : !mbarrier.barriers<2>
  %one = mbarrier.alloc : !mbarrier.barriers<1>
  %s = tilus.shared_tensor : !tilus.shared<32x64xf16>
  %st = tilus.permute_shared %s [1, 0] : !tilus.shared<32x64xf16> -> !tilus.shared<64x32xf16, strides = [1, 64]>
  %m = tilus.reduce max %x dim(1) keepdim : !tilus.reg<64x128xf32> -> !tilus.reg<64x1xf32>
  %r = tilus.reduce sum %x dim(0) : !tilus.reg<64x128xf32> -> !tilus.reg<128xf32>
  threadgroup.single_warp {
    tma.commit_group
    tma.wait_group 0 read
    tma.wait_group 6
  }
}

}
