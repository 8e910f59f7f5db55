// Implicit locations: ops and block arguments without `loc(...)` get the
// position of their op-name string / `%name` token in this file (as the path
// given on the command line, 1-based line, 1-based BYTE column), the implicit
// top-level module gets `<path>:0:0`. Several ops on one line, tabs, UTF-8
// before an op, ops with results (the column is that of the op name, not of %0).
"foo.a"() : () -> ()
  %0 = "foo.b"() : () -> i32
	"foo.c"(%0) : (i32) -> ()
"foo.d"() {s = "éé"} : () -> () "foo.e"() : () -> ()
"foo.f"() ({
^bb0(%x: i32, %y: i32 loc("explicit.mlir":1:1)):
    "foo.g"(%x, %y) : (i32, i32) -> ()
}) : () -> ()
"foo.h"() : () -> () loc("explicit.mlir":2:2)
