// Litmus: threads that split on a per-thread condition build different tiles. Lanes 0..15 take
// the branch that makes a tile of ones, lanes 16..31 the one that makes twos; with the layout
// spatial(32) each lane holds only its own element, so after the branches the tile is what each
// lane made: y[i] = 1 for i < 16, 2 above.
// LITMUS: completes
// EXPECT: y = ones_twos32.npy
tilus.kernel @per_thread_branches(%y: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %lane = tilus.lane_id
  %lo = arith.cmpi slt, %lane, %c16 : i32
  %t = scf.if %lo -> (!tilus.reg<32xf32, layout = spatial(32)>) {
    %a = tilus.register_tensor init(%one : f32) : !tilus.reg<32xf32, layout = spatial(32)>
    scf.yield %a : !tilus.reg<32xf32, layout = spatial(32)>
  } else {
    %b = tilus.register_tensor init(%two : f32) : !tilus.reg<32xf32, layout = spatial(32)>
    scf.yield %b : !tilus.reg<32xf32, layout = spatial(32)>
  }
  %u = tilus.add %t, %t : (!tilus.reg<32xf32, layout = spatial(32)>, !tilus.reg<32xf32, layout = spatial(32)>) -> !tilus.reg<32xf32, layout = spatial(32)>
  %h = tilus.sub %u, %t : (!tilus.reg<32xf32, layout = spatial(32)>, !tilus.reg<32xf32, layout = spatial(32)>) -> !tilus.reg<32xf32, layout = spatial(32)>
  tilus.store_global %h, %gy[%c0] : !tilus.reg<32xf32, layout = spatial(32)>, !tilus.global<32xf32>
}
