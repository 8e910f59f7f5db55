
// An attribute alias must be defined before it is used.
// expected-error@+1 {{undefined symbol alias id 'undefined_alias'}}
"t.op"() {a = #undefined_alias} : () -> ()

