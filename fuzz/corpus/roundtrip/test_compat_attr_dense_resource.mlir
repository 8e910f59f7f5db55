// `dense_resource<key>` attributes and the `{-# dialect_resources #-}` section:
// blobs are hex strings whose first 4 bytes are the alignment (little endian);
// keys may be quoted; blobs that no attribute references are dropped on output;
// output lists used blobs in order of first use; `__elided__` has no blob;
// `external_resources` entries of unknown dialects are kept.

"foo.a"() {n = dense_resource<blob1> : tensor<4xi8>, m = dense_resource<"quoted blob"> : tensor<1xi32>} : () -> ()
"foo.b"() {x = dense_resource<zz> : tensor<2xi16>, y = dense_resource<blob1> : tensor<2x2xi8>, z = dense_resource<__elided__> : tensor<8xf32>} : () -> ()
"foo.c"() <{r = dense_resource<aligned8> : tensor<1xi64>}> : () -> ()

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x0400000001020304",
      unused: "0x08000000AABBCCDD11223344",
      "quoted blob": "0x0400000005000000",
      zz: "0x02000000FFFF0100",
      aligned8: "0x080000000102030405060708"
    }
  },
  external_resources: {
    foo: {
      x: "abc",
      flag: true
    }
  }
#-}
