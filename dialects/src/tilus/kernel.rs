//! `tilus.kernel`: declaration, verifier and custom syntax.

use super::*;

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
        cluster (sm_90+; the grid must be a multiple of it). The body is one block without \
        terminator, isolated from above.",
    attributes: &[
        attr("sym_name", STR_ATTR),
        attr("function_type", FUNCTION_TYPE_ATTR),
        attr("warps", I64_ATTR),
        attr("blocks", AFFINE_MAP_ATTR),
        opt_attr("cluster", DENSE_I64_ARRAY),
    ],
    regions: &[tilus_ir::opdef::block_region("body")],
    traits: &[
        Trait::Symbol,
        Trait::IsolatedFromAbove,
        Trait::SingleBlock,
        Trait::NoTerminator,
    ],
    verify: Some(verify_kernel),
    format: Format::Custom {
        parse: parse_kernel,
        print: print_kernel,
    },
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
        cluster = "cluster": Option<Attr>
    }
    regions {
        body = "body"
    }
    successors {}
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
    if let Some(c) = ctx.get_prop(op, "cluster") {
        let v = attr_i64s(ctx, c).unwrap_or_default();
        if v.is_empty() || v.len() > 3 || v.iter().any(|x| *x < 1) {
            return Err(fail_at(
                op,
                ctx,
                "cluster",
                format!(
                    "expects 1 to 3 positive cluster extents, but found ({})",
                    v.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
    }
    Ok(())
}

fn parse_kernel(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
    let mut props: Vec<(String, Attr)> = Vec::new();
    let (name, sp) = p.parse_symbol_name()?;
    p.note_attr_span("sym_name", sp);
    props.push(("sym_name".into(), p.ctx.str_attr(&name)));
    p.expect("(")?;
    let mut args: Vec<RegionArg> = Vec::new();
    let mut inputs = Vec::new();
    if !p.eat(")") {
        loop {
            let (arg, _) = parse_named_arg(p, false)?;
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
    let attrs = parse_trailing_attrs(p, def, true, &mut props)?;
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
    let r = ctx.regions(op)[0];
    let entry = ctx.region_blocks(r).first().copied();
    print_fn_args(pr, entry, &inputs, &[]);
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
