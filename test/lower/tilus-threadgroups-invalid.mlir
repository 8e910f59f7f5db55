// lower-threadgroups reports the barriers it cannot build.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --lower-threadgroups --no-output

tilus.kernel @many_named() warps(32) blocks(affine_map<() -> (1)>) {
  threadgroup.group threads(0, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(32, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(64, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(96, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(128, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(160, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(192, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(224, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(256, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(288, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(320, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(352, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(384, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(416, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(448, 64) {
    threadgroup.sync
  }
  threadgroup.group threads(480, 64) {
    // expected-error@+1 {{more than 15 distinct named barriers are needed (16 hardware barriers, 0 is the whole block)}}
    threadgroup.sync
  }
}
