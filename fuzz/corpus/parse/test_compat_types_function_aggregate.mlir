// Function, complex and tuple types: a single non-function result is printed
// without parentheses, zero or several results (or a function-typed result)
// with them; nested function types; complex of ints/floats/complex; tuples,
// empty and nested, and a tuple of more than 16 elements (MLIR prints it with a
// generated `!tuple` alias).

"foo.fn"() {a = (i32) -> i32, b = (i32) -> (i32), c = (i32, f32) -> (i32, i64), d = () -> (), e = ((i32) -> i32) -> (() -> ()), f = ((i32) -> i32) -> ((i32) -> i32), g = (i32) -> ((i32) -> (i32, i32)), h = () -> (i32)} : () -> ()
%0 = "foo.returns_fn"() : () -> ((i32) -> i32)
%1:2 = "foo.takes_fn"(%0) : ((i32) -> i32) -> (i1, (f32) -> ())
"foo.complex"() : () -> (complex<f32>, complex<f64>, complex<i32>)
"foo.tuple"() : () -> (tuple<>, tuple<i32>, tuple<i32, tuple<f32, tuple<>>>, tuple<!foo.t, complex<f32>>)
"foo.big_tuple"() {t = tuple<i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32>, sixteen = tuple<i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8>} : () -> ()
