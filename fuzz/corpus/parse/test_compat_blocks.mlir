// Blocks: entry blocks with and without arguments, non-entry blocks with
// arguments, empty entry block (`^bb0:` is kept; an empty non-entry block is
// rejected by MLIR), unreachable blocks, block
// labels out of order in the input (printing renumbers ^bbN per region in block
// order), values defined in one block used in later blocks.

"foo.blocks"() ({
^entry(%a: i32, %b: i64):
  %0 = "foo.op"(%a) : (i32) -> i32
  "foo.br"(%0, %b)[^second] : (i32, i64) -> ()
^second(%c: i32, %d: i64):
  %1 = "foo.op"(%c) : (i32) -> i32
  "foo.br"()[^bb7] : () -> ()
^bb7:
  "foo.use"(%0, %1, %d) : (i32, i32, i64) -> ()
  "foo.return"() : () -> ()
^dead(%e: f32):
  "foo.use"(%e) : (f32) -> ()
}) : () -> ()

"foo.no_entry_label"() ({
  %2 = "foo.op"() : () -> i32
  "foo.br"()[^bb1] : () -> ()
^bb1:
  "foo.use"(%2) : (i32) -> ()
}) : () -> ()

"foo.empty_entry"() ({
^bb0:
}) : () -> ()

"foo.nested_labels"() ({
^bb0(%x: index):
  "foo.inner"() ({
  ^bb0(%y: index):
    "foo.br"()[^bb1] : () -> ()
  ^bb1:
    "foo.use"(%x, %y) : (index, index) -> ()
  }) : () -> ()
  "foo.br"()[^bb1] : () -> ()
^bb1:
  "foo.use"(%x) : (index) -> ()
}) : () -> ()
