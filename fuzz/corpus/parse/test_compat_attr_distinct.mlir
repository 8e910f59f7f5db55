// Distinct attributes `distinct[N]<attr>`: the same id means the same attribute
// (within a file), ids are renumbered on output in print order, distinct
// attributes get `#distinct` aliases (except `distinct[N]<>`, whose unit payload
// prints as nothing), and payloads of every kind including an affine map.

"foo.a"() {a = distinct[0]<"x">, b = distinct[0]<"x">, c = distinct[1]<unit>, d = distinct[5]<{a = 1}>, e = distinct[7]<affine_map<(d0) -> (d0)>>, f = [distinct[9]<1 : i32>], g = distinct[3]<#foo.y>, h = distinct[11]<>} : () -> ()
"foo.b"() {a = distinct[0]<"x">, b = distinct[42]<"x">} : () -> ()
