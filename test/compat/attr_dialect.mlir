// Dialect attributes: unregistered `#foo.bar`, `#foo.bar<...>`, opaque
// `#foo<"...">`; the body is kept verbatim (whitespace, `->`, quoted `>`,
// names that are not aliases of this file: see attr_dialect_alias_body.mlir);
// `#foo<bar>` prints
// as `#foo.bar`. Also attributes of dialects that mlir-opt registers
// (`#arith.overflow`, `#sparse_tensor.encoding`, which MLIR re-prints in its
// own canonical form).

"foo.d"() {a = #foo.bar< 1 ,  "x" >, b = #foo<"bar baz">, c = #foo.x, d = #foo<bar>, e = #foo.a<b<c>>, g = #foo.a<"\"q">, h = #foo.y<{x = 1 : i32}>, i = #foo.z<(d0) -> (d0)>, j = #foo.w<[1,2]  >} : () -> ()
"foo.bodies"() {a = #foo.x<a -> b>, b = #foo.x<"<">, c = #foo.x<"\">">, d = #foo.x<a->b->c>, e = #foo.x<-> >, f = #foo.x<"x" "y">, g = #foo.x<@sym>, h = #foo.x<%x>, i = #foo.x<^bb>, j = #foo.x<#foo.y<1>>, k = #foo.x<!foo.y<">">>, l = #foo<a_1$x>, m = #foo.x<#not_an_alias>} : () -> ()
"foo.registered"() {a = #arith.overflow<nsw, nuw>, b = #arith.fastmath<fast>, c = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>, d = #sparse_tensor.encoding<{map = (i) -> (i : compressed), posWidth = 32}>} : () -> ()
%0 = "foo.sparse_tensor"() : () -> tensor<4x8xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>>
