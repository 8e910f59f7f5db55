// User-defined aliases: attribute aliases `#a = ...` and type aliases
// `!t = ...`, aliases used inside other aliases, aliases defined between ops
// (allowed anywhere at top level, before their first use), aliases inside
// types, properties, arrays and dictionaries. MLIR does not keep user alias
// names: it prints the aliased values inline and only invents its own aliases
// (`#map`, `#set`, `#loc`, `#distinct`, `!tuple` of > 16 elements, dialect ones).

#myattr = {a = 1 : i32}
#m = affine_map<(d0) -> (d0 + 1)>
#x = #foo.bar<1>
!t = !foo.ty
!tt = tuple<!t, i32>
!mr = memref<4xf32, #m>
#str = strided<[?, 1], offset: ?>
!mrs = memref<4x4xf32, #str>
!vt = vector<4xf32>
#nested = [#myattr, #x, !tt]
#d = dense<[1, 2]> : tensor<2xi32>
#s = "a string"
!fn = (!t, !vt) -> !tt
"foo.a"() {a = #myattr, b = #m, c = #x, d = #nested, e = #d, f = #s, g = !fn} : () -> (!t, !tt, !mr, !mrs, !vt)
#later = 7 : i16
!later_t = complex<f32>
%0 = "foo.b"() <{p = #later, q = [#later, #m]}> : () -> !later_t
"foo.c"(%0) {u = {inner = #nested}} : (!later_t) -> ()
