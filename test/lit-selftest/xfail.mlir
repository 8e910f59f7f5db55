// An expected failure: the harness reports this file as passing because its RUN line fails.
//
// XFAIL: *
// RUN: echo "actual" | FileCheck %s

// CHECK: expected
