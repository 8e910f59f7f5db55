// Properties `<{...}>` on unregistered ops: kept as written (sorted like any
// dictionary), an empty `<{}>` is kept (unlike an empty attribute dictionary,
// which disappears), properties need not be a dictionary (`<1 : i32>`, `<[1]>`,
// `<unit>`), the same key may appear in properties and in attributes, and
// properties sit after operands and successors, before regions.

"foo.p"() <{zeta = 1 : i32, alpha = "x", mid}> : () -> ()
"foo.empty_props"() <{}> : () -> ()
"foo.empty_attrs"() {} : () -> ()
"foo.both"() <{a = 1}> {a = 2} : () -> ()
"foo.int_prop"() <1 : i32> : () -> ()
"foo.array_prop"() <[1, "two", i32]> : () -> ()
"foo.unit_prop"() <unit> : () -> ()
"foo.dialect_prop"() <#foo.props<x = 1>> : () -> ()
"foo.nested"() <{outer = {inner = {deep = [1, 2]}, b = 1 : i8}}> : () -> ()
%0 = "foo.with_region"() <{p = 0 : index}> ({
  "foo.a"() : () -> ()
}) {d = 1 : i16} : () -> i32
