// lower-tilus-kernel reports what it cannot lower.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --lower-tilus-kernel --no-output

tilus.kernel @view_in_use(%p: !tilus.ptr<f32>, %n: i32) warps(1) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  // expected-error@+1 {{cannot lower a 'tilus.global_view' that is still used (run lower-tiles first)}}
  %g = tilus.global_view %p[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %x = tilus.load_global %g[%c0] : !tilus.global<?xf32> -> !tilus.reg<32xf32, layout = spatial(32)>
}

// -----

// expected-error@+1 {{cannot lower cluster [2, 2, 1]: only 1-D clusters are expressible (.reqnctapercluster n, 1, 1)}}
tilus.kernel @cluster2d() warps(1) blocks(affine_map<() -> (4)>) cluster(2, 2, 1) {
}
