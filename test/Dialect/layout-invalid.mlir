// Every layout.convert verifier rule, with its message.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

func.func @shape(%x: !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>) {
  // expected-error@+1 {{'layout.convert' op expects a result of the source's shape and element type 8x8xf16, but found 8x8xf32}}
  %y = layout.convert %x : !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)> to !tilus.reg<8x8xf32, layout = spatial(8, 4) * local(1, 2)>
  return
}

// -----

func.func @source_layout(%x: !tilus.reg<8x8xf16>) {
  // expected-error@+1 {{'layout.convert' op expects a source type with a layout, but found '!tilus.reg<8x8xf16>'}}
  %y = layout.convert %x : !tilus.reg<8x8xf16> to !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>
  return
}

// -----

func.func @result_layout(%x: !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>) {
  // expected-error@+1 {{'layout.convert' op expects a result type with a layout, but found '!tilus.reg<8x8xf16>'}}
  %y = layout.convert %x : !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)> to !tilus.reg<8x8xf16>
  return
}

// -----

func.func @threads(%x: !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>) {
  // expected-error@+1 {{'layout.convert' op expects layouts over one number of threads, but found 32 (source) and 64 (result)}}
  %y = layout.convert %x : !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)> to !tilus.reg<8x8xf16, layout = spatial(8, 8)>
  return
}

// -----

// Both layouts cover 32 threads, but the tensor lives in a 64-thread group.
tilus.kernel @group(%x: !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  threadgroup.group threads(0, 64) {
    // expected-error@+1 {{'layout.convert' op expects layouts over the 64 threads of its group (threads [0, 64) (64 threads)), but found 32}}
    %y = layout.convert %x : !tilus.reg<8x8xf16, layout = spatial(8, 4) * local(1, 2)> to !tilus.reg<8x8xf16, layout = local(1, 2) * spatial(8, 4)>
  }
}
