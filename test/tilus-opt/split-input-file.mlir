// --split-input-file: the input is cut at every split marker (a line of two slashes, a space and
// five dashes) and each part is parsed, verified and printed on its own, as a separate module:
// aliases and value numbers start afresh in each part. The printed parts are joined with marker
// lines. Positions in diagnostics are those of the whole file.
//
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect | FileCheck %s
// The marker may be given, as mlir-opt allows (`--split-input-file=MARKER`), and mlir-opt's
// `-mlir-disable-threading` is accepted (tilus-opt is single-threaded anyway).
// RUN: tilus-opt %s --split-input-file='// -----' -mlir-disable-threading \
// RUN:   --allow-unregistered-dialect | FileCheck %s
// Without the flag the marker is just a comment and the whole file is one module.
// RUN: tilus-opt %s --allow-unregistered-dialect | FileCheck %s --check-prefix=WHOLE
// The joined output splits again into the same parts.
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   | tilus-opt --split-input-file --allow-unregistered-dialect | FileCheck %s
// An error in one part fails the run (exit status 1) and names its line in the whole file.
// RUN: sed -e 's/(d0 \* 2)>} : () -> i64$/(d0 * 2)>} : () -> i64x/' %s \
// RUN:   | not tilus-opt --split-input-file --allow-unregistered-dialect --diagnostic-format=mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERR

// CHECK:      #map = affine_map<(d0) -> (d0 + 1)>
// CHECK-NEXT: module {
// CHECK-NEXT:   %0 = "t.first"() {m = #map} : () -> i32
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: {{^// -{5}$}}
%0 = "t.first"() {m = affine_map<(d0) -> (d0 + 1)>} : () -> i32

// -----

// The second part has its own `#map` and its own `%0`.
// CHECK-NEXT: #map = affine_map<(d0) -> (d0 * 2)>
// CHECK-NEXT: module {
// CHECK-NEXT:   "t.second"() : () -> ()
// CHECK-NEXT:   %0 = "t.third"() {m = #map} : () -> i64
// CHECK-NEXT: }
// CHECK-NOT:  -----
// ERR: <stdin>:[[@LINE+2]]:61: error: expected type, found 'i64x'
"t.second"() : () -> ()
%1 = "t.third"() {m = affine_map<(d0) -> (d0 * 2)>} : () -> i64

// WHOLE:      #map = affine_map<(d0) -> (d0 + 1)>
// WHOLE-NEXT: #map1 = affine_map<(d0) -> (d0 * 2)>
// WHOLE-NEXT: module {
// WHOLE-NEXT:   %0 = "t.first"() {m = #map} : () -> i32
// WHOLE-NEXT:   "t.second"() : () -> ()
// WHOLE-NEXT:   %1 = "t.third"() {m = #map1} : () -> i64
// WHOLE-NEXT: }
// WHOLE-NOT:  -----
