// Affine maps and integer sets: dims, symbols, every operator (+ - * floordiv
// ceildiv mod, unary minus), constants, precedence and parentheses, renamed
// dims (`(i, j)` prints as `(d0, d1)`), zero results, constant folding and the
// canonical reordering MLIR applies when it builds the expressions, equality
// and inequality constraints. Maps and sets get `#map`/`#set` aliases on output.

"foo.maps"() {a = affine_map<(d0, d1) -> (d0, d1)>, b = affine_map<(d0) -> (d0 + 1 + 2)>, c = affine_map<(d0, d1)[s0] -> (d0 * 2 + d1 - s0, d0 floordiv 4, d1 ceildiv 3, d0 mod 5)>, d = affine_map<(d0, d1) -> ((d0 + d1) * 4)>, e = affine_map<(d0, d1) -> (d0 - d1)>, f = affine_map<() -> (0)>, g = affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>, h = affine_map<(i, j) -> (j, i)>, i = affine_map<(d0) -> (-d0)>, j = affine_map<(d0) -> (d0 * -1 + 5)>} : () -> ()
"foo.more_maps"() {k = affine_map<(d0, d1) -> ((d0 + d1) floordiv 2, (d0 * 3) mod 4, 2 * d0, d0 * 0)>, l = affine_map<(d0) -> (d0 floordiv 1, d0 mod 1, 7 floordiv 2, -7 mod 3)>, m = affine_map<(d0, d1)[s0] -> (d1 + d0 + s0 + d0)>, n = affine_map<(d0) -> ((d0 + 1) floordiv 2 + 3)>, o = affine_map<(d0, d1) -> (d0 - (d1 - 1))>, p = affine_map<(d0)[s0] -> (d0 * (s0 * 2))>, q = affine_map<()[s0] -> (s0 * s0)>, r = affine_map<(d0) -> ((d0 floordiv 4) * 4)>, s = affine_map<(d0, d1) -> (d0 - d1 * 3, -(d0 + d1))>, t = affine_map<(d0) -> ()>, u = affine_map<(d0, d1) -> (d1 floordiv 2 - d0 ceildiv 3 + 1)>} : () -> ()
"foo.precedence"() {a = affine_map<(d0, d1, d2)[s0] -> (d0 - d1 - d2, d0 + (d1 + d2), d0 - (d1 + d2), -(d0 - d1), d0 ceildiv 2 * 2, (d0 + d1) mod 4 * 2, d0 floordiv 2 floordiv 3, s0 - d0 * 4, 5 - d0, d2 + d0 + d1, d0 * (s0 + 1), d0 floordiv -2, d0 mod s0, -5)>} : () -> ()
"foo.sets"() {s1 = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 == 0, d0 - d1 >= 0)>, s2 = affine_set<(d0) : (d0 + 4 >= 0)>, s3 = affine_set<() : (0 == 0)>, s4 = affine_set<(d0) : (d0 <= 10)>, s5 = affine_set<(d0, d1) : (d0 floordiv 2 - d1 >= 0, d0 mod 2 == 0)>} : () -> ()
"foo.reuse"() {a = affine_map<(d0) -> (d0 + 3)>, b = [affine_map<(d0, d1) -> (d0, d1)>]} : () -> (memref<4xf32, affine_map<(d0) -> (d0 + 3)>>)
