// shuffle_down of a tile whose distinct threads are a part of the warp, replicated: with
// `replicate(8) * spatial(4) * local(16)` lanes 0..3 hold elements 0..63 in blocks of 16 and
// lanes 4..31 repeat them. Lane 3's source, lane 4, is a replica of lane 0, so replica 0 of
// the last block receives elements 0..15 (lane 31, the last replica, keeps its own): the tile
// is what replica 0 holds, as the GPU's store writes it. On the H100 this kernel matched the
// interpreter only once the interpreter took replica 0's values (bench/gpu_compare.sh with
// FILES=test/run-cli/shuffle-replicated.mlir); a tile of one element per lane (`spatial(32)`)
// was already equal.
// RUN: tilus-run %s --kernel rotate | FileCheck %s
// CHECK: check y vs reference @rotate_ref: ok
tilus.kernel @rotate(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "rotate_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<64xf32> -> !tilus.reg<64xf32, layout = replicate(8) * spatial(4) * local(16)>
  %s = tilus.shuffle_down %v, %c1 : !tilus.reg<64xf32, layout = replicate(8) * spatial(4) * local(16)>
  tilus.store_global %s, %gy[%c0] : !tilus.reg<64xf32, layout = replicate(8) * spatial(4) * local(16)>, !tilus.global<64xf32>
}

// y = x rotated left by 16.
tilus.kernel @rotate_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>) attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %c48 = arith.constant 48 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %hi = tilus.load_global %gx[%c16] : !tilus.global<64xf32> -> !tilus.reg<48xf32>
  %lo = tilus.load_global %gx[%c0] : !tilus.global<64xf32> -> !tilus.reg<16xf32>
  tilus.store_global %hi, %gy[%c0] : !tilus.reg<48xf32>, !tilus.global<64xf32>
  tilus.store_global %lo, %gy[%c48] : !tilus.reg<16xf32>, !tilus.global<64xf32>
}
