// Probe (GPU vs interpreter): shuffle_down of a tile whose threads hold distinct elements only
// in a sub-warp segment (4 distinct lanes, replicated 8 times), in f32 and in i1.
tilus.kernel @shift_f32(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>) attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<64xf32> -> !tilus.reg<64xf32, layout = replicate(8) * spatial(4) * local(16)>
  %s = tilus.shuffle_down %v, %c1 : !tilus.reg<64xf32, layout = replicate(8) * spatial(4) * local(16)>
  tilus.store_global %s, %gy[%c0] : !tilus.reg<64xf32, layout = replicate(8) * spatial(4) * local(16)>, !tilus.global<64xf32>
}
tilus.kernel @shift_f32_full(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>) attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<64xf32> -> !tilus.reg<64xf32, layout = spatial(32) * local(2)>
  %s = tilus.shuffle_down %v, %c1 : !tilus.reg<64xf32, layout = spatial(32) * local(2)>
  tilus.store_global %s, %gy[%c0] : !tilus.reg<64xf32, layout = spatial(32) * local(2)>, !tilus.global<64xf32>
}
