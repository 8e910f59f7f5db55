
func.func @bounds(%lb: index, %ub: i32) {
  // expected-error@+1 {{'scf.for' op expects lowerBound, upperBound and step of one type, but found 'index', 'i32' and 'index'}}
  "scf.for"(%lb, %ub, %lb) ({
  ^bb0(%iv: index):
    scf.yield
  }) : (index, i32, index) -> ()
  return
}

