# Random call graphs (private and public functions, declarations, recursion, no_inline,
# references from attributes) for inline and symbol-dce. Usage: gen_calls.py SEED
import random, sys
r = random.Random(int(sys.argv[1]))
n = r.randint(2, 6)
names = [f'f{i}' for i in range(n)]
priv = {nm: r.random() < 0.6 for nm in names}
out = []
for i, nm in enumerate(names):
    lines = []
    cnt = [0]
    def new(): cnt[0] += 1; return f'%v{cnt[0]}'
    cur = '%x'
    for _ in range(r.randint(1, 6)):
        k = r.random()
        if k < 0.35 and i > 0:
            callee = names[r.randrange(0, i)] if r.random() < 0.85 else names[r.randrange(0, n)]
            v = new(); extra = ' {no_inline}' if r.random() < 0.05 else ''
            lines.append(f'  {v} = func.call @{callee}({cur}){extra} : (i32) -> i32'); cur = v
        elif k < 0.45:
            v = new(); lines.append(f'  {v} = func.call @ext({cur}) : (i32) -> i32'); cur = v
        else:
            c = new(); lines.append(f'  {c} = arith.constant {r.randint(-3, 9)} : i32')
            v = new(); lines.append(f'  {v} = arith.{r.choice(["addi","muli","subi","xori"])} {cur}, {c} : i32'); cur = v
    vis = 'private ' if priv[nm] else ''
    attrs = ' attributes {no_inline}' if r.random() < 0.05 else ''
    out.append(f'func.func {vis}@{nm}(%x: i32) -> i32{attrs} {{\n' + '\n'.join(lines) + f'\n  return {cur} : i32\n}}')
out.append('func.func private @ext(i32) -> i32')
if r.random() < 0.3:
    out.append('func.func private @unused_decl(i32) -> i32')
if r.random() < 0.3:
    out.append(f'"test.keep"() {{ref = @{r.choice(names)}}} : () -> ()')
r.shuffle(out)
print('\n'.join(out))
