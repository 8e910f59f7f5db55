// Dialect types of unregistered dialects: `!foo.bar`, parameterised
// `!foo.bar<1, "x", [2]>`, opaque `!foo<"bar">`; the body after the dialect
// name is kept verbatim (whitespace included), `!foo<bar>` is printed in the
// pretty form `!foo.bar`, and bodies that are not simple identifiers stay in
// `!foo<...>` form. Also dialect types nested in builtin types (tensor and
// tuple only: MLIR 22 rejects unregistered element types in memref and vector).

"foo.dialect_types"() : () -> (!foo.bar, !foo.bar<1, "x", [2]>, !foo<"bar">, !foo.baz<"a b">, !foo<"x.y">, !foo.q<{a = 1}>, !foo.n<i32, f32>)
"foo.bodies"() : () -> (!foo<bar>, !foo<a<1>>, !foo<a.b>, !foo<1>, !foo<a b>, !foo<a-b>, !foo.a.b<x>, !foo.a<>, !foo<"">, !foo.sp<  1 ,2 >)
"foo.tricky_bodies"() : () -> (!foo.f<(i32) -> i32>, !foo.s<">">, !foo.arrow<a -> b>, !foo.esc<"\"q">)
"foo.nested"() : () -> (tensor<4x!foo.elt>, tuple<!foo.a, !foo<"b">>, (!foo.in) -> !foo.out)
"foo.as_attrs"() {a = !foo.bar, b = !foo<"bar">, c = !foo.p<1>} : () -> ()
