// Shaped types: vectors (fixed, scalable `[4]`, 0-d `vector<f32>`), tensors
// (static, dynamic `?`, unranked `*`, 0-d, zero-sized, encodings of any
// attribute kind), memrefs (dynamic sizes, `strided<>` layouts with `?`
// strides/offsets, affine-map layouts, identity layouts that MLIR drops,
// integer/string/dictionary memory spaces, unranked memrefs with a memory space).
// MLIR 22 rejects unregistered dialect attributes as memref layout or memory
// space, and `strided<>` as a tensor encoding.

"foo.vectors"() : () -> (vector<4xf32>, vector<[4]x2xf32>, vector<2x[4]xf32>, vector<[4]x[2]xf32>, vector<f32>, vector<1x2x3xi8>, vector<4xindex>)
"foo.tensors"() : () -> (tensor<?x4xf32>, tensor<*xf32>, tensor<f32>, tensor<0x?xi1>, tensor<?x?x?xindex>, tensor<4x!foo.t>, tensor<4xcomplex<f64>>)
"foo.encodings"() : () -> (tensor<4xf32, "enc">, tensor<4xf32, #foo.enc>, tensor<4xf32, #foo.enc<1, 2>>, tensor<4xf32, 1 : i64>)
"foo.memrefs"() : () -> (memref<4x?xf32>, memref<f32>, memref<0xf32>, memref<4xvector<4xf32>>, memref<4xcomplex<f32>>)
"foo.layouts"() : () -> (memref<?xf32, strided<[1], offset: ?>>, memref<4x4xf32, strided<[?, 1], offset: ?>>, memref<4x4xf32, strided<[?, 1]>>, memref<4xf32, strided<[1], offset: 5>>, memref<2x3xf32, strided<[3, 1], offset: 0>>, memref<f32, strided<[]>>, memref<f32, strided<[], offset: 3>>)
"foo.affine_layouts"() : () -> (memref<4xf32, affine_map<(d0) -> (d0 + 1)>>, memref<4xf32, affine_map<(d0) -> (d0)>>, memref<2x3xf32, affine_map<(d0, d1) -> (d0 * 3 + d1)>>, memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>, 1>)
"foo.spaces"() : () -> (memref<4xf32, 1>, memref<4xf32, 0>, memref<4xf32, 1 : i32>, memref<4xf32, "gpu">, memref<4xf32, {a}>, memref<4xf32, strided<[2], offset: 3>, 2>)
"foo.unranked"() : () -> (memref<*xf32>, memref<*xf32, 1>, memref<*xi8, "shared">)
