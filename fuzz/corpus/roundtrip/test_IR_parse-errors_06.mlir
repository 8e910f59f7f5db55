
// An alias is defined once.
#a = 1
// expected-error@+1 {{redefinition of attribute alias id 'a'}}
#a = 2

