
// Distinct attributes: the same `distinct[N]` is the same attribute, and ids are renumbered from
// 0 in print order; a unit payload prints as `distinct[N]<>`.
// The split parts are printed one after the other, separated by the split marker line.
// LOCAL:      {{^// -{5}$}}
// LOCAL-NEXT: module {
// LOCAL-NEXT:   "t.distinct"() {a = distinct[0]<"x">, b = distinct[0]<"x">, c = distinct[1]<{a = 1 : i64}>, d = distinct[2]<>, e = distinct[3]<"x">} : () -> ()
"t.distinct"() {a = distinct[7]<"x">, b = distinct[7]<"x">, c = distinct[5]<{a = 1}>, d = distinct[9]<unit>, e = distinct[0]<"x">} : () -> ()

// Locations are attributes too: file positions, unknown, names, call sites, fused locations.
// LOCAL-NEXT:   "t.loc"() {a = loc("file.mlir":3:4), b = loc(unknown), c = loc("name"), d = loc(fused["a.mlir":1:2, "b.mlir":3:4]), e = loc(callsite("callee.mlir":1:1 at "caller.mlir":2:2))} : () -> ()
"t.loc"() {a = loc("file.mlir":3:4), b = loc(unknown), c = loc("name"), d = loc(fused["a.mlir":1:2, "b.mlir":3:4]), e = loc(callsite("callee.mlir":1:1 at "caller.mlir":2:2))} : () -> ()
// LOCAL-NEXT: }
