//! Binding a kernel's parameters: scalar arguments from the command line or the kernel's
//! `tilus.args`, global buffers for pointer parameters (random, zeros, ones or a `.npy` file),
//! and `.npy` input and output.
//!
//! # Parameter names
//!
//! A kernel keeps its parameters' names in its `arg_names` property, which the custom form sets
//! from the SSA names it was written with and which survives printing (custom or generic), passes
//! and `mlir-opt`; see `tilus_dialects::tilus::param_names`. Only when a kernel lacks it (generic
//! IR written by hand, or kernels built by passes) is the name read back from the source: every
//! entry-block argument carries the location `file:line:col` of its `%name` in the signature, and
//! the name is the identifier written there (`%n: i32` is `n`). Where that fails too (no file
//! locations, two parameters with the same spelling) the parameters are named by position,
//! `arg0`, `arg1`, ...
//!
//! # `.npy` element types
//!
//! | kernel dtype | `.npy` dtype |
//! |---|---|
//! | `i1` | `\|b1` (bool) |
//! | `iN`/`siN` | `<i1`, `<i2`, `<i4`, `<i8` (the smallest holding N bits) |
//! | `uiN` | `<u1` .. `<u8` |
//! | `f16` | `<f2` |
//! | `f32`, `tf32` | `<f4` |
//! | `f64` | `<f8` |
//! | `bf16`, `f8E4M3FN`, `f8E5M2`, `f6*`, `f4E2M1FN` | `<f4` (NumPy has no such type: values are written as float32 and rounded to the dtype when read) |
//!
//! Inputs and the files read by `--expect` must match that dtype (either byte order) and the
//! buffer's shape exactly.

use crate::interp::{self, ArgValue};
use crate::memory::GlobalMemory;
use crate::tensor::{DType, Tensor};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use tilus_dialects::tilus_types::ptr_elem;
use tilus_ir::attrs::{AttrKind, Location};
use tilus_ir::source::{write_file_atomically, SourceFile};
use tilus_ir::types::Signedness;
use tilus_ir::{Attr, Context, DiagLoc, Diagnostic, OpId, Span, TypeKind};

// ----- kernels and parameters -----------------------------------------------------------------

/// The `tilus.kernel` ops of a module, with their names, in source order.
pub fn kernels(ctx: &Context, module: OpId) -> Vec<(String, OpId)> {
    let mut out = Vec::new();
    ctx.walk(module, &mut |op| {
        if tilus_dialects::tilus::KernelOp::is(ctx, op) {
            out.push((kernel_name(ctx, op), op));
        }
    });
    out
}

/// A kernel's symbol name.
pub fn kernel_name(ctx: &Context, op: OpId) -> String {
    match ctx.get_prop(op, "sym_name").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
        _ => String::new(),
    }
}

/// What a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    /// An integer scalar (`iN`, `siN`, `uiN`).
    Int(DType),
    /// An `index` scalar (64-bit).
    Index,
    /// A float scalar.
    Float(DType),
    /// A `!tilus.ptr<T>`: a global buffer of `T`.
    Pointer(DType),
    /// Anything else (not bindable from the command line).
    Other,
}

/// One kernel parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// The name written in the signature (see the module docs).
    pub name: String,
    /// Its type as written by the printer (`i32`, `!tilus.ptr<f16>`).
    pub ty: String,
    pub kind: ParamKind,
    /// Where `%name` is in the source.
    pub span: Option<Span>,
    /// What the kernel declares about the argument (`tilus.range`, `tilus.divisibility`):
    /// the compiler may have folded on it, so an argument that breaks it is refused.
    pub facts: tilus_dialects::tilus::ParamFacts,
}

impl Param {
    /// Where diagnostics about this parameter point.
    pub fn loc(&self, kernel: OpId) -> DiagLoc {
        match self.span {
            Some(s) => DiagLoc::Span(s),
            None => DiagLoc::OpAttr(kernel, "sym_name"),
        }
    }
    /// Whether this is a pointer parameter.
    pub fn is_pointer(&self) -> bool {
        matches!(self.kind, ParamKind::Pointer(_))
    }
}

/// The kernel's parameters, named from the source text.
pub fn params(ctx: &Context, kernel: OpId, file: &SourceFile) -> Vec<Param> {
    let Some(&region) = ctx.regions(kernel).first() else {
        return Vec::new();
    };
    let Some(&entry) = ctx.region_blocks(region).first() else {
        return Vec::new();
    };
    let mut out: Vec<Param> = Vec::new();
    let declared = ctx
        .get_prop(kernel, "arg_names")
        .map(|_| tilus_dialects::tilus::param_names(ctx, kernel));
    for (i, &v) in ctx.block_args(entry).iter().enumerate() {
        let t = ctx.value_type(v);
        let kind = param_kind(ctx, t);
        let span = ctx.value(v).loc.and_then(|l| name_span_at(ctx, l, file));
        let from_source = span.map(|s| file.text[s.start + 1..s.end].to_string());
        let name = match &declared {
            Some(names) => names[i].clone(),
            None => from_source.clone().unwrap_or_else(|| format!("arg{i}")),
        };
        out.push(Param {
            name,
            ty: tilus_dialects::tilus_types::type_str(ctx, t),
            kind,
            span,
            facts: tilus_dialects::tilus::param_facts(ctx, kernel, i),
        });
    }
    // Names must identify parameters; fall back to positions when they do not.
    let mut names: Vec<&str> = out.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0] == w[1]) {
        for (i, p) in out.iter_mut().enumerate() {
            p.name = format!("arg{i}");
            p.span = None;
        }
    }
    out
}

fn param_kind(ctx: &Context, t: tilus_ir::Type) -> ParamKind {
    if let Some(d) = ptr_elem(ctx, t) {
        return ParamKind::Pointer(d);
    }
    match ctx.type_kind(t) {
        TypeKind::Index => ParamKind::Index,
        TypeKind::Integer { .. } => match DType::from_type(ctx, t) {
            Some(d) => ParamKind::Int(d),
            None => ParamKind::Other,
        },
        TypeKind::Float(_) => match DType::from_type(ctx, t) {
            Some(d) => ParamKind::Float(d),
            None => ParamKind::Other,
        },
        _ => ParamKind::Other,
    }
}

/// The span of `%name` at a block argument's `file:line:col` location, if it points at one.
fn name_span_at(ctx: &Context, loc: Attr, file: &SourceFile) -> Option<Span> {
    let AttrKind::Loc(Location::File {
        file: f, line, col, ..
    }) = ctx.attr_kind(loc)
    else {
        return None;
    };
    match ctx.attr_kind(*f) {
        AttrKind::String { value, .. } if value == file.name.as_bytes() => {}
        _ => return None,
    }
    let start = file.lines().offset(*line, *col)?;
    let rest = file.text.get(start..)?;
    let ident = rest.strip_prefix('%')?;
    let len = ident
        .find(|c: char| !(c.is_ascii_alphanumeric() || "_$.-".contains(c)))
        .unwrap_or(ident.len());
    (len > 0).then(|| Span::new(start, start + 1 + len))
}

// ----- the kernel's defaults ------------------------------------------------------------------

/// How a buffer starts.
#[derive(Clone, Debug, PartialEq)]
pub enum InputInit {
    /// Seeded uniform values: floats in `[-1, 1)`, signed integers in `[-8, 8)`, unsigned in
    /// `[0, 16)`, `i1` in `{0, 1}` (never all zero).
    Random,
    Zeros,
    Ones,
    /// A `.npy` file of the buffer's dtype and shape.
    Npy(PathBuf),
}

impl InputInit {
    /// Reads `random`, `zeros`, `ones`, or else a path (relative to `base`).
    pub fn parse(s: &str, base: &Path) -> InputInit {
        match s {
            "random" => InputInit::Random,
            "zeros" => InputInit::Zeros,
            "ones" => InputInit::Ones,
            p => InputInit::Npy(base.join(p)),
        }
    }
}

/// A default scalar from `tilus.args`.
#[derive(Clone, Debug, PartialEq)]
pub enum DefaultValue {
    Int(i64),
    Float(f64),
}

/// The discardable attributes of a `tilus.kernel` that `tilus-run` reads.
#[derive(Clone, Debug, Default)]
pub struct KernelDefaults {
    /// `tilus.args = {n = 64 : i32}`.
    pub args: Vec<(String, DefaultValue)>,
    /// `tilus.inputs = {x = "random", acc = "zeros"}` (paths relative to the kernel's file).
    pub inputs: Vec<(String, InputInit)>,
    /// `tilus.outputs = ["y"]`.
    pub outputs: Option<Vec<String>>,
    /// `tilus.reference = "name"`.
    pub reference: Option<String>,
}

/// Reads the kernel's `tilus.*` defaults and checks them against its parameters. `base` is the
/// folder `.npy` paths are relative to.
pub fn kernel_defaults(
    ctx: &Context,
    kernel: OpId,
    params: &[Param],
    base: &Path,
) -> Result<KernelDefaults, Diagnostic> {
    let mut d = KernelDefaults::default();
    let find = |name: &str| params.iter().find(|p| p.name == name);
    let names = || param_list(params);
    if let Some(a) = ctx.get_attr(kernel, tilus_dialects::tilus::attr_names::ARGS) {
        let bad = |m: String| {
            Diagnostic::error(
                DiagLoc::OpAttr(kernel, tilus_dialects::tilus::attr_names::ARGS),
                m,
            )
        };
        let AttrKind::Dict(entries) = ctx.attr_kind(a) else {
            return Err(bad(
                "'tilus.args' must be a dictionary of scalar arguments, like {n = 64 : i32}".into(),
            ));
        };
        for (k, v) in entries {
            let p = find(k).ok_or_else(|| {
                bad(format!(
                    "'tilus.args' names '{k}', which is not a parameter"
                ))
                .with_help(names())
            })?;
            if p.is_pointer() {
                return Err(bad(format!(
                    "'tilus.args' gives a value for '{k}', a pointer parameter; buffers are set by 'tilus.inputs'"
                )));
            }
            let value = match ctx.attr_kind(*v) {
                AttrKind::Integer { value, .. } => i64::try_from(value)
                    .map(DefaultValue::Int)
                    .map_err(|_| bad(format!("'tilus.args': {k} = {value} is out of range")))?,
                AttrKind::Float { bits, ty } => match ctx.type_kind(*ty) {
                    TypeKind::Float(fk) => DefaultValue::Float(tilus_ir::float::to_f64(*fk, *bits)),
                    _ => return Err(bad(format!("'tilus.args': {k} is not a number"))),
                },
                AttrKind::Bool(b) => DefaultValue::Int(*b as i64),
                _ => {
                    return Err(bad(format!(
                        "'tilus.args': {k} must be an integer or float attribute (like 64 : i32)"
                    )))
                }
            };
            // Check it fits the parameter now, so the error points at the attribute.
            scalar_from_default(p, &value).map_err(|m| bad(format!("'tilus.args': {m}")))?;
            d.args.push((k.clone(), value));
        }
    }
    if let Some(a) = ctx.get_attr(kernel, tilus_dialects::tilus::attr_names::INPUTS) {
        let bad = |m: String| {
            Diagnostic::error(
                DiagLoc::OpAttr(kernel, tilus_dialects::tilus::attr_names::INPUTS),
                m,
            )
        };
        let AttrKind::Dict(entries) = ctx.attr_kind(a) else {
            return Err(bad(
                "'tilus.inputs' must be a dictionary like {x = \"random\", acc = \"zeros\"}".into(),
            ));
        };
        for (k, v) in entries {
            let p = find(k).ok_or_else(|| {
                bad(format!(
                    "'tilus.inputs' names '{k}', which is not a parameter"
                ))
                .with_help(names())
            })?;
            if !p.is_pointer() {
                return Err(bad(format!(
                    "'tilus.inputs' names '{k}', a scalar parameter; scalars are set by 'tilus.args'"
                )));
            }
            let AttrKind::String { value, .. } = ctx.attr_kind(*v) else {
                return Err(bad(format!(
                    "'tilus.inputs': {k} must be \"random\", \"zeros\", \"ones\" or a .npy path"
                )));
            };
            let s = String::from_utf8_lossy(value);
            d.inputs.push((k.clone(), InputInit::parse(&s, base)));
        }
    }
    if let Some(a) = ctx.get_attr(kernel, tilus_dialects::tilus::attr_names::OUTPUTS) {
        let bad = |m: String| {
            Diagnostic::error(
                DiagLoc::OpAttr(kernel, tilus_dialects::tilus::attr_names::OUTPUTS),
                m,
            )
        };
        let AttrKind::Array(items) = ctx.attr_kind(a) else {
            return Err(bad(
                "'tilus.outputs' must be an array of parameter names, like [\"y\"]".into(),
            ));
        };
        let mut outs = Vec::new();
        for it in items {
            let AttrKind::String { value, .. } = ctx.attr_kind(*it) else {
                return Err(bad(
                    "'tilus.outputs' must be an array of parameter names, like [\"y\"]".into(),
                ));
            };
            let k = String::from_utf8_lossy(value).into_owned();
            match find(&k) {
                Some(p) if p.is_pointer() => outs.push(k),
                Some(_) => {
                    return Err(bad(format!(
                        "'tilus.outputs' names '{k}', which is not a pointer parameter"
                    )))
                }
                None => {
                    return Err(bad(format!(
                        "'tilus.outputs' names '{k}', which is not a parameter"
                    ))
                    .with_help(names()))
                }
            }
        }
        d.outputs = Some(outs);
    }
    if let Some(a) = ctx.get_attr(kernel, tilus_dialects::tilus::attr_names::REFERENCE) {
        match ctx.attr_kind(a) {
            AttrKind::String { value, .. } => {
                d.reference = Some(String::from_utf8_lossy(value).into_owned())
            }
            AttrKind::SymbolRef { root, nested } if nested.is_empty() => {
                d.reference = Some(root.clone())
            }
            _ => {
                return Err(Diagnostic::error(
                    DiagLoc::OpAttr(kernel, tilus_dialects::tilus::attr_names::REFERENCE),
                    "'tilus.reference' must name another kernel of the file, like \"matmul_ref\"",
                ))
            }
        }
    }
    Ok(d)
}

/// `the parameters are: a (!tilus.ptr<f32>), n (i32)`.
pub fn param_list(params: &[Param]) -> String {
    if params.is_empty() {
        return "the kernel has no parameters".into();
    }
    let list: Vec<String> = params
        .iter()
        .map(|p| format!("{}: {}", p.name, p.ty))
        .collect();
    format!("the parameters are: {}", list.join(", "))
}

// ----- command-line values --------------------------------------------------------------------

/// A `name=value` flag value.
#[derive(Clone, Debug, PartialEq)]
pub struct Assignment {
    pub name: String,
    pub value: String,
}

/// Parses `name=value` (clap value parser).
pub fn parse_assignment(s: &str) -> Result<Assignment, String> {
    match s.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() => Ok(Assignment {
            name: n.trim().trim_start_matches('%').to_string(),
            value: v.trim().to_string(),
        }),
        _ => Err(format!("expected NAME=VALUE, found '{s}'")),
    }
}

fn int_range(d: DType) -> (i128, i128) {
    match d {
        DType::Int { bits, signedness } => {
            let bits = bits.min(64) as i128;
            match signedness {
                _ if bits == 1 => (0, 1),
                Signedness::Unsigned => (0, (1i128 << bits) - 1),
                _ => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            }
        }
        _ => (i64::MIN as i128, i64::MAX as i128),
    }
}

/// Rounds a scalar to a float dtype: to nearest even, except that f16 goes through f32 first
/// (round to f32, then to f16), which is what `half::f16::from_f64` does on x86 with F16C and
/// what random inputs have always been made with (their golden hashes depend on it), written
/// out so it is the same on every machine and fast enough for millions of inputs.
fn round_scalar(d: DType, x: f64) -> f64 {
    match d {
        DType::F64 => x,
        DType::F16 => crate::tensor::round_to(DType::F16, x as f32 as f64),
        DType::BF16 => half::bf16::from_f64(x).to_f64(),
        _ => x as f32 as f64,
    }
}

fn parse_int_text(s: &str) -> Option<i128> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let body = body.replace('_', "");
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else {
        body.parse::<i128>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// The value of a scalar parameter from command-line text.
pub fn parse_scalar(p: &Param, text: &str) -> Result<ArgValue, String> {
    match p.kind {
        ParamKind::Int(_) | ParamKind::Index => {
            let d = match p.kind {
                ParamKind::Int(d) => d,
                _ => DType::Int {
                    bits: 64,
                    signedness: Signedness::Signless,
                },
            };
            let v = match (d, text) {
                (DType::Int { bits: 1, .. }, "true") => Some(1),
                (DType::Int { bits: 1, .. }, "false") => Some(0),
                _ => parse_int_text(text),
            }
            .ok_or_else(|| format!("'{text}' is not an integer ({} expected)", p.ty))?;
            let (lo, hi) = int_range(d);
            if v < lo || v > hi {
                return Err(format!(
                    "{v} does not fit {} (range {lo} to {hi})",
                    p.ty
                ));
            }
            Ok(ArgValue::Int(v as i64))
        }
        ParamKind::Float(d) => {
            let v: f64 = text
                .parse()
                .map_err(|_| format!("'{text}' is not a number ({} expected)", p.ty))?;
            Ok(ArgValue::Float(round_scalar(d, v)))
        }
        ParamKind::Pointer(_) => Err(format!(
            "'{}' is a pointer parameter ({}): set its buffer with --input {}=random|zeros|ones|FILE.npy",
            p.name, p.ty, p.name
        )),
        ParamKind::Other => Err(format!(
            "parameters of type {} cannot be given on the command line",
            p.ty
        )),
    }
}

/// A copy of an argument.
pub fn copy_arg(v: &ArgValue) -> ArgValue {
    match v {
        ArgValue::Int(i) => ArgValue::Int(*i),
        ArgValue::Float(f) => ArgValue::Float(*f),
        ArgValue::Buffer(b) => ArgValue::Buffer(*b),
    }
}

/// An argument as the report prints it.
pub fn arg_text(v: &ArgValue) -> String {
    match v {
        ArgValue::Int(i) => i.to_string(),
        ArgValue::Float(f) => crate::check::num(*f),
        ArgValue::Buffer(b) => format!("buffer {b}"),
    }
}

/// The value of a scalar parameter from a `tilus.args` entry.
pub fn scalar_from_default(p: &Param, v: &DefaultValue) -> Result<ArgValue, String> {
    match (p.kind, v) {
        (ParamKind::Int(_) | ParamKind::Index, DefaultValue::Int(i)) => {
            parse_scalar(p, &i.to_string())
        }
        (ParamKind::Int(_) | ParamKind::Index, DefaultValue::Float(_)) => Err(format!(
            "{} is an integer parameter ({}) but its default is a float",
            p.name, p.ty
        )),
        (ParamKind::Float(d), DefaultValue::Float(f)) => Ok(ArgValue::Float(round_scalar(d, *f))),
        (ParamKind::Float(d), DefaultValue::Int(i)) => {
            Ok(ArgValue::Float(round_scalar(d, *i as f64)))
        }
        _ => Err(format!("{} ({}) takes no scalar value", p.name, p.ty)),
    }
}

/// What the command line says about the parameters.
#[derive(Clone, Debug, Default)]
pub struct Requests {
    pub args: Vec<Assignment>,
    pub inputs: Vec<Assignment>,
    pub outputs: Vec<Assignment>,
    pub expects: Vec<Assignment>,
}

/// Checks that every flag names a parameter of the right kind, once. Errors are usage errors.
pub fn check_requests(
    kernel: OpId,
    name: &str,
    params: &[Param],
    r: &Requests,
) -> Result<(), Diagnostic> {
    let groups: [(&str, &Vec<Assignment>, bool); 4] = [
        ("--arg", &r.args, false),
        ("--input", &r.inputs, true),
        ("--output", &r.outputs, true),
        ("--expect", &r.expects, true),
    ];
    for (flag, list, want_ptr) in groups {
        for (i, a) in list.iter().enumerate() {
            let Some(p) = params.iter().find(|p| p.name == a.name) else {
                return Err(Diagnostic::error(
                    DiagLoc::OpAttr(kernel, "sym_name"),
                    format!(
                        "{flag} {}={}: kernel @{name} has no parameter '{}'",
                        a.name, a.value, a.name
                    ),
                )
                .with_label(format!("no parameter '{}' here", a.name))
                .with_help(param_list(params)));
            };
            if list[..i].iter().any(|b| b.name == a.name) {
                return Err(Diagnostic::error(
                    p.loc(kernel),
                    format!("{flag} gives '{}' more than once", a.name),
                ));
            }
            if p.is_pointer() != want_ptr {
                let m = if want_ptr {
                    format!(
                        "{flag} {}={}: '{}' is a scalar parameter ({}), not a buffer; use --arg {}=VALUE",
                        a.name, a.value, a.name, p.ty, a.name
                    )
                } else {
                    format!(
                        "{flag} {}={}: '{}' is a pointer parameter ({}); set its buffer with --input {}=random|zeros|ones|FILE.npy",
                        a.name, a.value, a.name, p.ty, a.name
                    )
                };
                return Err(
                    Diagnostic::error(p.loc(kernel), m).with_label(format!("{}: {}", p.name, p.ty))
                );
            }
        }
    }
    Ok(())
}

/// The argument of every parameter: scalars from `--arg`, else `tilus.args`; pointer parameters
/// get `ArgValue::Buffer(k)` for the `k`-th pointer parameter (buffers are added in parameter
/// order). Errors are usage errors pointing at the parameter.
pub fn bind_scalars(
    kernel: OpId,
    params: &[Param],
    cli: &[Assignment],
    defaults: &KernelDefaults,
) -> Result<Vec<ArgValue>, Diagnostic> {
    let mut out = Vec::with_capacity(params.len());
    let mut buffers = 0usize;
    for p in params {
        if p.is_pointer() {
            out.push(ArgValue::Buffer(buffers));
            buffers += 1;
            continue;
        }
        let v = if let Some(a) = cli.iter().find(|a| a.name == p.name) {
            parse_scalar(p, &a.value).map_err(|m| {
                Diagnostic::error(p.loc(kernel), format!("--arg {}={}: {m}", a.name, a.value))
                    .with_label(format!("{}: {}", p.name, p.ty))
            })?
        } else if let Some((_, d)) = defaults.args.iter().find(|(n, _)| *n == p.name) {
            scalar_from_default(p, d)
                .map_err(|m| Diagnostic::error(p.loc(kernel), format!("tilus.args: {m}")))?
        } else {
            let example = match p.kind {
                ParamKind::Float(_) => "1.0",
                _ => "64",
            };
            return Err(Diagnostic::error(
                p.loc(kernel),
                format!("no value for parameter '{}' ({})", p.name, p.ty),
            )
            .with_label(format!("{}: {} needs a value", p.name, p.ty))
            .with_help(format!(
                "pass --arg {}={example}, or give a default in the kernel's attributes: tilus.args = {{{} = {example} : {}}}",
                p.name, p.name, p.ty
            )));
        };
        if let ArgValue::Int(x) = v {
            if let Some(why) = p.facts.violation(x) {
                return Err(Diagnostic::error(
                    p.loc(kernel),
                    format!("argument {} = {why}", p.name),
                )
                .with_label(format!("{}: {} declares it", p.name, p.ty))
                .with_help(
                    "the kernel was compiled on that promise (eqsat folds on it): pass a value that keeps it, or drop the attribute",
                ));
            }
        }
        out.push(v);
    }
    Ok(out)
}

// ----- buffers ----------------------------------------------------------------------------------

/// One global buffer of the run.
#[derive(Clone, Debug)]
pub struct Buffer {
    /// Index of the parameter.
    pub param: usize,
    pub name: String,
    pub dtype: DType,
    pub shape: Vec<i64>,
    /// Index in [`GlobalMemory::buffers`].
    pub index: usize,
    pub init: InputInit,
}

impl Buffer {
    /// Number of elements.
    pub fn numel(&self) -> usize {
        self.shape.iter().product::<i64>().max(0) as usize
    }
    /// `f32[64, 32]`.
    pub fn describe(&self) -> String {
        describe(self.dtype, &self.shape)
    }
}

/// `f32[64, 32]`.
pub fn describe(dtype: DType, shape: &[i64]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("{}[{}]", dtype.name(), dims.join(", "))
}

/// Plans the buffers of the pointer parameters: shapes from [`interp::buffer_shapes`] (a pointer
/// no view uses gets an empty buffer), how each starts (`--input`, else `tilus.inputs`, else
/// random).
pub fn plan_buffers(
    ctx: &Context,
    kernel: OpId,
    params: &[Param],
    args: &[ArgValue],
    cli_inputs: &[Assignment],
    defaults: &KernelDefaults,
) -> Result<Vec<Buffer>, Diagnostic> {
    let shapes = interp::buffer_shapes(ctx, kernel, args)?;
    let mut out = Vec::new();
    for (i, p) in params.iter().enumerate() {
        let ParamKind::Pointer(dtype) = p.kind else {
            continue;
        };
        let shape = match shapes.get(i).cloned().flatten() {
            Some((_, s)) => s,
            None => vec![0],
        };
        check_buffer_size(kernel, p, dtype, &shape)?;
        let init = if let Some(a) = cli_inputs.iter().find(|a| a.name == p.name) {
            InputInit::parse(&a.value, Path::new(""))
        } else if let Some((_, d)) = defaults.inputs.iter().find(|(n, _)| *n == p.name) {
            d.clone()
        } else {
            InputInit::Random
        };
        out.push(Buffer {
            param: i,
            name: p.name.clone(),
            dtype,
            shape,
            index: out.len(),
            init,
        });
    }
    Ok(out)
}

/// Most elements one buffer of a run may hold: the interpreter keeps a buffer both as bytes and
/// as one `f64` per element, so this is 12 GiB at most for `f32`; a larger one comes from a
/// mistyped `--arg` far more often than from a real problem size, and allocating it would abort.
pub const MAX_BUFFER_ELEMENTS: u64 = 1 << 30;

/// Refuses a buffer whose element count overflows or passes [`MAX_BUFFER_ELEMENTS`], before
/// anything is allocated, naming the parameter and the shape its view gave.
fn check_buffer_size(
    kernel: OpId,
    p: &Param,
    dtype: DType,
    shape: &[i64],
) -> Result<(), Diagnostic> {
    let n = crate::interp::limits::checked_elements(shape);
    if n.is_some_and(|n| n <= MAX_BUFFER_ELEMENTS) {
        return Ok(());
    }
    let count = n.map_or("more than 2^64".to_string(), |n| n.to_string());
    Err(Diagnostic::error(
        p.loc(kernel),
        format!(
            "the buffer for '{}' would be {} ({count} elements), more than a run may allocate ({MAX_BUFFER_ELEMENTS} elements)",
            p.name,
            describe(dtype, shape)
        ),
    )
    .with_label(format!("{} is too large", p.name))
    .with_help("check the integer arguments (--arg) its shape follows"))
}

/// A small seeded generator (SplitMix64): reproducible inputs without a dependency.
pub struct SplitMix64(u64);

/// SplitMix64's increment: the state after `i` draws is the seed plus `i` times it.
const SPLITMIX_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(SPLITMIX_GAMMA);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn fnv1a(s: &str) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Random values for a buffer, from `seed` and the buffer's name (so adding a parameter does not
/// change the others). Never all zero. Element `i` is the generator's `i + 1`-th draw, and a
/// SplitMix64 state after `i` draws is `seed + i·γ`, so large buffers are filled in chunks on
/// all cores with the same numbers as one sequential pass.
pub fn random_values(dtype: DType, n: usize, seed: u64, name: &str) -> Vec<f64> {
    let start = seed ^ fnv1a(name);
    let draw = |u: u64| -> f64 {
        match dtype {
            DType::Int { bits: 1, .. } => (u >> 63) as f64,
            DType::Int {
                signedness: Signedness::Unsigned,
                ..
            } => (u >> 60) as f64,
            DType::Int { bits, .. } if bits < 5 => {
                let half = 1i64 << (bits - 1);
                ((u % (2 * half) as u64) as i64 - half) as f64
            }
            DType::Int { .. } => ((u >> 60) as i64 - 8) as f64,
            _ => round_scalar(dtype, 2.0 * ((u >> 11) as f64 / (1u64 << 53) as f64) - 1.0),
        }
    };
    let mut v = vec![0.0f64; n];
    crate::tensor::par_chunks_mut(&mut v, 1, |first, out| {
        let mut rng =
            SplitMix64::new(start.wrapping_add((first as u64).wrapping_mul(SPLITMIX_GAMMA)));
        for x in out.iter_mut() {
            *x = draw(rng.next_u64());
        }
    });
    if !v.is_empty() && v.iter().all(|x| *x == 0.0) {
        v[0] = 1.0;
    }
    v
}

/// Makes the buffers' starting contents and adds them to a fresh global memory, in order.
/// `.npy` problems are usage errors naming the parameter.
pub fn init_memory(
    kernel: OpId,
    params: &[Param],
    buffers: &[Buffer],
    seed: u64,
) -> Result<(GlobalMemory, Vec<Tensor>), Diagnostic> {
    let mut mem = GlobalMemory::default();
    let mut initial = Vec::new();
    for b in buffers {
        let n = b.numel();
        let data = match &b.init {
            InputInit::Random => random_values(b.dtype, n, seed, &b.name),
            InputInit::Zeros => vec![0.0; n],
            InputInit::Ones => vec![1.0; n],
            InputInit::Npy(path) => {
                let p = &params[b.param];
                let err = |m: String| {
                    Diagnostic::error(
                        p.loc(kernel),
                        format!("--input {}={}: {m}", b.name, path.display()),
                    )
                    .with_label(format!("{}: {}", p.name, p.ty))
                };
                let arr = read_npy(path).map_err(err)?;
                if !npy_matches(&arr, b.dtype) {
                    return Err(err(format!(
                        "parameter '{}' holds {} (stored as '{}'), but the file holds '{}'",
                        b.name,
                        b.dtype.name(),
                        npy_descr(b.dtype),
                        arr.descr
                    )));
                }
                if arr.shape != b.shape {
                    return Err(err(format!(
                        "parameter '{}' needs shape {:?} ({}), but the file holds shape {:?}",
                        b.name,
                        b.shape,
                        b.describe(),
                        arr.shape
                    )));
                }
                arr.data
            }
        };
        let t = Tensor::from_vec(b.dtype, &b.shape, data);
        let idx = mem.add(&b.name, &t);
        debug_assert_eq!(idx, b.index);
        initial.push(t);
    }
    Ok((mem, initial))
}

// ----- .npy ------------------------------------------------------------------------------------

/// The `.npy` type character and byte size a kernel dtype is stored as (see the module docs).
pub fn npy_type(d: DType) -> (char, usize) {
    match d {
        DType::Int { bits: 1, .. } => ('b', 1),
        DType::Int { bits, signedness } => {
            let c = if signedness == Signedness::Unsigned {
                'u'
            } else {
                'i'
            };
            let size = match bits {
                0..=8 => 1,
                9..=16 => 2,
                17..=32 => 4,
                _ => 8,
            };
            (c, size)
        }
        DType::F16 => ('f', 2),
        DType::F64 => ('f', 8),
        _ => ('f', 4),
    }
}

/// Whether a `.npy` file holds the NumPy type that `dtype` is stored as (either byte order);
/// `--input` and `--expect` both require it.
pub fn npy_matches(arr: &NpyArray, dtype: DType) -> bool {
    let want = npy_type(dtype);
    arr.type_char == want.0 && arr.size == want.1
}

/// `'<f4'`-style description of the `.npy` type of a dtype.
pub fn npy_descr(d: DType) -> String {
    let (c, size) = npy_type(d);
    let order = if size == 1 { '|' } else { '<' };
    format!("{order}{c}{size}")
}

/// An array read from a `.npy` file, as numbers in row-major order.
#[derive(Clone, Debug)]
pub struct NpyArray {
    /// As the file spells it (`<f4`).
    pub descr: String,
    pub type_char: char,
    pub size: usize,
    pub shape: Vec<i64>,
    pub data: Vec<f64>,
}

/// An IEEE half, for reading and writing `<f2` through npyz (its own `f16` support is behind a
/// feature this workspace does not enable).
#[derive(Clone, Copy, Debug)]
struct Half(half::f16);

struct HalfIo {
    big: bool,
}

fn half_io(dtype: &npyz::DType) -> Result<HalfIo, npyz::DTypeError> {
    match dtype {
        npyz::DType::Plain(ts)
            if ts.type_char() == npyz::TypeChar::Float && ts.size_field() == 2 =>
        {
            Ok(HalfIo {
                big: ts.endianness() == npyz::Endianness::Big,
            })
        }
        _ => Err(npyz::DTypeError::custom(format!(
            "expected '<f2', found {}",
            dtype.descr()
        ))),
    }
}

impl npyz::TypeRead for HalfIo {
    type Value = Half;
    fn read_one<R: Read>(&self, mut r: R) -> io::Result<Half> {
        let mut b = [0u8; 2];
        r.read_exact(&mut b)?;
        let bits = if self.big {
            u16::from_be_bytes(b)
        } else {
            u16::from_le_bytes(b)
        };
        Ok(Half(half::f16::from_bits(bits)))
    }
}

impl npyz::TypeWrite for HalfIo {
    type Value = Half;
    fn write_one<W: Write>(&self, mut w: W, v: &Half) -> io::Result<()> {
        let bits = v.0.to_bits();
        w.write_all(&if self.big {
            bits.to_be_bytes()
        } else {
            bits.to_le_bytes()
        })
    }
}

impl npyz::Deserialize for Half {
    type TypeReader = HalfIo;
    fn reader(dtype: &npyz::DType) -> Result<HalfIo, npyz::DTypeError> {
        half_io(dtype)
    }
}

impl npyz::Serialize for Half {
    type TypeWriter = HalfIo;
    fn writer(dtype: &npyz::DType) -> Result<HalfIo, npyz::DTypeError> {
        half_io(dtype)
    }
}

fn read_all<T: npyz::Deserialize, R: Read>(
    f: npyz::NpyFile<R>,
    conv: impl Fn(T) -> f64,
) -> Result<Vec<f64>, String> {
    let r = f.data::<T>().map_err(|e| e.to_string())?;
    r.map(|x| {
        x.map(&conv)
            .map_err(|e| format!("cannot read the data: {e}"))
    })
    .collect()
}

/// Reads a `.npy` file of bools, integers or floats (either byte order, C or Fortran order).
pub fn read_npy(path: &Path) -> Result<NpyArray, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    let f = npyz::NpyFile::new(&bytes[..])
        .map_err(|e| format!("'{}' is not a .npy file: {e}", path.display()))?;
    let descr_full = f.dtype().descr();
    let descr = descr_full.trim_matches('\'').to_string();
    let npyz::DType::Plain(ts) = f.dtype() else {
        return Err(format!(
            "'{}' holds structured data ({descr_full}), not numbers",
            path.display()
        ));
    };
    let size = ts.size_field() as usize;
    // The header's shape is the file's claim; the data must back it before anything is sized
    // from it (a hostile header of 2^60 elements would otherwise abort the allocation, and a
    // product past u64 wraps). The header is at most the whole file, so the data is at most
    // `bytes.len()` bytes.
    let elems = f
        .shape()
        .iter()
        .try_fold(1u64, |acc, &d| {
            (d <= i64::MAX as u64).then_some(())?;
            acc.checked_mul(d)
        })
        .filter(|&n| n <= i64::MAX as u64);
    let needed = elems.and_then(|n| n.checked_mul(size.max(1) as u64));
    match needed {
        Some(n) if n <= bytes.len() as u64 => {}
        _ => {
            return Err(format!(
                "'{}' has shape {:?} of {descr_full}, but holds only {} bytes in all",
                path.display(),
                f.shape(),
                bytes.len()
            ))
        }
    }
    let shape: Vec<i64> = f.shape().iter().map(|&d| d as i64).collect();
    let fortran = f.order() == npyz::Order::Fortran;
    let type_char = match ts.type_char() {
        npyz::TypeChar::Bool => 'b',
        npyz::TypeChar::Int => 'i',
        npyz::TypeChar::Uint => 'u',
        npyz::TypeChar::Float => 'f',
        _ => {
            return Err(format!(
                "'{}' holds {descr_full}, which is not a bool, integer or float type",
                path.display()
            ))
        }
    };
    let data = match (type_char, size) {
        ('b', 1) => read_all::<bool, _>(f, |x| x as u8 as f64)?,
        ('i', 1) => read_all::<i8, _>(f, |x| x as f64)?,
        ('i', 2) => read_all::<i16, _>(f, |x| x as f64)?,
        ('i', 4) => read_all::<i32, _>(f, |x| x as f64)?,
        ('i', 8) => read_all::<i64, _>(f, |x| x as f64)?,
        ('u', 1) => read_all::<u8, _>(f, |x| x as f64)?,
        ('u', 2) => read_all::<u16, _>(f, |x| x as f64)?,
        ('u', 4) => read_all::<u32, _>(f, |x| x as f64)?,
        ('u', 8) => read_all::<u64, _>(f, |x| x as f64)?,
        ('f', 2) => read_all::<Half, _>(f, |x| x.0.to_f64())?,
        ('f', 4) => read_all::<f32, _>(f, |x| x as f64)?,
        ('f', 8) => read_all::<f64, _>(f, |x| x)?,
        _ => {
            return Err(format!(
                "'{}' holds {descr_full}, which tilus-run cannot read",
                path.display()
            ))
        }
    };
    let data = if fortran && shape.len() > 1 {
        fortran_to_c(&shape, &data)
    } else {
        data
    };
    Ok(NpyArray {
        descr,
        type_char,
        size,
        shape,
        data,
    })
}

/// Reorders column-major data into row-major.
fn fortran_to_c(shape: &[i64], data: &[f64]) -> Vec<f64> {
    let n = data.len();
    let rank = shape.len();
    let mut out = vec![0.0; n];
    let mut idx = vec![0i64; rank];
    for slot in out.iter_mut() {
        // Column-major offset of the row-major index `idx`.
        let mut off = 0i64;
        let mut stride = 1i64;
        for d in 0..rank {
            off += idx[d] * stride;
            stride *= shape[d];
        }
        *slot = data[off as usize];
        for d in (0..rank).rev() {
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    out
}

fn encode_npy<T: npyz::Serialize>(
    descr: &str,
    shape: &[i64],
    items: impl Iterator<Item = T>,
) -> io::Result<Vec<u8>> {
    use npyz::WriterBuilder;
    let ts: npyz::TypeStr = descr
        .parse()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("{e}")))?;
    let dims: Vec<u64> = shape.iter().map(|&d| d.max(0) as u64).collect();
    let mut buf = Vec::new();
    {
        let mut w = npyz::WriteOptions::new()
            .dtype(npyz::DType::Plain(ts))
            .shape(&dims)
            .writer(&mut buf)
            .begin_nd()?;
        for x in items {
            w.push(&x)?;
        }
        w.finish()?;
    }
    Ok(buf)
}

/// The `.npy` encoding of a buffer's contents in its dtype's `.npy` type.
pub fn npy_bytes(dtype: DType, shape: &[i64], data: &[f64]) -> io::Result<Vec<u8>> {
    let descr = npy_descr(dtype);
    let it = data.iter().copied();
    match npy_type(dtype) {
        ('b', _) => encode_npy(&descr, shape, it.map(|x| x != 0.0)),
        ('i', 1) => encode_npy(&descr, shape, it.map(|x| x as i8)),
        ('i', 2) => encode_npy(&descr, shape, it.map(|x| x as i16)),
        ('i', 4) => encode_npy(&descr, shape, it.map(|x| x as i32)),
        ('i', _) => encode_npy(&descr, shape, it.map(|x| x as i64)),
        ('u', 1) => encode_npy(&descr, shape, it.map(|x| x as u8)),
        ('u', 2) => encode_npy(&descr, shape, it.map(|x| x as u16)),
        ('u', 4) => encode_npy(&descr, shape, it.map(|x| x as u32)),
        ('u', _) => encode_npy(&descr, shape, it.map(|x| x as u64)),
        ('f', 2) => encode_npy(&descr, shape, it.map(|x| Half(half::f16::from_f64(x)))),
        ('f', 8) => encode_npy(&descr, shape, it),
        _ => encode_npy(&descr, shape, it.map(|x| x as f32)),
    }
}

/// Writes `bytes` to `path` atomically ([`write_file_atomically`]; a device is written in place).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    write_file_atomically(path, bytes, "tilus-run")
        .map_err(|e| format!("cannot write '{}': {e}", path.display()))
}

/// Writes a buffer as `.npy` (atomically).
pub fn write_npy(path: &Path, dtype: DType, shape: &[i64], data: &[f64]) -> Result<(), String> {
    let bytes = npy_bytes(dtype, shape, data)
        .map_err(|e| format!("cannot encode '{}': {e}", path.display()))?;
    write_atomically(path, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_round_trip_every_type() {
        let dir = std::env::temp_dir().join(format!("tilus-run-args-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cases = [
            DType::F16,
            DType::F32,
            DType::F64,
            DType::BF16,
            DType::Int {
                bits: 1,
                signedness: Signedness::Signless,
            },
            DType::Int {
                bits: 8,
                signedness: Signedness::Signless,
            },
            DType::Int {
                bits: 32,
                signedness: Signedness::Signed,
            },
            DType::Int {
                bits: 16,
                signedness: Signedness::Unsigned,
            },
            DType::Int {
                bits: 64,
                signedness: Signedness::Signless,
            },
        ];
        for d in cases {
            let data = random_values(d, 6, 7, "x");
            let p = dir.join(format!("{}.npy", d.name()));
            write_npy(&p, d, &[2, 3], &data).unwrap();
            let a = read_npy(&p).unwrap();
            assert_eq!(a.shape, vec![2, 3]);
            assert_eq!((a.type_char, a.size), npy_type(d));
            assert_eq!(a.descr, npy_descr(d));
            assert_eq!(a.data, data, "{}", d.name());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn fortran_order_is_reordered() {
        // [[0, 1, 2], [3, 4, 5]] stored column-major is 0 3 1 4 2 5.
        let c = fortran_to_c(&[2, 3], &[0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
        assert_eq!(c, vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    }

    #[test]
    fn random_is_seeded_and_in_range() {
        let a = random_values(DType::F32, 100, 1, "a");
        assert_eq!(a, random_values(DType::F32, 100, 1, "a"));
        assert_ne!(a, random_values(DType::F32, 100, 2, "a"));
        assert!(a.iter().all(|x| (-1.0..1.0).contains(x)));
        let i = random_values(
            DType::Int {
                bits: 32,
                signedness: Signedness::Signless,
            },
            100,
            1,
            "a",
        );
        assert!(i
            .iter()
            .all(|x| (-8.0..8.0).contains(x) && x.fract() == 0.0));
        let one = random_values(
            DType::Int {
                bits: 1,
                signedness: Signedness::Signless,
            },
            1,
            0,
            "z",
        );
        assert_ne!(one, vec![0.0]);
    }

    #[test]
    fn assignments_and_scalars() {
        assert_eq!(
            parse_assignment("n=64").unwrap(),
            Assignment {
                name: "n".into(),
                value: "64".into()
            }
        );
        assert!(parse_assignment("n").is_err());
        assert!(parse_assignment("=3").is_err());
        let p = Param {
            name: "n".into(),
            ty: "i32".into(),
            kind: ParamKind::Int(DType::Int {
                bits: 32,
                signedness: Signedness::Signless,
            }),
            span: None,
            facts: Default::default(),
        };
        assert!(matches!(parse_scalar(&p, "64"), Ok(ArgValue::Int(64))));
        assert!(matches!(parse_scalar(&p, "0x10"), Ok(ArgValue::Int(16))));
        assert!(matches!(parse_scalar(&p, "-3"), Ok(ArgValue::Int(-3))));
        assert!(parse_scalar(&p, "abc").is_err());
        assert!(parse_scalar(&p, "4294967296").is_err());
        let f = Param {
            name: "eps".into(),
            ty: "f16".into(),
            kind: ParamKind::Float(DType::F16),
            span: None,
            facts: Default::default(),
        };
        match parse_scalar(&f, "0.1") {
            Ok(ArgValue::Float(v)) => assert_eq!(v, half::f16::from_f64(0.1).to_f64()),
            _ => panic!(),
        }
    }
}
