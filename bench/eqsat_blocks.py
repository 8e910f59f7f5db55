#!/usr/bin/env python3
"""One block of N integer ops, for the eqsat scaling benchmark (docs/perf.md).

Usage: bench/eqsat_blocks.py N [--loads] > block.mlir

The block looks like the address arithmetic the lowering makes: adds, multiplies and shifts
by constants, masks and unsigned divisions of earlier values (each op reads values from the
last 16, so the graph is as local as real index code), every 8th value stored.

Without `--loads` the only runtime values are the thread id and two kernel arguments, so the
range analysis folds most of the block to constants as the graph is built (masks and
divisions of small values) and the e-graph ends far smaller than the input. With `--loads`
the block also loads a value from global memory after every 8th op (next to the store) and
the ops read those loads as well: the same kind of arithmetic over values that no analysis
can know, so it does not fold away and the e-graph grows with the block.
"""
import random
import sys

n = int(sys.argv[1])
loads = "--loads" in sys.argv[2:]
rng = random.Random(1)
print("ptx.entry @block(%p: i64, %a: i32, %b: i32) attributes {maxntid = 256 : i64, target = \"sm_90a\"} {")
print("  %t = ptx.special tid.x : i32")
consts = [0, 1, 2, 3, 4, 5, 7, 8, 12, 15, 16, 31, 32, 64, 65, 255, 4096]
for c in consts:
    print(f"  %c{c} = arith.constant {c} : i32")
vals = ["%t", "%a", "%b"]
ops = ["addi", "addi", "muli", "shli", "andi", "shrui", "divui", "remui", "subi", "ori"]
for i in range(n):
    op = rng.choice(ops)
    x = rng.choice(vals[-16:])
    if op in ("shli", "shrui"):
        y = f"%c{rng.choice([1, 2, 3, 4, 5])}"
    elif op in ("muli", "andi", "divui", "remui") or rng.random() < 0.5:
        y = f"%c{rng.choice([c for c in consts if c > 0])}"
    else:
        y = rng.choice(vals[-16:])
    print(f"  %v{i} = arith.{op} {x}, {y} : i32")
    vals.append(f"%v{i}")
    if i % 8 == 7:
        print(f"  ptx.inst \"st.global.b32\" [%p], %v{i} : (i64, i32) -> ()")
        if loads:
            print(f"  %l{i} = ptx.inst \"ld.global.b32\" [%p+{4 * i}] : (i64) -> i32")
            vals.append(f"%l{i}")
print("  ptx.ret")
print("}")
