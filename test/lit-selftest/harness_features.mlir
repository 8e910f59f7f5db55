// Self-test of the harness's substitutions, continuation lines and `not`.
//
// RUN: echo "scratch content" > %t
// RUN: cat %t | FileCheck %s --check-prefix=TMP
// RUN: test -d %T && test -f %S/harness_features.mlir && test -f %p/harness_features.mlir
// RUN: echo "100%%" | FileCheck %s --check-prefix=PCT
// RUN: echo "multi" \
// RUN:      "line" \
// RUN:   | FileCheck %s --check-prefix=CONT
// RUN: not false
// RUN: not not true
// RUN: not --crash bash -c 'kill -ABRT $$'
// RUN: bash -c 'not bash -c "kill -ABRT \$\$"; test $? -ne 0'

// TMP: scratch content
// PCT: {{^}}100%{{$}}
// CONT: multi line
