// Source locations. Every op has one: written as a trailing `loc(...)`, or else the position of
// the op in this file (line and byte column of its name). They are printed only with
// --print-debuginfo: as `loc(#locN)` references, with the `#locN = loc(...)` aliases listed after
// the module; with --print-local-scope as well, they are written out in place. Covered: file
// positions, ranges, `file:line`, unknown, names (with and without a child), call sites, fused
// locations (with metadata), user `#loc` aliases (even defined after their use), and the
// locations of block arguments.
//
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect | FileCheck %s --check-prefix=PLAIN
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect --print-debuginfo \
// RUN:   | FileCheck %s --check-prefix=DEBUG
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect --print-debuginfo \
// RUN:   --print-local-scope | FileCheck %s --check-prefix=LOCAL
// Printed locations read back as the same locations.
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect --print-debuginfo \
// RUN:   | tilus-opt --split-input-file --allow-unregistered-dialect --print-debuginfo \
// RUN:   | FileCheck %s --check-prefix=DEBUG

// Without --print-debuginfo no location is printed.
// PLAIN-NOT: loc(

// With --print-debuginfo every op refers to a `#loc` alias. Aliases are numbered in the order
// the printer first meets each location: the module's own location is `#loc`, then the ops in
// order; an op with the same location as an earlier one shares its alias (`t.reuse`).
// DEBUG:      module {
// DEBUG-NEXT:   func.func @ops() -> i32 {
// DEBUG-NEXT:     %c1_i32 = arith.constant 1 : i32 loc(#loc2)
// DEBUG-NEXT:     %0 = arith.addi %c1_i32, %c1_i32 : i32 loc(#loc3)
// DEBUG-NEXT:     return %0 : i32 loc(#loc4)
// DEBUG-NEXT:   } loc(#loc1)
// DEBUG-NEXT:   "t.unknown"() : () -> () loc(#loc5)
// DEBUG-NEXT:   "t.name"() : () -> () loc(#loc6)
// DEBUG-NEXT:   "t.range"() : () -> () loc(#loc7)
// DEBUG-NEXT:   "t.same_line"() : () -> () loc(#loc8)
// DEBUG-NEXT:   "t.line_only"() : () -> () loc(#loc9)
// DEBUG-NEXT:   "t.reuse"() : () -> () loc(#loc3)
// DEBUG-NEXT:   "t.user_alias"() : () -> () loc(#loc10)
// DEBUG-NEXT:   "t.later"() : () -> () loc(#loc11)
// DEBUG-NEXT: } loc(#loc)
// The aliases follow the module. Implicit locations name this file as given on the command line;
// the implicit module is at line 0, column 0. A range on one line drops the end line (`to :8`),
// `file:line` gets column 0, and user aliases (`#user_loc`) are replaced by numbered ones.
// DEBUG-NEXT: #loc = loc("{{.*}}locations.mlir":0:0)
// DEBUG-NEXT: #loc1 = loc("{{.*}}locations.mlir":{{[0-9]+}}:1)
// DEBUG-NEXT: #loc2 = loc("{{.*}}locations.mlir":{{[0-9]+}}:8)
// DEBUG-NEXT: #loc3 = loc("explicit.mlir":7:3)
// DEBUG-NEXT: #loc4 = loc("{{.*}}locations.mlir":{{[0-9]+}}:3)
// DEBUG-NEXT: #loc5 = loc(unknown)
// DEBUG-NEXT: #loc6 = loc("name")
// DEBUG-NEXT: #loc7 = loc("f.mlir":1:2 to 3:4)
// DEBUG-NEXT: #loc8 = loc("f.mlir":1:2 to :8)
// DEBUG-NEXT: #loc9 = loc("f.mlir":7:0)
// DEBUG-NEXT: #loc10 = loc("alias.mlir":10:20)
// DEBUG-NEXT: #loc11 = loc("late.mlir":3:4)
// An empty line ends the list; then comes the next part of the split input.
// DEBUG-EMPTY:
// DEBUG-NEXT: {{^// -{5}$}}

// With --print-local-scope the same locations are written out where they are used; implicit
// ones give the line of the op and the column of its first character.
// LOCAL:      module {
// LOCAL-NEXT:   func.func @ops() -> i32 {
// LOCAL-NEXT:     %c1_i32 = arith.constant 1 : i32 loc("{{.*}}locations.mlir":[[@LINE+6]]:8)
// LOCAL-NEXT:     %0 = arith.addi %c1_i32, %c1_i32 : i32 loc("explicit.mlir":7:3)
// LOCAL-NEXT:     return %0 : i32 loc("{{.*}}locations.mlir":[[@LINE+6]]:3)
// LOCAL-NEXT:   } loc("{{.*}}locations.mlir":[[@LINE+2]]:1)
#user_loc = loc("alias.mlir":10:20)
func.func @ops() -> i32 {
  %c = arith.constant 1 : i32
  %0 = arith.addi %c, %c : i32 loc("explicit.mlir":7:3)
  return %0 : i32
}
// LOCAL-NEXT:   "t.unknown"() : () -> () loc(unknown)
// LOCAL-NEXT:   "t.name"() : () -> () loc("name")
// LOCAL-NEXT:   "t.range"() : () -> () loc("f.mlir":1:2 to 3:4)
// LOCAL-NEXT:   "t.same_line"() : () -> () loc("f.mlir":1:2 to :8)
// LOCAL-NEXT:   "t.line_only"() : () -> () loc("f.mlir":7:0)
// LOCAL-NEXT:   "t.reuse"() : () -> () loc("explicit.mlir":7:3)
// LOCAL-NEXT:   "t.user_alias"() : () -> () loc("alias.mlir":10:20)
// LOCAL-NEXT:   "t.later"() : () -> () loc("late.mlir":3:4)
// LOCAL-NEXT: } loc("{{.*}}locations.mlir":0:0)
"t.unknown"() : () -> () loc(unknown)
"t.name"() : () -> () loc("name")
"t.range"() : () -> () loc("f.mlir":1:2 to 3:4)
"t.same_line"() : () -> () loc("f.mlir":1:2 to 1:8)
"t.line_only"() : () -> () loc("f.mlir":7)
"t.reuse"() : () -> () loc("explicit.mlir":7:3)
"t.user_alias"() : () -> () loc(#user_loc)
// A location alias may be defined after its first use (other aliases may not).
"t.later"() : () -> () loc(#defined_later)
#defined_later = loc("late.mlir":3:4)

// -----

// Locations built from other locations.
// LOCAL:      module {
// LOCAL-NEXT:   "t.named_child"() : () -> () loc("n"("f.mlir":1:2))
// LOCAL-NEXT:   "t.callsite"() : () -> () loc(callsite("callee.mlir":1:1 at "caller.mlir":2:2))
// LOCAL-NEXT:   "t.nested_callsite"() : () -> () loc(callsite("x" at callsite("y" at "z":1:1)))
// LOCAL-NEXT:   "t.fused"() : () -> () loc(fused["a.mlir":1:1, "b.mlir":2:2])
// LOCAL-NEXT:   "t.fused_meta"() : () -> () loc(fused<"meta">["a.mlir":1:1, "b"])
"t.named_child"() : () -> () loc("n"("f.mlir":1:2))
"t.callsite"() : () -> () loc(callsite("callee.mlir":1:1 at "caller.mlir":2:2))
"t.nested_callsite"() : () -> () loc(callsite("x" at callsite("y" at "z":1:1)))
"t.fused"() : () -> () loc(fused["a.mlir":1:1, "b.mlir":2:2])
"t.fused_meta"() : () -> () loc(fused<"meta">["a.mlir":1:1, "b"])

// -----

// Block arguments have locations too: written after the argument's type, or else the position
// of its `%name`. They are printed in place even with aliases, and their aliases are defined
// before the module; the aliases of op locations still follow it. All share one numbering, in
// the order the printer meets them (an op, then its blocks' arguments, then the ops inside).
// DEBUG:      #loc2 = loc("arg.mlir":1:1)
// DEBUG-NEXT: #loc3 = loc("{{.*}}locations.mlir":[[#ARGS:]]:46)
// DEBUG-NEXT: #loc5 = loc("x.mlir":2:2)
// DEBUG-NEXT: #loc6 = loc("{{.*}}locations.mlir":[[#ARGS+2]]:35)
// DEBUG-NEXT: #loc9 = loc("c.mlir":3:3)
// DEBUG-NEXT: module {
// DEBUG-NEXT:   func.func @args(%arg0: i32 loc("arg.mlir":1:1), %arg1: i32 loc("{{.*}}locations.mlir":[[#ARGS]]:46)) {
// DEBUG-NEXT:     "t.region"() ({
// DEBUG-NEXT:     ^bb0(%arg2: f32 loc("x.mlir":2:2), %arg3: f32 loc("{{.*}}locations.mlir":[[#ARGS+2]]:35)):
// DEBUG-NEXT:       "t.yield"() : () -> () loc(#loc7)
// DEBUG-NEXT:     }) : () -> () loc(#loc4)
// DEBUG-NEXT:     cf.br ^bb1(%arg0 : i32) loc(#loc8)
// DEBUG-NEXT:   ^bb1(%0: i32 loc("c.mlir":3:3)):  // pred: ^bb0
// DEBUG-NEXT:     return loc(#loc10)
// DEBUG-NEXT:   } loc(#loc1)
// DEBUG-NEXT: } loc(#loc)
// DEBUG:      #loc1 = loc("{{.*}}locations.mlir":[[#ARGS]]:1)
// DEBUG-NEXT: #loc4 = loc("{{.*}}locations.mlir":[[#ARGS+1]]:3)
// DEBUG-NEXT: #loc7 = loc("{{.*}}locations.mlir":[[#ARGS+3]]:5)
// DEBUG-NEXT: #loc8 = loc("{{.*}}locations.mlir":[[#ARGS+5]]:3)
// DEBUG-NEXT: #loc10 = loc("{{.*}}locations.mlir":[[#ARGS+7]]:3)
// LOCAL:      module {
// LOCAL-NEXT:   func.func @args(%arg0: i32 loc("arg.mlir":1:1), %arg1: i32 loc("{{.*}}locations.mlir":[[@LINE+9]]:46)) {
// LOCAL-NEXT:     "t.region"() ({
// LOCAL-NEXT:     ^bb0(%arg2: f32 loc("x.mlir":2:2), %arg3: f32 loc("{{.*}}locations.mlir":[[@LINE+9]]:35)):
// LOCAL-NEXT:       "t.yield"() : () -> () loc("{{.*}}locations.mlir":[[@LINE+9]]:5)
// LOCAL-NEXT:     }) : () -> () loc("{{.*}}locations.mlir":[[@LINE+6]]:3)
// LOCAL-NEXT:     cf.br ^bb1(%arg0 : i32) loc("{{.*}}locations.mlir":[[@LINE+9]]:3)
// LOCAL-NEXT:   ^bb1(%0: i32 loc("c.mlir":3:3)):  // pred: ^bb0
// LOCAL-NEXT:     return loc("{{.*}}locations.mlir":[[@LINE+9]]:3)
// LOCAL-NEXT:   } loc("{{.*}}locations.mlir":[[@LINE+1]]:1)
func.func @args(%a: i32 loc("arg.mlir":1:1), %b: i32) {
  "t.region"() ({
  ^bb0(%x: f32 loc("x.mlir":2:2), %y: f32):
    "t.yield"() : () -> ()
  }) : () -> ()
  cf.br ^bb1(%a : i32)
^bb1(%c: i32 loc("c.mlir":3:3)):
  return
}
