// FileCheck behaviours where tilus-filecheck follows LLVM FileCheck 22 to the letter (issue 13).
// Every run checks the whole report, so this file passes under both FileChecks
// (`FILECHECK=/usr/lib/llvm-22/bin/FileCheck` runs the suite with LLVM's).

// `--DNAME=VALUE` (two dashes) defines a variable, as `-DNAME=VALUE` does, and a numeric
// definition may use the numeric definitions before it.
// RUN: echo "foo 7" | FileCheck %s --check-prefix=DEF --DVALUE=foo -D#A=3 '-D#B=A + 4'
// DEF: [[VALUE]] [[#B]]

// Bad definitions are all reported, in a "Global defines" buffer that shows a numeric one as
// the `[[#NAME:EXPR]]` block it stands for; a name is either a string or a numeric variable.
// RUN: not FileCheck %s --check-prefix=DEF -DB=3 -D#B=7 -D#VALUE+2=10 < %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GLOBAL --match-full-lines --strict-whitespace
// GLOBAL:Global defines:2:39: error: string variable with name 'B' already exists
// GLOBAL-NEXT:Global define #2: #B=7 (parsed as: {{\[\[#B:7\]\]}})
// GLOBAL-NEXT:                                      ^
// GLOBAL-EMPTY:
// GLOBAL-NEXT:Global defines:3:51: error: unexpected characters after numeric variable name
// GLOBAL-NEXT:Global define #3: #VALUE+2=10 (parsed as: {{\[\[#VALUE\+2:10\]\]}})
// GLOBAL-NEXT:                                                  ^
// GLOBAL-EMPTY:
// GLOBAL-NOT:{{.}}

// Errors in numeric expressions are found when the check file is read, before any input:
// an `@LINE` offset that is not a number, a call with an empty argument, and a conflict of
// implicit formats, reported at the expression it is in.
// RUN: not FileCheck %s --check-prefix=LEGACY < %s 2>&1 | FileCheck %s --check-prefix=LEGACY-ERR
// LEGACY: [[@LINE-x]]
// LEGACY-ERR: filecheck_llvm22_parity.mlir:[[#@LINE-1]]:20: error: invalid operand format
// RUN: not FileCheck %s --check-prefix=CALL -D#N=1 < %s 2>&1 | FileCheck %s --check-prefix=CALL-ERR
// CALL: [[#add(N,)]]
// CALL-ERR: filecheck_llvm22_parity.mlir:[[#@LINE-1]]:19: error: missing argument
// RUN: not FileCheck %s --check-prefix=FMT < %s 2>&1 | FileCheck %s --check-prefix=FMT-ERR
// FMT: [[#%x,HEX:]] [[#%d,DEC:]]
// FMT-NEXT: [[#HEX + DEC + 1]]
// FMT-ERR: filecheck_llvm22_parity.mlir:[[#@LINE-1]]:17: error: implicit format conflict between 'HEX' (%x) and 'DEC' (%d), need an explicit format specifier
// FMT-ERR-NEXT: // FMT-NEXT: {{\[\[#HEX \+ DEC \+ 1\]\]}}
// FMT-ERR-NEXT: {{^}}                ^{{$}}

// A substituted value is escaped only when it holds a quote or an unprintable character, and
// then it says so; backslashes alone are shown as they are.
// RUN: echo "x" | not FileCheck %s --check-prefix=SUBST '-DP=C:\dir' '-DQ=say "hi"' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SUBST-NOTE
// SUBST: [[P]] [[Q]]
// SUBST-NOTE: note: with "P" equal to "C:\dir"
// SUBST-NOTE: note: with "Q" equal to "say \"hi\"" (escaped value)

// A user prefix that clashes with a default one is named as the kind the user gave.
// RUN: not FileCheck %s --check-prefixes=FOO,RUN < %s 2>&1 | FileCheck %s --check-prefix=CLASH
// CLASH: error: supplied check prefix must be unique among check and comment prefixes: 'RUN'

// An unknown option gets LLVM's suggestion of the closest one.
// RUN: not FileCheck %s --chek-prefix=DEF < %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: FileCheck: Unknown command line argument '--chek-prefix=DEF'.
// UNKNOWN-NEXT: FileCheck: Did you mean '--check-prefix=DEF'?

// `-color` colours the diagnostics (and the input dump) with LLVM's ANSI sequences.
// RUN: echo "x" | not FileCheck %s --check-prefix=COLOR -color 2>&1 | FileCheck %s --check-prefix=ANSI
// COLOR: y
// ANSI: {{.\[1m.*}}filecheck_llvm22_parity.mlir:[[#@LINE-1]]:11: {{.\[0m.\[0;1;31m}}error: {{.\[0m.\[1m}}COLOR: expected string not found in input
