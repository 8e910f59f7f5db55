
// An attribute dictionary names each attribute once.
// expected-error@+1 {{attribute 'a' occurs more than once in the attribute list}}
"t.op"() {a = 1, a = 2} : () -> ()

