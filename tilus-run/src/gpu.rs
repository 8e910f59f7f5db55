//! The glue between the command line and the CUDA backend: lower one kernel to PTX with the
//! `tilus-to-ptx` pipeline, bind the interpreter's arguments and buffers as kernel parameters,
//! build the tensor maps the lowering asks for (`tilus.tensor_maps`), launch, read back, time.
//!
//! Lowering works on a copy of the loaded module (`Context::clone`: the file is parsed once, and
//! `--pass-pipeline` has already run) with every other `tilus.kernel` erased, so a reference
//! kernel that does not lower (yet) does not stop the kernel that does. What the
//! launcher needs comes from the lowered `ptx.entry`: its parameter types (pointers are `i64`,
//! scalars keep their type, `!ptx.tensormap` parameters are appended, one per TMA site),
//! `tilus.smem_bytes` (the dynamic shared memory of the launch) and `tilus.tensor_maps` (whose
//! sizes are affine maps over the parameters, evaluated with the interpreter's evaluator). The
//! grid, warps and cluster come from the tile-level kernel, as for the interpreter.

use std::time::{Duration, Instant};
use tilus_ir::attrs::AffineMap;
use tilus_ir::source::{render, render_mlir_style, SourceFile};
use tilus_ir::{AttrKind, Context, OpId, SourceMap, TypeKind};
use tilus_run::args::{self, Param};
use tilus_run::cuda::{
    BenchStats, CudaBackend, CudaError, DeviceBuffer, Dim3, GemmShape, Kernel, LaunchConfig,
    Param as KParam, Swizzle, TensorMapDesc, TmaDType,
};
use tilus_run::interp::ArgValue;
use tilus_run::memory::GlobalMemory;

/// The pipeline `--backend cuda` lowers with unless `--lowering` names another.
pub const PIPELINE: &str = "builtin.module(tilus-to-ptx)";

/// What a `ptx.entry` parameter is, from its type.
#[derive(Clone, Debug, PartialEq)]
pub enum EntryParam {
    /// `iN` (pointers are `i64`).
    Int(u32),
    /// `f32`, `f64`.
    Float(u32),
    /// `!ptx.tensormap` (128 bytes by value).
    TensorMap,
    /// Anything else (its type as printed).
    Other(String),
}

/// One TMA site's tensor map, as the lowering describes it (`docs/design/lowering.md`).
#[derive(Clone, Debug, PartialEq)]
pub struct TmaSite {
    pub param: usize,
    pub pointer: usize,
    pub dtype: String,
    /// Extents, innermost first, as a map over the kernel parameters (symbol `sN`).
    pub global_dims: AffineMap,
    /// Byte strides of all but the innermost dimension, innermost first, likewise.
    pub global_strides: AffineMap,
    pub box_dims: Vec<i64>,
    pub swizzle: String,
    /// Element offset of the box origin (dimensions outside the box), likewise.
    pub base_offset: AffineMap,
}

/// A lowered kernel.
#[derive(Clone, Debug)]
pub struct Lowered {
    pub ptx: String,
    pub entry: String,
    pub target: String,
    /// `tilus.smem_bytes`: the launch's dynamic shared memory.
    pub smem_bytes: u32,
    pub params: Vec<EntryParam>,
    pub tensor_maps: Vec<TmaSite>,
}

/// Lowers kernel `name` of the loaded module (`source`: its context, module op and source map;
/// `file` is the text the map points into) to PTX. On failure, the diagnostics rendered against the
/// source (fancy, or `file:line:col: error:` when `mlir_style`), and the first message alone
/// (for one-line notes).
pub fn lower(
    source: (&Context, OpId, &SourceMap),
    file: &SourceFile,
    name: &str,
    mlir_style: bool,
    pipeline: &str,
) -> Result<Lowered, (String, String)> {
    // The lowering is destructive: it runs on a copy of the module tilus-run loaded (and ran
    // `--pass-pipeline` on), so the file is parsed once and the interpreter keeps the original.
    let (original, module, map) = source;
    let mut ctx = original.clone();
    let fail = |ctx: &Context, diags: &[tilus_ir::Diagnostic]| {
        let mut s = String::new();
        for d in diags {
            s.push_str(&if mlir_style {
                render_mlir_style(Some(ctx), Some(map), file, d)
            } else {
                render(Some(ctx), Some(map), file, d)
            });
        }
        let first = diags
            .iter()
            .find(|d| d.severity == tilus_ir::Severity::Error)
            .or(diags.first())
            .map(|d| d.message.clone())
            .unwrap_or_else(|| "unknown reason".into());
        (s, first)
    };
    // Only the kernel asked for is lowered.
    for (n, k) in args::kernels(&ctx, module) {
        if n != name {
            ctx.erase_op(k);
        }
    }
    let root = tilus_passes::parse_pipeline(pipeline, tilus_passes::Nesting::Explicit)
        .map_err(|d| fail(&ctx, &[d]))?;
    let mut pm = tilus_passes::PassManager::new(root);
    pm.run(&mut ctx, module).map_err(|d| fail(&ctx, &d))?;
    let ptx = tilus_passes::ptx_emit::emit_ptx(&ctx, module).map_err(|d| fail(&ctx, &[d]))?;
    let mut entry = None;
    ctx.walk(module, &mut |o| {
        if tilus_dialects::ptx::EntryOp::is(&ctx, o) && args::kernel_name(&ctx, o) == name {
            entry = Some(o);
        }
    });
    let Some(entry) = entry else {
        let m = format!("the lowering left no ptx.entry named @{name}");
        return Err((m.clone(), m));
    };
    let params = entry_params(&ctx, entry);
    let smem_bytes = tilus_dialects::tilus_types::prop_i64(
        &ctx,
        entry,
        tilus_dialects::tilus::attr_names::SMEM_BYTES,
    )
    .unwrap_or(0)
    .clamp(0, u32::MAX as i64) as u32;
    let target = match tilus_dialects::ptx::EntryOp::cast(&ctx, entry)
        .map(|e| ctx.attr_kind(e.target(&ctx)))
    {
        Some(AttrKind::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
        _ => "sm_90a".into(),
    };
    let tensor_maps = tensor_maps(&ctx, entry).map_err(|m| (m.clone(), m))?;
    Ok(Lowered {
        ptx,
        entry: name.to_string(),
        target,
        smem_bytes,
        params,
        tensor_maps,
    })
}

fn entry_params(ctx: &Context, entry: OpId) -> Vec<EntryParam> {
    let Some(e) = tilus_dialects::ptx::EntryOp::cast(ctx, entry) else {
        return Vec::new();
    };
    let Some(&block) = ctx.region_blocks(e.body(ctx)).first() else {
        return Vec::new();
    };
    ctx.block_args(block)
        .iter()
        .map(|&v| {
            let t = ctx.value_type(v);
            match ctx.type_kind(t) {
                TypeKind::Index => EntryParam::Int(64),
                TypeKind::Integer { width, .. } => EntryParam::Int(*width),
                TypeKind::Float(k) if matches!(k.width(), 32 | 64) => EntryParam::Float(k.width()),
                TypeKind::Dialect { dialect, name, .. }
                    if dialect == "ptx" && name == "tensormap" =>
                {
                    EntryParam::TensorMap
                }
                _ => EntryParam::Other(tilus_dialects::tilus_types::type_str(ctx, t)),
            }
        })
        .collect()
}

fn tensor_maps(ctx: &Context, entry: OpId) -> Result<Vec<TmaSite>, String> {
    let Some(a) = ctx.get_attr(entry, tilus_dialects::tilus::attr_names::TENSOR_MAPS) else {
        return Ok(Vec::new());
    };
    let AttrKind::Array(items) = ctx.attr_kind(a) else {
        return Err("'tilus.tensor_maps' is not an array".into());
    };
    let mut out = Vec::new();
    for (i, it) in items.iter().enumerate() {
        let AttrKind::Dict(entries) = ctx.attr_kind(*it) else {
            return Err(format!("'tilus.tensor_maps'[{i}] is not a dictionary"));
        };
        let get = |k: &str| {
            entries
                .iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| *v)
                .ok_or_else(|| format!("'tilus.tensor_maps'[{i}] has no '{k}'"))
        };
        let int = |k: &str| -> Result<i64, String> {
            match ctx.attr_kind(get(k)?) {
                AttrKind::Integer { value, .. } => i64::try_from(value)
                    .map_err(|_| format!("'tilus.tensor_maps'[{i}].{k} is out of range")),
                _ => Err(format!("'tilus.tensor_maps'[{i}].{k} is not an integer")),
            }
        };
        let string = |k: &str| -> Result<String, String> {
            match ctx.attr_kind(get(k)?) {
                AttrKind::String { value, .. } => Ok(String::from_utf8_lossy(value).into_owned()),
                _ => Err(format!("'tilus.tensor_maps'[{i}].{k} is not a string")),
            }
        };
        let map = |k: &str| -> Result<AffineMap, String> {
            match ctx.attr_kind(get(k)?) {
                AttrKind::AffineMap(m) if m.num_dims == 0 => Ok(m.clone()),
                _ => Err(format!(
                    "'tilus.tensor_maps'[{i}].{k} is not an affine map over the parameters ('affine_map<()[s0, ...] -> (...)>')"
                )),
            }
        };
        let box_dims = tilus_dialects::tilus_types::attr_i64s(ctx, get("box_dims")?)
            .ok_or_else(|| format!("'tilus.tensor_maps'[{i}].box_dims is not an array<i64>"))?;
        out.push(TmaSite {
            param: int("param")? as usize,
            pointer: int("pointer")? as usize,
            dtype: string("dtype")?,
            global_dims: map("global_dims")?,
            global_strides: map("global_strides")?,
            box_dims,
            swizzle: string("swizzle")?,
            base_offset: map("base_offset")?,
        });
    }
    Ok(out)
}

// ----- expressions (`tilus.bytes`, `tilus.flops`, `tilus.gemm`) ------------------------------

/// Whether `name` can be a symbol of an affine map as written (MLIR's bare identifier).
fn is_bare_id(name: &str) -> bool {
    let mut cs = name.chars();
    cs.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
}

/// Evaluates an expression a user wrote over the kernel's integer parameters (`"4 * m * 4096"`;
/// `pN` also names parameter N): it is read as the one result of an affine map whose symbols
/// are those parameters, parsed by the IR's parser (so the grammar is MLIR's affine
/// expressions: `+ - *`, `floordiv`, `ceildiv`, `mod`, parentheses) and evaluated with the
/// interpreter's affine evaluator, the one the lowering's tensor-map sizes use.
pub fn eval_param_expr(text: &str, params: &[Param], args: &[ArgValue]) -> Result<i64, String> {
    let mut names = Vec::new();
    let mut values = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let ArgValue::Int(v) = a else { continue };
        let mut add = |n: String| {
            if is_bare_id(&n) && !names.contains(&n) {
                names.push(n);
                values.push(*v);
            }
        };
        add(format!("p{i}"));
        if let Some(p) = params.get(i) {
            add(p.name.clone());
        }
    }
    let src = format!("affine_map<()[{}] -> ({text})>", names.join(", "));
    let mut ctx = Context::new();
    let mut parser = tilus_ir::syntax::parser::Parser::new(&mut ctx, &src, "<expression>");
    let parsed = parser.parse_attribute();
    drop(parser);
    let attr = parsed.map_err(|d| {
        format!(
            "in '{text}': {} (the expression may use the integer parameters {}, integers, + - *, floordiv, ceildiv, mod and parentheses)",
            d.message,
            names.join(", ")
        )
    })?;
    let AttrKind::AffineMap(map) = ctx.attr_kind(attr) else {
        return Err(format!("in '{text}': not an expression"));
    };
    match tilus_run::interp::eval_affine_symbols(map, &values)
        .map_err(|m| format!("in '{text}': {m}"))?[..]
    {
        [v] => Ok(v),
        _ => Err(format!("in '{text}': expected one expression")),
    }
}

/// `tilus.bytes` / `tilus.flops` of the kernel: an integer or float attribute, or a string
/// expression over the scalar parameters (`"4 * m * n"`).
pub fn metric_attr(
    ctx: &Context,
    kernel: OpId,
    name: &str,
    params: &[Param],
    args: &[ArgValue],
) -> Result<Option<f64>, String> {
    let Some(a) = ctx.get_attr(kernel, name) else {
        return Ok(None);
    };
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => i64::try_from(value)
            .map(|v| Some(v as f64))
            .map_err(|_| format!("'{name}' is out of range")),
        AttrKind::Float { bits, ty } => match ctx.type_kind(*ty) {
            tilus_ir::TypeKind::Float(fk) => Ok(Some(tilus_ir::float::to_f64(*fk, *bits))),
            _ => Err(format!("'{name}' is not a number")),
        },
        AttrKind::String { value, .. } => {
            let text = String::from_utf8_lossy(value).into_owned();
            eval_param_expr(&text, params, args)
                .map(|v| Some(v as f64))
                .map_err(|m| format!("'{name}': {m}"))
        }
        _ => Err(format!(
            "'{name}' must be a number or a string expression over the parameters"
        )),
    }
}

// ----- `--compare cublas` --------------------------------------------------------------------

/// The GEMM a kernel computes, for `--compare cublas`: parameter indices of A `[M, K]`,
/// B `[N, K]` and C `[M, N]` (f16, row-major, `C = A·Bᵀ`) and the extents.
#[derive(Clone, Debug, PartialEq)]
pub struct GemmOperands {
    pub a: usize,
    pub b: usize,
    pub c: usize,
    /// The parameters' names, for messages.
    pub names: [String; 3],
    pub shape: GemmShape,
}

/// Reads `tilus.gemm = {a = "a", b = "b", c = "c", m = "m", n = "n", k = "k"}` from the kernel
/// (every key optional; `a`/`b`/`c` name pointer parameters, `m`/`n`/`k` are expressions over
/// the scalar parameters), defaulting to the parameters named `a`, `b`, `c` and the scalars
/// `m`, `n`, `k`.
pub fn gemm_operands(
    ctx: &Context,
    kernel: OpId,
    params: &[Param],
    args: &[ArgValue],
) -> Result<GemmOperands, String> {
    let mut keys: Vec<(String, String)> = Vec::new();
    let from_attr = match ctx.get_attr(kernel, tilus_dialects::tilus::attr_names::GEMM) {
        None => false,
        Some(a) => match ctx.attr_kind(a) {
            AttrKind::Dict(entries) => {
                for (k, v) in entries {
                    match ctx.attr_kind(*v) {
                        AttrKind::String { value, .. } => {
                            keys.push((k.clone(), String::from_utf8_lossy(value).into_owned()))
                        }
                        _ => return Err(format!("'tilus.gemm'.{k} is not a string")),
                    }
                    if !["a", "b", "c", "m", "n", "k"].contains(&k.as_str()) {
                        return Err(format!(
                            "'tilus.gemm' has an unknown key '{k}' (expected a, b, c, m, n, k)"
                        ));
                    }
                }
                true
            }
            _ => return Err("'tilus.gemm' is not a dictionary".into()),
        },
    };
    let get = |k: &str| {
        keys.iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| k.to_string())
    };
    let whence = if from_attr {
        "from 'tilus.gemm'"
    } else {
        "by default, as the kernel has no 'tilus.gemm = {a = \"..\", b = \"..\", c = \"..\"}'"
    };
    let pointer = |role: &str| -> Result<(usize, String), String> {
        let name = get(role);
        let i = params.iter().position(|p| p.name == name).ok_or_else(|| {
            format!("operand {} is parameter '{name}' ({whence}), and the kernel has no parameter of that name", role.to_uppercase())
        })?;
        match args.get(i) {
            Some(ArgValue::Buffer(_)) => Ok((i, name)),
            _ => Err(format!(
                "operand {} is parameter '{name}' ({whence}), which is not a pointer",
                role.to_uppercase()
            )),
        }
    };
    let extent = |role: &str| -> Result<usize, String> {
        let e = get(role);
        let v = eval_param_expr(&e, params, args)
            .map_err(|m| format!("extent {} = '{e}' ({whence}): {m}", role.to_uppercase()))?;
        if v < 1 {
            return Err(format!(
                "extent {} = '{e}' is {v}, not a positive integer",
                role.to_uppercase()
            ));
        }
        Ok(v as usize)
    };
    let (a, na) = pointer("a")?;
    let (b, nb) = pointer("b")?;
    let (c, nc) = pointer("c")?;
    Ok(GemmOperands {
        a,
        b,
        c,
        names: [na, nb, nc],
        shape: GemmShape {
            m: extent("m")?,
            n: extent("n")?,
            k: extent("k")?,
        },
    })
}

// ----- launching ------------------------------------------------------------------------------

/// A kernel ready to launch: loaded, its buffers on the device, its parameters bound.
pub struct Launch {
    pub kernel: Kernel,
    pub cfg: LaunchConfig,
    pub params: Vec<KParam>,
    /// One device buffer per interpreter buffer, same index.
    pub buffers: Vec<DeviceBuffer>,
}

/// The tensor-map type of a `tilus.tensor_maps` dtype name ([`TmaDType::from_dtype`]).
fn tma_dtype(name: &str) -> Result<TmaDType, String> {
    let d = tilus_run::tensor::DType::parse(name)?;
    TmaDType::from_dtype(d).map_err(|e| e.to_string())
}

fn swizzle(name: &str) -> Result<Swizzle, String> {
    Ok(match name {
        "none" => Swizzle::None,
        "32B" => Swizzle::B32,
        "64B" => Swizzle::B64,
        "128B" => Swizzle::B128,
        other => return Err(format!("unknown swizzle '{other}'")),
    })
}

/// The values of the kernel parameters as the symbols of the tensor-map sizes: integers as
/// they are; pointers, floats and parameters without an argument (tensor maps) as 0, which
/// the lowering never refers to.
pub fn param_symbols(args: &[ArgValue], nparams: usize) -> Vec<i64> {
    (0..nparams)
        .map(|i| match args.get(i) {
            Some(ArgValue::Int(v)) => *v,
            _ => 0,
        })
        .collect()
}

/// The tensor map description of one TMA site, for a buffer at `base` (device address), with
/// `syms` the values of the kernel parameters ([`param_symbols`]).
pub fn tensor_map_desc(site: &TmaSite, base: u64, syms: &[i64]) -> Result<TensorMapDesc, String> {
    let dtype = tma_dtype(&site.dtype)?;
    let ev = |what: &str, m: &AffineMap| -> Result<Vec<u64>, String> {
        let vs =
            tilus_run::interp::eval_affine_symbols(m, syms).map_err(|e| format!("{what}: {e}"))?;
        vs.into_iter()
            .map(|v| u64::try_from(v).map_err(|_| format!("{what}: {v} is negative")))
            .collect()
    };
    let offset = match ev("base_offset", &site.base_offset)?[..] {
        [o] => o,
        _ => return Err("base_offset must have one result".into()),
    };
    let global_dims = ev("global_dims", &site.global_dims)?;
    let rank = global_dims.len();
    Ok(TensorMapDesc {
        dtype,
        global_address: base + offset * dtype.size(),
        global_dims,
        global_strides: ev("global_strides", &site.global_strides)?,
        box_dims: site.box_dims.iter().map(|&b| b.max(0) as u32).collect(),
        element_strides: vec![1; rank],
        swizzle: swizzle(&site.swizzle)?,
    })
}

/// The launch shape of a kernel: the interpreter's grid, `32·warps` threads, the cluster, the
/// lowering's shared memory.
pub fn launch_config(
    grid: [i64; 3],
    warps: i64,
    cluster: Option<&[i64]>,
    smem: u32,
) -> Result<LaunchConfig, CudaError> {
    let to_u32 = |v: i64, what: &str| {
        u32::try_from(v).map_err(|_| CudaError::Invalid(format!("{what} {v} is out of range")))
    };
    let g = [
        to_u32(grid[0], "grid extent")?,
        to_u32(grid[1], "grid extent")?,
        to_u32(grid[2], "grid extent")?,
    ];
    let c: Option<Vec<u32>> = cluster
        .map(|c| c.iter().map(|&x| to_u32(x, "cluster extent")).collect())
        .transpose()?;
    LaunchConfig::for_kernel(&g, to_u32(warps, "warps")?, c.as_deref(), smem)
}

/// Loads the PTX, uploads every buffer of `mem`, binds the parameters (scalars by the entry's
/// types, pointers as device addresses, tensor maps built from `tilus.tensor_maps`).
pub fn prepare(
    be: &CudaBackend,
    lowered: &Lowered,
    params: &[Param],
    args: &[ArgValue],
    mem: &GlobalMemory,
    cfg: LaunchConfig,
) -> Result<Launch, CudaError> {
    let kernel = be.load_ptx(&lowered.ptx, &lowered.entry)?;
    let mut buffers = Vec::with_capacity(mem.buffers.len());
    for b in &mem.buffers {
        buffers.push(be.upload_buffer(b)?);
    }
    let syms = param_symbols(args, lowered.params.len());
    let bad = |m: String| CudaError::Invalid(format!("kernel '{}': {m}", lowered.entry));
    let mut kp = Vec::with_capacity(lowered.params.len());
    for (i, ep) in lowered.params.iter().enumerate() {
        let pname = params
            .get(i)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| format!("#{i}"));
        let p = match (ep, args.get(i)) {
            (EntryParam::TensorMap, _) => {
                let site = lowered
                    .tensor_maps
                    .iter()
                    .find(|s| s.param == i)
                    .ok_or_else(|| {
                        bad(format!("no 'tilus.tensor_maps' entry fills parameter {i}"))
                    })?;
                let Some(ArgValue::Buffer(b)) = args.get(site.pointer) else {
                    return Err(bad(format!(
                        "tensor map of parameter {i}: parameter {} is not a pointer",
                        site.pointer
                    )));
                };
                let desc = tensor_map_desc(site, buffers[*b].ptr(), &syms)
                    .map_err(|m| bad(format!("tensor map of parameter {i}: {m}")))?;
                KParam::TensorMap(be.tensor_map(&desc)?)
            }
            (EntryParam::Int(64), Some(ArgValue::Buffer(b))) => KParam::Ptr(buffers[*b].ptr()),
            (EntryParam::Int(32), Some(ArgValue::Int(v))) => KParam::I32(*v as i32),
            (EntryParam::Int(64), Some(ArgValue::Int(v))) => KParam::I64(*v),
            (EntryParam::Float(32), Some(ArgValue::Float(v))) => KParam::F32(*v as f32),
            (EntryParam::Float(64), Some(ArgValue::Float(v))) => KParam::F64(*v),
            (ep, a) => {
                return Err(bad(format!(
                    "parameter '{pname}' ({ep:?}) cannot be passed from {a:?} yet"
                )))
            }
        };
        kp.push(p);
    }
    Ok(Launch {
        kernel,
        cfg,
        params: kp,
        buffers,
    })
}

impl Launch {
    /// Launches once and waits (watchdog); the wall time of launch + wait.
    pub fn run(&self, be: &CudaBackend) -> Result<Duration, CudaError> {
        let t = Instant::now();
        be.run(&self.kernel, &self.cfg, &self.params)?;
        Ok(t.elapsed())
    }

    /// Reads every buffer back into `mem`.
    pub fn download(&self, be: &CudaBackend, mem: &mut GlobalMemory) -> Result<(), CudaError> {
        for (d, g) in self.buffers.iter().zip(mem.buffers.iter_mut()) {
            be.download_into(d, g)?;
        }
        Ok(())
    }

    /// `warmup` untimed launches, then the median of `reps` (CUDA events).
    pub fn bench(
        &self,
        be: &CudaBackend,
        warmup: usize,
        reps: usize,
    ) -> Result<BenchStats, CudaError> {
        be.bench(&self.kernel, &self.cfg, &self.params, warmup, reps)
    }
}

/// `1x2x1`.
pub fn dim(d: Dim3) -> String {
    d.to_string()
}

/// A JSON string literal.
pub fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// A JSON number (`null` when not finite).
pub fn json_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions() {
        use tilus_run::args::ParamKind;
        let param = |name: &str| Param {
            name: name.into(),
            ty: "i32".into(),
            kind: ParamKind::Index,
            span: None,
            facts: Default::default(),
        };
        let params = [param("x"), param("m"), param("n")];
        let args = [ArgValue::Buffer(0), ArgValue::Int(3), ArgValue::Int(8)];
        let ev = |t: &str| eval_param_expr(t, &params, &args);
        assert_eq!(ev("p2 * 2"), Ok(16));
        assert_eq!(ev("(n + 1) * m - 2"), Ok(25));
        assert_eq!(ev("4 * m * n"), Ok(96));
        assert_eq!(ev("n ceildiv 3"), Ok(3));
        assert_eq!(ev("0"), Ok(0));
        // A pointer has no value; unknown names and bad syntax are reported.
        assert!(ev("x").unwrap_err().contains("in 'x'"));
        assert!(ev("p9").is_err());
        assert!(ev("2 +").is_err());
        assert!(ev("(2").is_err());
    }

    use tilus_ir::attrs::{AffineExpr as A, AffineOp};

    fn map(num_syms: u32, results: Vec<A>) -> AffineMap {
        AffineMap {
            num_dims: 0,
            num_syms,
            results,
        }
    }

    #[test]
    fn tensor_map_sizes_must_be_non_negative() {
        let site = TmaSite {
            param: 2,
            pointer: 0,
            dtype: "f32".into(),
            global_dims: map(2, vec![A::Sym(1)]),
            global_strides: map(2, vec![]),
            box_dims: vec![32],
            swizzle: "none".into(),
            base_offset: map(2, vec![A::Const(0)]),
        };
        let syms = param_symbols(&[ArgValue::Buffer(0), ArgValue::Int(-4)], 3);
        let e = tensor_map_desc(&site, 0x1000, &syms).unwrap_err();
        assert!(e.contains("global_dims: -4 is negative"), "{e}");
    }

    #[test]
    fn tensor_map_from_site() {
        let site = TmaSite {
            param: 6,
            pointer: 0,
            dtype: "f16".into(),
            global_dims: map(3, vec![A::Sym(2), A::Sym(1)]),
            global_strides: map(
                3,
                vec![A::Bin(
                    AffineOp::Mul,
                    Box::new(A::Sym(2)),
                    Box::new(A::Const(2)),
                )],
            ),
            box_dims: vec![64, 128],
            swizzle: "128B".into(),
            base_offset: map(3, vec![A::Const(8)]),
        };
        let syms = param_symbols(
            &[ArgValue::Buffer(0), ArgValue::Int(256), ArgValue::Int(512)],
            7,
        );
        let d = tensor_map_desc(&site, 0x1000, &syms).unwrap();
        assert_eq!(d.global_address, 0x1010);
        assert_eq!(d.global_dims, vec![512, 256]);
        assert_eq!(d.global_strides, vec![1024]);
        assert_eq!(d.box_dims, vec![64, 128]);
        assert_eq!(d.swizzle, Swizzle::B128);
        assert!(d.validate().is_ok());
    }
}
