#map = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6)>
#map1 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 64, d4 ceildiv 64)>
module {
  tilus.kernel @hopper_matmul_v1_persistent(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32, %num_sms: i32) warps(12) blocks(#map) attributes {tilus.args = {k = 320 : i32, m = 256 : i32, n = 512 : i32, num_sms = 3 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
    %c4_i32 = arith.constant 4 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c8_i32 = arith.constant 8 : i32
    %c64_i32 = arith.constant 64 : i32
    %c128_i32 = arith.constant 128 : i32
    %c256_i32 = arith.constant 256 : i32
    %c49152_i32 = arith.constant 49152 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tilus.block_id x
    %1 = tilus.num_blocks x
    %2 = arith.ceildivsi %m, %c128_i32 : i32
    %3 = arith.ceildivsi %n, %c256_i32 : i32
    %4 = arith.muli %2, %3 : i32
    %5 = arith.ceildivsi %4, %1 : i32
    %6 = arith.maxsi %5, %c1_i32 : i32
    %7 = arith.ceildivsi %4, %6 : i32
    %8 = arith.maxsi %7, %c1_i32 : i32
    %9 = arith.cmpi slt, %0, %8 : i32
    %10 = arith.select %9, %4, %c0_i32 : i32
    %11 = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
    %12 = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
    %13 = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
    %14 = tilus.shared_tensor : !tilus.shared<4x2x64x64xf16, swizzle = 128B>
    %15 = tilus.shared_tensor : !tilus.shared<4x256x64xf16, swizzle = 128B>
    %16 = mbarrier.alloc counts [1, 1, 1, 1] : !mbarrier.barriers<4>
    %17 = mbarrier.alloc counts [256, 256, 256, 256] : !mbarrier.barriers<4>
    %18 = arith.ceildivsi %k, %c64_i32 : i32
    %19 = arith.maxsi %18, %c0_i32 : i32
    threadgroup.warp_group warps(8, 4) {
      threadgroup.setmaxnreg dec 40
      threadgroup.single_warp {
        %20 = mbarrier.producer_initial_phase
        %21:2 = scf.for %arg0 = %0 to %10 step %8 iter_args(%arg1 = %c0_i32, %arg2 = %20) -> (i32, i32)  : i32 {
          %22 = arith.muli %2, %c8_i32 : i32
          %23:2 = tilus.fast_divmod %arg0, %22
          %24 = arith.muli %23#0, %c8_i32 : i32
          %25 = arith.subi %3, %24 : i32
          %26 = arith.minsi %25, %c8_i32 : i32
          %27 = arith.divui %23#1, %26 : i32
          %28 = arith.remui %23#1, %26 : i32
          %29 = arith.addi %24, %28 : i32
          %30 = arith.muli %27, %c128_i32 : i32
          %31 = arith.muli %29, %c256_i32 : i32
          %32:2 = scf.for %arg3 = %c0_i32 to %19 step %c1_i32 iter_args(%arg4 = %arg1, %arg5 = %arg2) -> (i32, i32)  : i32 {
            mbarrier.wait %17[%arg4 : i32], phase(%arg5) : !mbarrier.barriers<4>
            %33 = arith.muli %arg3, %c64_i32 : i32
            %34 = tilus.slice_shared %15[%arg4] : !tilus.shared<4x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
            threadgroup.single_thread {
              mbarrier.arrive_expect_tx %16[%arg4 : i32], %c49152_i32 : !mbarrier.barriers<4>
            }
            %35 = tilus.slice_shared %14[%arg4, %c0_i32] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            tma.global_to_shared %11[%30, %33 : i32, i32], %35, %16[%arg4 : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
            %36 = tilus.slice_shared %14[%arg4, %c1_i32] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            %37 = arith.addi %30, %c64_i32 : i32
            tma.global_to_shared %11[%37, %33 : i32, i32], %36, %16[%arg4 : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
            tma.global_to_shared %12[%31, %33 : i32, i32], %34, %16[%arg4 : i32] : !tilus.global<?x?xf16>, !tilus.shared<256x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
            %38 = arith.addi %arg4, %c1_i32 : i32
            %39 = arith.cmpi eq, %38, %c4_i32 : i32
            %40 = arith.select %39, %c0_i32, %38 : i32
            %41 = arith.xori %arg5, %c1_i32 : i32
            %42 = arith.select %39, %41, %arg5 : i32
            scf.yield %40, %42 : i32, i32
          }
          scf.yield %32#0, %32#1 : i32, i32
        }
      }
    }
    threadgroup.warp_group warps(0, 4) {
      threadgroup.setmaxnreg inc 232
      %20 = mbarrier.consumer_initial_phase
      %21:3 = scf.for %arg0 = %0 to %10 step %8 iter_args(%arg1 = %20, %arg2 = %c0_i32, %arg3 = %c0_i32) -> (i32, i32, i32)  : i32 {
        %22 = arith.muli %2, %c8_i32 : i32
        %23:2 = tilus.fast_divmod %arg0, %22
        %24 = arith.muli %23#0, %c8_i32 : i32
        %25 = arith.subi %3, %24 : i32
        %26 = arith.minsi %25, %c8_i32 : i32
        %27 = arith.divui %23#1, %26 : i32
        %28 = arith.remui %23#1, %26 : i32
        %29 = arith.addi %24, %28 : i32
        %30 = arith.muli %27, %c128_i32 : i32
        %31 = arith.muli %29, %c256_i32 : i32
        %32 = tilus.register_tensor init(%cst : f32) : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        %33:3 = scf.for %arg4 = %c0_i32 to %19 step %c1_i32 iter_args(%arg5 = %32, %arg6 = %arg2, %arg7 = %arg1) -> (!tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32)  : i32 {
          mbarrier.wait %16[%arg6 : i32], phase(%arg7) : !mbarrier.barriers<4>
          %36 = tilus.slice_shared %14[%arg6, %c0_i32] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
          %37 = tilus.slice_shared %15[%arg6] : !tilus.shared<4x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
          %38 = tilus.permute_shared %37 [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
          wgmma.fence
          %39 = wgmma.mma %36, %38, %arg5 : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
          wgmma.commit_group
          wgmma.wait_group 0
          mbarrier.arrive %17[%arg6 : i32] : !mbarrier.barriers<4>
          %40 = arith.addi %arg6, %c1_i32 : i32
          %41 = arith.cmpi eq, %40, %c4_i32 : i32
          %42 = arith.select %41, %c0_i32, %40 : i32
          %43 = arith.xori %arg7, %c1_i32 : i32
          %44 = arith.select %41, %43, %arg7 : i32
          scf.yield %39, %42, %44 : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32
        }
        %34 = tilus.cast %33#0 : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        tilus.store_global %34, %13[%30, %31] : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
        %35 = arith.addi %arg3, %19 : i32
        scf.yield %33#2, %33#1, %35 : i32, i32, i32
      }
    }
    threadgroup.warp_group warps(4, 4) {
      threadgroup.setmaxnreg inc 232
      %20 = mbarrier.consumer_initial_phase
      %21:3 = scf.for %arg0 = %0 to %10 step %8 iter_args(%arg1 = %20, %arg2 = %c0_i32, %arg3 = %c0_i32) -> (i32, i32, i32)  : i32 {
        %22 = arith.muli %2, %c8_i32 : i32
        %23:2 = tilus.fast_divmod %arg0, %22
        %24 = arith.muli %23#0, %c8_i32 : i32
        %25 = arith.subi %3, %24 : i32
        %26 = arith.minsi %25, %c8_i32 : i32
        %27 = arith.divui %23#1, %26 : i32
        %28 = arith.remui %23#1, %26 : i32
        %29 = arith.addi %24, %28 : i32
        %30 = arith.muli %27, %c128_i32 : i32
        %31 = arith.muli %29, %c256_i32 : i32
        %32 = tilus.register_tensor init(%cst : f32) : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        %33:3 = scf.for %arg4 = %c0_i32 to %19 step %c1_i32 iter_args(%arg5 = %32, %arg6 = %arg2, %arg7 = %arg1) -> (!tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32)  : i32 {
          mbarrier.wait %16[%arg6 : i32], phase(%arg7) : !mbarrier.barriers<4>
          %37 = tilus.slice_shared %14[%arg6, %c1_i32] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
          %38 = tilus.slice_shared %15[%arg6] : !tilus.shared<4x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
          %39 = tilus.permute_shared %38 [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
          wgmma.fence
          %40 = wgmma.mma %37, %39, %arg5 : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
          wgmma.commit_group
          wgmma.wait_group 0
          mbarrier.arrive %17[%arg6 : i32] : !mbarrier.barriers<4>
          %41 = arith.addi %arg6, %c1_i32 : i32
          %42 = arith.cmpi eq, %41, %c4_i32 : i32
          %43 = arith.select %42, %c0_i32, %41 : i32
          %44 = arith.xori %arg7, %c1_i32 : i32
          %45 = arith.select %42, %44, %arg7 : i32
          scf.yield %40, %43, %45 : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32
        }
        %34 = tilus.cast %33#0 : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        %35 = arith.addi %30, %c64_i32 : i32
        tilus.store_global %34, %13[%35, %31] : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
        %36 = arith.addi %arg3, %19 : i32
        scf.yield %33#2, %33#1, %36 : i32, i32, i32
      }
    }
    threadgroup.sync
    tilus.free_shared %14 : !tilus.shared<4x2x64x64xf16, swizzle = 128B>
    tilus.free_shared %15 : !tilus.shared<4x256x64xf16, swizzle = 128B>
  }
  tilus.kernel @matmul_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32) warps(4) blocks(#map1) {
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tilus.block_id x
    %1 = tilus.block_id y
    %2 = arith.muli %0, %c64_i32 : i32
    %3 = arith.muli %1, %c64_i32 : i32
    %4 = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
    %5 = tilus.global_view %b[%k, %n] strides[%k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [1, ?]>
    %6 = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
    %7 = tilus.register_tensor init(%cst : f32) : !tilus.reg<64x64xf32>
    %8 = scf.for %arg0 = %c0_i32 to %k step %c32_i32 iter_args(%arg1 = %7) -> (!tilus.reg<64x64xf32>)  : i32 {
      %10 = tilus.load_global %4[%2, %arg0] : !tilus.global<?x?xf16> -> !tilus.reg<64x32xf16>
      %11 = tilus.load_global %5[%arg0, %3] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<32x64xf16>
      %12 = tilus.dot %10, %11, %arg1 : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
      scf.yield %12 : !tilus.reg<64x64xf32>
    }
    %9 = tilus.cast %8 : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
    tilus.store_global %9, %6[%2, %3] : !tilus.reg<64x64xf16>, !tilus.global<?x?xf16>
  }
}

