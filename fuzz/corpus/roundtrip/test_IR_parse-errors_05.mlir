
// So must a type alias.
// expected-error@+1 {{undefined symbol alias id 'undefined_type'}}
"t.op"() : () -> !undefined_type

