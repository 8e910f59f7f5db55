// Symbol reference attributes: flat `@a`, nested `@a::@b::@c`, names that need
// quoting (`@"quoted name"`, `@"9abc"`, `@"a::b"`, `@"a-b"`, non-ASCII) and
// names that do not (`@x.y`, `@_a$b`, `@"x.y"` is printed bare), escapes
// inside quoted names, quoted leaves of nested references. (The empty symbol
// `@""` is accepted but printed as `@<<INVALID EMPTY SYMBOL>>`, so it is not here.)

"foo.sym"() {a = @a, b = @a::@b::@c, c = @"quoted name", d = @"x.y", e = @x.y, f = @_a$b, g = @"9abc", h = @"a::b", i = @a::@"b c", j = @"q\"x", k = @"é", m = @"a-b", o = @x_1, p = @"plain", q = @"a\0Ab"} : () -> ()
"foo.sym_in_array"() {refs = [@f, @g::@h, @"x y"::@z]} : () -> ()
"foo.sym_prop"() <{callee = @"some.fn"}> : () -> ()
