// A malformed pipeline is reported before any input is read, as a diagnostic pointing into the
// pipeline text (the source named `<pass-pipeline>`), with exit status 2 (bad usage).

// Unknown pass: the name is underlined and close names are suggested.
// RUN: not tilus-opt %s --pass-pipeline='builtin.module(func.func(test-fial))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN:      'test-fial' does not refer to a registered pass (<pass-pipeline>:1:26)
// UNKNOWN:      1 │ builtin.module(func.func(test-fial))
// UNKNOWN-NEXT:   ·                          ────┬────
// UNKNOWN-NEXT:   ·                              ╰── unknown pass
// UNKNOWN:      help: did you mean 'test-fail'?

// RUN: tilus-opt %s --pass-pipeline='builtin.module(nosuchpass)' 2>/dev/null; test $? = 2
// RUN: not tilus-opt %s --pass-pipeline='builtin.module(nosuchpass)' 2>&1 | FileCheck %s --check-prefix=NOHINT
// NOHINT: help: `--list-passes` shows the registered passes

// Unbalanced parentheses: the '(' left open, or the extra ')'.
// RUN: not tilus-opt %s --diagnostic-format=mlir --pass-pipeline='builtin.module(func.func(test-fail)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPEN
// OPEN: <pass-pipeline>:1:15: error: unbalanced parentheses: this '(' is never closed
// RUN: not tilus-opt %s --diagnostic-format=mlir --pass-pipeline='builtin.module(test-fail))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXTRA
// EXTRA: <pass-pipeline>:1:26: error: encountered extra closing ')' creating unbalanced parentheses while parsing pipeline

// Not wrapped in an anchor; missing and stray elements.
// RUN: not tilus-opt %s --pass-pipeline='test-fail' 2>&1 | FileCheck %s --check-prefix=WRAP
// WRAP: expected pass pipeline to be wrapped with the anchor operation type, e.g.
// WRAP: 1 │ test-fail
// WRAP: help: write 'builtin.module(test-fail)' to run on the module
// RUN: not tilus-opt %s --diagnostic-format=mlir --pass-pipeline='builtin.module(test-fail,)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TRAILING
// TRAILING: <pass-pipeline>:1:26: error: expected a pass name or a nested pipeline 'op-name(...)', found ')'
// RUN: not tilus-opt %s --diagnostic-format=mlir --pass-pipeline='builtin.module(test-fail test-fail)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COMMA
// COMMA: <pass-pipeline>:1:26: error: expected ',' or ')' after a pipeline element, found 't'
// RUN: not tilus-opt %s --diagnostic-format=mlir --pass-pipeline='builtin.module(test-fail(x))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTOP
// NOTOP: <pass-pipeline>:1:16: error: 'test-fail' is not an op name: a nested pipeline is anchored on an op, as in 'func.func(...)', or on 'any'

// Unknown option: the valid ones are listed.
// RUN: not tilus-opt %s --pass-pipeline='builtin.module(test-print-op-count{limt=3})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPTION
// OPTION:      pass 'test-print-op-count' has no option 'limt' (<pass-pipeline>:1:36)
// OPTION:      1 │ builtin.module(test-print-op-count{limt=3})
// OPTION-NEXT:   ·                                    ──┬─
// OPTION-NEXT:   ·                                      ╰── unknown option
// OPTION:      help: did you mean 'limit'? valid options of 'test-print-op-count': anchor, annotate, limit, only

// Bad option values point at the value and say what was expected.
// RUN: not tilus-opt %s --diagnostic-format=mlir --pass-pipeline='builtin.module(test-fail{mode=loud})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ENUM
// ENUM: <pass-pipeline>:1:31: error: invalid value for option 'mode' of pass 'test-fail': expected one of 'error', 'corrupt', got 'loud'
// RUN: not tilus-opt %s --diagnostic-format=mlir --pass-pipeline='builtin.module(test-print-op-count{annotate=maybe})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOOL
// BOOL: <pass-pipeline>:1:45: error: invalid value for option 'annotate' of pass 'test-print-op-count': expected 'true' or 'false', got 'maybe'
// RUN: not tilus-opt %s --diagnostic-format=mlir --pass-pipeline='builtin.module(test-print-op-count{limit})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOVALUE
// NOVALUE: <pass-pipeline>:1:36: error: option 'limit' of pass 'test-print-op-count' needs a value: 'limit=<value>'
// RUN: not tilus-opt %s --diagnostic-format=mlir --pass-pipeline='builtin.module(test-fail{mode="error})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=QUOTE
// QUOTE: <pass-pipeline>:1:31: error: unterminated quoted option value: this " is never closed
// RUN: not tilus-opt %s --diagnostic-format=mlir --pass-pipeline='builtin.module(test-fail{mode=error)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BRACE
// BRACE: <pass-pipeline>:1:25: error: unbalanced braces: this '{' of pass options is never closed

// Pass flags are checked the same way; their pipeline text is what the error shows.
// RUN: not tilus-opt %s --test-fail=mode=loud 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: invalid value for option 'mode' of pass 'test-fail': expected one of 'error', 'corrupt', got
// FLAG: 1 │ builtin.module(test-fail{mode=loud})

// --pass-pipeline and pass flags don't mix (as in mlir-opt); --print-ir-* names are checked.
// RUN: not tilus-opt %s --test-fail --pass-pipeline='builtin.module(test-fail)' 2>&1 | FileCheck %s --check-prefix=MIX
// MIX: '--pass-pipeline' can't be used with individual pass flags (--test-fail)
// RUN: tilus-opt %s --print-ir-after=test-fial 2>/dev/null; test $? = 2
// RUN: not tilus-opt %s --print-ir-after=test-fial 2>&1 | FileCheck %s --check-prefix=PRINTNAME
// PRINTNAME: --print-ir-after: 'test-fial' is not a registered pass
// PRINTNAME: help: did you mean 'test-fail'?

func.func @f() {
  return
}
