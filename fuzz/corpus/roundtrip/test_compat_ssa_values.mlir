// SSA values: single and multi-result ops (`%0:2`), uses of individual results
// (`%0#1`), a multi-result group used without `#` (means result #0), several
// result groups on one op (`%a, %b:2 = ...`), user names of every lexical kind
// (`%foo`, `%x_1`, numeric `%42`, `%x.y`, `%x$y`, `%-a`), forward references and
// self-references (allowed: top-level and unregistered-op regions are graph regions).

%0:2 = "foo.pair"() : () -> (i32, i32)
"foo.use"(%0#1, %0#0, %0) : (i32, i32, i32) -> ()
%a, %b:2 = "foo.triple"() : () -> (i32, i64, i64)
%foo = "foo.consume"(%a, %b#0, %b#1) : (i32, i64, i64) -> f32
%x_1:1 = "foo.one"(%foo) : (f32) -> i8
%42 = "foo.num"(%x_1#0) : (i8) -> i1
%x.y = "foo.dot"(%42) : (i1) -> i1
%x$y = "foo.dollar"(%x.y) : (i1) -> i1
%-a = "foo.dash"(%x$y) : (i1) -> i1
"foo.forward"(%later, %later#0) : (index, index) -> ()
%later = "foo.late"() : () -> index
%self = "foo.self"(%self) : (i16) -> i16
%many:5 = "foo.five"() : () -> (i1, i2, i3, i4, i5)
"foo.sink"(%many#4, %many#3, %many#2, %many#1, %many#0) : (i5, i4, i3, i2, i1) -> ()
