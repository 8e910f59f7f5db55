// Command-line usage: bad flags and flag values, several inputs, a missing `-o` value all exit
// with status 2 and a message naming the problem plus a usage line; `--help` and `--version`
// succeed; `--list-dialects` prints each registered dialect with its ops and their summaries.
//
// RUN: not tilus-opt --bogus 2>&1 | FileCheck %s --check-prefix=BOGUS
// RUN: tilus-opt --bogus 2>/dev/null; test $? -eq 2
// BOGUS:      error: unexpected argument '--bogus' found
// BOGUS:      Usage: tilus-opt [OPTIONS] [INPUT]
// BOGUS:      For more information, try '--help'.
//
// RUN: not tilus-opt %s --diagnostic-format=xml 2>&1 | FileCheck %s --check-prefix=BAD-VALUE
// RUN: tilus-opt %s --diagnostic-format=xml 2>/dev/null; test $? -eq 2
// BAD-VALUE:      error: invalid value 'xml' for '--diagnostic-format <DIAGNOSTIC_FORMAT>'
// BAD-VALUE-NEXT:   [possible values: fancy, mlir]
//
// Only one input file.
// RUN: not tilus-opt %s %s 2>&1 | FileCheck %s --check-prefix=TWO-INPUTS
// RUN: tilus-opt %s %s 2>/dev/null; test $? -eq 2
// TWO-INPUTS: error: unexpected argument '{{.*}}usage.mlir' found
//
// RUN: not tilus-opt %s -o 2>&1 | FileCheck %s --check-prefix=NO-VALUE
// RUN: tilus-opt %s -o 2>/dev/null; test $? -eq 2
// NO-VALUE: error: a value is required for '-o <FILE>' but none was supplied
//
// Usage errors print nothing on standard output.
// RUN: not tilus-opt --bogus 2>/dev/null | FileCheck %s --allow-empty --check-prefix=NOTHING
// NOTHING-NOT: {{.}}
//
// RUN: tilus-opt --help | FileCheck %s --check-prefix=HELP
// HELP:      Usage: tilus-opt [OPTIONS] [INPUT]
// HELP:      -o <FILE>
// HELP:      --allow-unregistered-dialect
// HELP:      --print-op-generic
// HELP:      --print-debuginfo
// HELP:      --print-local-scope
// HELP:      --verify-diagnostics
// HELP:      --split-input-file
// HELP:      --diagnostic-format <DIAGNOSTIC_FORMAT>
// HELP:      --no-output
// HELP:      --list-dialects
// RUN: tilus-opt --version | FileCheck %s --check-prefix=VERSION
// VERSION: tilus-opt {{[0-9]+\.[0-9]+\.[0-9]+}}
//
// --list-dialects reads no input. Each dialect is on a line of its own, its ops indented below
// it, each followed by a one-line summary.
// RUN: tilus-opt --list-dialects < /dev/null | FileCheck %s --check-prefix=DIALECTS
// RUN: rm -f %t && tilus-opt --list-dialects -o %t && FileCheck %s --check-prefix=DIALECTS < %t
// DIALECTS:      {{^}}builtin{{$}}
// DIALECTS-NEXT: {{^}}  builtin.module {{[[:alnum:]].*}}
// DIALECTS-NEXT: {{^}}  builtin.unrealized_conversion_cast {{[[:alnum:]].*}}
// DIALECTS-NEXT: {{^}}func{{$}}
// DIALECTS-NEXT: {{^}}  func.func {{[[:alnum:]].*}}
// DIALECTS-NEXT: {{^}}  func.return {{[[:alnum:]].*}}
// DIALECTS-NEXT: {{^}}  func.call {{[[:alnum:]].*}}
// DIALECTS-NEXT: {{^}}  func.constant {{[[:alnum:]].*}}
// DIALECTS-NEXT: {{^}}  func.call_indirect {{[[:alnum:]].*}}
// DIALECTS-NEXT: {{^}}arith{{$}}
// DIALECTS-NEXT: {{^}}  arith.constant {{[[:alnum:]].*}}
// DIALECTS-NEXT: {{^}}  arith.addi {{[[:alnum:]].*}}
// DIALECTS:      {{^}}  arith.select {{[[:alnum:]].*}}
// DIALECTS:      {{^}}cf{{$}}
// DIALECTS-NEXT: {{^}}  cf.br {{[[:alnum:]].*}}
// DIALECTS-NEXT: {{^}}  cf.cond_br {{[[:alnum:]].*}}
// The Tilus dialects follow, with their types (`!`) after their ops.
// DIALECTS:      {{^}}threadgroup{{$}}
// DIALECTS-NEXT: {{^}}  threadgroup.group {{[[:alnum:]].*}}
// DIALECTS:      {{^}}tilus{{$}}
// DIALECTS-NEXT: {{^}}  tilus.kernel {{[[:alnum:]].*}}
// DIALECTS:      {{^}}  !tilus.shared {{ *}}a tensor in shared memory
// DIALECTS:      {{^}}mbarrier{{$}}
// DIALECTS:      {{^}}  !mbarrier.barriers {{ *}}N mbarriers allocated together in shared memory
// DIALECTS:      {{^}}tma{{$}}
// DIALECTS:      {{^}}wgmma{{$}}
// DIALECTS:      {{^}}tcgen05{{$}}
// DIALECTS:      {{^}}layout{{$}}
// DIALECTS-NEXT: {{^}}  layout.convert {{[[:alnum:]].*}}
