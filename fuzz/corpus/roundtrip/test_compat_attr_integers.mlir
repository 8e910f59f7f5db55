// Integer attributes: i1 prints as true/false, signless values >= 2^(N-1) are
// printed negative (two's complement), unsigned/signed types keep their
// interpretation, hex literals (`0x..`, `-0x..`), index, odd widths, and
// huge i128/i256 values with 20+ digits (positive, negative, all-ones).

"foo.bools"() {a = true, b = false, c = 1 : i1, d = 0 : i1, e = -1 : i1} : () -> ()
"foo.i8"() {a = 127 : i8, b = 128 : i8, c = 255 : i8, d = -128 : i8, e = -1 : i8, f = 0 : i8} : () -> ()
"foo.signedness"() {a = 200 : ui8, b = 255 : ui8, c = -5 : si8, d = 100 : si8, e = 18446744073709551615 : ui64, f = 18446744073709551615 : i64, g = -9223372036854775808 : si64, h = 0 : ui1, i = 1 : ui1, j = -1 : si1} : () -> ()
"foo.hex"() {a = 0x10 : i32, b = 0xFFFFFFFF : i32, c = -0x10 : i32, d = 0x0 : i64, e = 0xdeadBEEF : i64, f = 0x7FFFFFFFFFFFFFFF : index} : () -> ()
"foo.index"() {a = 5 : index, b = -1 : index, c = 0 : index} : () -> ()
"foo.odd_widths"() {a = 3 : i7, b = 100 : i7, c = 1 : i2, d = 3 : i2, e = 12345678901234567890123 : i77} : () -> ()
"foo.huge"() {a = 170141183460469231731687303715884105727 : i128, b = -170141183460469231731687303715884105728 : i128, c = 340282366920938463463374607431768211455 : i128, d = 115792089237316195423570985008687907853269984665640564039457584007913129639935 : i256, e = 12345678901234567890123456789 : i256, f = -98765432109876543210 : si128, g = 98765432109876543210 : ui128, h = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF : i128} : () -> ()
"foo.defaults"() {a = 42, b = -42, c = 9223372036854775807} : () -> ()
