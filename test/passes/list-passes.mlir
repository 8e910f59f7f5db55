// --list-passes lists every registered pass by name (sorted), with its summary and its options,
// each with its doc and default. Only the test passes are checked here.
// RUN: tilus-opt --list-passes | FileCheck %s
// CHECK:      Passes:
// CHECK:        --test-fail {{ *}}-   Test pass: report an error at (or break) each op carrying a `test.fail` attribute
// CHECK-NEXT:     --mode=<value> {{ *}}- 'error': fail with a diagnostic at each marked op; 'corrupt': break the IR there (default: error)
// CHECK-NEXT:   --test-print-op-count {{ *}}-   Test pass: count the ops under the anchor (statistics num-ops, num-runs)
// CHECK-NEXT:     --anchor=<value> {{ *}}- The op the pass is restricted to: any, builtin.module or func.func (default: any)
// CHECK-NEXT:     --annotate=<value> {{ *}}- Record the count as a `test.op_count` attribute on the op (default: false)
// CHECK-NEXT:     --limit=<value> {{ *}}- Fail when more ops than this are counted (-1: no limit) (default: -1)
// CHECK-NEXT:     --only=<value> {{ *}}- Count only ops of these names, e.g. {arith.addi,func.return} (default: {})

// Each pass is also a flag of its own.
// RUN: tilus-opt --help | FileCheck %s --check-prefix=HELP
// HELP: --test-fail[=<OPTIONS>]
// HELP: --test-print-op-count[=<OPTIONS>]
