
%0 = "t.op"() : () -> (i32)
// expected-error@+1 {{result number 1 of '%0' is out of range (it has 1 results)}}
"t.use"(%0#1) : (i32) -> ()

