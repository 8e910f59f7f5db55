// Litmus: a load at a lane-dependent offset. Lane j holds element j of the tile (layout
// spatial(32)) and reads it at its own offset lane + j = 2j, so with x[i] = i the tile is
// 0, 2, 4, ... and the uniform store writes y[j] = 2j.
// LITMUS: completes
// EXPECT: y = double32.npy
tilus.kernel @lane_offset_load(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.inputs = {x = "iota64.npy", y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %lane = tilus.lane_id
  %t = tilus.load_global %gx[%lane] : !tilus.global<64xf32> -> !tilus.reg<32xf32, layout = spatial(32)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<32xf32, layout = spatial(32)>, !tilus.global<32xf32>
}
