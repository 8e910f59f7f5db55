// Arrays, unit and type attributes: empty and nested arrays, arrays mixing
// kinds; inside an array an i64 integer or f64 float is printed WITHOUT its type
// (`[1, 2.0]`) while other widths keep it; `unit` standing alone and in arrays;
// type attributes (builtin, dialect, function); `true` inside arrays.

"foo.arrays"() {a = [], b = [1, [2, "x"], {a = 1}], c = [[[]]], d = [1, 2 : i32, 1.0, 2.0 : f32, [3], {x = 4}, 5 : index, true, -1 : i64], e = [unit, unit], f = [@s, "s", i32]} : () -> ()
"foo.units"() {a, b = unit, c = [unit], d = {e}} : () -> ()
"foo.types"() {a = i32, b = !foo.t, c = tensor<4xf32>, d = (i32) -> i1, e = memref<?xf32>, f = [i1, index]} : () -> ()
"foo.prop_array"() <{p = [1, 2.5, "s"]}> : () -> ()
