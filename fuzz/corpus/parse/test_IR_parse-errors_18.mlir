
// expected-error@+1 {{expected attribute, found '}'}}
"t.op"() {a = } : () -> ()

