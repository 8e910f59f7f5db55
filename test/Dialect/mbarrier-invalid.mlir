// The mbarrier verifier's rules, each with its message. Group-shape rules are only checked
// inside a `tilus.kernel`.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

func.func @alloc_counts_length() {
  // expected-error@+1 {{'mbarrier.alloc' op expects 2 counts (one per barrier of '!mbarrier.barriers<2>'), but found 3}}
  %b = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<2>
  return
}

// -----

func.func @alloc_counts_positive() {
  // expected-error@+1 {{'mbarrier.alloc' op expects every count in [1, 1048575], but found 0 for barrier 1}}
  %b = mbarrier.alloc counts [128, 0] : !mbarrier.barriers<2>
  return
}

// -----

func.func @alloc_counts_20_bits() {
  // expected-error@+1 {{'mbarrier.alloc' op expects every count in [1, 1048575], but found 1048576 for barrier 0}}
  %b = mbarrier.alloc counts [1048576] : !mbarrier.barriers<1>
  return
}

// -----

func.func @alloc_result_type() {
  // expected-error@+1 {{'mbarrier.alloc' op result #0 must be mbarrier array (!mbarrier.barriers), but got 'i64'}}
  %b = "mbarrier.alloc"() : () -> i64
  return
}

// -----

func.func @index_past_end() {
  %b = mbarrier.alloc : !mbarrier.barriers<2>
  %c2 = arith.constant 2 : i32
  // expected-error@+1 {{'mbarrier.arrive' op expects a barrier index in [0, 2) (the barriers of '!mbarrier.barriers<2>'), but found 2}}
  mbarrier.arrive %b[%c2 : i32] : !mbarrier.barriers<2>
  return
}

// -----

func.func @index_negative(%p: i32) {
  %b = mbarrier.alloc : !mbarrier.barriers<2>
  %m1 = arith.constant -1 : index
  // expected-error@+1 {{'mbarrier.wait' op expects a barrier index in [0, 2) (the barriers of '!mbarrier.barriers<2>'), but found -1}}
  mbarrier.wait %b[%m1 : index], phase(%p) : !mbarrier.barriers<2>
  return
}

// -----

func.func @index_type(%b: !mbarrier.barriers<2>, %i: i64) {
  // expected-error@+1 {{'mbarrier.arrive' op operand #1 must be i32 or index, but got 'i64'}}
  "mbarrier.arrive"(%b, %i) : (!mbarrier.barriers<2>, i64) -> ()
  return
}

// -----

func.func @not_barriers(%b: i64, %i: i32, %bytes: i32) {
  // expected-error@+1 {{'mbarrier.arrive_expect_tx' op operand #0 must be mbarrier array (!mbarrier.barriers), but got 'i64'}}
  "mbarrier.arrive_expect_tx"(%b, %i, %bytes) : (i64, i32, i32) -> ()
  return
}

// -----

func.func @arrive_count(%b: !mbarrier.barriers<1>, %i: i32) {
  %c0 = arith.constant 0 : i32
  // expected-error@+1 {{'mbarrier.arrive' op expects an arrival count in [1, 1048575], but found 0}}
  mbarrier.arrive %b[%i : i32] count(%c0) : !mbarrier.barriers<1>
  return
}

// -----

func.func @tx_bytes(%b: !mbarrier.barriers<1>, %i: i32) {
  %big = arith.constant 1048576 : i32
  // expected-error@+1 {{'mbarrier.arrive_expect_tx' op expects a transaction byte count in [0, 1048575], but found 1048576}}
  mbarrier.arrive_expect_tx %b[%i : i32], %big : !mbarrier.barriers<1>
  return
}

// -----

func.func @multicast_mask(%b: !mbarrier.barriers<1>, %i: i32, %bytes: i32) {
  %m = arith.constant 65536 : i32
  // expected-error@+1 {{'mbarrier.arrive_expect_tx_multicast' op expects a multicast CTA mask (16 bits) in [1, 65535], but found 65536}}
  mbarrier.arrive_expect_tx_multicast %b[%i : i32], %bytes, mask(%m) : !mbarrier.barriers<1>
  return
}

// -----

func.func @remote_rank(%b: !mbarrier.barriers<1>, %i: i32, %bytes: i32) {
  %r = arith.constant 16 : i32
  // expected-error@+1 {{'mbarrier.arrive_expect_tx_remote' op expects a CTA rank in [0, 15], but found 16}}
  mbarrier.arrive_expect_tx_remote %b[%i : i32], %bytes, rank(%r) : !mbarrier.barriers<1>
  return
}

// -----

func.func @wait_phase(%b: !mbarrier.barriers<1>, %i: i32) {
  %p = arith.constant 2 : i32
  // expected-error@+1 {{'mbarrier.wait' op expects a phase parity in [0, 1], but found 2}}
  mbarrier.wait %b[%i : i32], phase(%p) : !mbarrier.barriers<1>
  return
}

// -----

func.func @arrive_sem(%b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{'mbarrier.arrive' op expects sem to be one of 0 (release), 1 (relaxed), but found 2}}
  "mbarrier.arrive"(%b, %i) <{sem = 2 : i64}> : (!mbarrier.barriers<1>, i32) -> ()
  return
}

// -----

func.func @wait_scope(%b: !mbarrier.barriers<1>, %i: i32, %p: i32) {
  // expected-error@+1 {{'mbarrier.wait' op expects scope to be one of 0 (cta), 1 (cluster), but found 5}}
  "mbarrier.wait"(%b, %i, %p) <{scope = 5 : i64}> : (!mbarrier.barriers<1>, i32, i32) -> ()
  return
}

// -----

func.func @arrive_sem_keyword(%b: !mbarrier.barriers<1>, %i: i32) {
  // expected-error@+1 {{expected arrive memory semantics for 'sem', one of: release, relaxed, but found 'acquire'}}
  mbarrier.arrive %b[%i : i32] sem(acquire) : !mbarrier.barriers<1>
  return
}

// -----

// An arrive_expect_tx_multicast needs at least 16 threads: thread r acts for CTA r. (The
// kernels here have a cluster of 2, so that mask 3 names CTAs that exist.)
tilus.kernel @multicast_group(%n: i32) warps(4) blocks(affine_map<(d0) -> (d0 ceildiv 128)>) cluster(2) {
  %b = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %i = arith.constant 0 : i32
  %bytes = arith.constant 16384 : i32
  %m = arith.constant 3 : i32
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.group threads(0, 8) {
    // expected-error@+1 {{'mbarrier.arrive_expect_tx_multicast' op must be issued by at least 16 threads, but its group is threads [0, 8) (8 threads)}}
    mbarrier.arrive_expect_tx_multicast %b[%i : i32], %bytes, mask(%m) : !mbarrier.barriers<1>
  }
}

// -----

// The same ops in groups that satisfy the rules verify.
tilus.kernel @groups_ok(%n: i32) warps(4) blocks(affine_map<(d0) -> (d0 ceildiv 128)>) cluster(2) {
  %b = mbarrier.alloc counts [1, 128] : !mbarrier.barriers<2>
  %i = arith.constant 0 : i32
  %bytes = arith.constant 16384 : i32
  %m = arith.constant 3 : i32
  threadgroup.single_warp warp(1) {
    mbarrier.arrive_expect_tx_multicast %b[%i : i32], %bytes, mask(%m) : !mbarrier.barriers<2>
    threadgroup.single_thread {
      mbarrier.arrive_expect_tx %b[%i : i32], %bytes : !mbarrier.barriers<2>
    }
  }
  %p = mbarrier.consumer_initial_phase
  mbarrier.wait %b[%i : i32], phase(%p) : !mbarrier.barriers<2>
}
