// Kernels for the interpreter's tests (tilus-run/tests/interp_basic.rs): core tile ops only.

// c = a + b over 1024-element tiles; the last tile is partial (masked by the view).
tilus.kernel @vector_add(%a: !tilus.ptr<f32>, %b: !tilus.ptr<f32>, %c: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d3 ceildiv 1024)>) {
  %bx = tilus.block_id x
  %tile = arith.constant 1024 : i32
  %off = arith.muli %bx, %tile : i32
  %ga = tilus.global_view %a[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gb = tilus.global_view %b[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gc = tilus.global_view %c[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %x = tilus.load_global %ga[%off] : !tilus.global<?xf32> -> !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  %y = tilus.load_global %gb[%off] : !tilus.global<?xf32> -> !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  %z = tilus.add %x, %y : (!tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>, !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>) -> !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>
  tilus.store_global %z, %gc[%off] : !tilus.reg<1024xf32, layout = local(2) * spatial(128) * local(4)>, !tilus.global<?xf32>
}

// y[i] = sum_j x[i, j]: 4 rows per block, 128-column chunks accumulated in a tile.
tilus.kernel @row_sum(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %m: i32, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d2 ceildiv 4)>) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant 0.0 : f32
  %bx = tilus.block_id x
  %row = arith.muli %bx, %c4 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %gy = tilus.global_view %y[%m] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<4x128xf32>
  %acc = scf.for %k = %c0 to %n step %c128 iter_args(%a = %acc0) -> (!tilus.reg<4x128xf32>) : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x?xf32> -> !tilus.reg<4x128xf32>
    %a2 = tilus.add %a, %t : (!tilus.reg<4x128xf32>, !tilus.reg<4x128xf32>) -> !tilus.reg<4x128xf32>
    scf.yield %a2 : !tilus.reg<4x128xf32>
  }
  %s = tilus.reduce sum %acc dim(1) : !tilus.reg<4x128xf32> -> !tilus.reg<4xf32>
  tilus.store_global %s, %gy[%row] : !tilus.reg<4xf32>, !tilus.global<?xf32>
}

// Stage 1 of a two-stage sum: every block reduces 1024 elements to one partial sum, through
// shared memory: each warp sums its [8, 32] slice of rows, the partial row sums meet in
// shared memory, and one warp finishes.
tilus.kernel @block_sum(%x: !tilus.ptr<f32>, %part: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 1024)>) {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %c128 = arith.constant 128 : i32
  %bx = tilus.block_id x
  %rows = arith.muli %bx, %c8 : i32
  %nrows = arith.ceildivsi %n, %c128 : i32
  %gx = tilus.global_view %x[%nrows, %c128] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %nb = tilus.num_blocks x
  %gp = tilus.global_view %part[%nb] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %buf = tilus.shared_tensor : !tilus.shared<8xf32>
  %t = tilus.load_global %gx[%rows, %c0] : !tilus.global<?x?xf32> -> !tilus.reg<8x128xf32>
  %r = tilus.reduce sum %t dim(1) : !tilus.reg<8x128xf32> -> !tilus.reg<8xf32>
  tilus.store_shared %r, %buf : !tilus.reg<8xf32>, !tilus.shared<8xf32>
  threadgroup.sync
  threadgroup.single_warp {
    %v = tilus.load_shared %buf : !tilus.shared<8xf32> -> !tilus.reg<8xf32>
    %s = tilus.reduce sum %v dim(0) keepdim : !tilus.reg<8xf32> -> !tilus.reg<1xf32>
    tilus.store_global %s, %gp[%bx] : !tilus.reg<1xf32>, !tilus.global<?xf32>
  }
  threadgroup.sync
  tilus.free_shared %buf : !tilus.shared<8xf32>
}

// Stage 2: one block sums the partial sums, 128 at a time.
tilus.kernel @final_sum(%part: !tilus.ptr<f32>, %out: !tilus.ptr<f32>, %np: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant 0.0 : f32
  %gp = tilus.global_view %part[%np] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %go = tilus.global_view %out[%c1] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<128xf32>
  %acc = scf.for %k = %c0 to %np step %c128 iter_args(%a = %acc0) -> (!tilus.reg<128xf32>) : i32 {
    %t = tilus.load_global %gp[%k] : !tilus.global<?xf32> -> !tilus.reg<128xf32>
    %a2 = tilus.add %a, %t : (!tilus.reg<128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<128xf32>
    scf.yield %a2 : !tilus.reg<128xf32>
  }
  %s = tilus.reduce sum %acc dim(0) keepdim : !tilus.reg<128xf32> -> !tilus.reg<1xf32>
  tilus.store_global %s, %go[%c0] : !tilus.reg<1xf32>, !tilus.global<?xf32>
}

// Row softmax of an f32 [m, n] matrix into f16 (n a multiple of 256), 4 rows per block.
tilus.kernel @softmax(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f16>, %m: i32, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d2 ceildiv 4)>) {
  %bx = tilus.block_id x
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c256 = arith.constant 256 : i32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %row = arith.muli %bx, %c4 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %gy = tilus.global_view %y[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %mx0 = tilus.register_tensor init(%ninf : f32) : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
  %mx_t = scf.for %k = %c0 to %n step %c256 iter_args(%mx = %mx0) -> (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>) : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x?xf32> -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %mx2 = tilus.maximum %mx, %t : (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>, !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>) -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    scf.yield %mx2 : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
  }
  %rowmax = tilus.reduce max %mx_t dim(1) keepdim : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>
  %s0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
  %s_t = scf.for %k = %c0 to %n step %c256 iter_args(%s = %s0) -> (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>) : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x?xf32> -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %d = tilus.sub %t, %rowmax : (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>) -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %e = tilus.exp %d : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %s2 = tilus.add %s, %e : (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>, !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>) -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    scf.yield %s2 : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
  }
  %rowsum = tilus.reduce sum %s_t dim(1) keepdim : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>
  scf.for %k = %c0 to %n step %c256 : i32 {
    %t = tilus.load_global %gx[%row, %k] : !tilus.global<?x?xf32> -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %d = tilus.sub %t, %rowmax : (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>) -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %e = tilus.exp %d : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %p = tilus.div %e, %rowsum : (!tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>) -> !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)>
    %h = tilus.cast %p : !tilus.reg<4x256xf32, layout = spatial(4, 32) * local(1, 8)> to !tilus.reg<4x256xf16, layout = spatial(4, 32) * local(1, 8)>
    tilus.store_global %h, %gy[%row, %k] : !tilus.reg<4x256xf16, layout = spatial(4, 32) * local(1, 8)>, !tilus.global<?x?xf16>
  }
}

// Per-thread scalars: thread i of each warp writes tid * 10 + lane through a divergent scf.if
// (even threads add 1) into a [128] i32 tile built with shuffles: out[t] = value of t - 1.
tilus.kernel @divergence(%out: !tilus.ptr<i32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c10 = arith.constant 10 : i32
  %go = tilus.global_view %out : !tilus.ptr<i32> -> !tilus.global<128xi32>
  %t = tilus.thread_id
  %l = tilus.lane_id
  %t10 = arith.muli %t, %c10 : i32
  %v = arith.addi %t10, %l : i32
  %r = arith.remsi %t, %c2 : i32
  %even = arith.cmpi eq, %r, %c0 : i32
  %w = scf.if %even -> (i32) {
    %v1 = arith.addi %v, %c1 : i32
    scf.yield %v1 : i32
  } else {
    scf.yield %v : i32
  }
  %bars = mbarrier.alloc : !mbarrier.barriers<1>
  mbarrier.arrive %bars[%c0 : i32] : !mbarrier.barriers<1>
  mbarrier.wait %bars[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  %ramp = tilus.register_tensor init(%c0 : i32) : !tilus.reg<128xi32, layout = spatial(128)>
  %sh = tilus.shuffle_up %ramp, %c1 : !tilus.reg<128xi32, layout = spatial(128)>
  threadgroup.single_thread thread(5) {
    %w5 = tilus.register_tensor init(%w : i32) : !tilus.reg<1xi32>
    tilus.store_global %w5, %go[%c0] : !tilus.reg<1xi32>, !tilus.global<128xi32>
  }
  threadgroup.single_thread thread(6) {
    %w6 = tilus.register_tensor init(%w : i32) : !tilus.reg<1xi32>
    tilus.store_global %w6, %go[%c1] : !tilus.reg<1xi32>, !tilus.global<128xi32>
  }
  threadgroup.sync
}

// y[i] = 0.25 * (x[i - 1] + x[i + 1]) + 0.5 * x[i] within each warp's 32 elements (a lane at
// the edge of its warp keeps its own value for the missing neighbour): warp shuffles.
tilus.kernel @stencil3(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 128)>) {
  %bx = tilus.block_id x
  %c128 = arith.constant 128 : i32
  %c1 = arith.constant 1 : i32
  %base = arith.muli %bx, %c128 : i32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %v = tilus.load_global %gx[%base] : !tilus.global<?xf32> -> !tilus.reg<128xf32, layout = spatial(128)>
  %left = tilus.shuffle_up %v, %c1 : !tilus.reg<128xf32, layout = spatial(128)>
  %right = tilus.shuffle_down %v, %c1 : !tilus.reg<128xf32, layout = spatial(128)>
  %q = arith.constant 0.25 : f32
  %h = arith.constant 0.5 : f32
  %wq = tilus.register_tensor init(%q : f32) : !tilus.reg<1xf32>
  %wh = tilus.register_tensor init(%h : f32) : !tilus.reg<1xf32>
  %lr = tilus.add %left, %right : (!tilus.reg<128xf32, layout = spatial(128)>, !tilus.reg<128xf32, layout = spatial(128)>) -> !tilus.reg<128xf32, layout = spatial(128)>
  %a = tilus.mul %lr, %wq : (!tilus.reg<128xf32, layout = spatial(128)>, !tilus.reg<1xf32>) -> !tilus.reg<128xf32, layout = spatial(128)>
  %c = tilus.mul %v, %wh : (!tilus.reg<128xf32, layout = spatial(128)>, !tilus.reg<1xf32>) -> !tilus.reg<128xf32, layout = spatial(128)>
  %out = tilus.add %a, %c : (!tilus.reg<128xf32, layout = spatial(128)>, !tilus.reg<128xf32, layout = spatial(128)>) -> !tilus.reg<128xf32, layout = spatial(128)>
  tilus.store_global %out, %gy[%base] : !tilus.reg<128xf32, layout = spatial(128)>, !tilus.global<?xf32>
}

// A loop of n trips (for the step limit).
tilus.kernel @spin(%n: i32) warps(1) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (i32) : i32 {
    %b = arith.addi %a, %c1 : i32
    scf.yield %b : i32
  }
}

// Blocks take turns through a global semaphore: block b waits for the value b, then sets
// b + 1 (blocks run in order, so this finishes with the value 2 when it starts at 0).
tilus.kernel @semaphore_chain(%s: !tilus.ptr<i32>) warps(1) blocks(affine_map<(d0) -> (2)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bx = tilus.block_id x
  %g = tilus.global_view %s : !tilus.ptr<i32> -> !tilus.global<1xi32>
  threadgroup.single_thread {
    tilus.lock_semaphore %g[%c0], %bx : !tilus.global<1xi32>
    %nx = arith.addi %bx, %c1 : i32
    tilus.release_semaphore %g[%c0], %nx : !tilus.global<1xi32>
  }
  threadgroup.sync
}
