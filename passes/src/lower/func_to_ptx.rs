//! `convert-func-to-ptx`: each `func.func` with a body becomes a `ptx.entry` kernel.
//!
//! The function must return nothing and take kernel parameters: integers (pointers as `i64`),
//! floats or `!ptx.tensormap`. Its body moves into the entry unchanged, and `func.return`
//! becomes `ptx.ret`. This is how scalar kernels are written by hand (in tests): a `func.func`
//! with `arith`, `scf`, `ptx.special` and `ptx.inst` ops, then `convert-scf-to-cf`,
//! `convert-arith-to-ptx` and this pass, in any order.

use super::build::{i64_attr, ops_where};
use super::set_region_blocks;
use crate::{declare_pass, Changed, Pass, Statistics};
use tilus_dialects::func::{CallOp, FuncOp, ReturnOp};
use tilus_dialects::ptx::reg_class;
use tilus_dialects::ptx::{EntryOp, RetOp};
use tilus_ir::syntax::printer::type_to_string;
use tilus_ir::{AttrKind, BlockId, Context, Diagnostic, OpBuilder, OpId, OperationState, TypeKind};

declare_pass! {
    /// The pass; its fields are its options.
    pub struct FuncToPtx {
        name: "convert-func-to-ptx",
        class: "ConvertFuncToPtx",
        summary: "Turn func.func kernels into ptx.entry",
        description: "Turns every func.func with a body into a ptx.entry kernel of the same \
            name: the function must return nothing and take kernel parameters (integers, \
            pointers as i64, floats, !ptx.tensormap); its body moves over unchanged and \
            func.return becomes ptx.ret. Options set the kernel's target and .maxntid. Lets \
            scalar kernels be written by hand as functions.",
        options: {
            target: String = "sm_90a".into(), "target",
                "PTX target of the kernels (sm_90a; sm_100a for tcgen05)",
                check = super::check_ptx_target;
            maxntid: i64 = 0, "maxntid", "Most threads per block (.maxntid); 0 leaves it out";
        },
        statistics: {
            NUM_KERNELS = "num-kernels", "Number of functions turned into kernels";
        },
    }
}

impl Pass for FuncToPtx {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let funcs = ops_where(ctx, op, FuncOp::is);
        let mut errors = Vec::new();
        let mut n = 0;
        for f in funcs {
            let r = ctx.regions(f)[0];
            if ctx.region_blocks(r).is_empty() {
                continue;
            }
            if let Err(d) = check(ctx, f) {
                errors.push(d);
                continue;
            }
            self.convert(ctx, f);
            n += 1;
        }
        stats.add(Self::NUM_KERNELS, n);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(if n > 0 { Changed::Yes } else { Changed::No })
    }
}

/// Why `f` cannot be a kernel, if it cannot.
fn check(ctx: &Context, f: OpId) -> Result<(), Diagnostic> {
    let ft = ctx.get_prop(f, "function_type").map(|a| ctx.attr_kind(a));
    let Some(AttrKind::Type(t)) = ft else {
        return Ok(());
    };
    let TypeKind::Function { inputs, results } = ctx.type_kind(*t) else {
        return Ok(());
    };
    if !results.is_empty() {
        return Err(Diagnostic::op(
            f,
            "cannot make a kernel of a function that returns values",
        ));
    }
    for (i, t) in inputs.iter().enumerate() {
        let ok = reg_class(ctx, *t).is_some_and(|c| c != tilus_dialects::ptx::RegClass::Pred);
        if !ok {
            return Err(Diagnostic::op(
                f,
                format!(
                    "cannot make a kernel parameter of argument #{i} of type '{}' (integers, \
                     pointers as i64, floats or !ptx.tensormap)",
                    type_to_string(ctx, *t)
                ),
            ));
        }
    }
    let mut bad = None;
    ctx.walk(f, &mut |o| {
        if bad.is_none() && CallOp::is(ctx, o) {
            bad = Some(o);
        }
    });
    if let Some(c) = bad {
        return Err(Diagnostic::op(
            c,
            "cannot make a kernel of a function with calls (inline them first)",
        ));
    }
    Ok(())
}

impl FuncToPtx {
    fn convert(&self, ctx: &mut Context, f: OpId) {
        let loc = ctx.op(f).loc;
        let old = ctx.regions(f)[0];
        let blocks: Vec<BlockId> = ctx.region_blocks(old).to_vec();
        // Returns become ptx.ret.
        for &b in &blocks {
            if let Some(t) = ctx.block_last(b) {
                if ReturnOp::is(ctx, t) {
                    let mut b = OpBuilder::new(ctx);
                    b.set_loc_from(t);
                    b.set_insertion_point_before(t);
                    RetOp::build(&mut b);
                    ctx.erase_op(t);
                }
            }
        }
        let region = ctx.create_region();
        set_region_blocks(ctx, region, &blocks);
        let mut props = Vec::new();
        for k in ["sym_name", "function_type"] {
            if let Some(v) = ctx.get_prop(f, k) {
                props.push((k.to_string(), v));
            }
        }
        props.push(("target".into(), ctx.str_attr(&self.target)));
        if self.maxntid > 0 {
            let v = i64_attr(ctx, self.maxntid);
            props.push(("maxntid".into(), v));
        }
        if let Some(v) = ctx.get_prop(f, "arg_attrs") {
            props.push(("arg_attrs".into(), v));
        }
        let mut st = OperationState::of(ctx, EntryOp::DEF)
            .with_properties(ctx, props)
            .with_regions(vec![region]);
        st.loc = loc;
        st.attrs = ctx.attrs(f).to_vec();
        let e = ctx.create_op(st);
        ctx.insert_op_before(f, e);
        ctx.erase_op(f);
    }
}
