//! Integer arithmetic: `addi` … `floordivsi`.

use super::*;

binary!(
    ADDI,
    "arith.addi",
    SIGNLESS_INT_LIKE,
    INT_OVF_FORMAT,
    [OVERFLOW_ATTR],
    [Trait::Commutative],
    "Integer addition, wrapping modulo 2^N.",
    Some(fold::addi),
    canon::ADDI
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
    canon::SUBI
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
    canon::MULI
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
    &[]
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
    &[]
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
    &[]
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
    &[]
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
    canon::ANDI
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
    canon::ORI
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
    canon::XORI
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
    &[]
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
    &[]
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
    &[]
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
    &[]
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
    &[]
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
    &[]
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
    &[]
);
binary!(
    CEILDIVSI,
    "arith.ceildivsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer division rounding toward positive infinity."
);
binary!(
    FLOORDIVSI,
    "arith.floordivsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer division rounding toward negative infinity."
);
