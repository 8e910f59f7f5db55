// The canonical spelling of MLIR's own attributes is `mlir-opt` 22's: whatever order and spacing
// the input uses, `mlir-opt` prints exactly the text `tilus-opt` printed, in custom and in
// generic form (`#arith.overflow`, `#arith.fastmath`, dense arrays).
// REQUIRES: mlir-opt
// RUN: tilus-opt %s --allow-unregistered-dialect >%t.custom
// RUN: mlir-opt --allow-unregistered-dialect %t.custom | diff - %t.custom
// RUN: tilus-opt %s --allow-unregistered-dialect --print-op-generic >%t.generic
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %t.generic | diff - %t.generic

func.func @f(%a: i32, %b: f32) -> (i32, f32) {
  %0 = arith.addi %a, %a overflow<nuw, nsw> : i32
  %1 = arith.muli %a, %a overflow<nsw,nuw> : i32
  %2 = arith.subi %a, %a overflow< nuw > : i32
  %3 = arith.addf %b, %b fastmath<contract,nnan> : f32
  %4 = arith.mulf %b, %b fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> : f32
  %5 = arith.subf %b, %b fastmath<none> : f32
  %6 = arith.divf %b, %b fastmath<afn,reassoc> : f32
  "foo.x"() {a = array<i64: 1,2>, b = array<f32: 1.5, 2.>, c = array<i1: true, false>, d = array<i8: -1, 0x10>, e = array<f64: 0.1>, f = array<i32>, g = #arith.overflow<none>, h = #arith.fastmath<contract, fast>, i = array<f32: 0x7FC00000>, j = #arith.overflow<nuw,nsw>} : () -> ()
  return %0, %3 : i32, f32
}
