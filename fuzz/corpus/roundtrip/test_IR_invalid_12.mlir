
func.func @attr_constraint() {
  %x = arith.constant 1 : i32
  // expected-error@+1 {{'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: integer comparison predicate, but found "slt"}}
  %0 = "arith.cmpi"(%x, %x) {predicate = "slt"} : (i32, i32) -> i1
  return
}

