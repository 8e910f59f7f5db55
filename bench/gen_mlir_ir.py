#!/usr/bin/env python3
"""Generates custom-form MLIR for the compiler benchmark on IR as mlir-opt prints it.

`bench/mlir_printed.sh` passes the output through `mlir-opt --mlir-print-op-generic`, so the files
the tools are timed on carry what MLIR itself writes: `overflowFlags = #arith.overflow<...>` on
integer arith ops, `fastmath = #arith.fastmath<...>` on float ones, `predicate` properties on
compares, `scf.for` with iteration arguments and `scf.if` with results, discardable dialect
attributes with nested bodies and types, and (with UNREG_PERCENT > 0) unregistered ops that take
and produce dialect types.

usage: gen_mlir_ir.py N_OPS UNREG_PERCENT OUT.mlir

N_OPS counts the ops mlir-opt will print (module, functions and terminators included), to within
one function body.
"""
import sys

INT_BIN = ("addi", "muli", "subi", "xori", "andi", "ori", "shli", "maxsi", "divui", "remsi")
OVERFLOW = ("arith.addi", "arith.muli", "arith.subi", "arith.shli")
FLOAT_BIN = ("addf", "mulf", "subf", "maximumf", "divf")
PREDS = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
FPREDS = ("oeq", "olt", "ogt", "une", "uno", "ord")


def main():
    n = int(sys.argv[1])
    unreg = int(sys.argv[2])
    out = open(sys.argv[3], "w")
    w = out.write
    ops = 1  # the module
    fn = 0
    # A deterministic stream of choices: unregistered ops on a fixed fraction of the slots.
    slot = 0

    def is_unreg():
        nonlocal slot
        slot += 1
        return unreg > 0 and (slot * unreg) // 100 != ((slot - 1) * unreg) // 100

    w('module attributes {t.target = #t.target<arch = "sm_90a", features = [#t.feature<"tma">, #t.feature<"wgmma">]>} {\n')
    while ops < n:
        w(f"  func.func @f{fn}(%arg0: i32, %arg1: index, %arg2: f32) -> i32 attributes {{t.kind = #t.kind<kernel, grid = [1, 2, 3]>}} {{\n")
        w("    %c0 = arith.constant 0 : index\n")
        w("    %c1 = arith.constant 1 : index\n")
        w("    %k7 = arith.constant 7 : i32\n")
        ops += 5  # func, three constants, return
        ilast, flast = "%arg0", "%arg2"
        body = min(2000, n - ops)
        i = 0
        k = 0
        while i < body:
            k += 1
            v = f"%v{k}"
            if i % 97 == 96:
                # A loop carrying an integer, with a nested if yielding a value.
                w(f"    {v} = scf.for %iv{k} = %c0 to %arg1 step %c1 iter_args(%acc{k} = {ilast}) -> (i32) {{\n")
                w(f"      %a{k} = arith.addi %acc{k}, %k7 overflow<nsw> : i32\n")
                w(f"      %p{k} = arith.cmpi slt, %a{k}, %arg0 : i32\n")
                w(f"      %s{k} = scf.if %p{k} -> (i32) {{\n")
                w(f"        %m{k} = arith.muli %a{k}, %a{k} : i32\n")
                w(f"        scf.yield %m{k} : i32\n")
                w("      } else {\n")
                w(f"        scf.yield %a{k} : i32\n")
                w("      }\n")
                w(f"      scf.yield %s{k} : i32\n")
                w("    }\n")
                ilast = v
                i += 8
                ops += 8
                continue
            if is_unreg():
                m = k % 4
                if m == 0:
                    w(f'    {v} = "t.load"({ilast}) {{layout = #t.layout<[4, 8], order = [1, 0], elem = !t.elt<f32>>, s = "x{k}"}} : (i32) -> !t.tile<16x16xf32>\n')
                    w(f'    %u{k} = "t.reduce"({v}) {{axis = {k % 2} : i64, kind = #t.combine<add>}} : (!t.tile<16x16xf32>) -> i32\n')
                    ilast = f"%u{k}"
                    i += 2
                    ops += 2
                elif m == 1:
                    w(f'    {v} = "t.op{k % 7}"({ilast}, %arg0) {{a = {k} : i64, l = [1, 2, 3], t = tensor<4x?xf32>}} : (i32, i32) -> i32\n')
                    ilast = v
                    i += 1
                    ops += 1
                elif m == 2:
                    w(f'    {v} = "t.cvt"({flast}) <{{mode = #t.round<nearest>}}> : (f32) -> f32\n')
                    flast = v
                    i += 1
                    ops += 1
                else:
                    w(f'    "t.store"({ilast}, {flast}) {{cache = #t.cache<level = 2, policy = "evict_first">, dims = array<i64: 1, 2>}} : (i32, f32) -> ()\n')
                    i += 1
                    ops += 1
                continue
            m = k % 10
            if m < 5:
                op = INT_BIN[k % len(INT_BIN)]
                flags = " overflow<nsw>" if f"arith.{op}" in OVERFLOW and k % 3 == 0 else ""
                w(f"    {v} = arith.{op} {ilast}, %arg0{flags} : i32\n")
                ilast = v
            elif m == 5:
                w(f"    %q{k} = arith.cmpi {PREDS[k % len(PREDS)]}, {ilast}, %k7 : i32\n")
                w(f"    {v} = arith.select %q{k}, {ilast}, %arg0 : i32\n")
                ilast = v
                i += 1
                ops += 1
            elif m == 6:
                fm = " fastmath<fast>" if k % 4 == 0 else ""
                w(f"    {v} = arith.{FLOAT_BIN[k % len(FLOAT_BIN)]} {flast}, %arg2{fm} : f32\n")
                flast = v
            elif m == 7:
                w(f"    {v} = arith.constant {k} : i32\n")
                w(f"    %w{k} = arith.addi {ilast}, {v} : i32\n")
                ilast = f"%w{k}"
                i += 1
                ops += 1
            elif m == 8:
                w(f"    %q{k} = arith.cmpf {FPREDS[k % len(FPREDS)]}, {flast}, %arg2 : f32\n")
                w(f"    {v} = arith.extui %q{k} : i1 to i32\n")
                w(f"    %w{k} = arith.ori {ilast}, {v} {{t.note = #t.info<kind = \"merge\", at = [{k % 5}, 1]>}} : i32\n")
                ilast = f"%w{k}"
                i += 2
                ops += 2
            else:
                w(f"    {v} = arith.index_cast {ilast} : i32 to index\n")
                w(f"    %w{k} = arith.index_cast {v} : index to i32\n")
                ilast = f"%w{k}"
                i += 1
                ops += 1
            i += 1
            ops += 1
        w(f"    return {ilast} : i32\n")
        w("  }\n")
        fn += 1
    w("}\n")


if __name__ == "__main__":
    main()
