//! Runtime values of the interpreter and scalar arithmetic on them.

use crate::memory::{GlobalView, SharedView};
use crate::tensor::{DType, Tensor};
use std::rc::Rc;
use tilus_dialects::layout_algebra::TmemLayout;
use tilus_ir::types::{FloatKind, Signedness};
use tilus_ir::{Context, OpId, Type, TypeKind};

/// A scalar: an integer (normalized to its type's width) or a float (rounded to its type).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Sc {
    I(i64),
    F(f64),
}

impl Sc {
    pub(crate) fn as_i64(self) -> i64 {
        match self {
            Sc::I(v) => v,
            Sc::F(f) => f as i64,
        }
    }
    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Sc::I(v) => v as f64,
            Sc::F(f) => f,
        }
    }
    /// Bitwise equality (so NaN equals NaN when merging environments).
    pub(crate) fn same(self, o: Sc) -> bool {
        match (self, o) {
            (Sc::I(a), Sc::I(b)) => a == b,
            (Sc::F(a), Sc::F(b)) => a.to_bits() == b.to_bits(),
            _ => false,
        }
    }
}

/// A shared-memory tensor (a view of an allocation).
#[derive(Clone, Debug)]
pub(crate) struct SharedVal {
    pub view: SharedView,
    /// Byte offset of the allocation the view belongs to.
    pub alloc_base: i64,
}

/// A tensor-memory tensor.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TmemVal {
    /// First 32-bit column of the allocation.
    pub alloc_col: i64,
    /// Column of element 0 (allocation base plus slice offsets).
    pub base_col: i64,
    pub layout: TmemLayout,
    pub dtype: DType,
}

/// A runtime value of an SSA value, as one unit sees it.
#[derive(Clone, Debug, Default)]
pub(crate) enum Val {
    /// Not defined (yet) in this unit.
    #[default]
    Undef,
    /// A scalar with the same value on every thread of the unit.
    S(Sc),
    /// A per-thread scalar, indexed by the thread's index in the block.
    PT(Rc<Vec<Sc>>),
    /// A `!tilus.ptr`: a global buffer.
    Ptr(usize),
    /// A register tile.
    Tensor(Rc<Tensor>),
    /// A global view.
    Global(Rc<GlobalView>),
    /// A shared tensor.
    Shared(Rc<SharedVal>),
    /// An `!mbarrier.barriers<n>`: barriers `first .. first + n` of each CTA.
    Bars { first: usize, n: usize, alloc: OpId },
    /// A tensor-memory tensor.
    Tmem(Rc<TmemVal>),
    /// The result of an asynchronous op (wgmma.mma, tcgen05.ld), usable once retired.
    Token(usize),
    /// Units merged with different values of a non-scalar (never read in valid programs).
    Divergent,
}

impl Val {
    /// Whether two values are the same for every thread (used when units merge).
    pub(crate) fn same(&self, o: &Val) -> bool {
        match (self, o) {
            (Val::Undef, Val::Undef) | (Val::Divergent, Val::Divergent) => true,
            (Val::S(a), Val::S(b)) => a.same(*b),
            (Val::PT(a), Val::PT(b)) => {
                Rc::ptr_eq(a, b) || a.iter().zip(b.iter()).all(|(x, y)| x.same(*y))
            }
            (Val::Ptr(a), Val::Ptr(b)) => a == b,
            (Val::Tensor(a), Val::Tensor(b)) => {
                Rc::ptr_eq(a, b)
                    || (a.dtype == b.dtype
                        && a.shape == b.shape
                        && a.data
                            .iter()
                            .zip(&b.data)
                            .all(|(x, y)| x.to_bits() == y.to_bits()))
            }
            (Val::Global(a), Val::Global(b)) => a == b,
            (Val::Shared(a), Val::Shared(b)) => a.view == b.view && a.alloc_base == b.alloc_base,
            (Val::Bars { first: a, .. }, Val::Bars { first: b, .. }) => a == b,
            (Val::Tmem(a), Val::Tmem(b)) => a == b,
            (Val::Token(a), Val::Token(b)) => a == b,
            _ => false,
        }
    }

    /// The scalar a thread sees, for scalar values.
    pub(crate) fn scalar_at(&self, thread: u32) -> Option<Sc> {
        match self {
            Val::S(s) => Some(*s),
            Val::PT(v) => v.get(thread as usize).copied(),
            _ => None,
        }
    }

    pub(crate) fn is_scalar(&self) -> bool {
        matches!(self, Val::S(_) | Val::PT(_))
    }
}

/// How a scalar type computes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ScalarKind {
    /// An integer of `bits` bits; `unsigned` for `uiN` (signless and `siN` read as signed).
    Int { bits: u32, unsigned: bool },
    /// A float of the given kind.
    Float(FloatKind),
}

/// The scalar kind of a builtin type (`index` is a 64-bit integer).
pub(crate) fn scalar_kind(ctx: &Context, t: Type) -> Option<ScalarKind> {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, signedness } => Some(ScalarKind::Int {
            bits: *width,
            unsigned: *signedness == Signedness::Unsigned,
        }),
        TypeKind::Index => Some(ScalarKind::Int {
            bits: 64,
            unsigned: false,
        }),
        TypeKind::Float(k) => Some(ScalarKind::Float(*k)),
        _ => None,
    }
}

/// Normalizes an integer to `bits` bits: `i1` as 0/1, unsigned types zero-extended, others
/// sign-extended (two's complement wrap).
pub(crate) fn wrap(v: i128, bits: u32, unsigned: bool) -> i64 {
    if bits == 1 {
        return (v & 1) as i64;
    }
    if bits >= 64 {
        return v as i64;
    }
    let mask = (1i128 << bits) - 1;
    let x = v & mask;
    if unsigned {
        x as i64
    } else if x >> (bits - 1) & 1 == 1 {
        (x - (1i128 << bits)) as i64
    } else {
        x as i64
    }
}

/// The value of `v` read as unsigned of `bits` bits.
pub(crate) fn as_unsigned(v: i64, bits: u32) -> u64 {
    if bits >= 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << bits) - 1)
    }
}

/// The value of `v` read as signed of `bits` bits (`i1` true is -1).
pub(crate) fn as_signed(v: i64, bits: u32) -> i64 {
    if bits == 1 {
        -(v & 1)
    } else {
        wrap(v as i128, bits, false)
    }
}

/// Rounds a float to the format `k`.
pub(crate) fn round_float(k: FloatKind, x: f64) -> f64 {
    match k {
        FloatKind::F64 => x,
        FloatKind::F32 => x as f32 as f64,
        _ => tilus_ir::float::to_f64(k, tilus_ir::float::from_f64(k, x)),
    }
}

/// Normalizes a scalar to the kind of its type.
pub(crate) fn normalize(kind: ScalarKind, s: Sc) -> Sc {
    match kind {
        ScalarKind::Int { bits, unsigned } => Sc::I(wrap(s.as_i64() as i128, bits, unsigned)),
        ScalarKind::Float(k) => Sc::F(round_float(k, s.as_f64())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping() {
        assert_eq!(wrap(255, 8, false), -1);
        assert_eq!(wrap(255, 8, true), 255);
        assert_eq!(wrap(1 << 32, 32, false), 0);
        assert_eq!(wrap(3, 1, false), 1);
        assert_eq!(as_unsigned(-1, 32), 0xffff_ffff);
        assert_eq!(as_signed(1, 1), -1);
        assert_eq!(as_signed(-5, 32), -5);
    }
}
