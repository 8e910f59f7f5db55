#!/usr/bin/env python3
"""Generates generic-form MLIR files for the compiler-speed benchmark.

Each function body mixes arith ops (70%) with unregistered ops carrying attributes (30%), and
every 50 ops opens an `scf.for` whose body nests another region, so parsing, verifying and
printing see nested regions, block arguments and dominance across regions.

usage: gen_ir.py N_OPS OUT.mlir
"""
import sys


def main():
    n = int(sys.argv[1])
    out = open(sys.argv[2], "w")
    w = out.write
    w('"builtin.module"() ({\n')
    ops = 0
    fn = 0
    while ops < n:
        w(f'  "func.func"() <{{function_type = (i32, index) -> i32, sym_name = "f{fn}"}}> ({{\n')
        w("  ^bb0(%arg0: i32, %arg1: index):\n")
        w('    %c0 = "arith.constant"() <{value = 0 : index}> : () -> index\n')
        w('    %c1 = "arith.constant"() <{value = 1 : index}> : () -> index\n')
        ops += 2
        last = "%arg0"
        k = 0
        body = min(2000, n - ops)
        i = 0
        while i < body:
            if i % 50 == 49:
                # A loop whose body is another region (two levels of nesting).
                w(f'    "scf.for"(%c0, %arg1, %c1) ({{\n')
                w(f"    ^bb0(%iv{k}: index):\n")
                w(f'      %l{k} = "arith.addi"({last}, {last}) : (i32, i32) -> i32\n')
                w(f'      "t.inner"(%l{k}) ({{\n')
                w(f'        %m{k} = "arith.muli"(%l{k}, %l{k}) : (i32, i32) -> i32\n')
                w(f'        "t.use"(%m{k}) {{tag = "inner{k}"}} : (i32) -> ()\n')
                w("      }) : (i32) -> ()\n")
                w('      "scf.yield"() : () -> ()\n')
                w("    }) : (index, index, index) -> ()\n")
                i += 6
                ops += 6
            elif i % 10 in (3, 6, 9):
                w(f'    %v{k} = "t.op{i % 7}"({last}) {{a = {i} : i64, s = "x{i}", l = [1, 2, 3]}} : (i32) -> i32\n')
                last = f"%v{k}"
                i += 1
                ops += 1
            else:
                op = ("arith.addi", "arith.muli", "arith.subi", "arith.xori")[i % 4]
                w(f'    %v{k} = "{op}"({last}, %arg0) : (i32, i32) -> i32\n')
                last = f"%v{k}"
                i += 1
                ops += 1
            k += 1
        w(f'    "func.return"({last}) : (i32) -> ()\n')
        w("  }) : () -> ()\n")
        ops += 1
        fn += 1
    w("}) : () -> ()\n")


if __name__ == "__main__":
    main()
