// How fast is egg itself on this machine: e-nodes in the final graph per second of
// Runner time, for blocks of integer expressions like eqsat_blocks.py's (no analysis beyond
// egg's default, a handful of algebraic rules), at the same limits (8 iterations).
use egg::*;
use std::time::Instant;

fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let mut seed = 1u64;
    let mut rnd = |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    let mut expr = RecExpr::<SymbolLang>::default();
    let mut vals: Vec<Id> = Vec::new();
    for s in ["t", "a", "b"] {
        vals.push(expr.add(SymbolLang::leaf(s)));
    }
    let consts: Vec<Id> = [1, 2, 3, 4, 5, 8, 16, 64]
        .iter()
        .map(|c| expr.add(SymbolLang::leaf(c.to_string())))
        .collect();
    let ops = ["+", "+", "*", "<<", "&", ">>", "/", "%", "-", "|"];
    let mut roots = Vec::new();
    for i in 0..n {
        let op = ops[rnd(ops.len() as u64) as usize];
        let w = vals.len().min(16) as u64;
        let x = vals[vals.len() - 1 - rnd(w) as usize];
        let y = if rnd(2) == 0 {
            consts[rnd(consts.len() as u64) as usize]
        } else {
            vals[vals.len() - 1 - rnd(w) as usize]
        };
        let v = expr.add(SymbolLang::new(op, vec![x, y]));
        vals.push(v);
        if i % 8 == 7 {
            let l = expr.add(SymbolLang::leaf(format!("load{i}")));
            vals.push(l);
            roots.push(v);
        }
    }
    let rules: Vec<Rewrite<SymbolLang, ()>> = vec![
        rewrite!("comm-add"; "(+ ?a ?b)" => "(+ ?b ?a)"),
        rewrite!("comm-mul"; "(* ?a ?b)" => "(* ?b ?a)"),
        rewrite!("assoc-add"; "(+ ?a (+ ?b ?c))" => "(+ (+ ?a ?b) ?c)"),
        rewrite!("mul-2"; "(* ?a 2)" => "(<< ?a 1)"),
        rewrite!("sub-self"; "(- ?a ?a)" => "0"),
        rewrite!("and-self"; "(& ?a ?a)" => "?a"),
        rewrite!("shl-shr"; "(>> (<< ?a ?b) ?b)" => "(& ?a ?b)"),
        rewrite!("dist"; "(* ?a (+ ?b ?c))" => "(+ (* ?a ?b) (* ?a ?c))"),
    ];
    let t0 = Instant::now();
    let mut eg = EGraph::<SymbolLang, ()>::default();
    eg.add_expr(&expr);
    let build = t0.elapsed();
    let t1 = Instant::now();
    let runner = Runner::default()
        .with_egraph(eg)
        .with_iter_limit(8)
        .with_node_limit(12 * n)
        .with_time_limit(std::time::Duration::from_secs(100))
        .run(&rules);
    let run = t1.elapsed();
    let nodes = runner.egraph.total_number_of_nodes();
    let total = build + run;
    println!("ops {n}: e-nodes {nodes}, classes {}, iterations {}, stop {:?}; build {:.3} s, run {:.3} s: {:.2} M e-nodes/s (whole), {:.2} M (runner only)",
        runner.egraph.number_of_classes(), runner.iterations.len(), runner.stop_reason, build.as_secs_f64(), run.as_secs_f64(),
        nodes as f64 / total.as_secs_f64() / 1e6, nodes as f64 / run.as_secs_f64() / 1e6);
}
