
func.func @entry_args(%a: i32) {
// expected-error@+1 {{invalid block name in region with named arguments}}
^bb0(%x: i64):
  return
}
