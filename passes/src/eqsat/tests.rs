//! Property tests of the rules and the extractors: random expression DAGs (wrap-around at
//! i8/i32/i64, negative values, `INT_MIN`, divisors near zero) are saturated, extracted, and
//! the extracted program is evaluated against the input program with arith's own semantics
//! on random inputs inside the ranges the analysis was told.

use super::extract::{self, CostModel};
use super::lang::{bin_index, pred_of, Cast, EqAnalysis, Facts, Kind, Node, Ty, EG};
use super::rules;
use egg::{Id, Language, Runner};
use rustc_hash::FxHashMap;
use tilus_dialects::arith::{mask, sext, IntBinOp};

/// xorshift64*: a seeded generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// One op of a random program: its kind and, for op nodes, the indices of earlier values.
#[derive(Clone, Debug)]
enum Step {
    Var(u32),
    Const(u128),
    Bin(IntBinOp, usize, usize),
    Cmp(u8, usize, usize),
    Select(usize, usize, usize),
}

const OPS: &[IntBinOp] = &[
    IntBinOp::AddI,
    IntBinOp::SubI,
    IntBinOp::MulI,
    IntBinOp::DivSI,
    IntBinOp::DivUI,
    IntBinOp::RemSI,
    IntBinOp::RemUI,
    IntBinOp::AndI,
    IntBinOp::OrI,
    IntBinOp::XOrI,
    IntBinOp::ShLI,
    IntBinOp::ShRUI,
    IntBinOp::ShRSI,
    IntBinOp::MaxSI,
    IntBinOp::MinUI,
    IntBinOp::FloorDivSI,
    IntBinOp::CeilDivSI,
];

/// Constants that find wrap-around and sign bugs.
fn interesting_const(r: &mut Rng, w: u32) -> u128 {
    let m = mask(w);
    let min = 1u128 << (w - 1);
    let picks = [
        0,
        1,
        2,
        3,
        m,
        m - 1,
        min,
        min - 1,
        4,
        8,
        16,
        7,
        12,
        65,
        (r.next() as u128) & m,
    ];
    picks[r.below(picks.len() as u64) as usize] & m
}

struct Program {
    ty: Ty,
    steps: Vec<Step>,
    /// Range of each variable (unsigned interval).
    vars: Vec<(u128, u128)>,
    roots: Vec<usize>,
}

fn random_program(r: &mut Rng, w: u32, n_ops: usize) -> Program {
    let ty = Ty {
        width: w,
        index: false,
    };
    let m = mask(w);
    let mut vars = Vec::new();
    let mut steps = Vec::new();
    // Three leaves: a full-range one (negatives, INT_MIN), a small non-negative one (a thread
    // id), and one in a random interval.
    vars.push((0, m));
    vars.push((0, 127.min(m)));
    let a = (r.next() as u128) & m;
    let b = (r.next() as u128) & m;
    vars.push((a.min(b), a.max(b)));
    for i in 0..vars.len() {
        steps.push(Step::Var(i as u32));
    }
    // Value indices of type `ty` (not i1).
    let mut ints: Vec<usize> = (0..steps.len()).collect();
    let mut bools: Vec<usize> = Vec::new();
    for _ in 0..n_ops {
        let pick = |r: &mut Rng, v: &Vec<usize>| v[r.below(v.len() as u64) as usize];
        let k = r.below(10);
        if k == 0 {
            steps.push(Step::Const(interesting_const(r, w)));
            ints.push(steps.len() - 1);
        } else if k == 1 {
            let (x, y) = (pick(r, &ints), pick(r, &ints));
            steps.push(Step::Cmp(r.below(10) as u8, x, y));
            bools.push(steps.len() - 1);
        } else if k == 2 && !bools.is_empty() {
            let c = pick(r, &bools);
            let (x, y) = (pick(r, &ints), pick(r, &ints));
            steps.push(Step::Select(c, x, y));
            ints.push(steps.len() - 1);
        } else {
            let op = OPS[r.below(OPS.len() as u64) as usize];
            let x = pick(r, &ints);
            // The right side is often a constant: that is where the strength-reduction and
            // range rules fire.
            let y = if r.below(2) == 0 {
                steps.push(Step::Const(match op {
                    IntBinOp::ShLI | IntBinOp::ShRUI | IntBinOp::ShRSI => r.below(w as u64) as u128,
                    _ => interesting_const(r, w),
                }));
                steps.len() - 1
            } else {
                pick(r, &ints)
            };
            steps.push(Step::Bin(op, x, y));
            ints.push(steps.len() - 1);
        }
    }
    let n = steps.len();
    let roots = (n.saturating_sub(4)..n).collect();
    Program {
        ty,
        steps,
        vars,
        roots,
    }
}

/// The program's e-graph: the id of each step.
fn build(p: &Program) -> (EG, Vec<Id>) {
    build_tz(p, &[])
}

/// [`build`], with `tz[i]` known trailing zero bits told for leaf `i` (0 past the end).
fn build_tz(p: &Program, tz: &[u32]) -> (EG, Vec<Id>) {
    let mut eg = EG::new(EqAnalysis::default());
    for (i, (lo, hi)) in p.vars.iter().enumerate() {
        let t = tz.get(i).copied().unwrap_or(0);
        eg.analysis.vars.push(Facts::range(p.ty, *lo, *hi, t));
    }
    let t = eg.add(Node::leaf(Kind::Ty(p.ty)));
    let mut ids = Vec::new();
    for s in &p.steps {
        let id = match s {
            Step::Var(i) => eg.add(Node::leaf(Kind::Var(*i))),
            Step::Const(c) => rules::add_const(&mut eg, p.ty, *c),
            Step::Bin(op, x, y) => {
                eg.add(Node::op(Kind::Bin(bin_index(*op)), &[t, ids[*x], ids[*y]]))
            }
            Step::Cmp(pr, x, y) => {
                let pn = eg.add(Node::leaf(Kind::Pred(*pr)));
                eg.add(Node::op(Kind::Cmp, &[pn, ids[*x], ids[*y]]))
            }
            Step::Select(c, x, y) => {
                eg.add(Node::op(Kind::Select, &[t, ids[*c], ids[*x], ids[*y]]))
            }
        };
        ids.push(id);
    }
    eg.rebuild();
    (eg, ids)
}

/// Evaluates the input program; `None` for a value that is undefined (division by zero,
/// signed overflow of a division, an oversized shift) or depends on one.
fn eval_program(p: &Program, inputs: &[u128]) -> Vec<Option<u128>> {
    let w = p.ty.width;
    let mut vals: Vec<Option<u128>> = Vec::new();
    for s in &p.steps {
        let v = match s {
            Step::Var(i) => Some(inputs[*i as usize]),
            Step::Const(c) => Some(*c),
            Step::Bin(op, x, y) => match (vals[*x], vals[*y]) {
                (Some(a), Some(b)) => op.eval(a, b, w).ok(),
                _ => None,
            },
            Step::Cmp(pr, x, y) => match (vals[*x], vals[*y]) {
                (Some(a), Some(b)) => Some(pred_of(*pr).eval(a, b, w) as u128),
                _ => None,
            },
            Step::Select(c, x, y) => match (vals[*c], vals[*x], vals[*y]) {
                (Some(c), Some(a), Some(b)) => Some(if c == 1 { a } else { b }),
                _ => None,
            },
        };
        vals.push(v);
    }
    vals
}

/// Evaluates the extracted program for class `id`.
fn eval_choice(
    eg: &EG,
    choice: &extract::Choice,
    inputs: &[u128],
    id: Id,
    memo: &mut FxHashMap<Id, Option<u128>>,
) -> Option<u128> {
    let id = eg.find(id);
    if let Some(v) = memo.get(&id) {
        return *v;
    }
    let node = &choice[&id];
    let data = |c: Id| eg[c].data.clone();
    let arg = |i: usize, memo: &mut FxHashMap<Id, Option<u128>>| {
        eval_choice(eg, choice, inputs, node.args[i], memo)
    };
    let v = match node.kind {
        Kind::Var(i) => Some(inputs[i as usize]),
        Kind::Const => Some(eg[id].data.konst().expect("a constant")),
        Kind::Bin(_) => {
            let w = data(node.args[1]).width();
            let (a, b) = (arg(1, memo)?, arg(2, memo)?);
            node.bin().expect("binary").eval(a, b, w).ok()
        }
        Kind::Cmp => {
            let Some(Kind::Pred(p)) = data(node.args[0]).meta else {
                panic!("cmp without predicate")
            };
            let w = data(node.args[1]).width();
            let (a, b) = (arg(1, memo)?, arg(2, memo)?);
            Some(pred_of(p).eval(a, b, w) as u128)
        }
        Kind::Select => {
            let c = arg(1, memo)?;
            let (a, b) = (arg(2, memo)?, arg(3, memo)?);
            Some(if c == 1 { a } else { b })
        }
        Kind::Cast(c) => {
            let Some(Kind::Ty(to)) = data(node.args[0]).meta else {
                panic!("cast without type")
            };
            let from = data(node.args[1]).width();
            let x = arg(1, memo)?;
            Some(c.semantics().eval(x, from, to.width))
        }
        // Scalar DAGs only: no tile nodes, and leaves are not values.
        Kind::Ty(_) | Kind::Pred(_) | Kind::Num(_) | Kind::Tile(_) | Kind::TileTy(_) => None,
        Kind::Perm(_) => None,
    };
    memo.insert(id, v);
    v
}

fn saturate(eg: EG, nodes: usize, iters: usize) -> EG {
    Runner::default()
        .with_egraph(eg)
        .with_node_limit(nodes)
        .with_iter_limit(iters)
        .with_time_limit(std::time::Duration::from_secs(5))
        .run(&rules::builtin())
        .egraph
}

/// An input inside the told ranges, often at their ends or at a sign boundary.
fn sample(r: &mut Rng, lo: u128, hi: u128, w: u32) -> u128 {
    let span = hi - lo;
    let edge = [lo, hi, 0, 1u128 << (w - 1), mask(w)];
    let c = edge[r.below(edge.len() as u64) as usize];
    if r.below(3) == 0 && (lo..=hi).contains(&c) {
        return c;
    }
    lo + (((r.next() as u128) << 64 | r.next() as u128) % (span + 1))
}

#[test]
fn extracted_programs_equal_their_input_on_random_inputs() {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut compared = 0;
    let mut rewritten = 0;
    for case in 0..300 {
        let w = [8, 32, 64][case % 3];
        let n = 4 + r.below(10) as usize;
        let p = random_program(&mut r, w, n);
        let (eg, ids) = build(&p);
        let eg = saturate(eg, 3000, 6);
        let roots: Vec<Id> = p.roots.iter().map(|i| eg.find(ids[*i])).collect();
        let (choice, _) = extract::extract(&eg, &CostModel::default(), &roots, None)
            .unwrap_or_else(|| panic!("case {case}: no extraction"));
        // The extraction differs from the input whenever a root's class lost its op.
        rewritten += usize::from(p.roots.iter().any(|i| {
            !matches!(
                choice[&eg.find(ids[*i])].kind,
                Kind::Bin(_) | Kind::Cmp | Kind::Select
            )
        }));
        for _ in 0..40 {
            let inputs: Vec<u128> = p
                .vars
                .iter()
                .map(|(lo, hi)| sample(&mut r, *lo, *hi, w))
                .collect();
            let want = eval_program(&p, &inputs);
            let mut memo = FxHashMap::default();
            for (k, ri) in p.roots.iter().enumerate() {
                let Some(expected) = want[*ri] else { continue };
                let got = eval_choice(&eg, &choice, &inputs, roots[k], &mut memo);
                assert_eq!(
                    got,
                    Some(expected),
                    "case {case} (i{w}), root {ri}, inputs {:?} (signed {:?})\nprogram {:?}",
                    inputs,
                    inputs.iter().map(|x| sext(*x, w)).collect::<Vec<_>>(),
                    p.steps
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 10_000, "only {compared} comparisons");
    assert!(
        rewritten > 30,
        "only {rewritten} programs changed: the rules barely fired"
    );
}

#[test]
fn disjoint_bit_rules_keep_swizzled_addresses_exact() {
    // The shape of a swizzled shared-memory address: `p + ((a ^ ((a & m) >> k)) << 1)` with
    // `a = base + c`, `base` a multiple of 2^t below 2^b. Constants `c` and masks `m` are
    // drawn so that the bits of `base`, `c` and `m` sometimes overlap (the rules must decline:
    // the sum carries) and sometimes not (they fire). Every extraction must compute the input.
    check_cases(0x5EED_0B17, 400, (5000, 30, false), |r, case| {
        let w = [8u32, 32, 64][case % 3];
        let t = r.below(5) as u32;
        let b = t + 1 + r.below((w - t) as u64) as u32;
        let hi = mask(b) & !mask(t);
        let m = mask(w);
        let low = r.next() as u128 & mask(t);
        let high = (r.next() as u128) << b & m;
        let c = [low, high, low | high, interesting_const(r, w)][r.below(4) as usize];
        let lo_bit = r.below(w as u64) as u32;
        let span = 1 + r.below((w - lo_bit) as u64) as u32;
        let mk =
            [mask(lo_bit + span) & !mask(lo_bit), interesting_const(r, w)][r.below(2) as usize];
        let k = r.below(w as u64) as u128;
        use IntBinOp::*;
        let p = Program {
            ty: Ty {
                width: w,
                index: false,
            },
            steps: vec![
                Step::Var(0),
                Step::Var(1),
                Step::Const(c),
                Step::Bin(AddI, 0, 2),
                Step::Const(mk),
                Step::Bin(AndI, 3, 4),
                Step::Const(k),
                Step::Bin(ShRUI, 5, 6),
                Step::Bin(XOrI, 3, 7),
                Step::Const(1),
                Step::Bin(ShLI, 8, 9),
                Step::Bin(AddI, 1, 10),
                Step::Bin(ShRUI, 3, 6),
            ],
            vars: vec![(0, hi), (0, m)],
            roots: vec![11, 12, 5],
        };
        let what = format!(
            "case {case} (i{w}, base < 2^{b} multiple of 2^{t}, c {c:#x}, m {mk:#x}, k {k})"
        );
        let input = move |r: &mut Rng| [r.next() as u128 & hi, sample(r, 0, m, w)];
        Case::new(p, vec![t], input, what)
    })
    .at_least(30_000, 50);
}

#[test]
fn constants_under_low_masks_and_xors_count_modulo_the_mask() {
    // `(x + c) & m` and `(x + c) ^ z` for any `x` (negative and wrapping sums included), a
    // constant `c` with bits above and below the top of `m` or `z`, and `m` or `z` a constant or
    // a masked variable: only `c mod 2^j` matters below bit `j`, and the bits of `c` above it
    // pass through the xor as an add. The second use of `x + c'` (a constant equal to `c` below
    // bit `j`) is what the rules make shareable. Every extraction must compute the input.
    check_cases(0x10B1_75C0, 300, (5000, 40, true), |r, case| {
        let w = [8u32, 16, 32, 64][case % 4];
        let m = mask(w);
        let j = 1 + r.below((w - 1) as u64) as u32;
        let low = r.next() as u128 & mask(j);
        let c = (low | (r.next() as u128) << j) & m;
        let c2 = (low | (r.next() as u128) << j) & m;
        let lo_bit = r.below(j as u64) as u32;
        let mk = match r.below(3) {
            0 => mask(j) & !mask(lo_bit),
            1 => (r.next() as u128 & mask(j)) | 1 << (j - 1),
            _ => interesting_const(r, w),
        };
        use IntBinOp::*;
        let p = Program {
            ty: Ty {
                width: w,
                index: false,
            },
            steps: vec![
                Step::Var(0),           // 0 x
                Step::Var(1),           // 1 y
                Step::Const(c),         // 2
                Step::Bin(AddI, 0, 2),  // 3 x + c
                Step::Const(mk),        // 4 m
                Step::Bin(AndI, 3, 4),  // 5 (x + c) & m
                Step::Bin(AndI, 1, 4),  // 6 z = y & m
                Step::Bin(XOrI, 3, 6),  // 7 (x + c) ^ z
                Step::Bin(XOrI, 3, 4),  // 8 (x + c) ^ m
                Step::Const(c2),        // 9
                Step::Bin(AddI, 0, 9),  // 10 x + c2
                Step::Bin(AndI, 10, 4), // 11 (x + c2) & m
                Step::Bin(XOrI, 10, 6), // 12 (x + c2) ^ z
            ],
            vars: vec![(0, m), (0, m)],
            roots: vec![5, 7, 8, 11, 12],
        };
        let what = format!("case {case} (i{w}, c {c:#x}, c2 {c2:#x}, m {mk:#x})");
        let input = move |r: &mut Rng| [sample(r, 0, m, w), sample(r, 0, m, w)];
        Case::new(p, Vec::new(), input, what)
    })
    .at_least(60_000, 100);
}

#[test]
fn alignment_masks_of_multiples_are_no_ops_exactly() {
    // `x & -2^k` and `(x >> k) << k` for `x` a multiple of `2^t` (a parameter's
    // `tilus.divisibility`): `x` itself when `k <= t`, and a real mask or shift pair otherwise
    // (the rules must decline). Every extraction must compute the input on multiples of `2^t`.
    check_cases(0xA11_6E3D, 200, (2000, 30, true), |r, case| {
        let w = [8u32, 16, 32, 64][case % 4];
        let m = mask(w);
        let t = r.below(w as u64) as u32;
        let k = r.below(w as u64) as u128;
        use IntBinOp::*;
        let p = Program {
            ty: Ty {
                width: w,
                index: false,
            },
            steps: vec![
                Step::Var(0),
                Step::Var(1),
                Step::Const(m & !mask(k as u32)),
                Step::Bin(AndI, 0, 2),
                Step::Const(k),
                Step::Bin(ShRUI, 0, 4),
                Step::Bin(ShLI, 5, 4),
                Step::Bin(AddI, 6, 1),
            ],
            vars: vec![(0, m & !mask(t)), (0, m)],
            roots: vec![3, 6, 7],
        };
        let what = format!("case {case} (i{w}, x a multiple of 2^{t}, k {k})");
        let input = move |r: &mut Rng| [sample(r, 0, m, w) & !mask(t), sample(r, 0, m, w)];
        Case::new(p, vec![t], input, what)
    })
    .at_least(15_000, 50);
}

/// Draws the two leaves' values of one test input.
type Sampler = Box<dyn FnMut(&mut Rng) -> [u128; 2]>;

/// One program of a property test: its leaves' known trailing zeros, how to draw inputs that
/// keep the leaves' facts, and what to print when the extraction disagrees.
struct Case {
    p: Program,
    tz: Vec<u32>,
    input: Sampler,
    what: String,
}

impl Case {
    fn new(
        p: Program,
        tz: Vec<u32>,
        input: impl FnMut(&mut Rng) -> [u128; 2] + 'static,
        what: String,
    ) -> Case {
        Case {
            p,
            tz,
            input: Box::new(input),
            what,
        }
    }
}

/// What a property test did: comparisons of extraction with the program, and programs made
/// cheaper (a test whose rules never fire proves nothing, so both have floors).
struct Checked(usize, usize);

impl Checked {
    fn at_least(self, compared: usize, cheaper: usize) {
        assert!(self.0 >= compared, "only {} comparisons", self.0);
        assert!(
            self.1 > cheaper,
            "the rules fired on only {} programs",
            self.1
        );
    }
}

/// Runs `cases` programs from `make` through [`check_saturated`] (`samples` inputs each).
fn check_cases(
    seed: u64,
    cases: usize,
    (nodes, samples, facts): (usize, usize, bool),
    mut make: impl FnMut(&mut Rng, usize) -> Case,
) -> Checked {
    let mut r = Rng(seed);
    let (mut compared, mut cheaper) = (0, 0);
    for case in 0..cases {
        let mut c = make(&mut r, case);
        let (n, better) = check_saturated(
            &c.p,
            &c.tz,
            nodes,
            samples,
            facts,
            &mut r,
            &mut c.input,
            &c.what,
        );
        compared += n;
        cheaper += usize::from(better);
    }
    Checked(compared, cheaper)
}

/// Saturates the graph of `p` (built by [`build_tz`] with `tz`) under the built-in rules,
/// extracts its roots and checks, on `samples` inputs drawn by `input`, that the extraction
/// computes what the program does (and, with `facts`, that every class's facts hold). Returns
/// the comparisons made and whether the extraction got cheaper.
#[allow(clippy::too_many_arguments)]
fn check_saturated(
    p: &Program,
    tz: &[u32],
    nodes: usize,
    samples: usize,
    facts: bool,
    r: &mut Rng,
    mut input: impl FnMut(&mut Rng) -> [u128; 2],
    what: &str,
) -> (usize, bool) {
    let costs = CostModel::default();
    let (eg, ids) = build_tz(p, tz);
    let roots0: Vec<Id> = p.roots.iter().map(|i| eg.find(ids[*i])).collect();
    let (_, before) = extract::extract(&eg, &costs, &roots0, None).expect("extracts");
    let eg = saturate(eg, nodes, 8);
    let roots: Vec<Id> = p.roots.iter().map(|i| eg.find(ids[*i])).collect();
    let (choice, after) = extract::extract(&eg, &costs, &roots, None).expect("extracts");
    let mut compared = 0;
    for _ in 0..samples {
        let inputs = input(r);
        let want = eval_program(p, &inputs);
        if facts {
            assert_facts_hold(&eg, &ids, &want, what);
        }
        let mut memo = FxHashMap::default();
        for (j, ri) in p.roots.iter().enumerate() {
            let got = eval_choice(&eg, &choice, &inputs, roots[j], &mut memo);
            assert_eq!(got, want[*ri], "{what}, root {ri}, inputs {inputs:?}");
            compared += 1;
        }
    }
    (compared, after < before)
}

/// Asserts that the facts of the class of every step hold for the step's value: inside the
/// interval, a multiple of `2^tz`, no bit outside `may`.
fn assert_facts_hold(eg: &EG, ids: &[Id], vals: &[Option<u128>], what: &str) {
    for (i, v) in vals.iter().enumerate() {
        let Some(v) = *v else { continue };
        let f = &eg[eg.find(ids[i])].data;
        if f.ty.is_none() {
            continue;
        }
        let tz_ok = f.tz >= f.width() || v & mask(f.tz) == 0;
        assert!(
            f.lo <= v && v <= f.hi && tz_ok && v & !f.may == 0,
            "{what}: step {i} is {v:#x}, facts say [{:#x}, {:#x}], tz {}, may {:#x}",
            f.lo,
            f.hi,
            f.tz,
            f.may
        );
    }
}

#[test]
fn facts_hold_for_every_value_before_and_after_saturation() {
    // The analysis (interval, trailing zeros, possibly-set bits) must describe every value a
    // class can take, or a range rule fires where it should not. Random programs over every
    // op, on random inputs inside the told ranges, at the build and after the merges of
    // saturation.
    let mut r = Rng(0xB175_0F5E);
    let mut checked = 0;
    for case in 0..300 {
        let w = [8, 32, 64][case % 3];
        let n = 4 + r.below(12) as usize;
        let p = random_program(&mut r, w, n);
        let (eg, ids) = build(&p);
        let sat = saturate(eg.clone(), 3000, 6);
        for _ in 0..30 {
            let inputs: Vec<u128> = p
                .vars
                .iter()
                .map(|(lo, hi)| sample(&mut r, *lo, *hi, w))
                .collect();
            let vals = eval_program(&p, &inputs);
            assert_facts_hold(&eg, &ids, &vals, &format!("case {case} built"));
            assert_facts_hold(&sat, &ids, &vals, &format!("case {case} saturated"));
            checked += 1;
        }
    }
    assert!(checked >= 9000);
}

#[test]
fn known_bits_rules_keep_thread_index_swizzles_exact() {
    // The address of a swizzled shared tile read by a thread, as the lowering builds it:
    // `row = ((tid >> 5) << s1) + ((tid >> k2) & m2)`, `col = (tid & m3) << s3`,
    // `a = (row << s4) + col`, element `e = a + c`, `p + ((e ^ ((e & m) >> k)) << 1)`. The
    // parts have holes in their bits (no interval shows them), which `may` finds; with random
    // shifts, masks and offsets they sometimes overlap and the rules must decline. Every thread
    // id of the block is tried.
    let mut r = Rng(0x007E_11D5);
    let (mut compared, mut cheaper) = (0, 0);
    let costs = CostModel::default();
    for case in 0..200 {
        let w = [16u32, 32, 64][case % 3];
        let m = mask(w);
        let pick = |r: &mut Rng, hi: u64| r.below(hi + 1) as u128;
        let (s1, k2, m2, m3, s3, s4) = (
            pick(&mut r, 6),
            pick(&mut r, 5),
            mask(pick(&mut r, 3) as u32),
            mask(pick(&mut r, 4) as u32),
            pick(&mut r, 4),
            pick(&mut r, 7),
        );
        let c = match r.below(3) {
            0 => pick(&mut r, 7) << (8 + r.below(3)),
            1 => pick(&mut r, 7) << r.below(10),
            _ => interesting_const(&mut r, w),
        };
        let mk = [448, 0x70, 0x380, interesting_const(&mut r, w)][r.below(4) as usize] & m;
        let k = [3, 4, pick(&mut r, 9)][r.below(3) as usize];
        use IntBinOp::*;
        let steps = vec![
            Step::Var(0),             // 0 tid
            Step::Var(1),             // 1 p
            Step::Const(5),           // 2
            Step::Bin(ShRUI, 0, 2),   // 3 warp
            Step::Const(s1),          // 4
            Step::Bin(ShLI, 3, 4),    // 5
            Step::Const(k2),          // 6
            Step::Bin(ShRUI, 0, 6),   // 7
            Step::Const(m2),          // 8
            Step::Bin(AndI, 7, 8),    // 9
            Step::Bin(AddI, 5, 9),    // 10 row
            Step::Const(m3),          // 11
            Step::Bin(AndI, 0, 11),   // 12
            Step::Const(s3),          // 13
            Step::Bin(ShLI, 12, 13),  // 14 col
            Step::Const(s4),          // 15
            Step::Bin(ShLI, 10, 15),  // 16
            Step::Bin(AddI, 16, 14),  // 17 a
            Step::Const(c),           // 18
            Step::Bin(AddI, 17, 18),  // 19 e
            Step::Const(mk),          // 20
            Step::Bin(AndI, 19, 20),  // 21
            Step::Const(k),           // 22
            Step::Bin(ShRUI, 21, 22), // 23
            Step::Bin(XOrI, 19, 23),  // 24
            Step::Const(1),           // 25
            Step::Bin(ShLI, 24, 25),  // 26
            Step::Bin(AddI, 1, 26),   // 27 address
            Step::Bin(AddI, 17, 26),  // 28 a second use of `a`
        ];
        let p = Program {
            ty: Ty {
                width: w,
                index: false,
            },
            steps,
            vars: vec![(0, 127), (0, m)],
            roots: vec![27, 28, 21],
        };
        let (eg, ids) = build(&p);
        let roots0: Vec<Id> = p.roots.iter().map(|i| eg.find(ids[*i])).collect();
        let (_, before) = extract::extract(&eg, &costs, &roots0, None).expect("extracts");
        let eg = saturate(eg, 6000, 8);
        let roots: Vec<Id> = p.roots.iter().map(|i| eg.find(ids[*i])).collect();
        let (choice, after) = extract::extract(&eg, &costs, &roots, None).expect("extracts");
        cheaper += usize::from(after < before);
        for tid in 0..128u128 {
            let inputs = [tid, sample(&mut r, 0, m, w)];
            let want = eval_program(&p, &inputs);
            assert_facts_hold(&eg, &ids, &want, &format!("case {case}"));
            let mut memo = FxHashMap::default();
            for (j, ri) in p.roots.iter().enumerate() {
                let got = eval_choice(&eg, &choice, &inputs, roots[j], &mut memo);
                assert_eq!(
                    got, want[*ri],
                    "case {case} (i{w}, s1 {s1} k2 {k2} m2 {m2:#x} m3 {m3:#x} s3 {s3} s4 {s4}, \
                     c {c:#x}, m {mk:#x}, k {k}), root {ri}, inputs {inputs:?}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 70_000, "only {compared} comparisons");
    assert!(cheaper > 40, "the rules fired on only {cheaper} programs");
}

#[test]
fn casts_and_selects_keep_the_possibly_set_bits() {
    // Truncation keeps the low bits of `may`, zero extension and the sign extension of a
    // non-negative value keep all of it, a select has the bits of either side.
    let i8t = Ty {
        width: 8,
        index: false,
    };
    let i32t = Ty {
        width: 32,
        index: false,
    };
    let x = Facts::range(i32t, 0, 0x3ff, 2).with_may(0x30c); // bits 2, 3, 8, 9
    let meta = |t: Ty| {
        let mut f = Facts::top(t);
        f.ty = None;
        f.meta = Some(Kind::Ty(t));
        f
    };
    let trunc = super::lang::transfer(Kind::Cast(Cast::TruncI), &[&meta(i8t), &x]).unwrap();
    assert_eq!(trunc.may, 0x0c);
    assert_eq!(trunc.hi, 0x0c);
    let i64t = Ty {
        width: 64,
        index: false,
    };
    for c in [Cast::ExtUI, Cast::ExtSI] {
        let e = super::lang::transfer(Kind::Cast(c), &[&meta(i64t), &x]).unwrap();
        assert_eq!(e.may, 0x30c, "{c:?}");
    }
    // A value that may be negative sign-extends into unknown high bits.
    let neg = Facts::top(i32t).with_may(0x8000_0001);
    let e = super::lang::transfer(Kind::Cast(Cast::ExtSI), &[&meta(i64t), &neg]).unwrap();
    assert_eq!(e.may, mask(64));
    // Every bit known zero is the constant 0.
    assert_eq!(x.clone().with_may(0x4000).konst(), Some(0));
}

#[test]
fn shifts_of_aligned_sums_split_only_without_wrap_around() {
    // (x + y) >> k = (x >> k) + (y >> k) for y a multiple of 2^k, unless the sum wraps: ranges
    // are drawn so that it sometimes can (the rule must decline) and y's alignment sometimes
    // falls short of k.
    let mut r = Rng(0x00A1_16ED);
    let (mut compared, mut fired) = (0, 0);
    for case in 0..400 {
        let w = [8u32, 16, 32, 64][case % 4];
        let m = mask(w);
        let k = r.below(w as u64) as u128;
        let tz = r.below(w as u64) as u32;
        let xhi = [m, m >> 1, m >> (w / 2), (r.next() as u128) & m][r.below(4) as usize];
        let yhi = [m, m >> 1, m >> (w / 2), (r.next() as u128) & m][r.below(4) as usize];
        let p = Program {
            ty: Ty {
                width: w,
                index: false,
            },
            steps: vec![
                Step::Var(0),
                Step::Var(1),
                Step::Bin(IntBinOp::AddI, 0, 1),
                Step::Const(k),
                Step::Bin(IntBinOp::ShRUI, 2, 3),
            ],
            vars: vec![(0, xhi), (0, yhi)],
            roots: vec![4],
        };
        let (eg, ids) = build_tz(&p, &[0, tz]);
        let eg = saturate(eg, 2000, 4);
        let root = eg.find(ids[4]);
        fired += usize::from(
            eg[root]
                .nodes
                .iter()
                .any(|n| n.bin() == Some(IntBinOp::AddI)),
        );
        let (choice, _) =
            extract::extract(&eg, &CostModel::default(), &[root], None).expect("extracts");
        for _ in 0..40 {
            let y = sample(&mut r, 0, yhi, w) & !mask(tz);
            let inputs = [sample(&mut r, 0, xhi, w), y];
            let want = eval_program(&p, &inputs);
            let got = eval_choice(&eg, &choice, &inputs, root, &mut FxHashMap::default());
            assert_eq!(
                got, want[4],
                "case {case} (i{w}, x <= {xhi:#x}, y <= {yhi:#x} multiple of 2^{tz}, k {k}), \
                 inputs {inputs:?}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 16_000);
    assert!(fired > 20, "the split happened in only {fired} cases");
}

#[test]
fn greedy_extraction_is_within_two_percent_of_the_exact_optimum() {
    let mut r = Rng(42);
    let costs = CostModel::default();
    let (mut finished, mut worst) = (0, 1.0f64);
    for case in 0..200 {
        let n = 2 + r.below(4) as usize;
        let p = random_program(&mut r, 32, n);
        let (eg, ids) = build(&p);
        let eg = saturate(eg, 60, 3);
        let roots: Vec<Id> = p.roots.iter().map(|i| eg.find(ids[*i])).collect();
        let Some((exact_cost, _)) = extract::exact(&eg, &costs, &roots, 200_000) else {
            continue;
        };
        finished += 1;
        let (_, greedy) = extract::extract(&eg, &costs, &roots, None).expect("an extraction");
        assert!(
            greedy <= exact_cost * 1.02 + 1e-9,
            "case {case}: greedy {greedy} vs exact {exact_cost}: {:?}",
            p.steps
        );
        if exact_cost > 0.0 {
            worst = worst.max(greedy / exact_cost);
        }
    }
    assert!(
        finished >= 50,
        "the exact extractor finished only {finished} graphs"
    );
    assert!(worst <= 1.02, "worst ratio {worst}");
}

#[test]
fn constants_fold_with_wrap_around_at_the_width() {
    // (127 + 1) at i8 is -128, and INT_MIN / -1 is not folded (undefined).
    let p = Program {
        ty: Ty {
            width: 8,
            index: false,
        },
        steps: vec![
            Step::Const(127),
            Step::Const(1),
            Step::Bin(IntBinOp::AddI, 0, 1),
            Step::Const(0x80),
            Step::Const(0xff),
            Step::Bin(IntBinOp::DivSI, 3, 4),
        ],
        vars: vec![],
        roots: vec![2, 5],
    };
    let (eg, ids) = build(&p);
    assert_eq!(eg[ids[2]].data.konst(), Some(0x80));
    assert_eq!(eg[ids[5]].data.konst(), None);
}

#[test]
fn signed_division_of_possibly_negative_values_is_not_a_shift() {
    // x divsi 4 with x of unknown sign must stay a signed division: -7 / 4 is -1, -7 >> 2 is
    // -2. With x known non-negative it becomes a shift.
    for (range, shift) in [((0, mask(32)), false), ((0, 1000), true)] {
        let p = Program {
            ty: Ty {
                width: 32,
                index: false,
            },
            steps: vec![
                Step::Var(0),
                Step::Const(4),
                Step::Bin(IntBinOp::DivSI, 0, 1),
            ],
            vars: vec![range],
            roots: vec![2],
        };
        let (eg, ids) = build(&p);
        let eg = saturate(eg, 1000, 8);
        let root = eg.find(ids[2]);
        let (choice, _) =
            extract::extract(&eg, &CostModel::default(), &[root], None).expect("extracts");
        let is_shift = choice[&root].bin() == Some(IntBinOp::ShRUI);
        assert_eq!(is_shift, shift, "range {range:?}: {:?}", choice[&root]);
    }
}

#[test]
fn casts_follow_the_semantics() {
    let i32t = Ty {
        width: 32,
        index: false,
    };
    let i64t = Ty {
        width: 64,
        index: false,
    };
    let mut eg = EG::new(EqAnalysis::default());
    let c = rules::add_const(&mut eg, i32t, 0xffff_fff0);
    let t = eg.add(Node::leaf(Kind::Ty(i64t)));
    let s = eg.add(Node::op(Kind::Cast(Cast::ExtSI), &[t, c]));
    let u = eg.add(Node::op(Kind::Cast(Cast::ExtUI), &[t, c]));
    eg.rebuild();
    assert_eq!(eg[s].data.konst(), Some(0xffff_ffff_ffff_fff0));
    assert_eq!(eg[u].data.konst(), Some(0xffff_fff0));
    assert!(eg[u].nodes.iter().all(|n| n.children().len() == 2));
}

#[test]
fn rule_files_report_line_and_column() {
    use super::rulefile::parse;
    let cases: &[(&str, (usize, usize), &str)] = &[
        (
            "(rule \"a\" (arith.mul ?x ?y) ?x)",
            (1, 12),
            "unknown op 'arith.mul'",
        ),
        (
            "\n  (rule \"a\" (arith.addi ?x) ?x)",
            (2, 13),
            "takes 2 operands",
        ),
        (
            "(rule \"a\" (arith.addi ?x ?y) ?z)",
            (1, 30),
            "'?z' is not bound",
        ),
        (
            "(rule \"a\" (arith.addi (const i64 1) (const i32 1)) ?x)",
            (1, 37),
            "ill-typed",
        ),
        (
            "(rule \"a\" (arith.cmpi ult ?x ?y) (arith.addi i64 ?x ?y))",
            (1, 34),
            "ill-typed",
        ),
        ("(rule \"a\" (arith.addi ?x ?y) ?x", (1, 1), "unclosed '('"),
        (
            "(rule \"a\" (arith.addi ?x ?y) ?x (if (prime ?x)))",
            (1, 38),
            "unknown condition",
        ),
        (
            "(rule \"a\" (arith.extsi ?x) ?x)",
            (1, 11),
            "takes its result type",
        ),
        (
            "(rule \"a\" (const 1) (const x))",
            (1, 28),
            "not an integer literal",
        ),
    ];
    for (text, (line, col), msg) in cases {
        let Err(e) = parse(text) else {
            panic!("{text}: accepted")
        };
        assert_eq!((e.line, e.col), (*line, *col), "{text}: {}", e.message);
        assert!(e.message.contains(msg), "{text}: {}", e.message);
    }
}

#[test]
fn a_rule_file_rule_rewrites() {
    let rules = super::rulefile::parse(
        "; multiply by 8 is a shift\n(rule \"mul8\" (arith.muli ?x (const 8)) (arith.shli ?x (const 3)))\n",
    )
    .expect("a valid rule file");
    assert_eq!(rules.len(), 1);
    let p = Program {
        ty: Ty {
            width: 32,
            index: false,
        },
        steps: vec![
            Step::Var(0),
            Step::Const(8),
            Step::Bin(IntBinOp::MulI, 0, 1),
        ],
        vars: vec![(0, mask(32))],
        roots: vec![2],
    };
    let (eg, ids) = build(&p);
    let eg = Runner::default().with_egraph(eg).run(&rules).egraph;
    let shl = eg[ids[2]]
        .nodes
        .iter()
        .any(|n| n.bin() == Some(IntBinOp::ShLI));
    assert!(shl, "{:?}", eg[ids[2]].nodes);
}

#[test]
fn cost_files_override_and_report_errors() {
    let m = CostModel::parse("# costs\nmul32 3\ndiv32 25 # slow\n").expect("valid");
    assert_eq!(m.get("mul32"), 3.0);
    assert_eq!(m.get("div32"), 25.0);
    assert_eq!(m.get("add"), 1.0);
    let e = CostModel::parse("add 1\nmull32 2\n").unwrap_err();
    assert_eq!((e.0, e.1), (2, 1));
    let e = CostModel::parse("add -1\n").unwrap_err();
    assert_eq!((e.0, e.1), (1, 5));
}

/// `exact_conversion`, the condition of `cast-exact-cast`, against every value of small
/// integer types: it may claim exactness only when every value of the source fits the target
/// (integers by range, floats by significant bits and exponent), and for integers it claims
/// every such pair.
#[test]
fn exact_conversions_keep_every_value() {
    use super::lang::exact_conversion;
    use tilus_dialects::tilus_types::DType;
    use tilus_ir::types::Signedness;
    let int = |bits, signedness| DType::Int { bits, signedness };
    let range = |bits: u32, s: Signedness| -> (i64, i64) {
        if s == Signedness::Unsigned {
            (0, (1i64 << bits) - 1)
        } else {
            (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
        }
    };
    // A float format's integers: significant bits at most `m + 1`, exponent at most `max_exp`.
    let fits_float = |v: i64, m: u32, max_exp: u32| {
        let a = v.unsigned_abs();
        a == 0 || {
            let top = 63 - a.leading_zeros();
            top <= max_exp && top - a.trailing_zeros() <= m
        }
    };
    let signs = [
        Signedness::Signless,
        Signedness::Signed,
        Signedness::Unsigned,
    ];
    for a in 2..=9u32 {
        for sa in signs {
            let (lo, hi) = range(a, sa);
            for b in 2..=10u32 {
                for sb in signs {
                    let (tlo, thi) = range(b, sb);
                    let all_fit = lo >= tlo && hi <= thi;
                    assert_eq!(
                        exact_conversion(int(a, sa), int(b, sb)),
                        all_fit,
                        "i{a} {sa:?} -> i{b} {sb:?}"
                    );
                }
            }
            for (f, m, max_exp) in [(DType::F16, 10, 15), (DType::BF16, 7, 127)] {
                if exact_conversion(int(a, sa), f) {
                    assert!(
                        (lo..=hi).all(|v| fits_float(v, m, max_exp)),
                        "i{a} {sa:?} -> {f:?} claimed exact"
                    );
                }
            }
        }
    }
    // Floats nest by exponent and mantissa; narrowing and same-type are not "through".
    for (from, to, exact) in [
        (DType::F16, DType::F32, true),
        (DType::BF16, DType::F32, true),
        (DType::F32, DType::F64, true),
        (DType::F8E4M3, DType::F16, true),
        (DType::F8E5M2, DType::F16, true),
        (DType::F4E2M1, DType::F6E3M2, true),
        (DType::F16, DType::BF16, false),
        (DType::BF16, DType::F16, false),
        (DType::F32, DType::F16, false),
        (DType::F16, DType::F16, false),
        (DType::F32, DType::TF32, false),
        (DType::F16, int(32, Signedness::Signless), false),
        (
            int(1, Signedness::Signless),
            int(8, Signedness::Signless),
            false,
        ),
    ] {
        assert_eq!(exact_conversion(from, to), exact, "{from:?} -> {to:?}");
    }
}

/// Permutations survive packing into a leaf's payload; too long ones are refused.
#[test]
fn permutations_pack_and_unpack() {
    use super::lang::{pack_perm, unpack_perm};
    for p in [
        vec![],
        vec![0],
        vec![1, 0],
        vec![2, 0, 1],
        (0..15).rev().collect(),
    ] {
        assert_eq!(unpack_perm(pack_perm(&p).expect("packs")), p);
    }
    assert!(pack_perm(&(0..16).collect::<Vec<_>>()).is_none());
}

/// `rules::Shaped` only skips classes egg's machine finds nothing in: on saturated graphs of
/// random programs, every built-in rule's search returns egg's own matches (same classes in
/// the same order, same substitutions), with and without a match limit.
#[test]
fn shaped_search_finds_exactly_the_matches_of_egg_patterns() {
    use egg::{Pattern, Searcher};
    let mut r = Rng(0x005E_ED0F_5A4E);
    let rules = rules::builtin();
    let mut nested_matches = 0;
    for case in 0..60 {
        let w = [8, 32, 64][case % 3];
        let n = 6 + r.below(12) as usize;
        let p = random_program(&mut r, w, n);
        let (eg, _) = build(&p);
        let eg = saturate(eg, 3000, 1 + case % 4);
        for rw in &rules {
            let ast = rw
                .searcher
                .get_pattern_ast()
                .expect("built-in rules are patterns");
            let plain = Pattern::new(ast.clone());
            let nested = ast
                .as_ref()
                .iter()
                .filter(|n| matches!(n, egg::ENodeOrVar::ENode(_)))
                .count()
                > 1;
            for limit in [usize::MAX, 3] {
                let ours = rw.searcher.search_with_limit(&eg, limit);
                let eggs = plain.search_with_limit(&eg, limit);
                let key = |ms: &[egg::SearchMatches<Node>]| -> Vec<(Id, Vec<egg::Subst>)> {
                    ms.iter().map(|m| (m.eclass, m.substs.clone())).collect()
                };
                assert_eq!(key(&ours), key(&eggs), "rule {} (case {case})", rw.name);
                if nested && limit == usize::MAX {
                    nested_matches += ours.len();
                }
            }
        }
    }
    // The comparison covers nested patterns that do match, not only empty searches.
    assert!(nested_matches > 100, "{nested_matches} nested matches");
}

/// The incremental rounds of `schedule::run` reach the graph egg's `Runner` reaches: on random
/// programs, after each number of rounds and with match limits low enough that the backoff
/// scheduler bans rules, the same nodes and classes, the same stop reason and round count, and
/// the same equalities between the program's values. (Only the numbering of the classes may
/// differ.)
#[test]
fn incremental_rounds_reach_the_graph_of_eggs_runner() {
    use super::schedule::{self, Limits};
    use egg::BackoffScheduler;
    use std::mem::discriminant;
    let mut r = Rng(0x1AC2_E3E4_7A11);
    let rules = rules::builtin();
    let mut rounds_after_the_first = 0;
    for case in 0..80 {
        let w = [8, 32, 64][case % 3];
        let n = 6 + r.below(16) as usize;
        let p = random_program(&mut r, w, n);
        let (eg, ids) = build(&p);
        let iters = 1 + case % 8;
        let (match_limit, ban_length) = [(1000, 5), (4, 1), (10, 2), (2, 3)][case % 4];
        let runner = Runner::default()
            .with_scheduler(
                BackoffScheduler::default()
                    .with_initial_match_limit(match_limit)
                    .with_ban_length(ban_length),
            )
            .with_egraph(eg.clone())
            .with_node_limit(1_000_000)
            .with_iter_limit(iters)
            .with_time_limit(std::time::Duration::from_secs(60))
            .run(&rules);
        let mut ours = eg;
        let limits = Limits {
            nodes: 1_000_000,
            iterations: iters,
            time: std::time::Duration::from_secs(60),
            match_limit,
            ban_length,
        };
        let out = schedule::run(&mut ours, &rules, &limits);
        let theirs = &runner.egraph;
        assert_eq!(out.iterations, runner.iterations.len(), "case {case}");
        assert_eq!(
            discriminant(&out.stop),
            discriminant(runner.stop_reason.as_ref().unwrap()),
            "case {case}"
        );
        assert_eq!(ours.total_size(), theirs.total_size(), "case {case}");
        assert_eq!(
            ours.number_of_classes(),
            theirs.number_of_classes(),
            "case {case}"
        );
        for a in &ids {
            for b in &ids {
                assert_eq!(
                    ours.find(*a) == ours.find(*b),
                    theirs.find(*a) == theirs.find(*b),
                    "case {case}"
                );
            }
        }
        rounds_after_the_first += out.iterations.saturating_sub(1);
    }
    // Most cases run incremental rounds, not only the first full search.
    assert!(rounds_after_the_first > 100, "{rounds_after_the_first}");
}
