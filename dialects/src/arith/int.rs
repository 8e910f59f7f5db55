//! Integer arithmetic: `addi` … `floordivsi`.

use super::*;
use tilus_ir::handle::prelude::*;

binary!(
    ADDI,
    "arith.addi",
    SIGNLESS_INT_LIKE,
    INT_OVF_FORMAT,
    [OVERFLOW_ATTR],
    [Trait::Commutative],
    "Integer addition, wrapping modulo 2^N.",
    Some(fold::addi),
    canon::ADDI,
    handle AddIOp { overflow_flags = "overflowFlags": Option<Attr> }
);
binary!(
    SUBI,
    "arith.subi",
    SIGNLESS_INT_LIKE,
    INT_OVF_FORMAT,
    [OVERFLOW_ATTR],
    [],
    "Integer subtraction, wrapping modulo 2^N.",
    Some(fold::subi),
    canon::SUBI,
    handle SubIOp { overflow_flags = "overflowFlags": Option<Attr> }
);
binary!(
    MULI,
    "arith.muli",
    SIGNLESS_INT_LIKE,
    INT_OVF_FORMAT,
    [OVERFLOW_ATTR],
    [Trait::Commutative],
    "Integer multiplication, wrapping modulo 2^N.",
    Some(fold::muli),
    canon::MULI,
    handle MulIOp { overflow_flags = "overflowFlags": Option<Attr> }
);
binary!(
    DIVSI,
    "arith.divsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer division rounding toward zero.",
    Some(fold::divsi),
    &[],
    handle DivSIOp {}
);
binary!(
    DIVUI,
    "arith.divui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Unsigned integer division.",
    Some(fold::divui),
    &[],
    handle DivUIOp {}
);
binary!(
    REMSI,
    "arith.remsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer remainder (sign of the dividend).",
    Some(fold::remsi),
    &[],
    handle RemSIOp {}
);
binary!(
    REMUI,
    "arith.remui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Unsigned integer remainder.",
    Some(fold::remui),
    &[],
    handle RemUIOp {}
);
binary!(
    ANDI,
    "arith.andi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Bitwise and.",
    Some(fold::andi),
    canon::ANDI,
    handle AndIOp {}
);
binary!(
    ORI,
    "arith.ori",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Bitwise or.",
    Some(fold::ori),
    canon::ORI,
    handle OrIOp {}
);
binary!(
    XORI,
    "arith.xori",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Bitwise exclusive or.",
    Some(fold::xori),
    canon::XORI,
    handle XOrIOp {}
);
binary!(
    SHLI,
    "arith.shli",
    SIGNLESS_INT_LIKE,
    INT_OVF_FORMAT,
    [OVERFLOW_ATTR],
    [],
    "Shift left; shifting by the bit width or more gives poison.",
    Some(fold::shli),
    &[],
    handle ShLIOp { overflow_flags = "overflowFlags": Option<Attr> }
);
binary!(
    SHRSI,
    "arith.shrsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Arithmetic shift right.",
    Some(fold::shrsi),
    &[],
    handle ShRSIOp {}
);
binary!(
    SHRUI,
    "arith.shrui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Logical shift right.",
    Some(fold::shrui),
    &[],
    handle ShRUIOp {}
);
binary!(
    MAXSI,
    "arith.maxsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Signed integer maximum.",
    Some(fold::maxsi),
    &[],
    handle MaxSIOp {}
);
binary!(
    MINSI,
    "arith.minsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Signed integer minimum.",
    Some(fold::minsi),
    &[],
    handle MinSIOp {}
);
binary!(
    MAXUI,
    "arith.maxui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Unsigned integer maximum.",
    Some(fold::maxui),
    &[],
    handle MaxUIOp {}
);
binary!(
    MINUI,
    "arith.minui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Unsigned integer minimum.",
    Some(fold::minui),
    &[],
    handle MinUIOp {}
);
binary!(
    CEILDIVSI,
    "arith.ceildivsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer division rounding toward positive infinity.",
    None,
    &[],
    handle CeilDivSIOp {}
);
binary!(
    FLOORDIVSI,
    "arith.floordivsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer division rounding toward negative infinity.",
    None,
    &[],
    handle FloorDivSIOp {}
);

// ----- semantics ----------------------------------------------------------------------------

/// Why an integer op has no defined result for its operands (LLVM's poison or immediate UB).
/// Folders do not fold such an op; an interpreter reports it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IntUb {
    /// `divsi`, `divui`, `remsi`, `remui`, `ceildivsi`, `floordivsi` by zero.
    DivisionByZero,
    /// `divsi`, `ceildivsi` or `floordivsi` of the most negative value by -1.
    SignedDivisionOverflow,
    /// A shift by the bit width or more.
    ShiftOutOfRange,
}

impl std::fmt::Display for IntUb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            IntUb::DivisionByZero => "integer division by zero",
            IntUb::SignedDivisionOverflow => {
                "signed integer division overflow (minimum value / -1)"
            }
            IntUb::ShiftOutOfRange => "shift amount not below the bit width",
        })
    }
}

/// The integer binary ops of arith, for evaluation: one semantics shared by the folders, the
/// interpreter and analyses.
///
/// Values are bit patterns of `width` bits (`1..=128`; `index` is 64) held in a `u128`, upper
/// bits zero; signedness is the op's (`divsi` reads them as two's complement, `divui` as
/// unsigned). Results wrap modulo `2^width`, whatever the `overflowFlags` (a flagged overflow is
/// poison in LLVM, and folding to the wrapped value is what MLIR does).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum IntBinOp {
    AddI,
    SubI,
    MulI,
    DivSI,
    DivUI,
    RemSI,
    RemUI,
    AndI,
    OrI,
    XOrI,
    ShLI,
    ShRSI,
    ShRUI,
    MaxSI,
    MinSI,
    MaxUI,
    MinUI,
    CeilDivSI,
    FloorDivSI,
}

/// All ones in the low `w` bits.
pub fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// A `w`-bit pattern read as two's complement.
pub fn sext(bits: u128, w: u32) -> i128 {
    if w >= 128 {
        bits as i128
    } else {
        ((bits << (128 - w)) as i128) >> (128 - w)
    }
}

/// The most negative `w`-bit value, as a pattern.
fn signed_min(w: u32) -> u128 {
    1u128 << (w - 1)
}

impl IntBinOp {
    /// The op `op` is, when it is an integer binary op of arith.
    pub fn of(ctx: &Context, op: OpId) -> Option<IntBinOp> {
        use super::ArithOpKind as K;
        Some(match K::classify(ctx, op)? {
            K::AddI(_) => IntBinOp::AddI,
            K::SubI(_) => IntBinOp::SubI,
            K::MulI(_) => IntBinOp::MulI,
            K::DivSI(_) => IntBinOp::DivSI,
            K::DivUI(_) => IntBinOp::DivUI,
            K::RemSI(_) => IntBinOp::RemSI,
            K::RemUI(_) => IntBinOp::RemUI,
            K::AndI(_) => IntBinOp::AndI,
            K::OrI(_) => IntBinOp::OrI,
            K::XOrI(_) => IntBinOp::XOrI,
            K::ShLI(_) => IntBinOp::ShLI,
            K::ShRSI(_) => IntBinOp::ShRSI,
            K::ShRUI(_) => IntBinOp::ShRUI,
            K::MaxSI(_) => IntBinOp::MaxSI,
            K::MinSI(_) => IntBinOp::MinSI,
            K::MaxUI(_) => IntBinOp::MaxUI,
            K::MinUI(_) => IntBinOp::MinUI,
            K::CeilDivSI(_) => IntBinOp::CeilDivSI,
            K::FloorDivSI(_) => IntBinOp::FloorDivSI,
            _ => return None,
        })
    }

    /// `a op b` on `width`-bit patterns (see the type's docs), or why it is undefined.
    pub fn eval(self, a: u128, b: u128, width: u32) -> Result<u128, IntUb> {
        let w = width;
        let (a, b) = (a & mask(w), b & mask(w));
        let (sa, sb) = (sext(a, w), sext(b, w));
        let signed_div_check = || {
            if b == 0 {
                Err(IntUb::DivisionByZero)
            } else if a == signed_min(w) && b == mask(w) {
                Err(IntUb::SignedDivisionOverflow)
            } else {
                Ok(())
            }
        };
        let r = match self {
            IntBinOp::AddI => a.wrapping_add(b),
            IntBinOp::SubI => a.wrapping_sub(b),
            IntBinOp::MulI => a.wrapping_mul(b),
            IntBinOp::DivUI | IntBinOp::RemUI if b == 0 => return Err(IntUb::DivisionByZero),
            IntBinOp::DivUI => a / b,
            IntBinOp::RemUI => a % b,
            IntBinOp::DivSI => {
                signed_div_check()?;
                sa.wrapping_div(sb) as u128
            }
            IntBinOp::RemSI => {
                if b == 0 {
                    return Err(IntUb::DivisionByZero);
                }
                // The remainder has the dividend's sign; `MIN % -1` is 0, as APInt's `srem`.
                sa.checked_rem(sb).unwrap_or(0) as u128
            }
            IntBinOp::CeilDivSI | IntBinOp::FloorDivSI => {
                signed_div_check()?;
                let (q, r) = (sa.wrapping_div(sb), sa.wrapping_rem(sb));
                let adjust = r != 0 && ((r > 0) == (sb > 0));
                let q = match self {
                    IntBinOp::CeilDivSI if adjust => q + 1,
                    IntBinOp::FloorDivSI if r != 0 && !adjust => q - 1,
                    _ => q,
                };
                q as u128
            }
            IntBinOp::AndI => a & b,
            IntBinOp::OrI => a | b,
            IntBinOp::XOrI => a ^ b,
            IntBinOp::ShLI | IntBinOp::ShRSI | IntBinOp::ShRUI if b >= w as u128 => {
                return Err(IntUb::ShiftOutOfRange)
            }
            IntBinOp::ShLI => a << b,
            IntBinOp::ShRUI => a >> b,
            IntBinOp::ShRSI => (sa >> b) as u128,
            IntBinOp::MaxSI => {
                if sa >= sb {
                    a
                } else {
                    b
                }
            }
            IntBinOp::MinSI => {
                if sa <= sb {
                    a
                } else {
                    b
                }
            }
            IntBinOp::MaxUI => a.max(b),
            IntBinOp::MinUI => a.min(b),
        };
        Ok(r & mask(w))
    }
}

#[cfg(test)]
mod semantics_tests {
    use super::*;

    fn ev(op: IntBinOp, a: i128, b: i128, w: u32) -> Result<i128, IntUb> {
        op.eval(a as u128 & mask(w), b as u128 & mask(w), w)
            .map(|r| sext(r, w))
    }

    #[test]
    fn wrapping_and_signedness() {
        assert_eq!(ev(IntBinOp::AddI, 127, 1, 8), Ok(-128));
        assert_eq!(ev(IntBinOp::MulI, -1, -1, 8), Ok(1));
        assert_eq!(ev(IntBinOp::DivUI, -1, 2, 8), Ok(127));
        assert_eq!(ev(IntBinOp::DivSI, -7, 2, 8), Ok(-3));
        assert_eq!(ev(IntBinOp::RemSI, -7, 2, 8), Ok(-1));
        assert_eq!(ev(IntBinOp::RemUI, -7, 2, 8), Ok(1));
        assert_eq!(ev(IntBinOp::MaxSI, -1, 1, 8), Ok(1));
        assert_eq!(ev(IntBinOp::MaxUI, -1, 1, 8), Ok(-1));
        assert_eq!(ev(IntBinOp::MinUI, -1, 1, 1), Ok(-1));
    }

    #[test]
    fn division_rounding() {
        for (a, b, ceil, floor) in [
            (7, 2, 4, 3),
            (-7, 2, -3, -4),
            (7, -2, -3, -4),
            (-7, -2, 4, 3),
            (6, 3, 2, 2),
        ] {
            assert_eq!(
                ev(IntBinOp::CeilDivSI, a, b, 32),
                Ok(ceil),
                "{a} ceildiv {b}"
            );
            assert_eq!(
                ev(IntBinOp::FloorDivSI, a, b, 32),
                Ok(floor),
                "{a} floordiv {b}"
            );
        }
    }

    #[test]
    fn undefined_cases() {
        assert_eq!(ev(IntBinOp::DivSI, 1, 0, 32), Err(IntUb::DivisionByZero));
        assert_eq!(ev(IntBinOp::RemUI, 1, 0, 32), Err(IntUb::DivisionByZero));
        assert_eq!(
            ev(IntBinOp::DivSI, -128, -1, 8),
            Err(IntUb::SignedDivisionOverflow)
        );
        assert_eq!(
            ev(IntBinOp::FloorDivSI, -128, -1, 8),
            Err(IntUb::SignedDivisionOverflow)
        );
        assert_eq!(ev(IntBinOp::RemSI, -128, -1, 8), Ok(0));
        assert_eq!(ev(IntBinOp::ShLI, 1, 8, 8), Err(IntUb::ShiftOutOfRange));
        assert_eq!(ev(IntBinOp::ShRSI, -128, 7, 8), Ok(-1));
        assert_eq!(ev(IntBinOp::ShRUI, -128, 7, 8), Ok(1));
        assert_eq!(ev(IntBinOp::ShLI, 1, 127, 128), Ok(i128::MIN));
    }
}
binary!(
    CEILDIVUI,
    "arith.ceildivui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Unsigned integer division rounding toward positive infinity.",
    None,
    &[],
    handle CeilDivUIOp {}
);
