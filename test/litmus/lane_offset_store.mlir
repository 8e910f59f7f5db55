// Litmus: a store at a lane-dependent offset. Element j of the tile (layout spatial(32)) is
// held by lane j, which stores it at its own offset lane + j = 2j; its value is the lane as
// f32. So y[2j] = j and the odd elements keep their zeros.
// LITMUS: completes
// EXPECT: y = even_lanes64.npy
tilus.kernel @lane_offset_store(%y: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %lane = tilus.lane_id
  %lf = arith.sitofp %lane : i32 to f32
  %t = tilus.register_tensor init(%lf : f32) : !tilus.reg<32xf32, layout = spatial(32)>
  tilus.store_global %t, %gy[%lane] : !tilus.reg<32xf32, layout = spatial(32)>, !tilus.global<64xf32>
}
