// A dialect attribute followed by `: type`: MLIR reads the type after any
// dialect attribute (with or without a body, opaque or pretty) and keeps it, in
// attribute dictionaries, properties, arrays and nested dictionaries alike.
// `#test.e1di64_elements` is an attribute of mlir-opt's test dialect (unknown
// here, so kept as text); the `foo` dialect is unknown to both tools.

"foo.typed"() {a = #test.e1di64_elements<blob1> : tensor<*xi1>, b = #foo.flag : i32, c = [#foo.q<1> : index, #foo.q<2>], d = {e = #foo<"opaque"> : f32}} : () -> ()
"foo.typed_props"() <{p = #foo.bar<x, y> : !foo.ty<f32>}> : () -> ()
%0 = "foo.typed_result"() {v = #foo.v<[1, 2]> : vector<2xi64>} : () -> i32
