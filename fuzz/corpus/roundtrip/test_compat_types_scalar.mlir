// Builtin scalar types: signless/signed/unsigned integers of odd and large
// widths, index, every builtin float type of MLIR 22 (f16 bf16 f32 f64 tf32
// f80 f128 and the f8/f6/f4 families), and none.

"foo.ints"() : () -> (i1, i7, i8, i16, i32, i64, i128, i256, i1000, si1, si8, si64, ui1, ui32, ui64, index)
"foo.floats"() : () -> (f16, bf16, f32, f64, tf32, f80, f128)
"foo.small_floats"() : () -> (f8E4M3FN, f8E5M2, f8E4M3, f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ, f8E3M4, f8E8M0FNU, f6E2M3FN, f6E3M2FN, f4E2M1FN)
"foo.none"() : () -> none
%0 = "foo.arg"() : () -> i0
"foo.type_attrs"() {a = i7, b = f8E8M0FNU, c = none, d = index, e = si16, f = f4E2M1FN} : () -> ()
