# Random arith functions (every int/float binary op, casts, cmpi, select, constants at the edges
# of each width) for differential testing against mlir-opt; see run.sh. Usage: gen_arith.py SEED
import random, sys
INT_TYPES = ['i1','i8','i32','i64','index']
BIN_INT = ['addi','subi','muli','divsi','divui','remsi','remui','andi','ori','xori','shli','shrsi','shrui','maxsi','minsi','maxui','minui']
BIN_F = ['addf','subf','mulf','divf','maximumf','minimumf']
PREDS = ['eq','ne','slt','sle','sgt','sge','ult','ule','ugt','uge']
WIDTH = {'i1':1,'i8':8,'i32':32,'i64':64,'index':64}
def const_val(t, r):
    w = WIDTH[t]
    if t == 'i1': return r.choice(['true','false'])
    choices = [0,1,-1,2,3,7,-2, (1<<(w-1))-1, -(1<<(w-1)), r.randint(-20,20), 5, 8]
    return str(r.choice(choices))
def fconst(t, r):
    return r.choice(['0.0','-0.0','1.0','2.5','-3.0','0.1','1.0e+30','0x7FC00000' if t=='f32' else '0x7FF8000000000000', '3.0', '0.5'])
def gen_func(r, name, nops):
    args = [(f'%a{i}', r.choice(['i32','i64','i8','index','i1','f32','f64'])) for i in range(r.randint(1,4))]
    vals = {}  # type -> list of names
    for n,t in args: vals.setdefault(t,[]).append(n)
    lines = []
    cnt = [0]
    def new(): cnt[0]+=1; return f'%v{cnt[0]}'
    def pick(t):
        lst = vals.get(t, [])
        if not lst or r.random() < 0.3:
            v = new()
            if t in ('f32','f64'): lines.append(f'  {v} = arith.constant {fconst(t,r)} : {t}')
            elif t == 'i1': lines.append(f'  {v} = arith.constant {const_val(t,r)}')
            else: lines.append(f'  {v} = arith.constant {const_val(t,r)} : {t}')
            vals.setdefault(t,[]).append(v)
            return v
        return r.choice(lst[-6:]) if r.random()<0.8 else r.choice(lst)
    for _ in range(nops):
        k = r.random()
        if k < 0.55:
            t = r.choice(['i32','i64','i8','index','i1'])
            op = r.choice(BIN_INT)
            a, b = pick(t), pick(t)
            ov = ''
            if op in ('addi','subi','muli','shli') and r.random() < 0.2:
                ov = ' overflow<' + r.choice(['nsw','nuw','nsw, nuw']) + '>'
            v = new(); lines.append(f'  {v} = arith.{op} {a}, {b}{ov} : {t}'); vals.setdefault(t,[]).append(v)
        elif k < 0.65:
            t = r.choice(['i32','i64','i8','index','i1'])
            a, b = pick(t), pick(t)
            v = new(); lines.append(f'  {v} = arith.cmpi {r.choice(PREDS)}, {a}, {b} : {t}'); vals.setdefault('i1',[]).append(v)
        elif k < 0.72:
            t = r.choice(['i32','i64','i8','index','i1','f32'])
            c = pick('i1'); a, b = pick(t), pick(t)
            v = new(); lines.append(f'  {v} = arith.select {c}, {a}, {b} : {t}'); vals.setdefault(t,[]).append(v)
        elif k < 0.82:
            t = r.choice(['f32','f64'])
            op = r.choice(BIN_F)
            a, b = pick(t), pick(t)
            v = new(); lines.append(f'  {v} = arith.{op} {a}, {b} : {t}'); vals.setdefault(t,[]).append(v)
        else:
            kind = r.choice(['extsi','extui','trunci','index_cast','index_castui','negf'])
            if kind in ('extsi','extui'):
                src, dst = r.choice([('i1','i8'),('i1','i32'),('i8','i32'),('i8','i64'),('i32','i64')])
            elif kind == 'trunci':
                src, dst = r.choice([('i64','i32'),('i64','i8'),('i32','i8'),('i32','i1'),('i8','i1')])
            elif kind == 'negf':
                t = r.choice(['f32','f64']); a = pick(t); v = new(); lines.append(f'  {v} = arith.negf {a} : {t}'); vals.setdefault(t,[]).append(v); continue
            else:
                src, dst = r.choice([('i32','index'),('index','i32'),('i64','index'),('index','i64'),('i8','index'),('index','i8')])
            a = pick(src); v = new(); lines.append(f'  {v} = arith.{kind} {a} : {src} to {dst}'); vals.setdefault(dst,[]).append(v)
    # return a few values
    rets = []
    for t in list(vals.keys()):
        if r.random() < 0.7 and vals[t]:
            rets.append((r.choice(vals[t][-4:]), t))
    if not rets:
        rets = [(args[0][0], args[0][1])]
    sig = ', '.join(f'{n}: {t}' for n,t in args)
    rt = ', '.join(t for _,t in rets)
    out = [f'func.func @{name}({sig}) -> ({rt}) {{'] + lines + [f'  return {", ".join(n for n,_ in rets)} : {rt}', '}']
    return '\n'.join(out)
seed = int(sys.argv[1]); r = random.Random(seed)
print('\n'.join(gen_func(r, f'f{i}', r.randint(3, 25)) for i in range(r.randint(1,3))))
