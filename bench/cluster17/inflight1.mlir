// tilus-opt examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2 mma-in-flight=1},tma-store-epilogue,canonicalize)'
// (issue 17 timing variant: the passes' kernel releasing each stage one k-step late, after wgmma.wait_group 1)
#map = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6)>
#map1 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 64, d4 ceildiv 64)>
module {
  tilus.kernel @hopper_matmul_v1_persistent(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32, %num_sms: i32) warps(12) blocks(#map) attributes {tilus.args = {k = 320 : i32, m = 256 : i32, n = 512 : i32, num_sms = 3 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
    %c6_i32 = arith.constant 6 : i32
    %c4_i32 = arith.constant 4 : i32
    %c2_i32 = arith.constant 2 : i32
    %false = arith.constant false
    %c3_i32 = arith.constant 3 : i32
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
    %14 = arith.ceildivsi %n, %c64_i32 : i32
    %15 = arith.muli %14, %c64_i32 : i32
    %16 = tilus.global_view %c[%m, %15] strides[%15] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [?, 1]>
    %17 = arith.remsi %n, %c64_i32 : i32
    %18 = arith.cmpi eq, %17, %c0_i32 : i32
    %19 = tilus.shared_tensor : !tilus.shared<3x2x64x64xf16, swizzle = 128B>
    %20 = tilus.shared_tensor : !tilus.shared<3x256x64xf16, swizzle = 128B>
    %21 = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
    %22 = mbarrier.alloc counts [256, 256, 256] : !mbarrier.barriers<3>
    %23 = arith.ceildivsi %k, %c64_i32 : i32
    %24 = arith.maxsi %23, %c0_i32 : i32
    threadgroup.warp_group warps(8, 4) {
      threadgroup.setmaxnreg dec 40
      threadgroup.single_warp {
        %29 = mbarrier.producer_initial_phase
        %30:2 = scf.for %arg0 = %0 to %10 step %8 iter_args(%arg1 = %c0_i32, %arg2 = %29) -> (i32, i32)  : i32 {
          %31 = arith.muli %2, %c8_i32 : i32
          %32:2 = tilus.fast_divmod %arg0, %31
          %33 = arith.muli %32#0, %c8_i32 : i32
          %34 = arith.subi %3, %33 : i32
          %35 = arith.minsi %34, %c8_i32 : i32
          %36 = arith.divui %32#1, %35 : i32
          %37 = arith.remui %32#1, %35 : i32
          %38 = arith.addi %33, %37 : i32
          %39 = arith.muli %36, %c128_i32 : i32
          %40 = arith.muli %38, %c256_i32 : i32
          %41:2 = scf.for %arg3 = %c0_i32 to %24 step %c1_i32 iter_args(%arg4 = %arg1, %arg5 = %arg2) -> (i32, i32)  : i32 {
            mbarrier.wait %22[%arg4 : i32], phase(%arg5) : !mbarrier.barriers<3>
            %42 = arith.muli %arg3, %c64_i32 : i32
            %43 = tilus.slice_shared %20[%arg4] : !tilus.shared<3x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
            threadgroup.single_thread {
              mbarrier.arrive_expect_tx %21[%arg4 : i32], %c49152_i32 : !mbarrier.barriers<3>
            }
            %44 = tilus.slice_shared %19[%arg4, %c0_i32] : !tilus.shared<3x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            tma.global_to_shared %11[%39, %42 : i32, i32], %44, %21[%arg4 : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
            %45 = tilus.slice_shared %19[%arg4, %c1_i32] : !tilus.shared<3x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            %46 = arith.addi %39, %c64_i32 : i32
            tma.global_to_shared %11[%46, %42 : i32, i32], %45, %21[%arg4 : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
            tma.global_to_shared %12[%40, %42 : i32, i32], %43, %21[%arg4 : i32] : !tilus.global<?x?xf16>, !tilus.shared<256x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
            %47 = arith.addi %arg4, %c1_i32 : i32
            %48 = arith.cmpi eq, %47, %c3_i32 : i32
            %49 = arith.select %48, %c0_i32, %47 : i32
            %50 = arith.xori %arg5, %c1_i32 : i32
            %51 = arith.select %48, %50, %arg5 : i32
            scf.yield %49, %51 : i32, i32
          }
          scf.yield %41#0, %41#1 : i32, i32
        }
      }
    }
    %25 = tilus.shared_tensor : !tilus.shared<4x64x64xf16, swizzle = 128B>
    %26 = tilus.permute_shared %25 [1, 0, 2] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
    threadgroup.warp_group warps(0, 4) {
      threadgroup.setmaxnreg inc 232
      %29 = mbarrier.consumer_initial_phase
      %30 = tilus.register_tensor : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
      %31:7 = scf.for %arg0 = %0 to %10 step %8 iter_args(%arg1 = %29, %arg2 = %c0_i32, %arg3 = %c0_i32, %arg4 = %c0_i32, %arg5 = %c0_i32, %arg6 = %false, %arg7 = %30) -> (i32, i32, i32, i32, i32, i1, !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>)  : i32 {
        %32 = arith.muli %2, %c8_i32 : i32
        %33:2 = tilus.fast_divmod %arg0, %32
        %34 = arith.muli %33#0, %c8_i32 : i32
        %35 = arith.subi %3, %34 : i32
        %36 = arith.minsi %35, %c8_i32 : i32
        %37 = arith.divui %33#1, %36 : i32
        %38 = arith.remui %33#1, %36 : i32
        %39 = arith.addi %34, %38 : i32
        %40 = arith.muli %37, %c128_i32 : i32
        %41 = arith.muli %39, %c256_i32 : i32
        %42 = tilus.register_tensor init(%cst : f32) : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        %43:3 = scf.for %arg8 = %c0_i32 to %24 step %c1_i32 iter_args(%arg9 = %42, %arg10 = %arg2, %arg11 = %arg1) -> (!tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32)  : i32 {
          mbarrier.wait %21[%arg10 : i32], phase(%arg11) : !mbarrier.barriers<3>
          %53 = tilus.slice_shared %19[%arg10, %c0_i32] : !tilus.shared<3x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
          %54 = tilus.slice_shared %20[%arg10] : !tilus.shared<3x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
          %55 = tilus.permute_shared %54 [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
          wgmma.fence
          %56 = wgmma.mma %53, %55, %arg9 : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
          wgmma.commit_group
          %57 = arith.cmpi eq, %arg8, %c0_i32 : i32
          %58 = arith.andi %57, %arg6 : i1
          scf.if %58 {
            threadgroup.single_thread {
              tma.wait_group 0 read
            }
            threadgroup.sync
            tilus.store_shared %arg7, %26 : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
            tma.fence_proxy_async shared
            threadgroup.sync
            threadgroup.single_thread {
              %71 = tilus.slice_shared %25[%c0_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
              tma.shared_to_global %71, %16[%arg4, %arg5 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
              tma.commit_group
            }
          } else {
          }
          wgmma.wait_group 1
          %59 = arith.addi %arg10, %c2_i32 : i32
          %60 = arith.remui %59, %c3_i32 : i32
          %61 = arith.cmpi sge, %arg8, %c1_i32 : i32
          scf.if %61 {
            mbarrier.arrive %22[%60 : i32] : !mbarrier.barriers<3>
          }
          %62 = arith.addi %arg10, %c1_i32 : i32
          %63 = arith.cmpi eq, %62, %c3_i32 : i32
          %64 = arith.select %63, %c0_i32, %62 : i32
          %65 = arith.xori %arg11, %c1_i32 : i32
          %66 = arith.select %63, %65, %arg11 : i32
          %67 = arith.cmpi sge, %arg8, %c1_i32 : i32
          %68 = arith.cmpi slt, %arg8, %c4_i32 : i32
          %69 = arith.andi %67, %68 : i1
          %70 = arith.andi %69, %arg6 : i1
          scf.if %70 {
            threadgroup.single_thread {
              %71 = tilus.slice_shared %25[%arg8] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
              %72 = arith.shli %arg8, %c6_i32 : i32
              %73 = arith.addi %arg5, %72 : i32
              tma.shared_to_global %71, %16[%arg4, %73 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
              tma.commit_group
            }
          } else {
          }
          scf.yield %56, %64, %66 : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32
        }
        %44 = arith.cmpi slt, %24, %c1_i32 : i32
        %45 = arith.andi %44, %arg6 : i1
        scf.if %45 {
          threadgroup.single_thread {
            tma.wait_group 0 read
          }
          threadgroup.sync
          tilus.store_shared %arg7, %26 : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
          tma.fence_proxy_async shared
          threadgroup.sync
          threadgroup.single_thread {
            %53 = tilus.slice_shared %25[%c0_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            tma.shared_to_global %53, %16[%arg4, %arg5 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
            tma.commit_group
          }
        } else {
        }
        %46 = arith.minsi %24, %c4_i32 : i32
        %47 = arith.maxsi %46, %c1_i32 : i32
        scf.if %arg6 {
          scf.for %arg8 = %47 to %c4_i32 step %c1_i32  : i32 {
            threadgroup.single_thread {
              %53 = tilus.slice_shared %25[%arg8] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
              %54 = arith.shli %arg8, %c6_i32 : i32
              %55 = arith.addi %arg5, %54 : i32
              tma.shared_to_global %53, %16[%arg4, %55 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
              tma.commit_group
            }
          }
        } else {
        }
        wgmma.wait_group 0
        %48 = arith.cmpi sgt, %24, %c0_i32 : i32
        %49 = arith.addi %43#1, %c2_i32 : i32
        %50 = arith.remui %49, %c3_i32 : i32
        scf.if %48 {
          mbarrier.arrive %22[%50 : i32] : !mbarrier.barriers<3>
        }
        %51 = tilus.cast %43#0 : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        scf.if %18 {
        } else {
          tilus.store_global %51, %13[%40, %41] : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
        }
        %52 = arith.addi %arg3, %24 : i32
        scf.yield %43#2, %43#1, %52, %40, %41, %18, %51 : i32, i32, i32, i32, i32, i1, !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
      }
      scf.if %31#5 {
        threadgroup.single_thread {
          tma.wait_group 0 read
        }
        threadgroup.sync
        tilus.store_shared %31#6, %26 : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
        tma.fence_proxy_async shared
        threadgroup.sync
        threadgroup.single_thread {
          %32 = tilus.slice_shared %25[%c0_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
          tma.shared_to_global %32, %16[%31#3, %31#4 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
          tma.commit_group
        }
      } else {
      }
      scf.if %31#5 {
        scf.for %arg0 = %c1_i32 to %c4_i32 step %c1_i32  : i32 {
          threadgroup.single_thread {
            %32 = tilus.slice_shared %25[%arg0] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            %33 = arith.shli %arg0, %c6_i32 : i32
            %34 = arith.addi %31#4, %33 : i32
            tma.shared_to_global %32, %16[%31#3, %34 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
            tma.commit_group
          }
        }
      } else {
      }
      threadgroup.single_thread {
        tma.wait_group 0
      }
      threadgroup.sync
    }
    %27 = tilus.shared_tensor : !tilus.shared<4x64x64xf16, swizzle = 128B>
    %28 = tilus.permute_shared %27 [1, 0, 2] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
    threadgroup.warp_group warps(4, 4) {
      threadgroup.setmaxnreg inc 232
      %29 = mbarrier.consumer_initial_phase
      %30 = tilus.register_tensor : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
      %31:7 = scf.for %arg0 = %0 to %10 step %8 iter_args(%arg1 = %29, %arg2 = %c0_i32, %arg3 = %c0_i32, %arg4 = %c0_i32, %arg5 = %c0_i32, %arg6 = %false, %arg7 = %30) -> (i32, i32, i32, i32, i32, i1, !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>)  : i32 {
        %32 = arith.muli %2, %c8_i32 : i32
        %33:2 = tilus.fast_divmod %arg0, %32
        %34 = arith.muli %33#0, %c8_i32 : i32
        %35 = arith.subi %3, %34 : i32
        %36 = arith.minsi %35, %c8_i32 : i32
        %37 = arith.divui %33#1, %36 : i32
        %38 = arith.remui %33#1, %36 : i32
        %39 = arith.addi %34, %38 : i32
        %40 = arith.muli %37, %c128_i32 : i32
        %41 = arith.muli %39, %c256_i32 : i32
        %42 = tilus.register_tensor init(%cst : f32) : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        %43:3 = scf.for %arg8 = %c0_i32 to %24 step %c1_i32 iter_args(%arg9 = %42, %arg10 = %arg2, %arg11 = %arg1) -> (!tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32)  : i32 {
          mbarrier.wait %21[%arg10 : i32], phase(%arg11) : !mbarrier.barriers<3>
          %54 = tilus.slice_shared %19[%arg10, %c1_i32] : !tilus.shared<3x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
          %55 = tilus.slice_shared %20[%arg10] : !tilus.shared<3x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
          %56 = tilus.permute_shared %55 [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
          wgmma.fence
          %57 = wgmma.mma %54, %56, %arg9 : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
          wgmma.commit_group
          %58 = arith.cmpi eq, %arg8, %c0_i32 : i32
          %59 = arith.andi %58, %arg6 : i1
          scf.if %59 {
            threadgroup.single_thread {
              tma.wait_group 0 read
            }
            threadgroup.sync
            tilus.store_shared %arg7, %28 : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
            tma.fence_proxy_async shared
            threadgroup.sync
            threadgroup.single_thread {
              %72 = tilus.slice_shared %27[%c0_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
              tma.shared_to_global %72, %16[%arg4, %arg5 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
              tma.commit_group
            }
          } else {
          }
          wgmma.wait_group 1
          %60 = arith.addi %arg10, %c2_i32 : i32
          %61 = arith.remui %60, %c3_i32 : i32
          %62 = arith.cmpi sge, %arg8, %c1_i32 : i32
          scf.if %62 {
            mbarrier.arrive %22[%61 : i32] : !mbarrier.barriers<3>
          }
          %63 = arith.addi %arg10, %c1_i32 : i32
          %64 = arith.cmpi eq, %63, %c3_i32 : i32
          %65 = arith.select %64, %c0_i32, %63 : i32
          %66 = arith.xori %arg11, %c1_i32 : i32
          %67 = arith.select %64, %66, %arg11 : i32
          %68 = arith.cmpi sge, %arg8, %c1_i32 : i32
          %69 = arith.cmpi slt, %arg8, %c4_i32 : i32
          %70 = arith.andi %68, %69 : i1
          %71 = arith.andi %70, %arg6 : i1
          scf.if %71 {
            threadgroup.single_thread {
              %72 = tilus.slice_shared %27[%arg8] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
              %73 = arith.shli %arg8, %c6_i32 : i32
              %74 = arith.addi %arg5, %73 : i32
              tma.shared_to_global %72, %16[%arg4, %74 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
              tma.commit_group
            }
          } else {
          }
          scf.yield %57, %65, %67 : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32
        }
        %44 = arith.cmpi slt, %24, %c1_i32 : i32
        %45 = arith.andi %44, %arg6 : i1
        scf.if %45 {
          threadgroup.single_thread {
            tma.wait_group 0 read
          }
          threadgroup.sync
          tilus.store_shared %arg7, %28 : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
          tma.fence_proxy_async shared
          threadgroup.sync
          threadgroup.single_thread {
            %54 = tilus.slice_shared %27[%c0_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            tma.shared_to_global %54, %16[%arg4, %arg5 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
            tma.commit_group
          }
        } else {
        }
        %46 = arith.minsi %24, %c4_i32 : i32
        %47 = arith.maxsi %46, %c1_i32 : i32
        scf.if %arg6 {
          scf.for %arg8 = %47 to %c4_i32 step %c1_i32  : i32 {
            threadgroup.single_thread {
              %54 = tilus.slice_shared %27[%arg8] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
              %55 = arith.shli %arg8, %c6_i32 : i32
              %56 = arith.addi %arg5, %55 : i32
              tma.shared_to_global %54, %16[%arg4, %56 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
              tma.commit_group
            }
          }
        } else {
        }
        wgmma.wait_group 0
        %48 = arith.cmpi sgt, %24, %c0_i32 : i32
        %49 = arith.addi %43#1, %c2_i32 : i32
        %50 = arith.remui %49, %c3_i32 : i32
        scf.if %48 {
          mbarrier.arrive %22[%50 : i32] : !mbarrier.barriers<3>
        }
        %51 = tilus.cast %43#0 : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        %52 = arith.addi %40, %c64_i32 : i32
        scf.if %18 {
        } else {
          tilus.store_global %51, %13[%52, %41] : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
        }
        %53 = arith.addi %arg3, %24 : i32
        scf.yield %43#2, %43#1, %53, %52, %41, %18, %51 : i32, i32, i32, i32, i32, i1, !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
      }
      scf.if %31#5 {
        threadgroup.single_thread {
          tma.wait_group 0 read
        }
        threadgroup.sync
        tilus.store_shared %31#6, %28 : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
        tma.fence_proxy_async shared
        threadgroup.sync
        threadgroup.single_thread {
          %32 = tilus.slice_shared %27[%c0_i32] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
          tma.shared_to_global %32, %16[%31#3, %31#4 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
          tma.commit_group
        }
      } else {
      }
      scf.if %31#5 {
        scf.for %arg0 = %c1_i32 to %c4_i32 step %c1_i32  : i32 {
          threadgroup.single_thread {
            %32 = tilus.slice_shared %27[%arg0] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
            %33 = arith.shli %arg0, %c6_i32 : i32
            %34 = arith.addi %31#4, %33 : i32
            tma.shared_to_global %32, %16[%31#3, %34 : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
            tma.commit_group
          }
        }
      } else {
      }
      threadgroup.single_thread {
        tma.wait_group 0
      }
      threadgroup.sync
    }
    threadgroup.sync
    tilus.free_shared %19 : !tilus.shared<3x2x64x64xf16, swizzle = 128B>
    tilus.free_shared %20 : !tilus.shared<3x256x64xf16, swizzle = 128B>
    tilus.free_shared %25 : !tilus.shared<4x64x64xf16, swizzle = 128B>
    tilus.free_shared %27 : !tilus.shared<4x64x64xf16, swizzle = 128B>
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

