//! `tilus.kernel`: declaration, verifier and custom syntax.

use super::*;
use crate::layout_algebra::SwizzleMode;

/// `tilus.kernel`.
pub static KERNEL: OpDef = OpDef {
    name: "tilus.kernel",
    summary: "a GPU kernel: a grid of thread blocks running one tile program",
    description: "`tilus.kernel @name(%p: !tilus.ptr<f16>, %m: i32) warps(4) \
        blocks(affine_map<(d0, d1) -> (d1 ceildiv 128)>) cluster(2, 1, 1) { ... }` defines the \
        symbol `sym_name`; the entry block's arguments are the kernel parameters \
        (`function_type` has no results). Every block runs the body with `32 * warps` threads \
        (`warps` in 1..=32), which form the root thread group. `blocks` is the grid: an affine \
        map with one dimension per parameter (in order; only integer parameters are meaningful) \
        and 1 to 3 results, so the host evaluates it from the launch arguments (`ceildiv` is \
        Tilus's `cdiv`). The optional `cluster` gives 1 to 3 positive extents of a thread-block \
        cluster (sm_90+; at most 16 CTAs, 8 portable; the grid must be a multiple of it). A \
        constant grid extent must be in [1, 2^31 - 1] for x and [1, 65535] for y and z; \
        extents computed from parameters are checked by tilus-run before it runs. The block's \
        shared memory (tensors and barriers placed first fit in program order, freed tensors \
        reused) must fit in 227 KiB (232448 bytes). The body is one block without \
        terminator, isolated from above. `arg_names` keeps the parameters' names (the custom \
        form sets it from the SSA names it was written with and prints the parameters under \
        them), so the names that `tilus.args`, `tilus.inputs` and `tilus.outputs` use survive \
        any printing, the generic form and `mlir-opt`. An integer parameter may carry \
        `tilus.range = array<i64: lo, hi>` and `tilus.divisibility = d` (`d > 0`) in its \
        attribute dictionary (`%n: i32 {tilus.divisibility = 64 : i64}`, kept as `arg_attrs`): \
        promises eqsat folds on and tilus-run checks every argument against.",
    attributes: &[
        attr("sym_name", STR_ATTR),
        attr("function_type", FUNCTION_TYPE_ATTR),
        attr("warps", I64_ATTR),
        attr("blocks", AFFINE_MAP_ATTR),
        opt_attr("cluster", DENSE_I64_ARRAY),
        opt_attr("arg_names", tilus_ir::opdef::STR_ARRAY_ATTR),
        opt_attr("arg_attrs", tilus_ir::opdef::DICT_ARRAY_ATTR),
    ],
    regions: &[tilus_ir::opdef::block_region("body")],
    traits: &[
        Trait::Symbol,
        Trait::IsolatedFromAbove,
        Trait::SingleBlock,
        Trait::NoTerminator,
    ],
    verify: Some(verify_kernel),
    format: tilus_ir::format::custom_form(&tilus_ir::format::CustomForm {
        parse: parse_kernel,
        print: print_kernel,
    }),
    block_arg_names: Some(|ctx, op| param_names(ctx, op).into_iter().map(Some).collect()),
    ..OpDef::DEFAULT
};
const _: () = KERNEL.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.kernel`.
    pub struct KernelOp = KERNEL;
    operands {}
    results {}
    attrs {
        sym_name = "sym_name": &str,
        function_type = "function_type": Attr,
        warps = "warps": i64,
        blocks = "blocks": Attr,
        cluster = "cluster": Option<Attr>,
        arg_names = "arg_names": Option<Attr>,
        arg_attrs = "arg_attrs": Option<Attr>
    }
    regions {
        body = "body"
    }
    successors {}
}

impl KernelOp {
    /// Sets the block's warp count. Passes that add a thread group beside the existing ones
    /// (`warp-specialize` adds producer warps) grow the root group; the attribute keeps its
    /// declared i64 type so the op still verifies and prints as `warps(N)`.
    pub fn set_warps(self, ctx: &mut Context, warps: i64) {
        let ty = ctx.int_type(64);
        let a = ctx.attr(tilus_ir::AttrKind::Integer {
            value: warps.into(),
            ty,
        });
        // `warps` is inherent: it lives in the properties dictionary when the op has one.
        let props = ctx.op(self.op()).properties;
        match props.map(|p| ctx.attr_kind(p).clone()) {
            Some(tilus_ir::AttrKind::Dict(mut entries)) => {
                entries.retain(|(k, _)| k != "warps");
                entries.push(("warps".to_string(), a));
                let d = ctx.dict_attr(entries);
                ctx.op_mut(self.op()).properties = Some(d);
            }
            _ => ctx.set_attr(self.op(), "warps", Some(a)),
        }
    }
}

fn verify_kernel(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let (inputs, results) = function_type(ctx, op).unwrap_or_default();
    if !results.is_empty() {
        return Err(fail_at(
            op,
            ctx,
            "function_type",
            format!(
                "expects a function_type without results, but found {} result{}",
                results.len(),
                if results.len() == 1 { "" } else { "s" }
            ),
        ));
    }
    let r = ctx.regions(op)[0];
    let Some(&entry) = ctx.region_blocks(r).first() else {
        return Err(op_error(
            ctx,
            op,
            "expects a body, but found an empty region",
        ));
    };
    let args: Vec<Type> = ctx
        .block_args(entry)
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    if args != inputs {
        let list = |ts: &[Type]| {
            ts.iter()
                .map(|t| type_str(ctx, *t))
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects entry block arguments ({}) matching function_type, but found ({})",
                list(&inputs),
                list(&args)
            ),
        ));
    }
    verify_param_facts(ctx, op, &inputs)?;
    if let Some(a) = ctx.get_prop(op, "arg_names") {
        let names = declared_param_names(ctx, a);
        if names.len() != inputs.len() {
            return Err(fail_at(
                op,
                ctx,
                "arg_names",
                format!(
                    "expects one name per parameter in arg_names ({}), but found {}",
                    inputs.len(),
                    names.len()
                ),
            ));
        }
        let mut seen: Vec<&str> = Vec::new();
        for n in &names {
            if n.is_empty() || seen.contains(&n.as_str()) {
                return Err(fail_at(
                    op,
                    ctx,
                    "arg_names",
                    format!("expects distinct, non-empty parameter names in arg_names, but found '{n}' twice or empty"),
                ));
            }
            seen.push(n);
        }
    }
    let warps = ctx
        .get_prop(op, "warps")
        .and_then(|a| attr_i64(ctx, a))
        .unwrap_or(0);
    if !(1..=32).contains(&warps) {
        return Err(fail_at(
            op,
            ctx,
            "warps",
            format!("expects warps in [1, 32], but found {warps}"),
        ));
    }
    if let Some(AttrKind::AffineMap(m)) = ctx.get_prop(op, "blocks").map(|a| ctx.attr_kind(a)) {
        if m.num_dims as usize != inputs.len() || m.num_syms != 0 {
            return Err(fail_at(
                op,
                ctx,
                "blocks",
                format!(
                    "expects a blocks map with {} dimension{} (one per parameter) and no symbols, but found {} dimension{} and {} symbol{}",
                    inputs.len(),
                    if inputs.len() == 1 { "" } else { "s" },
                    m.num_dims,
                    if m.num_dims == 1 { "" } else { "s" },
                    m.num_syms,
                    if m.num_syms == 1 { "" } else { "s" },
                ),
            ));
        }
        if !(1..=3).contains(&m.results.len()) {
            return Err(fail_at(
                op,
                ctx,
                "blocks",
                format!(
                    "expects a blocks map with 1 to 3 results (x, y, z), but found {}",
                    m.results.len()
                ),
            ));
        }
    }
    let mut cluster = [1i64; 3];
    if let Some(c) = ctx.get_prop(op, "cluster") {
        let v = attr_i64s(ctx, c).unwrap_or_default();
        let list = v
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        if v.is_empty() || v.len() > 3 || v.iter().any(|x| *x < 1) {
            return Err(fail_at(
                op,
                ctx,
                "cluster",
                format!("expects 1 to 3 positive cluster extents, but found ({list})"),
            ));
        }
        let ctas = v.iter().map(|&x| i128::from(x)).product::<i128>();
        if ctas > MAX_CLUSTER_CTAS {
            return Err(fail_at(
                op,
                ctx,
                "cluster",
                format!("expects at most {MAX_CLUSTER_CTAS} CTAs in a cluster, but found ({list}) = {ctas}"),
            )
            .with_help("8 CTAs is the portable cluster size; sm_90 and sm_100 allow up to 16 with the non-portable cluster-size attribute"));
        }
        cluster[..v.len()].copy_from_slice(&v);
    }
    check_constant_grid(ctx, op, cluster)?;
    check_shared_total(ctx, op)
}

/// The most CTAs a thread-block cluster may have (16 non-portable; 8 is the portable size).
pub const MAX_CLUSTER_CTAS: i128 = 16;

/// CUDA's grid limits: `x < 2^31`, `y, z <= 65535`.
pub const MAX_GRID: [i64; 3] = [(1 << 31) - 1, 65535, 65535];

/// The grid extents that do not depend on the parameters are checked here, where they are
/// written: positive, within CUDA's limits and a multiple of the cluster. Extents computed
/// from parameters are checked by `tilus-run` before it launches or interprets the kernel.
fn check_constant_grid(ctx: &Context, op: OpId, cluster: [i64; 3]) -> Result<(), Diagnostic> {
    let Some(AttrKind::AffineMap(m)) = ctx.get_prop(op, "blocks").map(|a| ctx.attr_kind(a)) else {
        return Ok(());
    };
    for (d, e) in m.results.iter().enumerate() {
        let tilus_ir::attrs::AffineExpr::Const(n) = e else {
            continue;
        };
        let axis = ["x", "y", "z"][d.min(2)];
        if *n < 1 || *n > MAX_GRID[d.min(2)] {
            return Err(fail_at(
                op,
                ctx,
                "blocks",
                format!(
                    "expects grid extent {axis} in [1, {}], but found {n}",
                    MAX_GRID[d.min(2)]
                ),
            )
            .with_help("CUDA grids have 1 <= x < 2^31 and 1 <= y, z <= 65535 blocks"));
        }
        let c = cluster[d.min(2)];
        if n % c != 0 {
            return Err(fail_at(
                op,
                ctx,
                "blocks",
                format!("expects grid extent {axis} ({n}) to be a multiple of the cluster extent {c}"),
            )
            .with_help("a grid is launched as whole clusters; round the grid up to a multiple of the cluster shape"));
        }
    }
    Ok(())
}

/// Bytes and alignment of a shared allocation (`tilus.shared_tensor` or `mbarrier.alloc`), as
/// the shared-memory plan places it.
pub fn shared_alloc_shape(ctx: &Context, o: OpId) -> Option<(i64, i64)> {
    let t = ctx.value_type(*ctx.results(o).first()?);
    if SharedTensorOp::is(ctx, o) {
        let t = TensorType::of(ctx, t)?;
        let layout = t.shared_layout().ok()?;
        let bits = i128::from(layout.footprint()) * i128::from(t.dtype.memory_bits());
        let bytes = i64::try_from((bits + 7) / 8).ok()?;
        let align = match t.swizzle {
            SwizzleMode::None => 128,
            SwizzleMode::B32 => 256,
            SwizzleMode::B64 => 512,
            SwizzleMode::B128 => 1024,
        };
        Some((bytes, align))
    } else if crate::mbarrier::AllocOp::is(ctx, o) {
        Some((
            crate::tilus_types::barrier_count(ctx, t)?.saturating_mul(8),
            8,
        ))
    } else {
        None
    }
}

/// Places a kernel's shared allocations as `plan-shared-memory` does: first fit in program
/// order, each live until its `tilus.free_shared`. `each` sees every allocation with its size,
/// alignment, offset and the number of allocations live beside it, and may stop the walk with
/// an error. Allocations larger than the whole limit are skipped (their own verifier reports
/// them).
fn place_shared<E>(
    ctx: &Context,
    k: OpId,
    mut each: impl FnMut(OpId, i64, i64, i64, usize) -> Result<(), E>,
) -> Result<(), E> {
    let mut events = Vec::new();
    ctx.walk(k, &mut |o| {
        if shared_alloc_shape(ctx, o).is_some() || FreeSharedOp::is(ctx, o) {
            events.push(o);
        }
    });
    let mut live: Vec<(OpId, i64, i64)> = Vec::new();
    for o in events {
        if FreeSharedOp::is(ctx, o) {
            let def = ctx.defining_op(ctx.operands(o)[0]);
            live.retain(|(a, _, _)| Some(*a) != def);
            continue;
        }
        let Some((size, align)) = shared_alloc_shape(ctx, o) else {
            continue;
        };
        if size > MAX_SHARED_TOTAL {
            continue;
        }
        let up = |x: i64| x.saturating_add(align - 1) / align * align;
        live.sort_by_key(|l| l.1);
        let mut off = 0i64;
        for &(_, lo, ls) in &live {
            if off.saturating_add(size) <= lo {
                break;
            }
            off = off.max(up(lo.saturating_add(ls)));
        }
        let off = up(off);
        each(o, size, align, off, live.len())?;
        live.push((o, off, size));
    }
    Ok(())
}

/// The highest byte a kernel's shared allocations reach when placed as `plan-shared-memory`
/// places them; passes that add allocations check their budget against it.
pub fn shared_high_water(ctx: &Context, k: OpId) -> i64 {
    let mut top = 0i64;
    let _ = place_shared::<()>(ctx, k, |_, size, _, off, _| {
        top = top.max(off.saturating_add(size));
        Ok(())
    });
    top
}

/// Total shared memory of a block: allocations placed first fit in program order, each live
/// until its `tilus.free_shared` (as `plan-shared-memory` places them), must fit the 227 KiB
/// (232448 bytes) an sm_90/sm_100 block may have. Reported at the allocation that crosses it.
fn check_shared_total(ctx: &Context, k: OpId) -> Result<(), Diagnostic> {
    place_shared(ctx, k, |o, size, align, off, others| {
        let end = off.saturating_add(size);
        if end <= MAX_SHARED_TOTAL {
            return Ok(());
        }
        Err(op_error(
            ctx,
            o,
            format!(
                "expects the block's shared memory to fit in {MAX_SHARED_TOTAL} bytes, but this allocation of {size} bytes (aligned to {align}) ends at byte {end}"
            ),
        )
        .with_note(DiagLoc::Op(k), "in this kernel")
        .with_help(format!(
            "{} shared allocation{} live here; free tensors with `tilus.free_shared` when done, or use fewer stages or smaller tiles",
            others + 1,
            if others == 0 { " is" } else { "s are" }
        )))
    })
}

/// Shared memory a block may use on sm_90/sm_100 (227 KiB).
pub const MAX_SHARED_TOTAL: i64 = 232448;

/// The strings of an `arg_names` array.
fn declared_param_names(ctx: &Context, a: Attr) -> Vec<String> {
    match ctx.attr_kind(a) {
        AttrKind::Array(xs) => xs
            .iter()
            .map(|x| match ctx.attr_kind(*x) {
                AttrKind::String { value, .. } => String::from_utf8_lossy(value).into_owned(),
                _ => String::new(),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The kernel's parameter names, in order: `arg_names` when the kernel carries it (every kernel
/// read in custom form does), else `argN`, the names the generic form gives them.
///
/// These are the names `tilus.args`, `tilus.inputs`, `tilus.outputs` and `tilus-run --arg` use;
/// they do not depend on SSA names, which printing renumbers.
pub fn param_names(ctx: &Context, kernel: OpId) -> Vec<String> {
    let n = function_type(ctx, kernel).map_or(0, |(ins, _)| ins.len());
    match ctx.get_prop(kernel, "arg_names") {
        Some(a) => {
            let names = declared_param_names(ctx, a);
            if names.len() == n {
                return names;
            }
            (0..n).map(|i| format!("arg{i}")).collect()
        }
        None => (0..n).map(|i| format!("arg{i}")).collect(),
    }
}

/// Appends a parameter named `name` of type `ty` to `kernel` and returns it: an entry-block
/// argument, its type in `function_type`, a dimension of the `blocks` map (which has one per
/// parameter) and its name in `arg_names`, so the kernel stays valid. The lowering uses it for
/// the tensor maps of TMA sites.
pub fn append_param(ctx: &mut Context, kernel: OpId, ty: Type, name: &str) -> Value {
    let names = param_names(ctx, kernel);
    let entry = ctx.region_blocks(ctx.regions(kernel)[0])[0];
    let v = ctx.add_block_arg(entry, ty, None);
    let (mut inputs, results) = function_type(ctx, kernel).unwrap_or_default();
    inputs.push(ty);
    let ft = ctx.function_type(inputs, results);
    let fa = ctx.type_attr(ft);
    tilus_ir::rewrite::set_property(ctx, kernel, "function_type", Some(fa));
    if let Some(AttrKind::AffineMap(m)) = ctx.get_prop(kernel, "blocks").map(|a| ctx.attr_kind(a)) {
        let mut m = m.clone();
        m.num_dims += 1;
        let a = ctx.attr(AttrKind::AffineMap(m));
        tilus_ir::rewrite::set_property(ctx, kernel, "blocks", Some(a));
    }
    if ctx.get_prop(kernel, "arg_names").is_some() {
        let mut attrs: Vec<Attr> = names.iter().map(|n| ctx.str_attr(n)).collect();
        attrs.push(ctx.str_attr(name));
        let a = ctx.attr(AttrKind::Array(attrs));
        tilus_ir::rewrite::set_property(ctx, kernel, "arg_names", Some(a));
    }
    v
}

fn parse_kernel(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
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
    // Per-parameter attributes (`%n: i32 {tilus.divisibility = 64}`), as func.func keeps them;
    // the verifier's complaints about them point at the parameters that carry them.
    let empty = p.ctx.dict_attr(vec![]);
    let with = || (0..args.len()).filter(|&i| arg_attrs[i] != empty);
    if let (Some(first), Some(last)) = (with().next(), with().next_back()) {
        let span = tilus_ir::Span::new(args[first].span.start, args[last].span.end);
        p.note_attr_span("arg_attrs", span);
    }
    if let Some(a) = nonempty_dict_array(p.ctx, arg_attrs) {
        props.push(("arg_attrs".into(), a));
    }
    p.expect_keyword("warps")?;
    p.expect("(")?;
    let (text, wsp) = p.parse_number_text()?;
    let i64t = p.ctx.int_type(64);
    let w = p.number_attr_typed(&text, i64t, wsp)?;
    p.note_attr_span("warps", wsp);
    props.push(("warps".into(), w));
    p.expect(")")?;
    p.expect_keyword("blocks")?;
    p.expect("(")?;
    let (b, bsp) = p.parse_attribute_spanned()?;
    p.note_attr_span("blocks", bsp);
    props.push(("blocks".into(), b));
    p.expect(")")?;
    if p.eat_keyword("cluster") {
        let (vs, csp) = parse_int_list(p, "(", ")")?;
        p.note_attr_span("cluster", csp);
        let a = i64_array(p, &vs);
        props.push(("cluster".into(), a));
    }
    let mut attrs = parse_trailing_attrs(p, def, true, &mut props)?;
    // The names the parameters were written with, kept so that printing (which renumbers SSA
    // values) and the generic form do not lose what `tilus.args` and friends refer to.
    props.retain(|(k, _)| k != "arg_names");
    attrs.retain(|(k, _)| k != "arg_names");
    if !args.is_empty() {
        let names: Vec<Attr> = args
            .iter()
            .map(|a| {
                let n = a.name.trim_start_matches('%');
                p.ctx.str_attr(n)
            })
            .collect();
        props.push(("arg_names".into(), p.ctx.attr(AttrKind::Array(names))));
    }
    let region = p.parse_region(args, true)?;
    // `{}` with no parameters is an empty body: give it its block, as MLIR does for
    // single-block regions without terminator.
    if p.ctx.region_blocks(region).is_empty() {
        let b = p.ctx.create_block(&[]);
        p.ctx.push_block(region, b);
    }
    Ok(OperationState::of(p.ctx, def)
        .with_properties(p.ctx, props)
        .with_attrs(attrs)
        .with_regions(vec![region]))
}

fn print_kernel(pr: &mut Printer, op: OpId) {
    let ctx = pr.ctx;
    pr.out.push(' ');
    pr.out
        .push_str(&crate::builtin::ctx_sym(&sym_name(ctx, op)));
    let (inputs, _) = function_type(ctx, op).unwrap_or_default();
    let arg_attrs = dict_array_prop(ctx, op, "arg_attrs");
    let r = ctx.regions(op)[0];
    let entry = ctx.region_blocks(r).first().copied();
    print_fn_args(pr, entry, &inputs, &arg_attrs);
    if let Some(w) = ctx.get_prop(op, "warps") {
        pr.out.push_str(" warps(");
        pr.print_attr_without_type(w);
        pr.out.push(')');
    }
    if let Some(b) = ctx.get_prop(op, "blocks") {
        pr.out.push_str(" blocks(");
        pr.print_attr(b);
        pr.out.push(')');
    }
    if let Some(c) = ctx.get_prop(op, "cluster") {
        pr.out.push_str(" cluster(");
        pr.out
            .push_str(&join_i64(&attr_i64s(ctx, c).unwrap_or_default()));
        pr.out.push(')');
    }
    print_trailing_attrs(pr, op, true);
    if entry.is_some() {
        pr.out.push(' ');
        pr.print_region(r, false, true);
    }
}

/// What a parameter's attributes promise about its value: `[lo, hi]` (`tilus.range`, both ends
/// included) and a divisor (`tilus.divisibility`). Facts the caller states, as Triton's
/// `tt.divisibility`: the range analysis may fold on them (a remainder by the divisor is 0),
/// so `tilus-run` checks every argument against them before it launches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParamFacts {
    /// `tilus.range`: the smallest and largest value.
    pub range: Option<(i64, i64)>,
    /// `tilus.divisibility`: the value is a multiple of it (positive).
    pub divisor: Option<i64>,
}

impl ParamFacts {
    /// Why `v` breaks these facts, or `None` when it keeps them.
    pub fn violation(&self, v: i64) -> Option<String> {
        if let Some((lo, hi)) = self.range {
            if v < lo || v > hi {
                return Some(format!(
                    "{v} is outside its {} [{lo}, {hi}]",
                    attr_names::RANGE
                ));
            }
        }
        if let Some(d) = self.divisor {
            if d > 0 && v % d != 0 {
                return Some(format!(
                    "{v} is not a multiple of {d} (its {})",
                    attr_names::DIVISIBILITY
                ));
            }
        }
        None
    }
}

/// The facts parameter `i` of `op` declares in its `arg_attrs`: a `tilus.kernel`, or the
/// `ptx.entry` or `func.func` it became (the lowering keeps the parameter attributes).
/// Malformed entries (which the kernel's verifier rejects) are ignored.
pub fn param_facts(ctx: &Context, op: OpId, i: usize) -> ParamFacts {
    let dicts = dict_array_prop(ctx, op, "arg_attrs");
    let Some(AttrKind::Dict(entries)) = dicts.get(i).copied().flatten().map(|a| ctx.attr_kind(a))
    else {
        return ParamFacts::default();
    };
    let get = |n: &str| entries.iter().find(|(k, _)| k == n).map(|(_, v)| *v);
    let range = get(attr_names::RANGE)
        .and_then(|a| attr_i64s(ctx, a))
        .and_then(|v| match v[..] {
            [lo, hi] if lo <= hi => Some((lo, hi)),
            _ => None,
        });
    let divisor = get(attr_names::DIVISIBILITY)
        .and_then(|a| attr_i64(ctx, a))
        .filter(|d| *d > 0);
    ParamFacts { range, divisor }
}

/// The kernel's parameter attributes: `tilus.range` an `array<i64: lo, hi>` with `lo <= hi`,
/// `tilus.divisibility` a positive integer, both only on integer parameters.
fn verify_param_facts(ctx: &Context, op: OpId, inputs: &[Type]) -> Result<(), Diagnostic> {
    // That `arg_attrs` is an array of dictionaries is the declared constraint's check.
    let dicts = dict_array_prop(ctx, op, "arg_attrs");
    if dicts.is_empty() {
        return Ok(());
    }
    if dicts.len() != inputs.len() {
        return Err(fail_at(
            op,
            ctx,
            "arg_attrs",
            format!(
                "expects one dictionary per parameter ({}), but found {}",
                inputs.len(),
                dicts.len()
            ),
        ));
    }
    for (i, (d, t)) in dicts.iter().zip(inputs).enumerate() {
        let Some(AttrKind::Dict(entries)) = d.map(|d| ctx.attr_kind(d)) else {
            continue;
        };
        let is_int = matches!(
            ctx.type_kind(*t),
            tilus_ir::TypeKind::Integer { .. } | tilus_ir::TypeKind::Index
        );
        for (k, v) in entries {
            let what = match k.as_str() {
                attr_names::RANGE => match attr_i64s(ctx, *v).as_deref() {
                    Some([lo, hi]) if lo <= hi => None,
                    Some([lo, hi]) => Some(format!("expects lo <= hi, but found [{lo}, {hi}]")),
                    _ => Some("expects array<i64: lo, hi>".to_string()),
                },
                attr_names::DIVISIBILITY => match attr_i64(ctx, *v) {
                    Some(d) if d > 0 => None,
                    Some(d) => Some(format!("expects a positive integer, but found {d}")),
                    None => Some("expects an integer".to_string()),
                },
                _ => continue,
            };
            if let Some(w) = what {
                return Err(fail_at(
                    op,
                    ctx,
                    "arg_attrs",
                    format!("parameter {i}: {k} {w}"),
                ));
            }
            if !is_int {
                return Err(fail_at(
                    op,
                    ctx,
                    "arg_attrs",
                    format!(
                        "parameter {i}: {k} applies to integer parameters, but the parameter is {}",
                        type_str(ctx, *t)
                    ),
                ));
            }
        }
    }
    Ok(())
}
