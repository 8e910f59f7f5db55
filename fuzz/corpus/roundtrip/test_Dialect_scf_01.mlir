
// CHECK-LABEL: func.func @conditionals(%arg0: i1, %arg1: f32) -> f32 {
// CHECK-NEXT:    %0 = scf.if %arg0 -> (f32) {
// CHECK-NEXT:      scf.yield %arg1 : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %{{.*}} = arith.negf %arg1 : f32
// CHECK-NEXT:      scf.yield %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:      %{{.*}} = arith.addf %arg1, %arg1 : f32
// CHECK-NEXT:    }
// GENERIC:       "scf.if"(%{{.*}}) ({
// GENERIC:       }, {
// GENERIC:       }) : (i1) -> f32
func.func @conditionals(%c: i1, %x: f32) -> f32 {
  %y = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    %n = arith.negf %x : f32
    scf.yield %n : f32
  }
  scf.if %c {
    %2 = arith.addf %x, %x : f32
  }
  return %y : f32
}
