// --dump-pass-pipeline prints option values so that the dump parses back as the same pipeline:
// a string with spaces and list items whose braces do not balance are quoted (the plain braced
// form `{a{(}}}` would end at its first unmatched `}`). Feeding the dump back gives the same dump.

// RUN: tilus-opt %s -o %t.out --dump-pass-pipeline \
// RUN:   --pass-pipeline='builtin.module(inline{default-pipeline="cse, canonicalize"},test-print-op-count{only="a}"},canonicalize{enable-patterns=a{(}}})' \
// RUN:   2> %t.dump
// RUN: FileCheck %s --input-file=%t.dump --check-prefix=DUMP --match-full-lines --strict-whitespace
// RUN: tilus-opt %s -o %t.out --dump-pass-pipeline --pass-pipeline="$(tail -n +2 %t.dump)" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DUMP --match-full-lines --strict-whitespace
// DUMP:Pass Manager with 3 passes:
// DUMP-NEXT:builtin.module(
// DUMP-NEXT:  inline{default-pipeline="cse, canonicalize" inlining-threshold=4294967295 max-iterations=4 },
// DUMP-NEXT:  test-print-op-count{anchor=any annotate=false limit=-1 only="{a}}"},
// DUMP-NEXT:  canonicalize{ enable-patterns="{a{(}}}" max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}
// DUMP-NEXT:)
// DUMP-EMPTY:
// DUMP-NOT:{{.}}

func.func @f() {
  return
}
