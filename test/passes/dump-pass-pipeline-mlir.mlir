// The --dump-pass-pipeline layout is byte-for-byte mlir-opt's. The two tools register different
// passes, so tilus-opt runs `test-fail` where mlir-opt runs `cse` (neither has options printed
// differently once renamed), and the outputs are compared after renaming.
// REQUIRES: mlir-opt

// RUN: mlir-opt %s -o /dev/null --dump-pass-pipeline \
// RUN:   --pass-pipeline='builtin.module(func.func(any(cse),cse),any(cse),builtin.module(cse),cse)' \
// RUN:   2>%t.mlir-opt
// RUN: tilus-opt %s -o /dev/null --dump-pass-pipeline \
// RUN:   --pass-pipeline='builtin.module(func.func(any(test-fail),test-fail),any(test-fail),builtin.module(test-fail),test-fail)' \
// RUN:   2>&1 | sed -e 's/test-fail{mode=error}/cse/' >%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt

// RUN: mlir-opt %s -o /dev/null --dump-pass-pipeline --pass-pipeline='builtin.module()' 2>%t.mlir-opt
// RUN: tilus-opt %s -o /dev/null --dump-pass-pipeline --pass-pipeline='builtin.module()' 2>%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt

// With the passes both tools have, the dumps are identical as they are, options included (MLIR's
// spelling: sorted, empty lists leaving a blank slot), from a pipeline and from pass flags.
// RUN: mlir-opt %s -o /dev/null --dump-pass-pipeline \
// RUN:   --pass-pipeline='builtin.module(func.func(cse,canonicalize{max-iterations=3 region-simplify=normal}),inline,symbol-dce)' \
// RUN:   2>%t.mlir-opt
// RUN: tilus-opt %s -o /dev/null --dump-pass-pipeline \
// RUN:   --pass-pipeline='builtin.module(func.func(cse,canonicalize{max-iterations=3 region-simplify=normal}),inline,symbol-dce)' \
// RUN:   2>%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt
// RUN: mlir-opt %s -o /dev/null --dump-pass-pipeline --cse --canonicalize=max-iterations=2 --inline 2>%t.mlir-opt
// RUN: tilus-opt %s -o /dev/null --dump-pass-pipeline --cse --canonicalize=max-iterations=2 --inline 2>%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt

// The IR dump headers are mlir-opt's (run on one thread there, so the order is the same).
// RUN: mlir-opt %s -o /dev/null --mlir-disable-threading --mlir-print-ir-after-all \
// RUN:   --pass-pipeline='builtin.module(func.func(cse),canonicalize)' 2>&1 | grep -e '^// -----//' >%t.mlir-opt
// RUN: tilus-opt %s -o /dev/null --print-ir-after-all \
// RUN:   --pass-pipeline='builtin.module(func.func(cse),canonicalize)' 2>&1 | grep -e '^// -----//' >%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt

// The error for text that is not `anchor(...)` has mlir-opt's wording.
// RUN: not mlir-opt %s --pass-pipeline='cse' 2>&1 | FileCheck %s
// RUN: not tilus-opt %s --pass-pipeline='test-fail' --diagnostic-format=mlir 2>&1 | FileCheck %s
// CHECK: expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'

func.func @f() {
  return
}
func.func @g() {
  return
}
