// An explicit top-level `"builtin.module"` (not wrapped again): `sym_name` and
// `sym_visibility` written as attributes are moved to properties by MLIR,
// other attributes stay discardable; nested modules, a module given
// properties directly, and an empty nested module (one empty block).

"builtin.module"() ({
  "builtin.module"() ({
    "foo.x"() : () -> ()
  }) {foo.attr = 1 : i32} : () -> ()
  "builtin.module"() <{sym_name = "props"}> ({
    "foo.y"() : () -> ()
  }) : () -> ()
  "builtin.module"() ({
  ^bb0:
  }) : () -> ()
}) {sym_name = "outer", sym_visibility = "private", foo.x} : () -> ()
