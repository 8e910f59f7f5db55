
// Types: an unknown keyword where a type is expected.
// expected-error@+1 {{expected type, found 'i33x'}}
"t.op"() : () -> (i33x)

