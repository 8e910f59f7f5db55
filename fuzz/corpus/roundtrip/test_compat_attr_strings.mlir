// String attributes: escapes `\"` `\\` `\n` `\t` and two-digit hex escapes
// (`\00`, `\1f`, `\7F`, `\ff`), raw UTF-8 (é, €, 🙂), a raw tab, the empty
// string, strings containing MLIR punctuation, typed strings (`"x" : i32`; the
// default `: none` is elided), and strings used as op names. MLIR prints every
// byte outside printable ASCII, plus `"`, as `\XX` (uppercase hex) and `\` as `\\`.

"foo.s"() {a = "q\"b\\s\nn\tt\00z", b = "café € 🙂", c = "\01\1f\7F\80\ff\FF", d = "", e = "it's {} [] # $ ~ %0 ^bb0 @x !t #a", f = "\41\42", g = "a\0Db", h = "tab	raw", i = "\0a", j = "\\\\"} : () -> ()
"foo.typed"() {a = "abc" : i32, b = ["x" : !foo.t], c = "n" : none, d = "t" : tensor<2xf32>} : () -> ()
"foo"() : () -> ()
"foo.bar-baz"() : () -> ()
"foo.a b"() : () -> ()
"foo.a\22b"() : () -> ()
"foo.x.y.z"() : () -> ()
"foo.é"() : () -> ()
