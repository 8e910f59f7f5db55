
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
