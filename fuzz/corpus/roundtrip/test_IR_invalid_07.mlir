
func.func @isolated(%a: i32) {
  "foo.region"() ({
    func.func @inner() -> i32 {
      // An isolated op does not see values from outside: the name is unknown there.
      // expected-error@+1 {{use of undeclared SSA value name '%a'}}
      return %a : i32
    }
  }) : () -> ()
  return
}

