#map = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6)>
#map1 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 64, d4 ceildiv 64)>
module {
  tilus.kernel @hopper_matmul_v1_persistent(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32, %num_sms: i32) warps(12) blocks(#map) attributes {tilus.args = {k = 320 : i32, m = 256 : i32, n = 512 : i32, num_sms = 3 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
    %c192_i32 = arith.constant 192 : i32
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
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
    %5 = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
    %6 = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
    %7 = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
    %8 = arith.ceildivsi %n, %c64_i32 : i32
    %9 = arith.muli %8, %c64_i32 : i32
    %10 = tilus.global_view %c[%m, %9] strides[%9] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [?, 1]>
    %11 = arith.remsi %n, %c64_i32 : i32
    %12 = arith.cmpi eq, %11, %c0_i32 : i32
    %13 = tilus.shared_tensor : !tilus.shared<3x2x64x64xf16, swizzle = 128B>
    %14 = tilus.shared_tensor : !tilus.shared<3x256x64xf16, swizzle = 128B>
    %15 = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
    %16 = mbarrier.alloc counts [256, 256, 256] : !mbarrier.barriers<3>
    %17 = arith.ceildivsi %k, %c64_i32 : i32
    %18 = arith.maxsi %17, %c0_i32 : i32
    threadgroup.warp_group warps(8, 4) {
      threadgroup.setmaxnreg dec 40
      threadgroup.single_warp {
        %23 = mbarrier.producer_initial_phase
        %24:2 = scf.for %arg0 = %0 to %4 step %1 iter_args(%arg1 = %c0_i32, %arg2 = %23) -> (i32, i32)  : i32 {
          %25 = arith.muli %2, %c8_i32 : i32
          %26:2 = tilus.fast_divmod %arg0, %25
          %27 = arith.muli %26#0, %c8_i32 : i32
          %28 = arith.subi %3, %27 : i32
          %29 = arith.minsi %28, %c8_i32 : i32
          %30 = arith.divui %26#1, %29 : i32
          %31 = arith.remui %26#1, %29 : i32
          %32 = arith.addi %27, %31 : i32
          %33 = arith.muli %30, %c128_i32 : i32
          %34 = arith.muli %32, %c256_i32 : i32
          %35:2 = scf.for %arg3 = %c0_i32 to %18 step %c1_i32 iter_args(%arg4 = %arg1, %arg5 = %arg2) -> (i32, i32)  : i32 {
            mbarrier.wait %16[%arg4 : i32], phase(%arg5) : !mbarrier.barriers<3>
            %36 = arith.muli %arg3, %c64_i32 : i32
            %37 = tilus.slice_shared %14[%arg4] : !tilus.shared<3x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
            threadgroup.single_thread {
              mbarrier.arrive_expect_tx %15[%arg4 : i32], %c49152_i32 : !mbarrier.barriers<3>
            }
            %38 = tilus.slice_shared %13[%arg4, %c0_i32] : !tilus.shared<3x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            tma.global_to_shared %5[%33, %36 : i32, i32], %38, %15[%arg4 : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
            %39 = tilus.slice_shared %13[%arg4, %c1_i32] : !tilus.shared<3x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            %40 = arith.addi %33, %c64_i32 : i32
            tma.global_to_shared %5[%40, %36 : i32, i32], %39, %15[%arg4 : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
            tma.global_to_shared %6[%34, %36 : i32, i32], %37, %15[%arg4 : i32] : !tilus.global<?x?xf16>, !tilus.shared<256x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
            %41 = arith.addi %arg4, %c1_i32 : i32
            %42 = arith.cmpi eq, %41, %c3_i32 : i32
            %43 = arith.select %42, %c0_i32, %41 : i32
            %44 = arith.xori %arg5, %c1_i32 : i32
            %45 = arith.select %42, %44, %arg5 : i32
            scf.yield %43, %45 : i32, i32
          }
          scf.yield %35#0, %35#1 : i32, i32
        }
      }
    }
    %19 = tilus.shared_tensor : !tilus.shared<4x64x64xf16, swizzle = 128B>
    %20 = tilus.permute_shared %19 [1, 0, 2] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
    threadgroup.warp_group warps(0, 4) {
      threadgroup.setmaxnreg inc 232
      %23 = mbarrier.consumer_initial_phase
      %24:3 = scf.for %arg0 = %0 to %4 step %1 iter_args(%arg1 = %23, %arg2 = %c0_i32, %arg3 = %c0_i32) -> (i32, i32, i32)  : i32 {
        %25 = arith.muli %2, %c8_i32 : i32
        %26:2 = tilus.fast_divmod %arg0, %25
        %27 = arith.muli %26#0, %c8_i32 : i32
        %28 = arith.subi %3, %27 : i32
        %29 = arith.minsi %28, %c8_i32 : i32
        %30 = arith.divui %26#1, %29 : i32
        %31 = arith.remui %26#1, %29 : i32
        %32 = arith.addi %27, %31 : i32
        %33 = arith.muli %30, %c128_i32 : i32
        %34 = arith.muli %32, %c256_i32 : i32
        %35 = tilus.register_tensor init(%cst : f32) : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        %36:3 = scf.for %arg4 = %c0_i32 to %18 step %c1_i32 iter_args(%arg5 = %35, %arg6 = %arg2, %arg7 = %arg1) -> (!tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32)  : i32 {
          mbarrier.wait %15[%arg6 : i32], phase(%arg7) : !mbarrier.barriers<3>
          %39 = tilus.slice_shared %13[%arg6, %c0_i32] : !tilus.shared<3x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
          %40 = tilus.slice_shared %14[%arg6] : !tilus.shared<3x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
          %41 = tilus.permute_shared %40 [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
          wgmma.fence
          %42 = wgmma.mma %39, %41, %arg5 : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
          wgmma.commit_group
          wgmma.wait_group 0
          mbarrier.arrive %16[%arg6 : i32] : !mbarrier.barriers<3>
          %43 = arith.addi %arg6, %c1_i32 : i32
          %44 = arith.cmpi eq, %43, %c3_i32 : i32
          %45 = arith.select %44, %c0_i32, %43 : i32
          %46 = arith.xori %arg7, %c1_i32 : i32
          %47 = arith.select %44, %46, %arg7 : i32
          scf.yield %42, %45, %47 : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32
        }
        %37 = tilus.cast %36#0 : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        scf.if %12 {
          threadgroup.single_thread {
            tma.wait_group 0 read
          }
          threadgroup.sync
          tilus.store_shared %37, %20 : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
          tma.fence_proxy_async shared
          threadgroup.sync
          threadgroup.single_thread {
            %39 = tilus.slice_shared %19[%c0_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            tma.shared_to_global %39, %10[%33, %34 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
            %40 = tilus.slice_shared %19[%c1_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            %41 = arith.addi %34, %c64_i32 : i32
            tma.shared_to_global %40, %10[%33, %41 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
            %42 = tilus.slice_shared %19[%c2_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            %43 = arith.addi %34, %c128_i32 : i32
            tma.shared_to_global %42, %10[%33, %43 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
            %44 = tilus.slice_shared %19[%c3_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            %45 = arith.addi %34, %c192_i32 : i32
            tma.shared_to_global %44, %10[%33, %45 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
            tma.commit_group
          }
        } else {
          tilus.store_global %37, %7[%33, %34] : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
        }
        %38 = arith.addi %arg3, %18 : i32
        scf.yield %36#2, %36#1, %38 : i32, i32, i32
      }
      threadgroup.single_thread {
        tma.wait_group 0
      }
      threadgroup.sync
    }
    %21 = tilus.shared_tensor : !tilus.shared<4x64x64xf16, swizzle = 128B>
    %22 = tilus.permute_shared %21 [1, 0, 2] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
    threadgroup.warp_group warps(4, 4) {
      threadgroup.setmaxnreg inc 232
      %23 = mbarrier.consumer_initial_phase
      %24:3 = scf.for %arg0 = %0 to %4 step %1 iter_args(%arg1 = %23, %arg2 = %c0_i32, %arg3 = %c0_i32) -> (i32, i32, i32)  : i32 {
        %25 = arith.muli %2, %c8_i32 : i32
        %26:2 = tilus.fast_divmod %arg0, %25
        %27 = arith.muli %26#0, %c8_i32 : i32
        %28 = arith.subi %3, %27 : i32
        %29 = arith.minsi %28, %c8_i32 : i32
        %30 = arith.divui %26#1, %29 : i32
        %31 = arith.remui %26#1, %29 : i32
        %32 = arith.addi %27, %31 : i32
        %33 = arith.muli %30, %c128_i32 : i32
        %34 = arith.muli %32, %c256_i32 : i32
        %35 = tilus.register_tensor init(%cst : f32) : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        %36:3 = scf.for %arg4 = %c0_i32 to %18 step %c1_i32 iter_args(%arg5 = %35, %arg6 = %arg2, %arg7 = %arg1) -> (!tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32)  : i32 {
          mbarrier.wait %15[%arg6 : i32], phase(%arg7) : !mbarrier.barriers<3>
          %40 = tilus.slice_shared %13[%arg6, %c1_i32] : !tilus.shared<3x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
          %41 = tilus.slice_shared %14[%arg6] : !tilus.shared<3x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
          %42 = tilus.permute_shared %41 [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
          wgmma.fence
          %43 = wgmma.mma %40, %42, %arg5 : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
          wgmma.commit_group
          wgmma.wait_group 0
          mbarrier.arrive %16[%arg6 : i32] : !mbarrier.barriers<3>
          %44 = arith.addi %arg6, %c1_i32 : i32
          %45 = arith.cmpi eq, %44, %c3_i32 : i32
          %46 = arith.select %45, %c0_i32, %44 : i32
          %47 = arith.xori %arg7, %c1_i32 : i32
          %48 = arith.select %45, %47, %arg7 : i32
          scf.yield %43, %46, %48 : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32
        }
        %37 = tilus.cast %36#0 : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        %38 = arith.addi %33, %c64_i32 : i32
        scf.if %12 {
          threadgroup.single_thread {
            tma.wait_group 0 read
          }
          threadgroup.sync
          tilus.store_shared %37, %22 : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
          tma.fence_proxy_async shared
          threadgroup.sync
          threadgroup.single_thread {
            %40 = tilus.slice_shared %21[%c0_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            tma.shared_to_global %40, %10[%38, %34 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
            %41 = tilus.slice_shared %21[%c1_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            %42 = arith.addi %34, %c64_i32 : i32
            tma.shared_to_global %41, %10[%38, %42 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
            %43 = tilus.slice_shared %21[%c2_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            %44 = arith.addi %34, %c128_i32 : i32
            tma.shared_to_global %43, %10[%38, %44 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
            %45 = tilus.slice_shared %21[%c3_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            %46 = arith.addi %34, %c192_i32 : i32
            tma.shared_to_global %45, %10[%38, %46 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
            tma.commit_group
          }
        } else {
          tilus.store_global %37, %7[%38, %34] : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
        }
        %39 = arith.addi %arg3, %18 : i32
        scf.yield %36#2, %36#1, %39 : i32, i32, i32
      }
      threadgroup.single_thread {
        tma.wait_group 0
      }
      threadgroup.sync
    }
    threadgroup.sync
    tilus.free_shared %13 : !tilus.shared<3x2x64x64xf16, swizzle = 128B>
    tilus.free_shared %14 : !tilus.shared<3x256x64xf16, swizzle = 128B>
    tilus.free_shared %19 : !tilus.shared<4x64x64xf16, swizzle = 128B>
    tilus.free_shared %21 : !tilus.shared<4x64x64xf16, swizzle = 128B>
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

