// Pipeline text is read in MLIR's form and --dump-pass-pipeline prints it back as mlir-opt does:
// "Pass Manager with N passes:", one element per line, every option at its value, sorted by
// name, empty lists left out (hence the trailing space of `limit=-1 `). Dumps go to stderr.

// RUN: tilus-opt %s -o /dev/null --dump-pass-pipeline \
// RUN:   --pass-pipeline='builtin.module(func.func(test-print-op-count,test-fail{mode=corrupt}),test-print-op-count{only={func.func,func.return} annotate})' \
// RUN:   2>&1 | FileCheck %s --check-prefix=NEST --match-full-lines --strict-whitespace
// NEST:Pass Manager with 2 passes:
// NEST-NEXT:builtin.module(
// NEST-NEXT:  func.func(
// NEST-NEXT:    test-print-op-count{anchor=any annotate=false limit=-1 },
// NEST-NEXT:    test-fail{mode=corrupt}
// NEST-NEXT:  ),
// NEST-NEXT:  test-print-op-count{anchor=any annotate=true limit=-1 only={func.func,func.return}}
// NEST-NEXT:)
// NEST-EMPTY:
// NEST-NOT:{{.}}

// Spaces anywhere between tokens, quoted and braced values, `any` and empty pipelines.
// RUN: tilus-opt %s -o /dev/null --dump-pass-pipeline \
// RUN:   --pass-pipeline=' builtin.module ( any ( test-fail { mode="corrupt" } ) , func.func( ) , test-print-op-count{limit='"'"'7'"'"'} ) ' \
// RUN:   2>&1 | FileCheck %s --check-prefix=SPACES --match-full-lines --strict-whitespace
// SPACES:Pass Manager with 3 passes:
// SPACES-NEXT:builtin.module(
// SPACES-NEXT:  any(
// SPACES-NEXT:    test-fail{mode=corrupt}
// SPACES-NEXT:  ),
// SPACES-NEXT:  func.func(
// SPACES-EMPTY:
// SPACES-NEXT:  ),
// SPACES-NEXT:  test-print-op-count{anchor=any annotate=false limit=7 }
// SPACES-NEXT:)

// An empty pipeline, as mlir-opt prints it.
// RUN: tilus-opt %s -o /dev/null --dump-pass-pipeline --pass-pipeline='builtin.module()' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY --match-full-lines --strict-whitespace
// EMPTY:Pass Manager with 0 passes:
// EMPTY-NEXT:builtin.module(
// EMPTY-EMPTY:
// EMPTY-NEXT:)

// Pass flags build the same pipeline, in command-line order, options given as --NAME="k=v ...".
// RUN: tilus-opt %s -o /dev/null --dump-pass-pipeline --test-print-op-count='limit=30' --test-fail \
// RUN:   --test-print-op-count="annotate=true only={func.func}" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FLAGS --match-full-lines --strict-whitespace
// FLAGS:Pass Manager with 3 passes:
// FLAGS-NEXT:builtin.module(
// FLAGS-NEXT:  test-print-op-count{anchor=any annotate=false limit=30 },
// FLAGS-NEXT:  test-fail{mode=error},
// FLAGS-NEXT:  test-print-op-count{anchor=any annotate=true limit=-1 only={func.func}}
// FLAGS-NEXT:)

// The dump is printed once per --split-input-file chunk, as mlir-opt does.
// RUN: tilus-opt %s -o /dev/null --split-input-file --dump-pass-pipeline --test-fail 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPLIT
// SPLIT-COUNT-2:Pass Manager with 1 passes:
// SPLIT-NOT:Pass Manager

func.func @f() {
  return
}

// -----

func.func @g() {
  return
}
