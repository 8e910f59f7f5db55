// The full generic op form, with every optional part:
// results = "name"(operands)[successors] <{properties}> ({regions}) {attributes}
//   : (operand types) -> result types loc(...)
// with zero/one/many of each; whitespace and line breaks inside an op; comments.

"foo.nothing"() : () -> ()
%0 = "foo.one"() : () -> i32
%1:2 = "foo.two"(%0, %0) : (i32, i32) -> (i32, f32)
"foo.cfg"() ({
^bb0(%a: i32):
  %r:2 = "foo.everything"(%a, %a)[^bb1, ^bb1] <{p = 1 : i32}> ({
    "foo.x"() : () -> ()
  }, {
  }) {z = 2 : i32} : (i32, i32) -> (i32, i64) loc("x.mlir":1:1)
^bb1:
  "foo.end"() : () -> ()
}) : () -> ()
%2 =
  "foo.spread"  (  %0 ,%1#1 )   {
     a = 1 ,
     b = 2   // a comment inside an op
  }
  :   ( i32 , f32 )   ->   i64
"foo.attrs_and_props"(%2) <{a = 1}> {b = 2} : (i64) -> ()
