
// Every use of a value must give it the same type.
func.func @type_mismatch() {
  // expected-note@+1 {{'%x' is defined here with type 'i32'}}
  %x = "t.def"() : () -> i32
  // expected-error@+1 {{use of value '%x' expects different type than prior uses: 'i64' vs 'i32'}}
  "t.use"(%x) : (i64) -> ()
  return
}

