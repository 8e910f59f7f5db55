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
    canon::ADDI
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.addi`.
    pub struct AddIOp = ADDI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        overflow_flags = "overflowFlags": Option<Attr>
    }
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.subi`.
    pub struct SubIOp = SUBI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        overflow_flags = "overflowFlags": Option<Attr>
    }
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.muli`.
    pub struct MulIOp = MULI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        overflow_flags = "overflowFlags": Option<Attr>
    }
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.divsi`.
    pub struct DivSIOp = DIVSI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.divui`.
    pub struct DivUIOp = DIVUI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.remsi`.
    pub struct RemSIOp = REMSI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.remui`.
    pub struct RemUIOp = REMUI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.andi`.
    pub struct AndIOp = ANDI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.ori`.
    pub struct OrIOp = ORI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.xori`.
    pub struct XOrIOp = XORI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.shli`.
    pub struct ShLIOp = SHLI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        overflow_flags = "overflowFlags": Option<Attr>
    }
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.shrsi`.
    pub struct ShRSIOp = SHRSI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.shrui`.
    pub struct ShRUIOp = SHRUI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.maxsi`.
    pub struct MaxSIOp = MAXSI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.minsi`.
    pub struct MinSIOp = MINSI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.maxui`.
    pub struct MaxUIOp = MAXUI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.minui`.
    pub struct MinUIOp = MINUI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
binary!(
    CEILDIVSI,
    "arith.ceildivsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer division rounding toward positive infinity."
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.ceildivsi`.
    pub struct CeilDivSIOp = CEILDIVSI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
binary!(
    FLOORDIVSI,
    "arith.floordivsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer division rounding toward negative infinity."
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.floordivsi`.
    pub struct FloorDivSIOp = FLOORDIVSI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
