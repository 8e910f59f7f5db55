// Attribute dictionaries: printed sorted by key (byte order), keys that are not
// bare identifiers are quoted (with string escapes), `x = unit` prints as bare
// `x`, nested and empty dictionary attributes, dialect-prefixed keys (`a.b`), and
// untyped integer/float values defaulting to i64/f64.

"foo.sorted"() {zz = 1, aa = 2 : i8, b = unit, unit, "9x" = 5, _x = 4, "a-b" = 6, a.b = 7, a$b = 8, "quoted key" = 9, sym_name = "s"} : () -> ()
"foo.keys"() {"x\"y" = 1, "é" = 2, "a b" = 3, "a\0Ab" = 4, "tab\09" = 5} : () -> ()
"foo.nested"() {d = {b = 1, a = {z, y = 2}}, e = {}, f = [{}], g = {only}} : () -> ()
"foo.defaults"() {i = 42, f = 1.5, n = -7} : () -> ()
"foo.empty"() {} : () -> ()
