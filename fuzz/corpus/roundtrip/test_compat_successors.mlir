// Successors. In generic form a successor is only a block reference
// (`[^bb1, ^bb2]`); `[^bb1(%0 : i32)]` is rejected by MLIR 22: successor operands
// are ordinary operands of the op. Covers: no operands, shared operands with a
// segment-size property, the same successor twice, self loops, many successors,
// and a successor list together with properties, regions and attributes (an op
// with successors must be the last op of its block).

"foo.cfg"() ({
^bb0(%a: i32, %b: i64):
  "foo.cond_br"(%a, %b, %a)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i32, i64, i32) -> ()
^bb1(%c: i64):
  "foo.br"(%c)[^bb3] : (i64) -> ()
^bb2(%d: i32):
  "foo.switch"(%d)[^bb3, ^bb3, ^bb4, ^bb1] : (i32) -> ()
^bb3:
  "foo.loop"()[^bb3] : () -> ()
^bb4:
  %r = "foo.value"() : () -> i1
  "foo.full"(%a, %r)[^bb3] <{p = 1 : i32}> ({
    "foo.inner"() : () -> ()
  }) {q = 2 : i32} : (i32, i1) -> ()
}) : () -> ()

"foo.cf_registered"() ({
^bb0(%x: i32):
  "cf.br"(%x)[^bb1] : (i32) -> ()
^bb1(%y: i32):
  "foo.return"(%y) : (i32) -> ()
}) : () -> ()
