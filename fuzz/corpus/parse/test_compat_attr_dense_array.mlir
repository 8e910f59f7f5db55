// Dense array attributes `array<T: ...>`: integer widths (i1 takes only
// true/false), floats including hex NaN and f16/bf16, empty arrays, hex and
// negative integers (printed decimal, wrapped to the element width).
// (`array<index: ...>` crashes mlir-opt 22, so it is not here.)

"foo.arrays"() {a = array<i64: 1, 2>, b = array<f32: 1.0, 2.5>, c = array<i1: true>, d = array<i32>, e = array<i8: -1, 255>, f = array<f64: 0x7FF8000000000000>, g = array<i16: 0x10>, h = array<i1: true, false>, i = array<f16: 1.0>, j = array<bf16: 1.0, -2.0>, k = array<i128: 5>, l = array<i64: 0x7FFFFFFFFFFFFFFF, -9223372036854775808>, m = array<i32: -0x1>, n = array<f64>, o = array<i1>} : () -> ()
"foo.prop"() <{operandSegmentSizes = array<i32: 0, 1, 0>}> : () -> ()
