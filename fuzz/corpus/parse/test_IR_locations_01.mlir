
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

