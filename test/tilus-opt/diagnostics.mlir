// How tilus-opt reports invalid input and what it leaves behind. Errors go to standard error
// and the exit status is 1 (2 is kept for bad usage, see usage.mlir). The default format is a
// report that quotes the source with the offending token underlined and notes shown as advice;
// --diagnostic-format=mlir prints mlir-opt's one-line form `file:line:col: error: message`.
// Nothing is printed to standard output, and an `-o` file is neither created nor changed.
//
// The default report (read from standard input, so the file is called `<stdin>`), then the
// one-line form, for a file and for standard input:
// RUN: not tilus-opt < %s 2>&1 | FileCheck %s --check-prefix=FANCY
// RUN: not tilus-opt %s --diagnostic-format=mlir 2>&1 | FileCheck %s --check-prefix=MLIR
// RUN: not tilus-opt < %s --diagnostic-format=mlir 2>&1 | FileCheck %s --check-prefix=STDIN
//
// Standard output stays empty, and the exit status is exactly 1.
// RUN: not tilus-opt %s --diagnostic-format=fancy 2>/dev/null | FileCheck %s --allow-empty --check-prefix=NOTHING
// RUN: tilus-opt %s 2>/dev/null; test $? -eq 1
// NOTHING-NOT: {{.}}
//
// `-o`: no file is created, and an existing one keeps its contents.
// RUN: rm -f %t && not tilus-opt %s -o %t 2>/dev/null && test ! -e %t
// RUN: echo 'previous contents' > %t && not tilus-opt %s -o %t 2>/dev/null \
// RUN:   && FileCheck %s --check-prefix=KEPT < %t
// KEPT: previous contents
//
// Verifier errors fail the same way; --no-verify skips the verifier (not the parser: this file
// still fails with it).
// RUN: echo 'func.func @f() -> i32 { return }' | not tilus-opt --diagnostic-format=mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VERIFIER
// RUN: echo 'func.func @f() -> i32 { return }' | tilus-opt --no-verify | FileCheck %s --check-prefix=NOVERIFY-OK
// RUN: not tilus-opt %s --no-verify 2>&1 | FileCheck %s --check-prefix=NOVERIFY
// VERIFIER:         <stdin>:1:25: error: 'func.return' op has 0 operands, but enclosing function (@f) returns 1
// NOVERIFY-OK:      func.func @f() -> i32 {
// NOVERIFY-OK-NEXT:   return
// NOVERIFY:         redefinition of SSA value '%x'
//
// An input file that cannot be read is invalid input too.
// RUN: not tilus-opt nope.mlir 2>&1 | FileCheck %s --check-prefix=NO-FILE
// RUN: tilus-opt nope.mlir 2>/dev/null; test $? -eq 1
// NO-FILE: cannot open input file 'nope.mlir': No such file or directory

// FANCY:      × redefinition of SSA value '%x' (<stdin>:[[#LINE:@LINE+22]]:3)
// FANCY-NEXT:   ╭─[<stdin>:[[#LINE]]:3]
// FANCY-NEXT: [[#LINE-1]] │   %x = arith.constant 1 : i32
// FANCY-NEXT: [[#LINE]] │   %x = arith.constant 2 : i32
// FANCY-NEXT:   ·   ─┬
// FANCY-NEXT:   ·    ╰── redefinition of SSA value '%x'
// FANCY-NEXT: [[#LINE+1]] │   return
// FANCY-NEXT:   ╰────
// FANCY-EMPTY:
// FANCY-NEXT: Advice:
// FANCY-NEXT:   ☞ previously defined here (<stdin>:[[#LINE-1]]:3)
// FANCY-NEXT:   ╭─[<stdin>:[[#LINE-1]]:3]
// FANCY:        ╰── previously defined here

// MLIR:      {{^}}{{.*}}diagnostics.mlir:[[#LINE:@LINE+8]]:3: error: redefinition of SSA value '%x'
// MLIR-NEXT: {{^}}{{.*}}diagnostics.mlir:[[#LINE-1]]:3: note: previously defined here
// MLIR-NOT:  error

// STDIN:      {{^}}<stdin>:[[#LINE:@LINE+4]]:3: error: redefinition of SSA value '%x'
// STDIN-NEXT: {{^}}<stdin>:[[#LINE-1]]:3: note: previously defined here
func.func @redefined() {
  %x = arith.constant 1 : i32
  %x = arith.constant 2 : i32
  return
}
