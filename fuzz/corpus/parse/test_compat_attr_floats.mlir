// Float attributes: decimal and exponent forms, values that only round-trip
// through hex (`0x419D6F3454000000 : f64`), NaN/Inf (only writable in hex, incl.
// negative NaN and payloads), negative zero, denormals, f16/bf16/tf32 rounding,
// every f8/f6/f4 type, f80/f128 (printed with many digits), and untyped floats
// defaulting to f64.

"foo.f32"() {a = 1.0 : f32, b = -0.0 : f32, c = 0.1 : f32, d = 1.0e10 : f32, e = 1.0e-7 : f32, f = 1234567.0 : f32, g = 0.333333333 : f32, h = 16777217.0 : f32, i = 99999.9 : f32, j = 0.0 : f32, k = 5.0e-1 : f32, l = 1. : f32} : () -> ()
"foo.f64"() {a = 1.5, b = 0.1 : f64, c = 3.14159265358979 : f64, d = 1.0e-5 : f64, e = 123456789.0 : f64, f = 1.0e100 : f64, g = 2.5e-300 : f64, h = 1.23456789e-20 : f64, i = 123456789.5 : f64, j = 12345678901234567890.0 : f64, k = 0.000123456789 : f64, l = 1234.5678 : f64, m = 1.5e21 : f64, n = 123.456e3 : f64} : () -> ()
"foo.hex"() {a = 0x7FC00000 : f32, b = 0x7F800000 : f32, c = 0xFF800000 : f32, d = 0x7FF8000000000000 : f64, e = 0x3F800000 : f32, f = 0x00000001 : f32, g = 0x7FC00001 : f32, h = 0xFFC00000 : f32, i = 0xFFF0000000000000 : f64, j = 0x000FFFFFFFFFFFFF : f64, k = 0x80000000 : f32} : () -> ()
"foo.half"() {a = 1.0 : f16, b = 0.1 : f16, c = 65504.0 : f16, d = 0x7C00 : f16, e = 0x7E00 : f16, f = 0x1 : f16, g = 0x8000 : f16, h = 3.0e-5 : f16, i = 1.0 : bf16, j = 0.1 : bf16, k = 0x7FC0 : bf16, l = 0xFF80 : bf16, m = 1.0 : tf32, n = 0.1 : tf32} : () -> ()
"foo.small"() {a = 1.0 : f8E4M3FN, b = 0.3 : f8E5M2, c = 448.0 : f8E4M3FN, d = 0x7F : f8E4M3FN, e = 0x80 : f8E4M3FN, f = 0x01 : f8E4M3FN, g = 1.0 : f8E4M3, h = 1.0 : f8E5M2FNUZ, i = 1.0 : f8E4M3FNUZ, j = 1.0 : f8E4M3B11FNUZ, k = 1.0 : f8E3M4, l = 2.0 : f8E8M0FNU, m = 0xFF : f8E8M0FNU, n = 1.5 : f6E2M3FN, o = 1.0 : f6E3M2FN, p = 0.5 : f4E2M1FN, q = 6.0 : f4E2M1FN, r = 0x7C : f8E5M2} : () -> ()
"foo.wide"() {a = 1.0 : f80, b = 0.1 : f80, c = 1.0 : f128, d = 0.1 : f128, e = 0x7FFF8000000000000000 : f80, f = 0x7FFF0000000000000000000000000000 : f128, g = -2.5 : f80} : () -> ()
