
// expected-error@+1 {{unregistered operation 'arith.frobnicate' found in dialect ('arith') that does not allow unknown operations}}
"arith.frobnicate"() : () -> ()

