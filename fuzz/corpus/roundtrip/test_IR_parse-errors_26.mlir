
// Text after an op starts the next op; a bare word is taken as a custom op name.
// expected-error@+1 {{custom op 'garbage' is unknown (tried 'builtin.garbage' as well)}}
"t.op"() : () -> () garbage
