//! The built-in rewrite rules of `eqsat`, by family.
//!
//! Patterns are egg s-expressions over the language of [`super::lang`]: every op has its type
//! (or predicate) as first child, so `?t` ranges over widths. Rules whose right side is
//! computed (a new constant: `log2 c`, `2^k`) or whose firing depends on the range analysis
//! are [`Computed`] appliers: they read the e-class facts and add the result themselves.
//!
//! Families and why each is sound:
//! - **identities**: `x+0`, `x*1`, `x&-1`, `x|0`, `x^x`, `x-x`, ..., exact at every width;
//! - **commutativity and bounded reassociation**: `(x+y)+z → x+(y+z)` (and `*`), so constants
//!   meet and fold and shared sums are found; the backoff scheduler and the node limit bound
//!   the blow-up;
//! - **strength reduction**: `x*2^k ↔ x<<k`, `x divui 2^k ↔ x>>k`, `x remui 2^k ↔ x&(2^k-1)`
//!   (unsigned only: a signed division of a negative value rounds toward zero and a shift
//!   toward negative infinity, so `divsi` is first turned into `divui`, and only when the range
//!   analysis proves both operands non-negative);
//! - **range rules**: `(x*c + y) divui c → x` and `remui c → y` when `y < c` and `x*c + y`
//!   cannot wrap; `x remui c → x` when `x < c`; `x & m → x` when `x ≤ m`, and `x & -2^k → x`
//!   and `(x >> k) << k → x` when `x` is a multiple of `2^k`; min/max decided by
//!   ranges; `extsi → extui` of non-negative values; casts pushed through non-wrapping sums;
//!   `(x + y) & m → x & m`, `(x + y) >> k → (x >> k) + (y >> k)` and `(x + y) ^ z →
//!   (x ^ z) + y` when `x` and `y` have no bit that may be set in both (the sum cannot carry)
//!   and `y` none in common with `m` or `z`; for a constant `k` disjoint from `x`,
//!   `(x + k) & m → (x & m) + (k & m)` and `(x + k) ^ z → (x ^ z) ^ k`, and `x ^ k` splits
//!   into the bits of `k` that `x` may have (an xor) and the others (an add); a constant
//!   added under a mask or an xor that reaches below bit `j` only counts modulo `2^j`
//!   (`(x + c) & m → (x + c mod 2^j) & m`, `(x + c) ^ z → ((x + c mod 2^j) ^ z) + (c - c mod
//!   2^j)`), exact with any carry;
//!   `(x + y) >> k → (x >> k) + (y >> k)` also when `y` is a multiple of `2^k` and the sum
//!   cannot wrap;
//! - **select/cmp**: `select c x x → x`, `select` of a decided condition, `cmpi` of equal
//!   operands;
//! - **tile conversions and views**: `convert(convert(x))` keeps the last layout, a convert or
//!   cast to the value's own type is the value, a cast through an exact intermediate type is
//!   the direct cast, permutes compose (see [`tile_rules`]).
//!
//! Comparisons decided by ranges and constants need no rule: the analysis folds them.

use super::lang::{bin_index, Cast, Facts, Kind, Node, Ty, EG};
use egg::{
    Applier, ENodeOrVar, Id, Language, Pattern, PatternAst, Rewrite, SearchMatches, Searcher,
    Subst, Symbol, Var,
};
use tilus_dialects::arith::{mask, sext, CmpIPredicate, IntBinOp};
use tilus_ir::handle::KeywordEnum;

/// Computes the right side of a rule from the match, or declines.
pub type ComputeFn = fn(&mut EG, &Subst, &[Var]) -> Option<Id>;

/// An applier whose right side is computed (see the module docs).
pub struct Computed {
    /// The pattern variables `f` reads, in order.
    pub vars: Vec<Var>,
    /// Builds the right side.
    pub f: ComputeFn,
}

impl Applier<Node, super::lang::EqAnalysis> for Computed {
    fn apply_one(
        &self,
        egraph: &mut EG,
        eclass: Id,
        subst: &Subst,
        _ast: Option<&PatternAst<Node>>,
        _rule: Symbol,
    ) -> Vec<Id> {
        match (self.f)(egraph, subst, &self.vars) {
            Some(new) if egraph.union(eclass, new) => vec![eclass],
            _ => vec![],
        }
    }
    fn vars(&self) -> Vec<Var> {
        self.vars.clone()
    }
}

fn v(name: &str) -> Var {
    name.parse().expect("a pattern variable")
}

fn pat(s: &str) -> Pattern<Node> {
    s.parse()
        .unwrap_or_else(|e| panic!("built-in pattern '{s}': {e}"))
}

fn rw(name: &str, lhs: &str, rhs: &str) -> Rewrite<Node, super::lang::EqAnalysis> {
    Rewrite::new(name, Shaped::new(pat(lhs)), pat(rhs)).expect("a built-in rule")
}

/// A pattern searched as egg searches it, but with a cheap shape test first: a class is only
/// handed to egg's e-matching machine when one of its nodes has the pattern's nested operators
/// and literals below it (variables not yet compared). The machine allocates its registers and
/// match vectors for every class it visits, and many classes with the pattern's root operator
/// do not have its shape, so the test skips that work for them. The classes
/// searched, their order and the matches found are exactly egg's own (the test only rejects
/// classes the machine would find nothing in), so the rewrite does the same thing.
pub struct Shaped {
    pat: Pattern<Node>,
    /// Whether the pattern has an operator or literal below its root; when not, every class
    /// with the root's operator has the shape and the test is skipped.
    nested: bool,
}

impl Shaped {
    /// Searches for `pat` (every built-in and rule-file rule is searched this way).
    pub fn new(pat: Pattern<Node>) -> Shaped {
        let ast = pat.ast.as_ref();
        let nested = match ast.last() {
            Some(ENodeOrVar::ENode(n)) => n
                .children()
                .iter()
                .any(|c| matches!(ast[usize::from(*c)], ENodeOrVar::ENode(_))),
            _ => false,
        };
        Shaped { pat, nested }
    }
}

/// Whether class `id` has a node with the operators and literals of pattern node `p` of `ast`
/// below it (variables match anything): the test [`Shaped`] puts in front of egg's machine.
fn has_shape(ast: &[ENodeOrVar<Node>], eg: &EG, p: Id, id: Id) -> bool {
    let ENodeOrVar::ENode(pn) = &ast[usize::from(p)] else {
        return true;
    };
    eg[id].nodes.iter().any(|n| {
        pn.matches(n)
            && pn
                .children()
                .iter()
                .zip(n.children())
                .all(|(pc, c)| has_shape(ast, eg, *pc, *c))
    })
}

impl Searcher<Node, super::lang::EqAnalysis> for Shaped {
    fn search_eclass_with_limit(
        &self,
        egraph: &EG,
        eclass: Id,
        limit: usize,
    ) -> Option<SearchMatches<'_, Node>> {
        let ast = self.pat.ast.as_ref();
        if self.nested && !has_shape(ast, egraph, Id::from(ast.len() - 1), eclass) {
            return None;
        }
        self.pat.search_eclass_with_limit(egraph, eclass, limit)
    }

    fn search_with_limit(&self, egraph: &EG, mut limit: usize) -> Vec<SearchMatches<'_, Node>> {
        let ast = self.pat.ast.as_ref();
        let Some(ENodeOrVar::ENode(root)) = ast.last() else {
            return self.pat.search_with_limit(egraph, limit);
        };
        let Some(classes) = egraph.classes_for_op(&root.discriminant()) else {
            return Vec::new();
        };
        // egg's `search_eclasses_with_limit` over the classes with the root operator, each
        // behind the shape test.
        let mut found = Vec::new();
        for id in classes {
            if limit == 0 {
                break;
            }
            if let Some(m) = self.search_eclass_with_limit(egraph, id, limit) {
                limit = limit.saturating_sub(m.substs.len());
                found.push(m);
            }
        }
        found
    }

    fn get_pattern_ast(&self) -> Option<&PatternAst<Node>> {
        Some(&self.pat.ast)
    }

    fn vars(&self) -> Vec<Var> {
        self.pat.vars()
    }
}

fn computed(
    name: &str,
    lhs: &str,
    vars: &[&str],
    f: ComputeFn,
) -> Rewrite<Node, super::lang::EqAnalysis> {
    let vars = vars.iter().map(|s| v(s)).collect();
    Rewrite::new(name, Shaped::new(pat(lhs)), Computed { vars, f }).expect("a built-in rule")
}

/// `x op 2^k` (type `t`, the variables `[t, x, c]`) as `x to k`: `mul` by a power of two as
/// `shli`, `divui` as `shrui`.
fn pow2_to_shift(eg: &mut EG, s: &Subst, vs: &[Var], to: IntBinOp) -> Option<Id> {
    let ty = ty_of(eg, s, vs[0])?;
    let c = facts(eg, s, vs[2]).konst()?;
    if !c.is_power_of_two() {
        return None;
    }
    let k = add_const(eg, ty, c.trailing_zeros() as u128);
    Some(add_bin(eg, to, s[vs[0]], s[vs[1]], k))
}

/// The converse of [`pow2_to_shift`]: `x op k` as `x to 2^k` for a shift amount inside the
/// type's width.
fn shift_to_pow2(eg: &mut EG, s: &Subst, vs: &[Var], to: IntBinOp) -> Option<Id> {
    let ty = ty_of(eg, s, vs[0])?;
    let k = facts(eg, s, vs[2]).konst()?;
    if k >= ty.width as u128 {
        return None;
    }
    let c = add_const(eg, ty, 1u128 << k);
    Some(add_bin(eg, to, s[vs[0]], s[vs[1]], c))
}

fn facts<'a>(eg: &'a EG, s: &Subst, x: Var) -> &'a Facts {
    &eg[s[x]].data
}

fn ty_of(eg: &EG, s: &Subst, t: Var) -> Option<Ty> {
    match eg[s[t]].data.meta {
        Some(Kind::Ty(t)) => Some(t),
        _ => None,
    }
}

/// Adds the constant `bits` of type `ty`.
pub fn add_const(eg: &mut EG, ty: Ty, bits: u128) -> Id {
    let bits = bits & mask(ty.width);
    if let Some(c) = eg.analysis.consts.get(&(ty, bits)) {
        return eg.find(*c);
    }
    let t = eg.add(Node::leaf(Kind::Ty(ty)));
    let n = eg.add(Node::leaf(Kind::Num(sext(bits, ty.width))));
    let c = eg.add(Node::op(Kind::Const, &[t, n]));
    eg.analysis.consts.insert((ty, bits), c);
    c
}

fn add_bin(eg: &mut EG, op: IntBinOp, t: Id, a: Id, b: Id) -> Id {
    eg.add(Node::op(Kind::Bin(bin_index(op)), &[t, a, b]))
}

fn bin_name(op: IntBinOp) -> &'static str {
    super::lang::bin_def(op).name
}

/// The rules for a binary op spelled by its declaration: `(arith.addi ?t ?x ?y)`.
fn b(op: IntBinOp, x: &str, y: &str) -> String {
    format!("({} ?t {x} {y})", bin_name(op))
}

/// Every built-in rule, built once per process (parsing the patterns costs more than running
/// the pass on a small kernel).
pub fn builtin_shared() -> &'static [Rewrite<Node, super::lang::EqAnalysis>] {
    static RULES: std::sync::OnceLock<Vec<Rewrite<Node, super::lang::EqAnalysis>>> =
        std::sync::OnceLock::new();
    RULES.get_or_init(builtin)
}

/// Every built-in rule.
pub fn builtin() -> Vec<Rewrite<Node, super::lang::EqAnalysis>> {
    use IntBinOp::*;
    let mut r = Vec::new();
    let zero = "(const ?t 0)";
    let one = "(const ?t 1)";
    let ones = "(const ?t -1)";

    // ----- identities ---------------------------------------------------------------------
    r.push(rw("add-zero", &b(AddI, "?x", zero), "?x"));
    r.push(rw("sub-zero", &b(SubI, "?x", zero), "?x"));
    r.push(rw("sub-self", &b(SubI, "?x", "?x"), zero));
    r.push(rw("mul-one", &b(MulI, "?x", one), "?x"));
    r.push(rw("mul-zero", &b(MulI, "?x", zero), zero));
    r.push(rw("and-zero", &b(AndI, "?x", zero), zero));
    r.push(rw("and-ones", &b(AndI, "?x", ones), "?x"));
    r.push(rw("and-self", &b(AndI, "?x", "?x"), "?x"));
    r.push(rw("or-zero", &b(OrI, "?x", zero), "?x"));
    r.push(rw("or-self", &b(OrI, "?x", "?x"), "?x"));
    r.push(rw("xor-zero", &b(XOrI, "?x", zero), "?x"));
    r.push(rw("xor-self", &b(XOrI, "?x", "?x"), zero));
    for op in [ShLI, ShRUI, ShRSI] {
        r.push(rw(
            &format!("{}-zero", bin_name(op)),
            &b(op, "?x", zero),
            "?x",
        ));
    }
    for op in [DivUI, DivSI] {
        r.push(rw(
            &format!("{}-one", bin_name(op)),
            &b(op, "?x", one),
            "?x",
        ));
    }
    r.push(rw("sub-add", &b(SubI, &b(AddI, "?x", "?y"), "?y"), "?x"));
    r.push(rw("add-sub", &b(AddI, &b(SubI, "?x", "?y"), "?y"), "?x"));

    // ----- commutativity and bounded reassociation ----------------------------------------
    for op in [AddI, MulI, AndI, OrI, XOrI] {
        let n = bin_name(op);
        r.push(rw(
            &format!("{n}-comm"),
            &b(op, "?x", "?y"),
            &b(op, "?y", "?x"),
        ));
    }
    for op in [AddI, MulI] {
        let n = bin_name(op);
        r.push(rw(
            &format!("{n}-assoc"),
            &b(op, &b(op, "?x", "?y"), "?z"),
            &b(op, "?x", &b(op, "?y", "?z")),
        ));
    }
    for op in [AddI, MulI] {
        let n = bin_name(op);
        r.push(rw(
            &format!("{n}-assoc-rev"),
            &b(op, "?x", &b(op, "?y", "?z")),
            &b(op, &b(op, "?x", "?y"), "?z"),
        ));
    }
    // x*c = x*(c - l) + x*l with l the lowest set bit of c: with reassociation, `b + x*12`
    // becomes `(b + x*8) + x*4`, which reuses `b + x*8` and `x*4` when the block has them
    // (the address of the next element of a strided access).
    r.push(computed(
        "mul-split-low-bit",
        &b(MulI, "?x", "?c"),
        &["?t", "?x", "?c"],
        |eg, s, vs| {
            let ty = ty_of(eg, s, vs[0])?;
            let c = facts(eg, s, vs[2]).konst()?;
            if c == 0 || c.is_power_of_two() {
                return None;
            }
            let low = c & c.wrapping_neg();
            let (t, x) = (s[vs[0]], s[vs[1]]);
            let (ch, cl) = (add_const(eg, ty, c - low), add_const(eg, ty, low));
            let high = add_bin(eg, MulI, t, x, ch);
            let lo = add_bin(eg, MulI, t, x, cl);
            Some(add_bin(eg, AddI, t, high, lo))
        },
    ));
    // Distribution to factor common terms: x*a + x*b ← x*(a+b) and back (wraps exactly).
    r.push(rw(
        "mul-add-factor",
        &b(AddI, &b(MulI, "?x", "?a"), &b(MulI, "?x", "?b")),
        &b(MulI, "?x", &b(AddI, "?a", "?b")),
    ));
    r.push(rw(
        "shl-add-distribute",
        &b(ShLI, &b(AddI, "?x", "?y"), "?k"),
        &b(AddI, &b(ShLI, "?x", "?k"), &b(ShLI, "?y", "?k")),
    ));

    // ----- strength reduction --------------------------------------------------------------
    r.push(computed(
        "mul-pow2-to-shl",
        &b(MulI, "?x", "?c"),
        &["?t", "?x", "?c"],
        |eg, s, vs| pow2_to_shift(eg, s, vs, ShLI),
    ));
    r.push(computed(
        "shl-to-mul",
        &b(ShLI, "?x", "?k"),
        &["?t", "?x", "?k"],
        |eg, s, vs| shift_to_pow2(eg, s, vs, MulI),
    ));
    r.push(computed(
        "divui-pow2-to-shr",
        &b(DivUI, "?x", "?c"),
        &["?t", "?x", "?c"],
        |eg, s, vs| pow2_to_shift(eg, s, vs, ShRUI),
    ));
    r.push(computed(
        "shrui-to-divui",
        &b(ShRUI, "?x", "?k"),
        &["?t", "?x", "?k"],
        |eg, s, vs| shift_to_pow2(eg, s, vs, DivUI),
    ));
    r.push(computed(
        "remui-pow2-to-and",
        &b(RemUI, "?x", "?c"),
        &["?t", "?x", "?c"],
        |eg, s, vs| {
            let ty = ty_of(eg, s, vs[0])?;
            let c = facts(eg, s, vs[2]).konst()?;
            if !c.is_power_of_two() {
                return None;
            }
            let m = add_const(eg, ty, c - 1);
            Some(add_bin(eg, AndI, s[vs[0]], s[vs[1]], m))
        },
    ));
    r.push(computed(
        "and-low-mask-to-remui",
        &b(AndI, "?x", "?m"),
        &["?t", "?x", "?m"],
        |eg, s, vs| {
            let ty = ty_of(eg, s, vs[0])?;
            let m = facts(eg, s, vs[2]).konst()?;
            // m = 2^k - 1 with 2^k representable.
            if m == mask(ty.width) || (m + 1) & m != 0 {
                return None;
            }
            let c = add_const(eg, ty, m + 1);
            Some(add_bin(eg, RemUI, s[vs[0]], s[vs[1]], c))
        },
    ));
    // Signed division and remainder of non-negative values are the unsigned ones (this is the
    // only way signed ops reach the power-of-two rules).
    for (from, to) in [
        (DivSI, DivUI),
        (RemSI, RemUI),
        (FloorDivSI, DivUI),
        (ShRSI, ShRUI),
        (MaxSI, MaxUI),
        (MinSI, MinUI),
    ] {
        let f: ComputeFn = match to {
            DivUI => |eg, s, vs| signed_to_unsigned(eg, s, vs, DivUI),
            RemUI => |eg, s, vs| signed_to_unsigned(eg, s, vs, RemUI),
            ShRUI => |eg, s, vs| signed_to_unsigned(eg, s, vs, ShRUI),
            MaxUI => |eg, s, vs| signed_to_unsigned(eg, s, vs, MaxUI),
            _ => |eg, s, vs| signed_to_unsigned(eg, s, vs, MinUI),
        };
        r.push(computed(
            &format!("{}-nonneg-to-unsigned", bin_name(from)),
            &b(from, "?x", "?y"),
            &["?t", "?x", "?y"],
            f,
        ));
    }

    // ----- range rules -----------------------------------------------------------------------
    r.push(computed(
        "divui-of-mul-add",
        &b(DivUI, &b(AddI, &b(MulI, "?x", "?c"), "?y"), "?c"),
        &["?t", "?x", "?c", "?y"],
        |eg, s, vs| mul_add_exact(eg, s, vs).then_some(s[vs[1]]),
    ));
    r.push(computed(
        "remui-of-mul-add",
        &b(RemUI, &b(AddI, &b(MulI, "?x", "?c"), "?y"), "?c"),
        &["?t", "?x", "?c", "?y"],
        |eg, s, vs| mul_add_exact(eg, s, vs).then_some(s[vs[3]]),
    ));
    r.push(computed(
        "divui-of-mul",
        &b(DivUI, &b(MulI, "?x", "?c"), "?c"),
        &["?t", "?x", "?c"],
        |eg, s, vs| {
            let (x, c) = (facts(eg, s, vs[1]), facts(eg, s, vs[2]));
            let c = c.konst()?;
            (c > 0 && x.hi.checked_mul(c)? <= mask(x.width())).then_some(s[vs[1]])
        },
    ));
    r.push(computed(
        "remui-of-small",
        &b(RemUI, "?x", "?c"),
        &["?t", "?x", "?c"],
        |eg, s, vs| (facts(eg, s, vs[1]).hi < facts(eg, s, vs[2]).lo).then_some(s[vs[1]]),
    ));
    r.push(computed(
        "and-of-small",
        &b(AndI, "?x", "?m"),
        &["?t", "?x", "?m"],
        |eg, s, vs| {
            let m = facts(eg, s, vs[2]).konst()?;
            let x = facts(eg, s, vs[1]);
            (m & (m + 1) == 0 && x.hi <= m).then_some(s[vs[1]])
        },
    ));
    // A value known to be a multiple of `2^k` (a parameter's `tilus.divisibility`, an aligned
    // address) is unchanged by a mask that clears only bits below `k`: `n & -64` is `n`, and
    // so is `(n >> 6) << 6`. (Kept to these alignment masks: the general "the mask keeps every
    // possible bit" merges many swizzle classes early and left the matmul epilogues' rewrites
    // short of their rounds.)
    r.push(computed(
        "and-of-aligned",
        &b(AndI, "?x", "?m"),
        &["?t", "?x", "?m"],
        |eg, s, vs| {
            let ty = ty_of(eg, s, vs[0])?;
            let m = facts(eg, s, vs[2]).konst()?;
            let low = !m & mask(ty.width);
            let x = facts(eg, s, vs[1]);
            let aligned = low != 0 && low & (low + 1) == 0 && x.tz >= bit_length(low);
            (aligned && x.konst().is_none()).then_some(s[vs[1]])
        },
    ));
    r.push(computed(
        "shl-of-shrui-aligned",
        &b(ShLI, &b(ShRUI, "?x", "?k"), "?k"),
        &["?t", "?x", "?k"],
        |eg, s, vs| {
            let k = facts(eg, s, vs[2]).konst()?;
            let x = facts(eg, s, vs[1]);
            (x.konst().is_none() && u128::from(x.tz) >= k).then_some(s[vs[1]])
        },
    ));
    r.push(computed(
        "or-disjoint-to-add",
        &b(OrI, "?x", "?y"),
        &["?t", "?x", "?y"],
        |eg, s, vs| {
            // x | y = x + y when no bit is set in both.
            let (x, y) = (facts(eg, s, vs[1]), facts(eg, s, vs[2]));
            disjoint(x, y).then(|| add_bin(eg, AddI, s[vs[0]], s[vs[1]], s[vs[2]]))
        },
    ));
    // For a constant `k`, `x ^ k` is `x` xor the bits of `k` that `x` may have, plus the
    // others (which the first part cannot have): `a ^ 40` with bit 3 of `a` known zero is
    // `(a ^ 32) + 8`, and `a ^ 8` is `a + 8`, so the constant joins the address's other
    // constant offsets.
    r.push(computed(
        "xor-split-const",
        &b(XOrI, "?x", "?k"),
        &["?t", "?x", "?k"],
        |eg, s, vs| {
            let ty = ty_of(eg, s, vs[0])?;
            let (x, k) = (facts(eg, s, vs[1]), facts(eg, s, vs[2]));
            let k = k.konst()?;
            let (inside, outside) = (k & x.may, k & !x.may);
            if x.konst().is_some() || outside == 0 {
                // Constants fold; nothing to split off.
                return None;
            }
            let t = s[vs[0]];
            let ko = add_const(eg, ty, outside);
            let xi = if inside == 0 {
                s[vs[1]]
            } else {
                let ki = add_const(eg, ty, inside);
                add_bin(eg, XOrI, t, s[vs[1]], ki)
            };
            Some(add_bin(eg, AddI, t, xi, ko))
        },
    ));
    // Disjoint-bit rules: when no bit can be set in both `x` and `y`, `x + y` cannot carry
    // and is `x | y`, so masks, shifts and xors act on each part alone. This is what turns a
    // swizzled shared-memory address of element `base + c` (`(a ^ ((a & 448) >> 3)) * 2` with
    // `a = base + c`, `base` a multiple of 8 below 1024, `c = 1024 j + i` with `i < 8`) into
    // the swizzled base plus `2c`: one add per element instead of five ops.
    // (x + y) & m = (x & m) + (y & m) when x and y are disjoint (both sides are `or`s of
    // disjoint parts); just `x & m` when `y` misses `m`, `(x & m) + c` for constants.
    r.push(computed(
        "and-of-disjoint-add",
        &b(AndI, &b(AddI, "?x", "?y"), "?m"),
        &["?t", "?x", "?y", "?m"],
        |eg, s, vs| {
            let (x, y, m) = (
                facts(eg, s, vs[1]),
                facts(eg, s, vs[2]),
                facts(eg, s, vs[3]),
            );
            if !disjoint(x, y) {
                return None;
            }
            let t = s[vs[0]];
            if disjoint(y, m) {
                return Some(add_bin(eg, AndI, t, s[vs[1]], s[vs[3]]));
            }
            // Only a constant `y` (its part folds): a general one would double the nodes of
            // every masked sum for no saving.
            let (ty, yk, mk) = (ty_of(eg, s, vs[0])?, y.konst()?, m.konst()?);
            let xm = add_bin(eg, AndI, t, s[vs[1]], s[vs[3]]);
            let ym = add_const(eg, ty, yk & mk);
            Some(add_bin(eg, AddI, t, xm, ym))
        },
    ));
    // (x + k) ^ z = (x ^ z) ^ k for a constant `k` disjoint from `x` (x + k is then x ^ k), so
    // the constant can meet others; the rule below keeps the add when `k` also misses `z`.
    r.push(computed(
        "xor-of-disjoint-add-xor",
        &b(XOrI, &b(AddI, "?x", "?y"), "?z"),
        &["?t", "?x", "?y", "?z"],
        |eg, s, vs| {
            let (x, y, z) = (
                facts(eg, s, vs[1]),
                facts(eg, s, vs[2]),
                facts(eg, s, vs[3]),
            );
            if !disjoint(x, y) || disjoint(y, z) || y.konst().is_none() {
                return None;
            }
            let t = s[vs[0]];
            let xz = add_bin(eg, XOrI, t, s[vs[1]], s[vs[3]]);
            Some(add_bin(eg, XOrI, t, xz, s[vs[2]]))
        },
    ));
    r.push(computed(
        "xor-of-disjoint-add",
        &b(XOrI, &b(AddI, "?x", "?y"), "?z"),
        &["?t", "?x", "?y", "?z"],
        |eg, s, vs| {
            let (x, y, z) = (
                facts(eg, s, vs[1]),
                facts(eg, s, vs[2]),
                facts(eg, s, vs[3]),
            );
            if !(disjoint(x, y) && disjoint(y, z)) {
                return None;
            }
            let t = s[vs[0]];
            let xz = add_bin(eg, XOrI, t, s[vs[1]], s[vs[3]]);
            Some(add_bin(eg, AddI, t, xz, s[vs[2]]))
        },
    ));
    // Low bits of a sum depend only on the low bits of its operands, in any width and with any
    // carry. So below a mask `m` that reaches bit `j - 1` at most, a constant `c` counts only
    // as `c mod 2^j`: `(x + 4104) & 448` is `(x + 8) & 448` (and `x & 448` when `x` has no bit
    // 3), even when the sum carries into bit 12. Element `base + 1024 * 4 + 8` of a swizzled
    // buffer then reads the swizzle of `base + 8`.
    r.push(computed(
        "and-of-add-low-bits",
        &b(AndI, &b(AddI, "?x", "?y"), "?m"),
        &["?t", "?x", "?y", "?m"],
        |eg, s, vs| {
            let (xl, _) = split_low_bits(eg, s, vs).filter(|(_, high)| *high != 0)?;
            Some(add_bin(eg, AndI, s[vs[0]], xl, s[vs[3]]))
        },
    ));
    // The same split for an xor whose other operand `z` lives below bit `j`: the high part
    // `h` of the constant (a multiple of `2^j`) changes only bits the xor does not touch, and
    // no carry crosses from below `j` into it, so `(x + c) ^ z = ((x + (c - h)) ^ z) + h`
    // exactly, wrap-around included.
    r.push(computed(
        "xor-of-add-high-bits",
        &b(XOrI, &b(AddI, "?x", "?y"), "?z"),
        &["?t", "?x", "?y", "?z"],
        |eg, s, vs| {
            let (xl, high) = split_low_bits(eg, s, vs).filter(|(_, high)| *high != 0)?;
            let t = s[vs[0]];
            let xz = add_bin(eg, XOrI, t, xl, s[vs[3]]);
            let h = add_const(eg, ty_of(eg, s, vs[0])?, high);
            Some(add_bin(eg, AddI, t, xz, h))
        },
    ));
    r.push(computed(
        "shrui-of-disjoint-add",
        &b(ShRUI, &b(AddI, "?x", "?y"), "?k"),
        &["?t", "?x", "?y", "?k"],
        |eg, s, vs| {
            let (x, y, k) = (
                facts(eg, s, vs[1]),
                facts(eg, s, vs[2]),
                facts(eg, s, vs[3]),
            );
            let k = k.konst()?;
            if k >= x.width() as u128 || !disjoint(x, y) {
                return None;
            }
            let t = s[vs[0]];
            let (xk, yk) = (
                add_bin(eg, ShRUI, t, s[vs[1]], s[vs[3]]),
                add_bin(eg, ShRUI, t, s[vs[2]], s[vs[3]]),
            );
            Some(add_bin(eg, AddI, t, xk, yk))
        },
    ));
    // (x + y) >> k = (x >> k) + (y >> k) when y is a multiple of 2^k and the sum does not
    // wrap: y leaves the low k bits of x alone. A shared address plus an aligned offset,
    // shifted into a wgmma descriptor, becomes the shifted address plus a constant.
    r.push(computed(
        "shrui-of-aligned-add",
        &b(ShRUI, &b(AddI, "?x", "?y"), "?k"),
        &["?t", "?x", "?y", "?k"],
        |eg, s, vs| {
            let (x, y, k) = (
                facts(eg, s, vs[1]),
                facts(eg, s, vs[2]),
                facts(eg, s, vs[3]),
            );
            let k = k.konst()?;
            let exact = k < x.width() as u128
                && y.tz as u128 >= k
                && !disjoint(x, y)
                && x.hi.checked_add(y.hi).is_some_and(|h| h <= mask(x.width()));
            if !exact {
                return None;
            }
            let t = s[vs[0]];
            let (xk, yk) = (
                add_bin(eg, ShRUI, t, s[vs[1]], s[vs[3]]),
                add_bin(eg, ShRUI, t, s[vs[2]], s[vs[3]]),
            );
            Some(add_bin(eg, AddI, t, xk, yk))
        },
    ));
    for (op, pick_a_when_a_ge) in [(MaxUI, true), (MinUI, false)] {
        let f: ComputeFn = if pick_a_when_a_ge {
            |eg, s, vs| {
                let (a, c) = (facts(eg, s, vs[1]), facts(eg, s, vs[2]));
                if a.lo >= c.hi {
                    Some(s[vs[1]])
                } else if c.lo >= a.hi {
                    Some(s[vs[2]])
                } else {
                    None
                }
            }
        } else {
            |eg, s, vs| {
                let (a, c) = (facts(eg, s, vs[1]), facts(eg, s, vs[2]));
                if a.hi <= c.lo {
                    Some(s[vs[1]])
                } else if c.hi <= a.lo {
                    Some(s[vs[2]])
                } else {
                    None
                }
            }
        };
        r.push(computed(
            &format!("{}-decided", bin_name(op)),
            &b(op, "?x", "?y"),
            &["?t", "?x", "?y"],
            f,
        ));
    }
    // Casts: a non-negative value sign-extends as it zero-extends; extension distributes over
    // sums and products that do not wrap in the narrow type.
    let extsi = Cast::ExtSI.def().name;
    let extui = Cast::ExtUI.def().name;
    r.push(computed(
        "extsi-nonneg-to-extui",
        &format!("({extsi} ?t ?x)"),
        &["?t", "?x"],
        |eg, s, vs| {
            facts(eg, s, vs[1])
                .nonneg()
                .then(|| eg.add(Node::op(Kind::Cast(Cast::ExtUI), &[s[vs[0]], s[vs[1]]])))
        },
    ));
    for op in [AddI, MulI, ShLI] {
        let f: ComputeFn = match op {
            AddI => |eg, s, vs| ext_distribute(eg, s, vs, AddI),
            MulI => |eg, s, vs| ext_distribute(eg, s, vs, MulI),
            _ => |eg, s, vs| ext_distribute(eg, s, vs, ShLI),
        };
        r.push(computed(
            &format!("extui-through-{}", bin_name(op)),
            &format!("({extui} ?t ({} ?s ?x ?y))", bin_name(op)),
            &["?t", "?s", "?x", "?y"],
            f,
        ));
    }

    // ----- select / cmp ---------------------------------------------------------------------
    let select = super::lang::Node::op(Kind::Select, &[]).to_string();
    let cmpi = super::lang::Node::op(Kind::Cmp, &[]).to_string();
    r.push(rw("select-same", &format!("({select} ?t ?c ?x ?x)"), "?x"));
    r.push(computed(
        "select-decided",
        &format!("({select} ?t ?c ?x ?y)"),
        &["?t", "?c", "?x", "?y"],
        |eg, s, vs| match facts(eg, s, vs[1]).konst()? {
            1 => Some(s[vs[2]]),
            _ => Some(s[vs[3]]),
        },
    ));
    for p in CmpIPredicate::KEYWORDS {
        let pred = CmpIPredicate::from_index(
            CmpIPredicate::KEYWORDS
                .iter()
                .position(|k| k == p)
                .expect("listed") as i64,
        )
        .expect("a predicate");
        // x pred x: reflexive predicates hold.
        let holds = pred.eval(0, 0, 1);
        r.push(rw(
            &format!("cmpi-{p}-self"),
            &format!("({cmpi} {p} ?x ?x)"),
            &format!("(const i1 {})", holds as i32),
        ));
    }
    r.push(rw(
        "select-cmp-ult-min",
        &format!("({select} ?t ({cmpi} ult ?a ?b) ?a ?b)"),
        &b(MinUI, "?a", "?b"),
    ));
    r.push(rw(
        "select-cmp-ugt-max",
        &format!("({select} ?t ({cmpi} ugt ?a ?b) ?a ?b)"),
        &b(MaxUI, "?a", "?b"),
    ));
    tile_rules(&mut r);
    r
}

/// The type a [`Kind::TileTy`] leaf names.
fn tile_ty(eg: &EG, s: &Subst, t: Var) -> Option<tilus_ir::Type> {
    match eg[s[t]].data.meta {
        Some(Kind::TileTy(t)) => Some(t),
        _ => None,
    }
}

/// The element type of tile type `t`, as the pass recorded it.
fn tile_dtype(eg: &EG, t: tilus_ir::Type) -> Option<tilus_dialects::tilus_types::DType> {
    eg.analysis.tiles.get(&t).map(|i| i.dtype)
}

/// The pure tile op rules: conversions and views that undo or compose. Each result has a type
/// the input already had, so no rule invents a type (the analysis has no `Context` to make
/// one) and a rewrite never merges values of different types.
fn tile_rules(r: &mut Vec<Rewrite<Node, super::lang::EqAnalysis>>) {
    use super::lang::{tile_index, TILE_OPS};
    let name = |def: &tilus_ir::opdef::OpDef| {
        let i = tile_index(def).expect("a tile op of the language");
        TILE_OPS[i as usize].0.name
    };
    let convert = name(&tilus_dialects::layout::CONVERT);
    let cast = name(&tilus_dialects::tilus::CAST);
    let permute = name(&tilus_dialects::tilus::PERMUTE_SHARED);
    // A conversion to the layout the value already has moves nothing; a cast to the type the
    // value already has changes nothing.
    for (rule, op) in [("convert-same-type", convert), ("cast-same-type", cast)] {
        r.push(computed(
            rule,
            &format!("({op} ?t ?x)"),
            &["?t", "?x"],
            |eg, s, vs| {
                let t = tile_ty(eg, s, vs[0])?;
                (facts(eg, s, vs[1]).tile == Some(t)).then_some(s[vs[1]])
            },
        ));
    }
    // Only the last layout of a chain of conversions matters: every conversion keeps the
    // logical tensor.
    r.push(rw(
        "convert-convert",
        &format!("({convert} ?t2 ({convert} ?t1 ?x))"),
        &format!("({convert} ?t2 ?x)"),
    ));
    // A cast through a type that holds every value of the source exactly (f16 → f32 → bf16,
    // i8 → i32 → i16) is the direct cast: the second conversion sees the source's value.
    // Back to the source's type (widening then narrowing back) it is the value itself.
    r.push(computed(
        "cast-exact-cast",
        &format!("({cast} ?t2 ({cast} ?t1 ?x))"),
        &["?t1", "?t2", "?x"],
        |eg, s, vs| {
            let (t1, t2) = (tile_ty(eg, s, vs[0])?, tile_ty(eg, s, vs[1])?);
            let from = facts(eg, s, vs[2]).tile?;
            let exact = super::lang::exact_conversion(tile_dtype(eg, from)?, tile_dtype(eg, t1)?);
            if !exact {
                return None;
            }
            if from == t2 {
                return Some(s[vs[2]]);
            }
            let i = tile_index(&tilus_dialects::tilus::CAST).expect("in the language");
            Some(eg.add(Node::op(Kind::Tile(i), &[s[vs[1]], s[vs[2]]])))
        },
    ));
    // Views compose: result dimension i of the outer permute is dimension p2[i] of the inner,
    // which is dimension p1[p2[i]] of the source. The identity on the source's own type is
    // the source.
    r.push(computed(
        "permute-permute",
        &format!("({permute} ?t2 ?p2 ({permute} ?t1 ?p1 ?x))"),
        &["?t2", "?p2", "?p1", "?x"],
        |eg, s, vs| {
            let perm = |v: Var| match eg[s[v]].data.meta {
                Some(Kind::Perm(p)) => Some(super::lang::unpack_perm(p)),
                _ => None,
            };
            let (p2, p1) = (perm(vs[1])?, perm(vs[2])?);
            if p1.len() != p2.len() || p2.iter().any(|i| *i >= p1.len()) {
                return None;
            }
            let composed: Vec<usize> = p2.iter().map(|i| p1[*i]).collect();
            let packed = super::lang::pack_perm(&composed)?;
            let p = eg.add(Node::leaf(Kind::Perm(packed)));
            let i = tile_index(&tilus_dialects::tilus::PERMUTE_SHARED).expect("in the language");
            Some(eg.add(Node::op(Kind::Tile(i), &[s[vs[0]], p, s[vs[3]]])))
        },
    ));
    r.push(computed(
        "permute-identity",
        &format!("({permute} ?t ?p ?x)"),
        &["?t", "?p", "?x"],
        |eg, s, vs| {
            let Some(Kind::Perm(p)) = eg[s[vs[1]]].data.meta else {
                return None;
            };
            let identity = super::lang::unpack_perm(p)
                .iter()
                .enumerate()
                .all(|(i, d)| i == *d);
            let t = tile_ty(eg, s, vs[0])?;
            (identity && facts(eg, s, vs[2]).tile == Some(t)).then_some(s[vs[2]])
        },
    ));
}

fn signed_to_unsigned(eg: &mut EG, s: &Subst, vs: &[Var], to: IntBinOp) -> Option<Id> {
    let (x, y) = (facts(eg, s, vs[1]), facts(eg, s, vs[2]));
    if !(x.nonneg() && y.nonneg()) {
        return None;
    }
    Some(add_bin(eg, to, s[vs[0]], s[vs[1]], s[vs[2]]))
}

/// The bits that may be set in a value with facts `f`: a constant's own bits, else its mask of
/// possibly-set bits (bounded by its interval and trailing zeros, finer after bitwise ops).
fn may_bits(f: &Facts) -> u128 {
    match f.konst() {
        Some(k) => k,
        None => f.may,
    }
}

/// Whether no bit can be set in both values: their sum cannot carry and equals their `or`.
fn disjoint(x: &Facts, y: &Facts) -> bool {
    x.ty.is_some() && y.ty.is_some() && may_bits(x) & may_bits(y) == 0
}

/// `x*c + y` with `y < c` and no wrap-around: then `(x*c + y) / c = x` and `% c = y`.
fn mul_add_exact(eg: &EG, s: &Subst, vs: &[Var]) -> bool {
    let (x, c, y) = (
        facts(eg, s, vs[1]),
        facts(eg, s, vs[2]),
        facts(eg, s, vs[3]),
    );
    let Some(c) = c.konst() else {
        return false;
    };
    if c == 0 || y.hi >= c {
        return false;
    }
    let m = mask(x.width());
    x.hi.checked_mul(c)
        .and_then(|p| p.checked_add(y.hi))
        .is_some_and(|t| t <= m)
}

/// `extui(x op y) → extui(x) op extui(y)` when `x op y` does not wrap in the narrow type.
fn ext_distribute(eg: &mut EG, s: &Subst, vs: &[Var], op: IntBinOp) -> Option<Id> {
    let (t, sty) = (ty_of(eg, s, vs[0])?, ty_of(eg, s, vs[1])?);
    let (x, y) = (facts(eg, s, vs[2]).clone(), facts(eg, s, vs[3]).clone());
    let m = mask(sty.width);
    let exact = match op {
        IntBinOp::AddI => x.hi.checked_add(y.hi).is_some_and(|h| h <= m),
        IntBinOp::MulI => x.hi.checked_mul(y.hi).is_some_and(|h| h <= m),
        _ => match y.konst() {
            Some(k) if k < sty.width as u128 => x.hi <= (m >> k),
            _ => false,
        },
    };
    if !exact {
        return None;
    }
    let tid = s[vs[0]];
    let ex = eg.add(Node::op(Kind::Cast(Cast::ExtUI), &[tid, s[vs[2]]]));
    let ey = if op == IntBinOp::ShLI {
        let k = y.konst()?;
        add_const(eg, t, k)
    } else {
        eg.add(Node::op(Kind::Cast(Cast::ExtUI), &[tid, s[vs[3]]]))
    };
    Some(add_bin(eg, op, tid, ex, ey))
}

/// For `(x + c) op z` (variables `[t, x, c, z]`, `c` a constant, `x` not), with `j` the bit
/// length of what `z` may have set: `x + (c mod 2^j)` (just `x` when that is 0) and the part of
/// `c` above, `c - c mod 2^j`, which `op` below bit `j` does not see.
fn split_low_bits(eg: &mut EG, s: &Subst, vs: &[Var]) -> Option<(Id, u128)> {
    let (ty, c) = (ty_of(eg, s, vs[0])?, facts(eg, s, vs[2]).konst()?);
    if facts(eg, s, vs[1]).konst().is_some() {
        return None;
    }
    let j = bit_length(may_bits(facts(eg, s, vs[3])));
    let (low, high) = (c & mask(j), c & !mask(j));
    let xl = if low == 0 {
        s[vs[1]]
    } else {
        let k = add_const(eg, ty, low);
        add_bin(eg, IntBinOp::AddI, s[vs[0]], s[vs[1]], k)
    };
    Some((xl, high))
}

/// The number of bits up to the highest set one (0 for 0): a value whose bits lie within
/// `may` is below `2^bit_length(may)`.
fn bit_length(may: u128) -> u32 {
    128 - may.leading_zeros()
}
