// Regions: several regions on one op, empty regions `({})`, nested regions,
// regions mixed with operands/properties/attributes, and the SSA numbering of
// values across sibling and nested regions (generic printing numbers regions
// with one global counter, last sibling first: see docs/design/mlir-generic-format.md).

%0 = "foo.outer"() : () -> i32
"foo.three"() ({
^bb0(%a: i32):
  %1 = "foo.in_first"(%a, %0) : (i32, i32) -> i32
  "foo.nested"() ({
  ^bb0(%b: i32):
    %2 = "foo.deep"(%b, %1) : (i32, i32) -> i32
    "foo.deeper"() ({
      "foo.use"(%2, %0) : (i32, i32) -> ()
    }) : () -> ()
  }) : () -> ()
  %3 = "foo.after_nested"() : () -> i32
}, {
}, {
  %4 = "foo.in_third"() : () -> i32
  "foo.nested"() ({
    %5 = "foo.deep"(%4) : (i32) -> i32
  }, {
  }) : () -> ()
}) : () -> ()
%6 = "foo.after"(%0) ({
  "foo.a"() : () -> ()
}) {attr = 1 : i32} : (i32) -> i32
"foo.only_empty"() ({}) : () -> ()
"foo.two_empty"() ({}, {}) : () -> ()
