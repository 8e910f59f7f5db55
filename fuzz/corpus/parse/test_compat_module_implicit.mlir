// Top-level ops without a module: MLIR wraps them in an implicit
// `"builtin.module"() ({ ... }) : () -> ()` (no attributes), also when one of
// the top-level ops is itself a module.

"foo.first"() : () -> ()
"builtin.module"() ({
  "foo.inside"() : () -> ()
}) : () -> ()
%0 = "foo.last"() : () -> i32
