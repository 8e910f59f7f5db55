#!/usr/bin/env python3
"""Counts the integer and address instructions of a PTX file (docs/perf.md, eqsat).

Usage: bench/ptx_int_count.py FILE.ptx
       bench/ptx_int_count.py --movs FILE.ptx   (prints the constant and register-to-register
                                                integer moves among them: "CONST REG")

Counted: add sub mul mad div rem and or xor not shl shr min max neg abs selp setp cvt mov cvta
bfe bfi prmt with an integer or bit type (.s8-.s64, .u8-.u64, .b16-.b64), including constant
moves; a braced move counts when its source is a literal (`mov.b32 {%h1, %h2}, 0` zeroes two
registers with one instruction, and counts once); not counted: float arithmetic, float
conversions, vector (un)packing moves between registers (`mov.b32 {%h1, %h2}, %r1`), loads,
stores, barriers, branches.
"""
import re
import sys

ROOTS = {'add', 'sub', 'mul', 'mad', 'div', 'rem', 'and', 'or', 'xor', 'not', 'shl', 'shr',
         'min', 'max', 'neg', 'abs', 'selp', 'setp', 'cvt', 'mov', 'cvta', 'bfe', 'bfi', 'prmt'}
movs = sys.argv[1] == '--movs'
path = sys.argv[2] if movs else sys.argv[1]
if movs:
    const = reg = 0
    for line in open(path):
        t = line.strip()
        if re.match(r'mov\.[bus](16|32|64)\s+(%\w+|\{[%\w,\s]+\}),\s*(-?\d+|0x[0-9a-fA-F]+);', t):
            const += 1
        elif re.match(r'mov\.[bus](16|32|64)\s+%\w+,\s*%\w+;', t):
            reg += 1
    print(const, reg)
    sys.exit(0)
n = 0
for line in open(path):
    s = line.strip()
    if not s or s.startswith(('.', '//', '$', '{', '}')):
        continue
    if s.startswith('@'):
        s = s.split(None, 1)[1]
    op = s.split()[0]
    root = op.split('.')[0]
    if root not in ROOTS or not re.search(r'\.(s|u|b)(8|16|32|64)\b', op):
        continue
    if root == 'mov' and '{' in s and not re.search(r'\},\s*(-?\d+|0x[0-9a-fA-F]+);', s):
        continue
    if root == 'cvt' and re.search(r'\.f(16|32|64)|\.bf16|\.rn|\.rz|\.rm|\.rp|\.sat', op):
        continue
    n += 1
print(n)
