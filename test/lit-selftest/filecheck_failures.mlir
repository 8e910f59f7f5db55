// Checks that failing checks fail (through `not`) and report the way LLVM FileCheck does.
//
// RUN: echo "hello world" | FileCheck %s --check-prefix=GOOD
// RUN: echo "hello world" | not FileCheck %s --check-prefix=MISSING
// RUN: printf 'first\nsecond\nthird\n' | not FileCheck %s --check-prefix=NEXT
// RUN: echo "keep drop keep" | not FileCheck %s --check-prefix=NOT
// RUN: not FileCheck %s --check-prefix=UNUSED < %s
// RUN: not FileCheck %s --check-prefix=EMPTYPAT < %s
// RUN: printf '' | not FileCheck %s --check-prefix=GOOD
// RUN: printf '' | FileCheck %s --check-prefix=NOTHING --allow-empty
// RUN: echo "hello world" | not FileCheck %s --check-prefix=MISSING --dump-input=never 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: printf 'first\nsecond\nthird\n' | not FileCheck %s --check-prefix=NEXT 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DUMP

// GOOD: hello
// GOOD-SAME: world

// MISSING: hello
// MISSING-NEXT: goodbye

// NEXT: first
// NEXT-NEXT: third

// NOT: keep
// NOT-NOT: drop
// NOT: keep

// EMPTYPAT:

// NOTHING-NOT: anything

// DIAG: filecheck_failures.mlir:[[#@LINE-13]]:18: error: MISSING-NEXT: expected string not found in input
// DIAG-NEXT: // MISSING-NEXT: goodbye
// DIAG-NEXT: {{^}}               ^
// DIAG-NEXT: <stdin>:1:6: note: scanning from here
// DIAG-NEXT: hello world
// DIAG-NEXT: {{^}}           ^
// DIAG-NOT: Input was:

// DUMP: error: NEXT-NEXT: is not on the line after the previous match
// DUMP: Input was:
// DUMP-NEXT: <<<<<<
// DUMP-NEXT: 1: first
// DUMP-NEXT: 2: second
// DUMP-NEXT: 3: third
// DUMP-NEXT: next:23 !~~~~ error: match on wrong line
// DUMP-NEXT: >>>>>>

// The UNUSED and EMPTYPAT runs fail before reading their input, so their input is a file, not
// a pipe: a pipe's writer could die of SIGPIPE first and fail the pipeline under pipefail.
