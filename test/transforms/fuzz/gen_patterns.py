# Random functions shaped to trigger the arith canonicalization patterns (constant chains,
# not(cmpi), select of 0/1, ext/trunc pairs, negf pairs), optionally with cf branches, dead
# block arguments and an unreachable block (NOCF=1 leaves the branches out). Usage: SEED
import random, sys
r = random.Random(int(sys.argv[1]))
PREDS = ['eq','ne','slt','sle','sgt','sge','ult','ule','ugt','uge']
def fn(name):
    t = r.choice(['i32','i64','i8','index'])
    lines=[]; cnt=[0]
    vals=['%x','%y']
    bools=['%b']
    def new(): cnt[0]+=1; return f'%v{cnt[0]}'
    def c(val=None, ty=None):
        ty = ty or t
        v=new(); val = r.choice([0,1,-1,2,3,5,7,-4]) if val is None else val
        if ty=='i1': lines.append(f'  {v} = arith.constant {"true" if val else "false"}')
        else: lines.append(f'  {v} = arith.constant {val} : {ty}')
        return v
    def pick(): return r.choice(vals[-4:])
    for _ in range(r.randint(4,18)):
        k=r.randint(0,12)
        if k<=3:
            op=r.choice(['addi','subi','muli'])
            a = pick() if r.random()<0.7 else c()
            b = c() if r.random()<0.7 else pick()
            if r.random()<0.5: a,b=b,a
            ov = r.choice(['',' overflow<nsw>',' overflow<nuw>',' overflow<nsw, nuw>']) if r.random()<0.3 else ''
            v=new(); lines.append(f'  {v} = arith.{op} {a}, {b}{ov} : {t}'); vals.append(v)
        elif k==4:
            m=new(); lines.append(f'  {m} = arith.muli {pick()}, {c(-1)} : {t}')
            v=new()
            if r.random()<0.5: lines.append(f'  {v} = arith.addi {pick()}, {m} : {t}')
            else: lines.append(f'  {v} = arith.addi {m}, {pick()} : {t}')
            vals.append(v)
        elif k==5:
            v=new(); lines.append(f'  {v} = arith.cmpi {r.choice(PREDS)}, {pick()}, {pick() if r.random()<0.6 else c()} : {t}'); bools.append(v)
            if r.random()<0.6:
                w=new(); lines.append(f'  {w} = arith.xori {v}, {c(1,"i1")} : i1'); bools.append(w)
        elif k==6:
            cnd=r.choice(bools)
            kind=r.randint(0,4)
            v=new()
            if kind==0: lines.append(f'  {v} = arith.select {cnd}, {c(1)}, {c(0)} : {t}')
            elif kind==1: lines.append(f'  {v} = arith.select {cnd}, {c(0)}, {c(1)} : {t}')
            elif kind==2:
                inner=new(); lines.append(f'  {inner} = arith.select {cnd}, {pick()}, {pick()} : {t}')
                lines.append(f'  {v} = arith.select {cnd}, {inner}, {pick()} : {t}')
            elif kind==3:
                inner=new(); lines.append(f'  {inner} = arith.select {cnd}, {pick()}, {pick()} : {t}')
                lines.append(f'  {v} = arith.select {cnd}, {pick()}, {inner} : {t}')
            else:
                n=new(); lines.append(f'  {n} = arith.xori {cnd}, {c(1,"i1")} : i1')
                lines.append(f'  {v} = arith.select {n}, {pick()}, {pick()} : {t}')
            vals.append(v)
        elif k==7:
            cnd=r.choice(bools); v=new()
            lines.append(f'  {v} = arith.select {cnd}, {c(0,"i1")}, {c(1,"i1")} : i1'); bools.append(v)
        elif k==8 and t in ('i8','i32'):
            ext=r.choice(['extsi','extui']); wide='i64'
            a=new(); b=new(); lines.append(f'  {a} = arith.{ext} {pick()} : {t} to {wide}'); lines.append(f'  {b} = arith.{ext} {pick()} : {t} to {wide}')
            op=r.choice(['andi','ori','xori','cmpi'])
            v=new()
            if op=='cmpi': lines.append(f'  {v} = arith.cmpi {r.choice(["eq","ne","slt"])}, {a}, {b} : {wide}'); bools.append(v)
            else:
                lines.append(f'  {v} = arith.{op} {a}, {b} : {wide}')
                tr=new(); lines.append(f'  {tr} = arith.trunci {v} : {wide} to {t}'); vals.append(tr)
        elif k==9 and t=='i8':
            a=new(); lines.append(f'  {a} = arith.extui {pick()} : i8 to i32')
            b=new(); lines.append(f'  {b} = arith.extsi {a} : i32 to i64')
            d=new(); lines.append(f'  {d} = arith.trunci {b} : i64 to i16')
            e=new(); lines.append(f'  {e} = arith.index_cast {b} : i64 to index')
            f=new(); lines.append(f'  {f} = arith.index_cast {e} : index to i64')
        elif k==10:
            op=r.choice(['andi','ori','xori'])
            a=pick(); nx=new(); lines.append(f'  {nx} = arith.xori {a}, {c(-1)} : {t}')
            v=new(); lines.append(f'  {v} = arith.{op} {a}, {nx} : {t}' if r.random()<0.5 else f'  {v} = arith.{op} {nx}, {a} : {t}'); vals.append(v)
        elif k==11:
            fa=new(); fb=new(); lines.append(f'  {fa} = arith.negf %f : f32'); lines.append(f'  {fb} = arith.negf %g : f32')
            v=new(); lines.append(f'  {v} = arith.{r.choice(["mulf","divf"])} {fa}, {fb} : f32')
        else:
            v=new(); lines.append(f'  {v} = arith.{r.choice(["divsi","divui","remsi","remui","shli","shrsi","shrui"])} {pick()}, {c() if r.random()<0.7 else pick()} : {t}'); vals.append(v)
    ret = vals[-1]; rb = bools[-1]
    body='\n'.join(lines)
    if not __import__('os').environ.get('NOCF') and r.random()<0.4:
        # cf: branch, with an unreachable block
        return f'''func.func @{name}(%x: {t}, %y: {t}, %b: i1, %f: f32, %g: f32) -> ({t}, i1) {{
{body}
  cf.cond_br %b, ^bb1({ret} : {t}), ^bb2
^bb1(%p: {t}):
  %s1 = arith.addi %p, %x : {t}
  %s2 = arith.addi %p, %x : {t}
  %s3 = arith.muli %s1, %s2 : {t}
  cf.br ^bb3(%s3 : {t})
^bb2:
  %q = arith.addi {ret}, %y : {t}
  cf.br ^bb3(%q : {t})
^bb4:
  %dead = arith.addi %x, %x : {t}
  cf.br ^bb3(%dead : {t})
^bb3(%r: {t}):
  %s4 = arith.addi %x, %y : {t}
  %s5 = arith.addi %r, %s4 : {t}
  return %s5, {rb} : {t}, i1
}}'''
    return f'''func.func @{name}(%x: {t}, %y: {t}, %b: i1, %f: f32, %g: f32) -> ({t}, i1) {{
{body}
  return {ret}, {rb} : {t}, i1
}}'''
print('\n'.join(fn(f'f{i}') for i in range(r.randint(1,3))))
