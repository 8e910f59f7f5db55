//! Vector memory accesses shared by the global, shared and scratch lowerings: the vector-width
//! rule, `ld`/`st` of 32-bit words, and packing 16-bit registers into words.

use super::*;

impl Lowering {
    /// Unpacks 32-bit `words` into pairs of 16-bit `elem` registers before `at`, remembering
    /// each pair's word (see `packed`).
    pub(super) fn unpack_words(
        &mut self,
        ctx: &mut Context,
        at: OpId,
        words: &[Value],
        elem: Type,
    ) -> Vec<Value> {
        let mut b = before(ctx, at);
        let mut vals = Vec::new();
        for &w in words {
            let h = unpack_word(&mut b, w, elem);
            self.packed.insert((h[0], h[1]), w);
            vals.extend(h);
        }
        vals
    }

    /// The 32-bit words of 16-bit registers `vals` (pairs in order): the word a pair was
    /// unpacked from, else a `mov.b32` packing it before `at`.
    pub(super) fn pack_words(&mut self, ctx: &mut Context, at: OpId, vals: &[Value]) -> Vec<Value> {
        let mut b = before(ctx, at);
        let i32t = b.i32();
        vals.chunks(2)
            .map(|p| match self.packed.get(&(p[0], p[1])) {
                Some(w) => *w,
                None => b.inst("mov.b32", "{$0, $1}", &[p[0], p[1]], &[i32t], None)[0],
            })
            .collect()
    }
}

pub(super) fn imm(k: i64) -> String {
    match k.cmp(&0) {
        std::cmp::Ordering::Equal => String::new(),
        std::cmp::Ordering::Greater => format!("+{k}"),
        std::cmp::Ordering::Less => format!("+{k}"),
    }
}

/// The `ld`/`st` type suffix of an element type.
pub(super) fn ld_suffix(d: DType) -> R<&'static str> {
    Ok(match d {
        DType::F32 | DType::TF32 => "f32",
        DType::F64 => "f64",
        DType::F16 | DType::BF16 => "b16",
        DType::Int { bits: 32, .. } => "b32",
        DType::Int { bits: 64, .. } => "b64",
        DType::Int { bits: 16, .. } => "b16",
        DType::Int { bits: 8, .. } => "s8",
        other => {
            return Err(format!(
                "memory accesses of '{}' are not lowered",
                other.name()
            ))
        }
    })
}

/// The widest width (a power of two, at most `max`) at which every run of `width` registers
/// is `width` consecutive elements along dimension `last` starting at a multiple of
/// `width` in every thread (the layout's thread digits along `last` step by multiples of it),
/// and `memory_ok(width)` holds for the memory side (its other strides, its alignment): the
/// one rule for vector accesses to global and shared memory.
pub(super) fn register_vector_width(
    layout: &RegisterLayout,
    lparts: &[Vec<i64>],
    last: usize,
    max: i64,
    memory_ok: impl Fn(i64) -> bool,
) -> i64 {
    let n = layout.local_size();
    let rank = layout.rank();
    let g = geo(layout);
    let ok = |vw: i64| -> bool {
        n % vw == 0
            && g.tdig.iter().all(|&(p, _, _)| {
                p < 0 || g.mode_dim[p as usize] != last || g.mode_weight[p as usize] % vw == 0
            })
            && memory_ok(vw)
            && (0..n).step_by(vw as usize).all(|l| {
                let a = &lparts[l as usize];
                a[last] % vw == 0
                    && (1..vw).all(|i| {
                        let c = &lparts[(l + i) as usize];
                        (0..rank).all(|d| c[d] == a[d] + if d == last { i } else { 0 })
                    })
            })
    };
    let mut vw = max.max(1);
    while vw > 1 && !ok(vw) {
        vw /= 2;
    }
    vw
}

/// `vw` contiguous elements from `[a+k]`.
#[allow(clippy::too_many_arguments)]
pub(super) fn vector_load(
    b: &mut OpBuilder<'_>,
    space: &str,
    a: Value,
    k: i64,
    elem: Type,
    vw: usize,
    bytes: i64,
    sfx: &str,
) -> Vec<Value> {
    let addr = format!("[$0{}]", imm(k));
    if vw == 1 {
        return b.inst(&format!("ld.{space}.{sfx}"), &addr, &[a], &[elem], None);
    }
    if bytes >= 4 {
        return b.inst(
            &format!("ld.{space}.v{vw}.{sfx}"),
            &addr,
            &[a],
            &vec![elem; vw],
            None,
        );
    }
    // 16-bit elements: 32-bit words, then unpacked.
    vector_load_words(b, space, a, k, vw / 2)
        .into_iter()
        .flat_map(|w| unpack_word(b, w, elem))
        .collect()
}

/// `words` contiguous 32-bit words from `[a+k]` (one `ld`, vectorized when `words > 1`).
pub(super) fn vector_load_words(
    b: &mut OpBuilder<'_>,
    space: &str,
    a: Value,
    k: i64,
    words: usize,
) -> Vec<Value> {
    let addr = format!("[$0{}]", imm(k));
    let i32t = b.i32();
    if words == 1 {
        b.inst(&format!("ld.{space}.b32"), &addr, &[a], &[i32t], None)
    } else {
        b.inst(
            &format!("ld.{space}.v{words}.b32"),
            &addr,
            &[a],
            &vec![i32t; words],
            None,
        )
    }
}

/// Stores the 32-bit `words` (contiguous) at `[a+k]`, under `guard` when given.
pub(super) fn vector_store_words(
    b: &mut OpBuilder<'_>,
    space: &str,
    a: Value,
    k: i64,
    words: &[Value],
    guard: Option<Value>,
) {
    let mut all = vec![a];
    all.extend(words.iter().copied());
    let (op, form) = if words.len() == 1 {
        (format!("st.{space}.b32"), format!("[$0{}], $1", imm(k)))
    } else {
        let list: Vec<String> = (1..all.len()).map(|i| format!("${i}")).collect();
        (
            format!("st.{space}.v{}.b32", words.len()),
            format!("[$0{}], {{{}}}", imm(k), list.join(", ")),
        )
    };
    b.inst(&op, &form, &all, &[], guard);
}

/// The 32-bit word holding the 16-bit values `lo` (low half) and `hi`.
pub(super) fn pack_halves(b: &mut OpBuilder<'_>, lo: Value, hi: Value) -> Value {
    let i32t = b.i32();
    b.inst("mov.b32", "{$0, $1}", &[lo, hi], &[i32t], None)[0]
}

/// The two 16-bit values (low half first) of the word `w`, as `elem`.
pub(super) fn unpack_word(b: &mut OpBuilder<'_>, w: Value, elem: Type) -> Vec<Value> {
    b.inst("mov.b32", "$0", &[w], &[elem, elem], None)
}

/// Stores `vals` (contiguous) at `[a+k]`.
#[allow(clippy::too_many_arguments)]
pub(super) fn vector_store(
    b: &mut OpBuilder<'_>,
    space: &str,
    a: Value,
    k: i64,
    vals: &[Value],
    elem: Type,
    bytes: i64,
    sfx: &str,
    guard: Option<Value>,
) {
    let _ = elem;
    let vw = vals.len();
    if vw == 1 {
        b.inst(
            &format!("st.{space}.{sfx}"),
            &format!("[$0{}], $1", imm(k)),
            &[a, vals[0]],
            &[],
            guard,
        );
        return;
    }
    let (op, args): (String, Vec<Value>) = if bytes >= 4 {
        (format!("st.{space}.v{vw}.{sfx}"), vals.to_vec())
    } else {
        let i32t = b.i32();
        let words: Vec<Value> = vals
            .chunks(2)
            .map(|p| b.inst("mov.b32", "{$0, $1}", &[p[0], p[1]], &[i32t], None)[0])
            .collect();
        let op = if words.len() == 1 {
            format!("st.{space}.b32")
        } else {
            format!("st.{space}.v{}.b32", words.len())
        };
        (op, words)
    };
    let mut all = vec![a];
    all.extend(args.iter().copied());
    let list: Vec<String> = (1..all.len()).map(|i| format!("${i}")).collect();
    let form = if args.len() == 1 {
        format!("[$0{}], $1", imm(k))
    } else {
        format!("[$0{}], {{{}}}", imm(k), list.join(", "))
    };
    b.inst(&op, &form, &all, &[], guard);
}
