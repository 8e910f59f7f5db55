#!/usr/bin/env python3
"""Counts the integer and address instructions of a PTX file (docs/perf.md, eqsat).

Usage: bench/ptx_int_count.py FILE.ptx

Counted: add sub mul mad div rem and or xor not shl shr min max neg abs selp setp cvt mov cvta
bfe bfi prmt with an integer or bit type (.s8-.s64, .u8-.u64, .b16-.b64), including constant
moves; not counted: float arithmetic, float conversions, vector (un)packing moves
(`mov.b32 {%h1, %h2}, %r1`), loads, stores, barriers, branches.
"""
import re
import sys

ROOTS = {'add', 'sub', 'mul', 'mad', 'div', 'rem', 'and', 'or', 'xor', 'not', 'shl', 'shr',
         'min', 'max', 'neg', 'abs', 'selp', 'setp', 'cvt', 'mov', 'cvta', 'bfe', 'bfi', 'prmt'}
n = 0
for line in open(sys.argv[1]):
    s = line.strip()
    if not s or s.startswith(('.', '//', '$', '{', '}')):
        continue
    if s.startswith('@'):
        s = s.split(None, 1)[1]
    op = s.split()[0]
    root = op.split('.')[0]
    if root not in ROOTS or not re.search(r'\.(s|u|b)(8|16|32|64)\b', op):
        continue
    if root == 'mov' and '{' in s:
        continue
    if root == 'cvt' and re.search(r'\.f(16|32|64)|\.bf16|\.rn|\.rz|\.rm|\.rp|\.sat', op):
        continue
    n += 1
print(n)
