//! `ptx`: NVIDIA PTX at the instruction level, the last dialect before PTX text.
//!
//! Lowered IR is a `ptx.entry` (a kernel) whose blocks hold `ptx.inst` instructions, reads of
//! special registers (`ptx.special`) and `cf.br`/`cf.cond_br` between blocks. Every SSA value is
//! one virtual PTX register; its type picks the register class (`i1` is a predicate, `i32` a
//! `.b32`, `f32` a `.f32`, ...). `tilus_passes::ptx_emit` prints such a module as PTX text.
//!
//! `ptx.inst` spells its operands the way PTX does, with SSA values where PTX has registers:
//! `ptx.inst "st.global.f32" [%addr+4], %v if %p : (i64, f32) -> ()`. Memory operands are in
//! brackets, vector operands in braces, immediates are copied as written and `_` is PTX's sink.
//! The results are the instruction's destination (one register, or `{...}` for several).

use crate::common::{parse_trailing_attrs, split_declared};
use crate::func::{
    dict_array_prop, function_type, nonempty_dict_array, parse_named_arg, print_fn_args,
};
use tilus_ir::attrs::AttrKind;
use tilus_ir::handle::prelude::*;
use tilus_ir::opdef::{
    attr, many, maybe, one, opt_attr, region, AttrConstraint, Format, OpDef, Trait, TypeConstraint,
    ANY_TYPE, DICT_ARRAY_ATTR, FLAT_SYMBOL_REF, FUNCTION_TYPE_ATTR, I1, I64_ATTR, STR_ATTR,
    UNIT_ATTR,
};
use tilus_ir::syntax::parser::{PResult, Parser, RegionArg, UnresolvedOperand};
use tilus_ir::syntax::printer::type_to_string;
use tilus_ir::typedef::{DialectSymbols, SymbolDef};
use tilus_ir::types::FloatKind;
use tilus_ir::{Attr, Context, Diagnostic, OpId, OperationState, Printer, Type, TypeKind};

// ----- types ------------------------------------------------------------------------------------

/// The PTX register class a value of a type lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegClass {
    /// `.pred` (`i1`).
    Pred,
    /// `.b16` holding an integer (`i8`, `i16`).
    B16,
    /// `.b16` holding a half (`f16`, `bf16`).
    H16,
    /// `.b32` (`i32`, and packed pairs `vector<2xf16>`/`vector<2xbf16>`).
    B32,
    /// `.b64` (`i64`, `index`, `!ptx.tensormap`).
    B64,
    /// `.f32`.
    F32,
    /// `.f64`.
    F64,
}

impl RegClass {
    /// The register declaration type (`.b32`, `.pred`, ...).
    pub fn decl_type(self) -> &'static str {
        match self {
            RegClass::Pred => ".pred",
            RegClass::B16 | RegClass::H16 => ".b16",
            RegClass::B32 => ".b32",
            RegClass::B64 => ".b64",
            RegClass::F32 => ".f32",
            RegClass::F64 => ".f64",
        }
    }
    /// The register name prefix (`%r`, `%p`, ...), as nvcc names them.
    pub fn prefix(self) -> &'static str {
        match self {
            RegClass::Pred => "%p",
            RegClass::B16 => "%rs",
            RegClass::H16 => "%h",
            RegClass::B32 => "%r",
            RegClass::B64 => "%rd",
            RegClass::F32 => "%f",
            RegClass::F64 => "%fd",
        }
    }
    /// Bits in a register of this class.
    pub fn bits(self) -> u32 {
        match self {
            RegClass::Pred => 1,
            RegClass::B16 | RegClass::H16 => 16,
            RegClass::B32 | RegClass::F32 => 32,
            RegClass::B64 | RegClass::F64 => 64,
        }
    }
}

/// Whether `t` is `!ptx.tensormap`.
pub fn is_tensormap(ctx: &Context, t: Type) -> bool {
    ctx.type_value::<TensorMapType>(t).is_some()
}

/// The register class of a type PTX can hold in a register, or `None`.
pub fn reg_class(ctx: &Context, t: Type) -> Option<RegClass> {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => match width {
            1 => Some(RegClass::Pred),
            8 | 16 => Some(RegClass::B16),
            32 => Some(RegClass::B32),
            64 => Some(RegClass::B64),
            _ => None,
        },
        TypeKind::Index => Some(RegClass::B64),
        TypeKind::Float(k) => match k {
            FloatKind::F16 | FloatKind::BF16 => Some(RegClass::H16),
            FloatKind::F32 => Some(RegClass::F32),
            FloatKind::F64 => Some(RegClass::F64),
            _ => None,
        },
        TypeKind::Vector { shape, elem, .. }
            if shape.as_slice() == [2]
                && matches!(
                    ctx.type_kind(*elem),
                    TypeKind::Float(FloatKind::F16 | FloatKind::BF16)
                ) =>
        {
            Some(RegClass::B32)
        }
        _ if is_tensormap(ctx, t) => Some(RegClass::B64),
        _ => None,
    }
}

/// A type PTX holds in a register.
pub const PTX_REG_TYPE: TypeConstraint = TypeConstraint {
    desc: "a PTX register type (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64, \
           vector<2xf16>, vector<2xbf16> or !ptx.tensormap)",
    check: |c, t| reg_class(c, t).is_some(),
    build: None,
};

/// A register tile (`!tilus.reg<...>`): admitted as a `ptx.inst` operand or result only on an
/// instruction with a `tile_block` attribute (see [`INST`]); `lower-tiles` expands it.
pub fn is_register_tile(ctx: &Context, t: Type) -> bool {
    crate::tilus_types::TensorType::of_ref(ctx, t)
        .is_some_and(|x| x.space == crate::tilus_types::Space::Register)
}

/// A `ptx.inst` operand or result type: a register type, or a register tile (which the
/// verifier admits only with `tile_block`).
pub const PTX_INST_TYPE: TypeConstraint = TypeConstraint {
    desc: "a PTX register type (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64, \
           vector<2xf16>, vector<2xbf16> or !ptx.tensormap)",
    check: |c, t| reg_class(c, t).is_some() || is_register_tile(c, t),
    build: None,
};

/// A kernel parameter type: a register type but `i1`.
fn param_ok(ctx: &Context, t: Type) -> bool {
    reg_class(ctx, t).is_some_and(|c| c != RegClass::Pred)
}

/// `ptx` dialect types.
pub static PTX_TYPES: &[SymbolDef] = &[SymbolDef {
    name: "ptx.tensormap",
    summary: "a 128-byte CUtensorMap kernel parameter, used through its generic address",
    syntax: "!ptx.tensormap",
    description: "Only as a `ptx.entry` parameter: it is declared `.param .align 64 .b8 \
        NAME[128]` (what nvcc emits for a `const __grid_constant__ CUtensorMap`) and the value \
        in the body is the parameter's generic address (`cvta.param.u64`), a `.b64` register \
        that `cp.async.bulk.tensor` takes as `[%map, {...}]`.",
    parse: |b| match b {
        None => Ok(std::sync::Arc::new(TensorMapType)),
        Some(_) => Err("'!ptx.tensormap' takes no parameters".into()),
    },
}];

/// `!ptx.tensormap`: a type without parameters, so its value is just the marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorMapType;

impl tilus_ir::typedef::DialectValue for TensorMapType {
    fn body(&self) -> Option<String> {
        None
    }
}

impl TensorMapType {
    /// `!ptx.tensormap`.
    pub fn get(ctx: &mut Context) -> Type {
        ctx.dialect_type("ptx", "tensormap", TensorMapType)
    }
}

/// The types and attributes of the dialect, for `register_dialect_symbols`.
pub const SYMBOLS: DialectSymbols = DialectSymbols {
    types: PTX_TYPES,
    attrs: &[],
};

// ----- ptx.entry --------------------------------------------------------------------------------

/// `sm_90a`-style target names.
const TARGET_ATTR: AttrConstraint = AttrConstraint {
    desc: "PTX target string (e.g. \"sm_90a\")",
    check: |c, a| matches!(c.attr_kind(a), AttrKind::String { value, ty: None } if value.starts_with(b"sm_") && value.len() > 3),
    value_type: None,
    keywords: &[],
    short_form: None,
    form: tilus_ir::opdef::AttrForm::Plain,
};

/// `ptx.entry`.
pub static ENTRY: OpDef = OpDef {
    name: "ptx.entry",
    summary: "a kernel (`.visible .entry`) with parameters and a body of PTX-level ops",
    description: "Defines the kernel `sym_name`. Its arguments are the kernel parameters: \
        scalars (`i8`..`i64`, `f16`, `bf16`, `f32`, `f64`), pointers as `i64`, and tensor maps \
        as `!ptx.tensormap` (128-byte `.param`). The body is one region of blocks holding \
        `ptx.inst`, `ptx.special`, ... with `cf.br`/`cf.cond_br` between blocks (block arguments \
        become register copies) and `ptx.ret` at the exits. `target` is the `.target` \
        (`sm_90a`; `sm_100a` for tcgen05); `maxntid`, `reqntid`, `minnctapersm`, \
        `reqnctapercluster` and `maxnreg` become the PTX performance directives (`maxnreg` \
        fixes the register count at entry, which `setmaxnreg` needs). Written \
        `ptx.entry @k(%a: i64, %n: i32) attributes {target = \"sm_90a\", maxntid = 128 : i64} \
        { ... }`.",
    attributes: &[
        attr("sym_name", STR_ATTR),
        attr("function_type", FUNCTION_TYPE_ATTR),
        attr("target", TARGET_ATTR),
        opt_attr("maxntid", I64_ATTR),
        opt_attr("reqntid", I64_ATTR),
        opt_attr("minnctapersm", I64_ATTR),
        opt_attr("reqnctapercluster", I64_ATTR),
        opt_attr("maxnreg", I64_ATTR),
        opt_attr("arg_attrs", DICT_ARRAY_ATTR),
    ],
    regions: &[region("body")],
    traits: &[Trait::IsolatedFromAbove, Trait::Symbol],
    verify: Some(verify_entry),
    format: tilus_ir::format::custom_form(&tilus_ir::format::CustomForm {
        parse: parse_entry,
        print: print_entry,
    }),
    ..OpDef::DEFAULT
};
const _: () = ENTRY.check();

tilus_ir::op_handle! {
    /// Typed handle of `ptx.entry`.
    pub struct EntryOp = ENTRY;
    operands {}
    results {}
    attrs {
        sym_name = "sym_name": &str,
        function_type = "function_type": Attr,
        target = "target": Attr,
        maxntid = "maxntid": Option<i64>,
        reqntid = "reqntid": Option<i64>,
        minnctapersm = "minnctapersm": Option<i64>,
        reqnctapercluster = "reqnctapercluster": Option<i64>,
        maxnreg = "maxnreg": Option<i64>,
        arg_attrs = "arg_attrs": Option<Attr>
    }
    regions {
        body = "body"
    }
    successors {}
}

/// `ptx.ret`.
pub static RET: OpDef = OpDef {
    name: "ptx.ret",
    summary: "return from the kernel (`ret;`)",
    description: "Ends a block of a `ptx.entry`: the thread exits.",
    traits: &[Trait::Terminator, Trait::HasParent(&["ptx.entry"])],
    format: Format::Declarative("attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = RET.check();

tilus_ir::op_handle! {
    /// Typed handle of `ptx.ret`.
    pub struct RetOp = RET;
    operands {}
    results {}
    attrs {}
    regions {}
    successors {}
}

// ----- ptx.special ------------------------------------------------------------------------------

/// Special registers `ptx.special` reads, with their width (1 for a predicate).
pub const SPECIAL_REGS: &[(&str, u32)] = &[
    ("tid.x", 32),
    ("tid.y", 32),
    ("tid.z", 32),
    ("ntid.x", 32),
    ("ntid.y", 32),
    ("ntid.z", 32),
    ("ctaid.x", 32),
    ("ctaid.y", 32),
    ("ctaid.z", 32),
    ("nctaid.x", 32),
    ("nctaid.y", 32),
    ("nctaid.z", 32),
    ("laneid", 32),
    ("warpid", 32),
    ("nwarpid", 32),
    ("smid", 32),
    ("nsmid", 32),
    ("gridid", 64),
    ("clusterid.x", 32),
    ("clusterid.y", 32),
    ("clusterid.z", 32),
    ("nclusterid.x", 32),
    ("nclusterid.y", 32),
    ("nclusterid.z", 32),
    ("cluster_ctaid.x", 32),
    ("cluster_ctaid.y", 32),
    ("cluster_ctaid.z", 32),
    ("cluster_nctaid.x", 32),
    ("cluster_nctaid.y", 32),
    ("cluster_nctaid.z", 32),
    ("cluster_ctarank", 32),
    ("cluster_nctarank", 32),
    ("is_explicit_cluster", 1),
    ("lanemask_eq", 32),
    ("lanemask_le", 32),
    ("lanemask_lt", 32),
    ("lanemask_ge", 32),
    ("lanemask_gt", 32),
    ("clock", 32),
    ("clock64", 64),
    ("globaltimer", 64),
    ("dynamic_smem_size", 32),
    ("total_smem_size", 32),
];

/// `ptx.special`.
pub static SPECIAL: OpDef = OpDef {
    name: "ptx.special",
    summary: "read a special register (`%tid.x`, `%ctaid.y`, `%laneid`, ...)",
    description: "Reads the special register named by `reg` (without `%`): `tid`, `ntid`, \
        `ctaid`, `nctaid`, `clusterid`, `nclusterid`, `cluster_ctaid`, `cluster_nctaid` (each \
        `.x`/`.y`/`.z`), `laneid`, `warpid`, `nwarpid`, `smid`, `nsmid`, `cluster_ctarank`, \
        `cluster_nctarank`, `lanemask_{eq,le,lt,ge,gt}`, `clock`, `dynamic_smem_size`, \
        `total_smem_size` (all `i32`), `clock64`, `globaltimer`, `gridid` (`i64`) and \
        `is_explicit_cluster` (`i1`). Written `%t = ptx.special tid.x : i32` (generic form: \
        `reg = \"tid.x\"`); emitted as `mov.u32 %r1, %tid.x;`.",
    results: &[one("result", PTX_REG_TYPE)],
    attributes: &[attr("reg", STR_ATTR)],
    traits: &[Trait::Pure],
    verify: Some(verify_special),
    format: Format::Declarative("custom<RegisterName>($reg) attr-dict `:` type($result)"),
    custom_directives: &[tilus_ir::format::directive(
        &tilus_ir::format::CustomDirective {
            name: "RegisterName",
            parse: parse_register_name,
            print: print_register_name,
        },
    )],
    ..OpDef::DEFAULT
};
const _: () = SPECIAL.check();

tilus_ir::op_handle! {
    /// Typed handle of `ptx.special`.
    pub struct SpecialOp = SPECIAL;
    operands {}
    results {
        result = "result": Value
    }
    attrs {
        reg = "reg": &str
    }
    regions {}
    successors {}
}

// ----- ptx.inst ---------------------------------------------------------------------------------

/// `ptx.inst`.
pub static INST: OpDef = OpDef {
    name: "ptx.inst",
    summary: "one PTX instruction: opcode, operands as PTX writes them, optional guard",
    description: "Emits `@guard opcode dests, operands;`. `opcode` is the full instruction name \
        with its modifiers and type suffix (`add.s32`, `ld.global.v4.f32`, \
        `mbarrier.try_wait.parity.shared::cta.b64`). The results are the destination: one \
        register, or `{a, b, ...}` when there are several. The operands follow in PTX syntax, \
        with SSA values for registers: `[%addr]` or `[%addr+16]` for memory, `[%map, {%x, %y}]` \
        for tensor coordinates, `{%a, %b}` for vectors, immediates as PTX writes them (`42`, \
        `0xffffffff`, `0f3F800000`) and `_` for the sink. `if %p` (or `if !%p`) guards the \
        instruction with a predicate. Written \
        `%r = ptx.inst \"add.s32\" %a, %b : (i32, i32) -> i32` or \
        `ptx.inst \"st.global.f32\" [%addr], %v if %p : (i64, f32) -> ()`; the type list may \
        be left out when there are neither values nor results (`ptx.inst \"bar.sync\" 0`). \
        In generic form the operand syntax is the property `form`, a string in which `$N` \
        stands for operand `N`.",
    operands: &[many("args", PTX_INST_TYPE), maybe("guard", I1)],
    results: &[many("results", PTX_INST_TYPE)],
    attributes: &[
        attr("opcode", STR_ATTR),
        opt_attr("form", STR_ATTR),
        opt_attr("guard_negated", UNIT_ATTR),
    ],
    traits: &[Trait::AttrSizedOperandSegments],
    verify: Some(verify_inst),
    format: tilus_ir::format::custom_form(&tilus_ir::format::CustomForm {
        parse: parse_inst,
        print: print_inst,
    }),
    ..OpDef::DEFAULT
};
const _: () = INST.check();

tilus_ir::op_handle! {
    /// Typed handle of `ptx.inst`.
    pub struct InstOp = INST;
    operands {
        args = "args": &[Value],
        guard = "guard": Option<Value>
    }
    results {
        results = "results": &[Value]
    }
    attrs {
        opcode = "opcode": &str,
        form = "form": Option<&str>,
        guard_negated = "guard_negated": bool
    }
    regions {}
    successors {}
}

// ----- ptx.asm, shared memory -----------------------------------------------------------------

/// `ptx.asm`.
pub static ASM: OpDef = OpDef {
    name: "ptx.asm",
    summary: "verbatim PTX with `$N` placeholders (inline assembly)",
    description: "Emits `asm_string` as written, `$0`.. standing for the results then the \
        operands (as in CUDA inline assembly), and `$$` for a literal `$`. For sequences that \
        need local registers or labels, wrap them in `{ }`. Written \
        `%r = ptx.asm \"{ .reg .pred p; setp.ne.u32 p, $1, 0; selp.u32 $0, 1, 0, p; }\" %x : \
        (i32) -> i32`.",
    operands: &[many("args", PTX_REG_TYPE)],
    results: &[many("results", PTX_REG_TYPE)],
    attributes: &[attr("asm_string", STR_ATTR)],
    verify: Some(verify_asm),
    format: Format::Declarative("$asm_string $args attr-dict `:` functional-type($args, $results)"),
    ..OpDef::DEFAULT
};
const _: () = ASM.check();

tilus_ir::op_handle! {
    /// Typed handle of `ptx.asm`.
    pub struct AsmOp = ASM;
    operands {
        args = "args": &[Value]
    }
    results {
        results = "results": &[Value]
    }
    attrs {
        asm_string = "asm_string": &str
    }
    regions {}
    successors {}
}

/// `ptx.shared_decl`.
pub static SHARED_DECL: OpDef = OpDef {
    name: "ptx.shared_decl",
    summary: "a shared-memory buffer at module scope (the dynamic buffer when unsized)",
    description: "Declares the shared-memory symbol `sym_name` aligned to `alignment` bytes: \
        without `size` it is the kernel's dynamic shared buffer \
        (`.extern .shared .align A .b8 NAME[];`, sized at launch), with `size` a static one \
        (`.shared .align A .b8 NAME[SIZE];`). `ptx.addressof` gives its address. Written \
        `ptx.shared_decl @smem align 1024` or `ptx.shared_decl @buf[4096] align 16`.",
    attributes: &[
        attr("sym_name", tilus_ir::opdef::SYMBOL_NAME),
        attr("alignment", I64_ATTR),
        opt_attr("size", I64_ATTR),
    ],
    traits: &[Trait::Symbol],
    verify: Some(verify_shared_decl),
    format: Format::Declarative("$sym_name (`[` $size^ `]`)? `align` $alignment attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = SHARED_DECL.check();

tilus_ir::op_handle! {
    /// Typed handle of `ptx.shared_decl`.
    pub struct SharedDeclOp = SHARED_DECL;
    operands {}
    results {}
    attrs {
        sym_name = "sym_name": &str,
        alignment = "alignment": i64,
        size = "size": Option<i64>
    }
    regions {}
    successors {}
}

/// `ptx.addressof`.
pub static ADDRESSOF: OpDef = OpDef {
    name: "ptx.addressof",
    summary: "the shared-window address of a `ptx.shared_decl`",
    description: "Gives the address of the shared buffer `global_name` in the shared window: \
        `i32` (what `.shared::cta` instructions take) or `i64`. Written \
        `%base = ptx.addressof @smem : i32`; emitted as `mov.u32 %r1, smem;`.",
    results: &[one("result", ANY_TYPE)],
    attributes: &[attr("global_name", FLAT_SYMBOL_REF)],
    traits: &[Trait::Pure],
    verify: Some(verify_addressof),
    format: Format::Declarative("$global_name attr-dict `:` type($result)"),
    ..OpDef::DEFAULT
};
const _: () = ADDRESSOF.check();

tilus_ir::op_handle! {
    /// Typed handle of `ptx.addressof`.
    pub struct AddressofOp = ADDRESSOF;
    operands {}
    results {
        result = "result": Value
    }
    attrs {
        global_name = "global_name": Attr
    }
    regions {}
    successors {}
}

/// The ptx dialect's ops.
pub static OPS: &[&OpDef] = &[
    &ENTRY,
    &RET,
    &SPECIAL,
    &INST,
    &ASM,
    &SHARED_DECL,
    &ADDRESSOF,
];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `ptx` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum PtxOpKind for OPS {
        Entry(EntryOp),
        Ret(RetOp),
        Special(SpecialOp),
        Inst(InstOp),
        Asm(AsmOp),
        SharedDecl(SharedDeclOp),
        Addressof(AddressofOp),
    }
}

// ----- helpers ---------------------------------------------------------------------------------

/// A string property, if the op has it.
pub fn str_prop(ctx: &Context, op: OpId, name: &str) -> Option<String> {
    match ctx.attr_kind(ctx.get_inherent_or_attr(op, name)?) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

/// An integer property, if the op has it.
pub fn int_prop(ctx: &Context, op: OpId, name: &str) -> Option<i64> {
    match ctx.attr_kind(ctx.get_inherent_or_attr(op, name)?) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

/// The `args` of a `ptx.inst` (its operands but the guard) and the guard.
pub fn inst_args_and_guard(
    ctx: &Context,
    op: OpId,
) -> (Vec<tilus_ir::Value>, Option<tilus_ir::Value>) {
    let ops = ctx.operands(op).to_vec();
    let guarded = match ctx
        .get_prop(op, "operandSegmentSizes")
        .map(|a| ctx.attr_kind(a))
    {
        Some(AttrKind::DenseArray { values, .. }) => {
            values.to_i64s().is_some_and(|v| v.get(1) == Some(&1))
        }
        _ => false,
    };
    if guarded && !ops.is_empty() {
        let (a, g) = ops.split_at(ops.len() - 1);
        (a.to_vec(), Some(g[0]))
    } else {
        (ops, None)
    }
}

/// The `form` of a `ptx.inst`: the stored one, else `$0, $1, ...`.
pub fn inst_form(ctx: &Context, op: OpId, nargs: usize) -> String {
    str_prop(ctx, op, "form").unwrap_or_else(|| default_form(nargs))
}

/// `$0, $1, ...`.
pub fn default_form(n: usize) -> String {
    (0..n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One piece of a `form` template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormPiece {
    /// Text copied as written.
    Text(String),
    /// Operand `N`.
    Operand(usize),
}

/// Splits a `form` (or `ptx.asm` template) into text and `$N` placeholders; `$$` is a `$`.
pub fn split_form(form: &str) -> Result<Vec<FormPiece>, String> {
    let mut out = Vec::new();
    let mut text = String::new();
    let b = form.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' {
            if b.get(i + 1) == Some(&b'$') {
                text.push('$');
                i += 2;
                continue;
            }
            let start = i + 1;
            let mut j = start;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j == start {
                return Err(format!(
                    "'$' at offset {i} is not followed by an operand number"
                ));
            }
            if !text.is_empty() {
                out.push(FormPiece::Text(std::mem::take(&mut text)));
            }
            let n: usize = form[start..j]
                .parse()
                .map_err(|_| format!("operand number '{}' is too large", &form[start..j]))?;
            out.push(FormPiece::Operand(n));
            i = j;
        } else {
            let c = form[i..].chars().next().unwrap_or(' ');
            text.push(c);
            i += c.len_utf8();
        }
    }
    if !text.is_empty() {
        out.push(FormPiece::Text(text));
    }
    Ok(out)
}

fn segment_sizes(ctx: &mut Context, sizes: &[usize]) -> Attr {
    let sizes: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
    ctx.int_array_attr(32, &sizes)
}

/// The properties of a `ptx.inst` with `nargs` operands, a guard or not, and a form.
pub fn inst_properties(
    ctx: &mut Context,
    opcode: &str,
    form: Option<&str>,
    nargs: usize,
    guard: Option<bool>,
) -> Vec<(String, Attr)> {
    let mut props = vec![("opcode".to_string(), ctx.str_attr(opcode))];
    let default = default_form(nargs);
    if let Some(f) = form.filter(|f| *f != default) {
        props.push(("form".into(), ctx.str_attr(f)));
    }
    if guard == Some(true) {
        props.push(("guard_negated".into(), ctx.attr(AttrKind::Unit)));
    }
    let seg = segment_sizes(ctx, &[nargs, usize::from(guard.is_some())]);
    props.push(("operandSegmentSizes".into(), seg));
    props
}

// ----- verifiers -------------------------------------------------------------------------------

fn verify_entry(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let Some(a) = ctx.get_prop(op, "function_type") else {
        return Ok(());
    };
    let (inputs, results) = match ctx.attr_kind(a) {
        AttrKind::Type(t) => match ctx.type_kind(*t) {
            TypeKind::Function { inputs, results } => (inputs.clone(), results.clone()),
            _ => return Ok(()),
        },
        _ => return Ok(()),
    };
    if !results.is_empty() {
        return Err(Diagnostic::op(
            op,
            "'ptx.entry' op a kernel returns no values",
        ));
    }
    for (i, t) in inputs.iter().enumerate() {
        if !param_ok(ctx, *t) {
            return Err(Diagnostic::op(
                op,
                format!(
                    "'ptx.entry' op parameter #{i} has type '{}'; a kernel parameter must be an \
                     integer (i8..i64, pointers as i64), a float (f16, bf16, f32, f64) or \
                     !ptx.tensormap",
                    type_to_string(ctx, *t)
                ),
            ));
        }
    }
    let r = ctx.regions(op)[0];
    let Some(&entry) = ctx.region_blocks(r).first() else {
        return Err(Diagnostic::op(op, "'ptx.entry' op expects a body"));
    };
    let args: Vec<Type> = ctx
        .block_args(entry)
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    if args != inputs {
        return Err(Diagnostic::op(
            op,
            "'ptx.entry' op entry block arguments must match the parameter types",
        ));
    }
    for &b in ctx.region_blocks(r) {
        for &v in ctx.block_args(b) {
            let t = ctx.value_type(v);
            if b != entry && reg_class(ctx, t).is_none() {
                return Err(Diagnostic::op(
                    op,
                    format!(
                        "'ptx.entry' op block argument of type '{}' cannot be held in a PTX register",
                        type_to_string(ctx, t)
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn verify_special(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let reg = str_prop(ctx, op, "reg").unwrap_or_default();
    let Some(&(_, bits)) = SPECIAL_REGS.iter().find(|(n, _)| *n == reg) else {
        let hint = if reg.starts_with('%') {
            " (write it without '%')"
        } else {
            ""
        };
        return Err(Diagnostic::op(
            op,
            format!("'ptx.special' op unknown special register '{reg}'{hint}"),
        ));
    };
    let t = ctx.value_type(ctx.results(op)[0]);
    let ok = matches!(ctx.type_kind(t), TypeKind::Integer { width, .. } if *width == bits);
    if !ok {
        return Err(Diagnostic::op(
            op,
            format!(
                "'ptx.special' op %{reg} is {}, but the result is '{}'",
                if bits == 1 {
                    "i1".to_string()
                } else {
                    format!("i{bits}")
                },
                type_to_string(ctx, t)
            ),
        ));
    }
    Ok(())
}

fn verify_inst(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let opcode = str_prop(ctx, op, "opcode").unwrap_or_default();
    if opcode.is_empty() {
        return Err(Diagnostic::op(op, "'ptx.inst' op opcode must not be empty"));
    }
    if let Some(c) = opcode
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ':')))
    {
        return Err(Diagnostic::op(
            op,
            format!("'ptx.inst' op opcode '{opcode}' has the character '{c}'; an opcode is letters, digits, '.', '_' and ':'"),
        ));
    }
    let (args, _) = inst_args_and_guard(ctx, op);
    verify_tile_operands(ctx, op, &args)?;
    let form = inst_form(ctx, op, args.len());
    let pieces =
        split_form(&form).map_err(|e| Diagnostic::op(op, format!("'ptx.inst' op form: {e}")))?;
    let mut used = vec![false; args.len()];
    for p in &pieces {
        match p {
            FormPiece::Operand(n) if *n >= args.len() => {
                return Err(Diagnostic::op(
                    op,
                    format!(
                        "'ptx.inst' op form refers to operand ${n}, but there are {} operands",
                        args.len()
                    ),
                ))
            }
            FormPiece::Operand(n) => used[*n] = true,
            FormPiece::Text(t) if t.contains(';') => return Err(Diagnostic::op(
                op,
                "'ptx.inst' op form must not contain ';' (use ptx.asm for several instructions)",
            )),
            FormPiece::Text(_) => {}
        }
    }
    if let Some(i) = used.iter().position(|u| !u) {
        return Err(Diagnostic::op(
            op,
            format!("'ptx.inst' op operand #{i} does not appear in the form"),
        ));
    }
    Ok(())
}

/// The tile-operand contract of `lower-async-to-ptx` with `lower-tiles`: a register tile may
/// only be operand 0 of an instruction carrying `tile_block = array<i64: b, n>` (`0 <= b < n`),
/// and its only result, when it has one, is the updated tile of the same type. The `tied = N`
/// attribute (set by `lower-tiles` on the expanded instruction: result `i` is operand `i`
/// updated in place, for `i < N`; the results are a `{...}` list) must fit the operands and
/// results and pair equal types.
fn verify_tile_operands(
    ctx: &Context,
    op: OpId,
    args: &[tilus_ir::Value],
) -> Result<(), Diagnostic> {
    let tile_at: Vec<usize> = args
        .iter()
        .enumerate()
        .filter(|(_, v)| is_register_tile(ctx, ctx.value_type(**v)))
        .map(|(i, _)| i)
        .collect();
    let tile_results = ctx
        .results(op)
        .iter()
        .filter(|v| is_register_tile(ctx, ctx.value_type(**v)))
        .count();
    if ctx.get_attr(op, "tied").is_some() {
        match int_prop(ctx, op, "tied") {
            Some(n)
                if n >= 0
                    && n as usize <= ctx.results(op).len()
                    && n as usize <= args.len()
                    && (0..n as usize).all(|i| {
                        ctx.value_type(args[i]) == ctx.value_type(ctx.results(op)[i])
                    }) => {}
            _ => {
                return Err(Diagnostic::op(
                    op,
                    "'ptx.inst' op 'tied' must be an integer N <= #results, #operands, with operand i and result i of one type for i < N (result i is operand i updated in place)",
                ))
            }
        }
    }
    if tile_at.is_empty() && tile_results == 0 {
        return Ok(());
    }
    let block =
        ctx.get_attr(op, "tile_block")
            .and_then(|a| match ctx.int_array_values(a)?.as_slice() {
                &[b, n] => Some((b, n)),
                _ => None,
            });
    let Some((b, n)) = block else {
        return Err(Diagnostic::op(
            op,
            "'ptx.inst' op a register tile operand or result needs the attribute 'tile_block = array<i64: b, n>' (lower-tiles expands it into registers)",
        ));
    };
    if !(0 <= b && b < n) {
        return Err(Diagnostic::op(
            op,
            format!("'ptx.inst' op tile_block [{b}, {n}] must have 0 <= b < n"),
        ));
    }
    if tile_at != [0] {
        return Err(Diagnostic::op(
            op,
            "'ptx.inst' op with tile_block takes exactly one register tile, as operand 0",
        ));
    }
    let res = ctx.results(op);
    if !res.is_empty() && (res.len() != 1 || ctx.value_type(res[0]) != ctx.value_type(args[0])) {
        return Err(Diagnostic::op(
            op,
            "'ptx.inst' op with tile_block returns nothing or the updated tile (the type of operand 0)",
        ));
    }
    Ok(())
}

fn verify_asm(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let s = str_prop(ctx, op, "asm_string").unwrap_or_default();
    let n = ctx.operands(op).len() + ctx.results(op).len();
    let pieces = split_form(&s).map_err(|e| Diagnostic::op(op, format!("'ptx.asm' op {e}")))?;
    for p in pieces {
        if let FormPiece::Operand(k) = p {
            if k >= n {
                return Err(Diagnostic::op(
                    op,
                    format!("'ptx.asm' op refers to ${k}, but there are {n} results and operands"),
                ));
            }
        }
    }
    Ok(())
}

fn verify_shared_decl(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let a = int_prop(ctx, op, "alignment").unwrap_or(0);
    if a <= 0 || (a & (a - 1)) != 0 {
        return Err(Diagnostic::op(
            op,
            format!("'ptx.shared_decl' op alignment must be a power of two, but is {a}"),
        ));
    }
    if let Some(s) = int_prop(ctx, op, "size") {
        if s <= 0 {
            return Err(Diagnostic::op(
                op,
                format!("'ptx.shared_decl' op size must be positive, but is {s}"),
            ));
        }
    }
    Ok(())
}

fn verify_addressof(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let t = ctx.value_type(ctx.results(op)[0]);
    if !matches!(ctx.type_kind(t), TypeKind::Integer { width: 32 | 64, .. }) {
        return Err(Diagnostic::op(
            op,
            format!(
                "'ptx.addressof' op result must be i32 or i64, but is '{}'",
                type_to_string(ctx, t)
            ),
        ));
    }
    let name = match ctx.get_prop(op, "global_name").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef { root, .. }) => root.clone(),
        _ => return Ok(()),
    };
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        for &r in ctx.regions(p) {
            for &b in ctx.region_blocks(r) {
                for o in ctx.block_ops(b) {
                    if ctx.op_name_str(o) == "ptx.shared_decl"
                        && str_prop(ctx, o, "sym_name").as_deref() == Some(name.as_str())
                    {
                        return Ok(());
                    }
                }
            }
        }
        cur = ctx.parent_op(p);
    }
    Err(Diagnostic::op(
        op,
        format!("'ptx.addressof' op '@{name}' does not name a 'ptx.shared_decl'"),
    ))
}

// ----- custom formats --------------------------------------------------------------------------

fn parse_entry(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
    let mut props: Vec<(String, Attr)> = Vec::new();
    let (name, sp) = p.parse_symbol_name()?;
    p.note_attr_span("sym_name", sp);
    props.push(("sym_name".into(), p.ctx.str_attr(&name)));
    p.expect("(")?;
    let mut args: Vec<RegionArg> = Vec::new();
    let mut inputs = Vec::new();
    let mut arg_attrs: Vec<Attr> = Vec::new();
    if !p.eat(")") {
        loop {
            let (arg, a) = parse_named_arg(p, true)?;
            arg_attrs.push(a);
            inputs.push(arg.ty);
            args.push(arg);
            if !p.eat(",") {
                break;
            }
        }
        p.expect(")")?;
    }
    let ft = p.ctx.function_type(inputs, vec![]);
    props.push(("function_type".into(), p.ctx.type_attr(ft)));
    if let Some(a) = nonempty_dict_array(p.ctx, arg_attrs) {
        props.push(("arg_attrs".into(), a));
    }
    let attrs = parse_trailing_attrs(p, def, true, &mut props)?;
    let region = p.parse_region(args, true)?;
    Ok(OperationState::of(p.ctx, def)
        .with_properties(p.ctx, props)
        .with_attrs(attrs)
        .with_regions(vec![region]))
}

fn print_entry(pr: &mut Printer, op: OpId) {
    let ctx = pr.ctx;
    pr.out.push(' ');
    pr.out.push_str(&crate::builtin::ctx_sym(
        &str_prop(ctx, op, "sym_name").unwrap_or_default(),
    ));
    let (inputs, _) = function_type(ctx, op).unwrap_or_default();
    let arg_attrs = dict_array_prop(ctx, op, "arg_attrs");
    let r = ctx.regions(op)[0];
    let entry = ctx.region_blocks(r).first().copied();
    print_fn_args(pr, entry, &inputs, &arg_attrs);
    let mut rest: Vec<(String, Attr)> = ctx.attrs(op).to_vec();
    for n in [
        "target",
        "maxntid",
        "reqntid",
        "minnctapersm",
        "reqnctapercluster",
        "maxnreg",
    ] {
        if let Some(v) = ctx.get_prop(op, n) {
            rest.push((n.into(), v));
        }
    }
    rest.sort_by(|a, b| a.0.cmp(&b.0));
    if !rest.is_empty() {
        pr.out.push_str(" attributes ");
        pr.print_attr_dict_entries(&rest, &[]);
    }
    if entry.is_some() {
        pr.out.push(' ');
        pr.print_region(r, false, true);
    }
}

/// Scans a PTX immediate (`42`, `-1`, `0xff`, `0f3F800000`) at the cursor.
fn scan_immediate(p: &mut Parser) -> Option<String> {
    p.skip_ws();
    let src = p.src();
    let start = p.pos();
    let b = src.as_bytes();
    let mut i = start;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    if !b.get(i).is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
        i += 1;
    }
    let s = src[start..i].to_string();
    p.set_pos(i);
    Some(s)
}

/// Whether `%a = ...`, `%a:2 = ...` or `%a, %b = ...` comes next: the results of the next op,
/// not operands of this one (ops are not separated by anything but whitespace).
fn result_def_ahead(p: &mut Parser) -> bool {
    let save = p.pos();
    let mut def = false;
    loop {
        if p.parse_value_name().is_err() {
            break;
        }
        if p.peek() == Some(b':') {
            p.eat(":");
            if p.parse_number_text().is_err() {
                break;
            }
        }
        if p.peek() == Some(b'=') && !p.peek_str("==") {
            def = true;
            break;
        }
        if !p.eat(",") || p.peek() != Some(b'%') {
            break;
        }
    }
    p.set_pos(save);
    def
}

/// Whether the next item starts a `ptx.inst` operand (rather than `if`, `:` or an attr-dict).
fn operand_ahead(p: &mut Parser) -> bool {
    match p.peek() {
        Some(b'%') => !result_def_ahead(p),
        Some(b'[' | b'-' | b'!') => true,
        Some(c) if c.is_ascii_digit() => true,
        Some(b'_') => {
            let save = p.pos();
            p.skip_ws();
            let b = p.src().as_bytes();
            let i = p.pos() + 1;
            let alone = !b
                .get(i)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
            p.set_pos(save);
            alone
        }
        Some(b'{') => {
            // A vector `{%a, ...}` rather than an attribute dictionary `{name = ...}`.
            let save = p.pos();
            p.eat("{");
            let v = matches!(p.peek(), Some(b'%' | b'-' | b'_'))
                || p.peek().is_some_and(|c| c.is_ascii_digit());
            p.set_pos(save);
            v
        }
        _ => false,
    }
}

/// Parses one operand item of `ptx.inst` into `form`, collecting values.
fn parse_item(
    p: &mut Parser,
    form: &mut String,
    vals: &mut Vec<tilus_ir::syntax::parser::UnresolvedOperand>,
) -> PResult<()> {
    match p.peek() {
        Some(b'%') => {
            let u = p.parse_operand()?;
            form.push_str(&format!("${}", vals.len()));
            vals.push(u);
        }
        Some(b'!') => {
            p.eat("!");
            form.push('!');
            let u = p.parse_operand()?;
            form.push_str(&format!("${}", vals.len()));
            vals.push(u);
        }
        Some(b'_') => {
            p.eat("_");
            form.push('_');
        }
        Some(b'{') => {
            p.eat("{");
            form.push('{');
            let mut first = true;
            while !p.eat("}") {
                if !first {
                    p.expect(",")?;
                    form.push_str(", ");
                }
                first = false;
                parse_item(p, form, vals)?;
            }
            form.push('}');
        }
        Some(b'[') => {
            p.eat("[");
            form.push('[');
            loop {
                match p.peek() {
                    Some(b']') => {
                        p.eat("]");
                        break;
                    }
                    Some(b'+') => {
                        p.eat("+");
                        form.push('+');
                    }
                    Some(b',') => {
                        p.eat(",");
                        form.push_str(", ");
                    }
                    Some(b'-')
                        if !p.src()[p.pos() + 1..].starts_with(|c: char| c.is_ascii_digit()) =>
                    {
                        p.eat("-");
                        form.push('-');
                    }
                    None => return Err(p.err_here("expected ']' closing the memory operand")),
                    _ => parse_item(p, form, vals)?,
                }
            }
            form.push(']');
        }
        _ => match scan_immediate(p) {
            Some(s) => form.push_str(&s),
            None => {
                let found = p.found_here();
                return Err(p.err_here(format!(
                    "expected a PTX operand (a value, an immediate, '[...]', '{{...}}' or '_'), found {found}"
                )));
            }
        },
    }
    Ok(())
}

/// Resolves `vals` against the operand types of the function type `ty` (none when absent);
/// returns the operands and the result types.
fn resolve_typed(
    p: &mut Parser,
    op: &str,
    vals: &[UnresolvedOperand],
    ty: Option<Type>,
) -> PResult<(Vec<tilus_ir::Value>, Vec<Type>)> {
    let (ins, outs) = match ty.map(|t| p.ctx.type_kind(t)) {
        None => (vec![], vec![]),
        Some(TypeKind::Function { inputs, results }) => (inputs.clone(), results.clone()),
        Some(_) => {
            return Err(p.err_here("expected a function type '(operand types) -> (result types)'"))
        }
    };
    if ins.len() != vals.len() {
        return Err(p.err_here(format!(
            "'{op}' has {} operand values but {} operand types",
            vals.len(),
            ins.len()
        )));
    }
    let operands = vals
        .iter()
        .zip(&ins)
        .map(|(u, t)| p.resolve_operand(u, *t))
        .collect::<PResult<_>>()?;
    Ok((operands, outs))
}

fn parse_inst(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
    let (opcode_attr, sp) = p.parse_attribute_spanned()?;
    p.note_attr_span("opcode", sp);
    // `"nop" : () -> ()` reads as a typed string: the type is then the op's type.
    let (opcode, absorbed) = match p.ctx.attr_kind(opcode_attr) {
        AttrKind::String { value, ty } => (String::from_utf8_lossy(value).into_owned(), *ty),
        _ => return Err(Diagnostic::at(sp, "expected the opcode as a string")),
    };
    let mut form = String::new();
    let mut vals = Vec::new();
    if absorbed.is_none() && operand_ahead(p) {
        loop {
            parse_item(p, &mut form, &mut vals)?;
            if !p.eat(",") {
                break;
            }
            form.push_str(", ");
        }
    }
    let mut guard = None;
    if absorbed.is_none() && p.eat_keyword("if") {
        let neg = p.eat("!");
        guard = Some((p.parse_operand()?, neg));
    }
    let mut attrs = Vec::new();
    if absorbed.is_none() && p.peek() == Some(b'{') {
        for (k, v, sp) in p.parse_attr_dict()? {
            p.note_attr_span(&k, sp);
            attrs.push((k, v));
        }
    }
    let ty = match absorbed {
        Some(t) => Some(t),
        None if p.eat(":") => Some(p.parse_type()?),
        None => None,
    };
    let (mut operands, outs) = resolve_typed(p, "ptx.inst", &vals, ty)?;
    let neg = guard.as_ref().map(|g| g.1);
    if let Some((g, _)) = &guard {
        let i1 = p.ctx.int_type(1);
        operands.push(p.resolve_operand(g, i1)?);
    }
    let mut props = inst_properties(p.ctx, &opcode, Some(&form), vals.len(), neg);
    // Discardable attributes that name a declared property are properties.
    split_declared(def, &mut attrs, &mut props);
    Ok(OperationState::of(p.ctx, def)
        .with_operands(operands)
        .with_results(outs)
        .with_properties(p.ctx, props)
        .with_attrs(attrs))
}

fn print_inst(pr: &mut Printer, op: OpId) {
    let ctx = pr.ctx;
    let opcode = str_prop(ctx, op, "opcode").unwrap_or_default();
    pr.out.push(' ');
    tilus_ir::syntax::printer::write_escaped(&mut pr.out, opcode.as_bytes());
    let (args, guard) = inst_args_and_guard(ctx, op);
    let form = inst_form(ctx, op, args.len());
    if !form.is_empty() {
        pr.out.push(' ');
        match split_form(&form) {
            Ok(pieces) => {
                for piece in pieces {
                    match piece {
                        FormPiece::Text(t) => pr.out.push_str(&t),
                        FormPiece::Operand(n) => match args.get(n) {
                            Some(v) => pr.print_value(*v),
                            None => pr.out.push_str(&format!("${n}")),
                        },
                    }
                }
            }
            Err(_) => pr.out.push_str(&form),
        }
    }
    if let Some(g) = guard {
        pr.out.push_str(" if ");
        if ctx.get_prop(op, "guard_negated").is_some() {
            pr.out.push('!');
        }
        pr.print_value(g);
    }
    let rest = ctx.attrs(op).to_vec();
    if !rest.is_empty() {
        pr.out.push(' ');
        pr.print_attr_dict_entries(&rest, &[]);
    }
    let results = ctx.results(op);
    if !args.is_empty() || !results.is_empty() {
        pr.out.push_str(" : (");
        for (i, v) in args.iter().enumerate() {
            if i > 0 {
                pr.out.push_str(", ");
            }
            pr.print_type(ctx.value_type(*v));
        }
        pr.out.push_str(") -> ");
        if results.len() == 1 {
            pr.print_type(ctx.value_type(results[0]));
        } else {
            pr.out.push('(');
            for (i, v) in results.iter().enumerate() {
                if i > 0 {
                    pr.out.push_str(", ");
                }
                pr.print_type(ctx.value_type(*v));
            }
            pr.out.push(')');
        }
    }
}

/// A register name as PTX writes it without `%` (`tid.x`), stored as a string; a name that is
/// not one bare word is read and written quoted, so the verifier's complaint can be read back.
fn parse_register_name(
    p: &mut Parser,
    st: &mut tilus_ir::format::FormatState,
    args: &[tilus_ir::format::CustomArg],
) -> PResult<()> {
    let [tilus_ir::format::CustomArg::Var(name)] = args else {
        return Err(p.err_here("RegisterName takes one string attribute"));
    };
    p.skip_ws();
    let reg = if p.peek() == Some(b'"') {
        let (a, sp) = p.parse_attribute_spanned()?;
        p.note_attr_span(name, sp);
        a
    } else {
        let (reg, sp) = p.parse_keyword_any()?;
        p.note_attr_span(name, sp);
        p.ctx.str_attr(&reg)
    };
    st.set_attr(name, reg);
    Ok(())
}

fn print_register_name(pr: &mut Printer, op: OpId, args: &[tilus_ir::format::CustomArg]) {
    let [tilus_ir::format::CustomArg::Var(name)] = args else {
        return;
    };
    let reg = str_prop(pr.ctx, op, name).unwrap_or_default();
    let bare = !reg.is_empty()
        && reg.as_bytes()[0].is_ascii_alphabetic()
        && reg
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.'));
    if bare {
        pr.out.push_str(&reg);
    } else {
        tilus_ir::syntax::printer::write_escaped(&mut pr.out, reg.as_bytes());
    }
}
