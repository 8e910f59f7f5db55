// ptxas (sm_90a) accepts the split-view stores and loads of store-shared-split.mlir. Where each
// thread's columns stay inside one 64-column box, the tile's column pairs go as 32-bit words
// (32 `st.shared.b32` and `ld.shared.b32` a thread for 64 elements); where the thread part of
// the column crosses the boxes, each element is addressed alone (64 `st.shared.b16`).
//
// REQUIRES: ptxas
// RUN: tilus-run %S/store-shared-split.mlir --kernel split_boxes --dump-ptx > %t.boxes.ptx
// RUN: %ptxas -arch=sm_90a %t.boxes.ptx -o %t.boxes.cubin
// RUN: awk '/^.visible .entry/ { p = ($0 ~ /split_boxes/) } p' %t.boxes.ptx > %t.boxes.main.ptx
// RUN: grep -c 'st.shared.b32' %t.boxes.main.ptx | FileCheck %s --check-prefix=PAIRS
// RUN: grep -c 'ld.shared.b32' %t.boxes.main.ptx | FileCheck %s --check-prefix=PAIRS
// PAIRS: {{^32$}}
// RUN: tilus-run %S/store-shared-split.mlir --kernel split_across --dump-ptx > %t.across.ptx
// RUN: %ptxas -arch=sm_90a %t.across.ptx -o %t.across.cubin
// RUN: awk '/^.visible .entry/ { p = ($0 ~ /split_across/) } p' %t.across.ptx > %t.across.main.ptx
// RUN: grep -c 'st.shared.b16' %t.across.main.ptx | FileCheck %s --check-prefix=ELEMS
// ELEMS: {{^64$}}
