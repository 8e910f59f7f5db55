// Locations (every op and block argument has an explicit one, so the
// debuginfo variant does not depend on source positions): `loc(unknown)`,
// file:line:col, file:line (col 0), ranges (`to`), named locations with and
// without a child, fused with and without metadata (incl. collapsing cases),
// callsites (nested), `#loc` aliases defined at the top and one defined after
// its use (allowed for locations only), block-argument locations, and
// locations used as ordinary attribute values. Without --mlir-print-debuginfo
// trailing locations are dropped on output.

#loc0 = loc("alias.mlir":10:20)
#loc9 = loc("shared")
"foo.a"() : () -> () loc(unknown)
"foo.b"() : () -> () loc("file.mlir":1:2)
"foo.c"() : () -> () loc("name")
"foo.d"() : () -> () loc("n"("f.mlir":1:2))
"foo.e"() : () -> () loc(fused["a.mlir":1:1, "b.mlir":2:2])
"foo.f"() : () -> () loc(fused<"meta">["a.mlir":1:1, "b"])
"foo.g"() : () -> () loc(callsite("callee.mlir":1:1 at "caller.mlir":2:2))
"foo.h"() : () -> () loc(#loc0)
"foo.i"() : () -> () loc(#loc9)
"foo.j"() : () -> () loc(fused<#foo.meta>[#loc0, unknown])
"foo.k"() : () -> () loc("f.mlir":1:2 to 3:4)
"foo.l"() : () -> () loc("f.mlir":1:2 to 1:8)
"foo.m"() {l = loc("attr.mlir":5:6), l2 = loc(unknown), l3 = [loc("in_array")]} : () -> () loc("m.mlir":1:1)
"foo.n"() ({
^bb0(%a: i32 loc("arg.mlir":1:1), %b: i32 loc(unknown)):
  "foo.o"() : () -> () loc(callsite("x" at callsite("y" at "z":1:1)))
  "foo.br"()[^bb1] : () -> () loc(#defined_later)
^bb1(%c: i64 loc("arg.mlir":2:2)):
  "foo.p"(%c) : (i64) -> () loc("p.mlir":9:9)
}) : () -> () loc("region.mlir":3:3)
"foo.q"() : () -> () loc(fused[])
"foo.r"() : () -> () loc("nested"("inner"))
"foo.s"() : () -> () loc("f.mlir":7)
"foo.t"() : () -> () loc(fused["a":1:1])
"foo.u"() : () -> () loc(fused["a":1:1, "a":1:1])
"foo.v"() : () -> () loc(fused["a":1:1, fused["b":2:2, "c":3:3]])
"foo.w"() : () -> () loc("n"(unknown))
"foo.x"() : () -> () loc(fused<"m">[])
"foo.y"() : () -> () loc(fused<1 : i32>["a"])
"foo.z"() : () -> () loc("a\"b\0A":1:1)
"foo.zz"() : () -> () loc(callsite(unknown at "b":1:1))
#defined_later = loc("late.mlir":3:4)
