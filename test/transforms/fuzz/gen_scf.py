# Random functions with nested scf.for / scf.if regions over arith code (constants inside
# loops, expressions shared with the enclosing scope, dead region ops) for canonicalize and cse.
# Usage: gen_scf.py SEED
import random, sys
r = random.Random(int(sys.argv[1]))
cnt = [0]
def new():
    cnt[0] += 1
    return f'%v{cnt[0]}'
def body(vals, depth, lines, ind):
    sp = '  ' * ind
    for _ in range(r.randint(1, 6)):
        k = r.random()
        if k < 0.55 or depth >= 2:
            a = r.choice(vals)
            if r.random() < 0.4:
                c = new(); lines.append(f'{sp}{c} = arith.constant {r.choice([0, 1, 2, 7, -1])} : i32'); b = c
            else:
                b = r.choice(vals)
            v = new(); lines.append(f'{sp}{v} = arith.{r.choice(["addi", "muli", "subi", "xori", "andi", "ori"])} {a}, {b} : i32')
            vals.append(v)
        elif k < 0.8:
            v = new(); lines.append(f'{sp}{v} = scf.if %b -> (i32) {{')
            inner = list(vals); body(inner, depth + 1, lines, ind + 1)
            lines.append(f'{sp}  scf.yield {r.choice(inner)} : i32')
            lines.append(f'{sp}}} else {{')
            inner2 = list(vals); body(inner2, depth + 1, lines, ind + 1)
            lines.append(f'{sp}  scf.yield {r.choice(inner2)} : i32')
            lines.append(f'{sp}}}')
            vals.append(v)
        else:
            iv = new(); acc = new(); v = new()
            lines.append(f'{sp}{v} = scf.for {iv} = %c0 to %n step %c1 iter_args({acc} = {r.choice(vals)}) -> (i32) {{')
            inner = list(vals) + [acc]; body(inner, depth + 1, lines, ind + 1)
            lines.append(f'{sp}  scf.yield {r.choice(inner)} : i32')
            lines.append(f'{sp}}}')
            vals.append(v)
out = []
for f in range(r.randint(1, 2)):
    lines = ['  %c0 = arith.constant 0 : index', '  %c1 = arith.constant 1 : index']
    vals = ['%x', '%y']
    body(vals, 0, lines, 1)
    out.append(f'func.func @f{f}(%x: i32, %y: i32, %b: i1, %n: index) -> i32 {{\n' + '\n'.join(lines) + f'\n  return {vals[-1]} : i32\n}}')
print('\n'.join(out))
