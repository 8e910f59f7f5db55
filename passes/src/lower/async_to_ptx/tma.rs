//! TMA copies (`cp.async.bulk.tensor`) and the tensor-map records the host encodes.

use super::*;

/// A grid-constant integer expression over the kernel's parameters, for the host: `42`, `p3`
/// (parameter 3's value), `a + b`, `a * b`, `(a)`, and `a floordiv c`, `a ceildiv c` by a
/// positive constant (the affine forms of `arith.floordivsi` and `arith.ceildivsi`, exact for
/// every sign).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expr {
    Const(i64),
    Param(usize),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    FloorDiv(Box<Expr>, i64),
    CeilDiv(Box<Expr>, i64),
}

impl Expr {
    fn add(a: Expr, b: Expr) -> Expr {
        match (a, b) {
            (Expr::Const(x), Expr::Const(y)) => Expr::Const(x + y),
            (Expr::Const(0), e) | (e, Expr::Const(0)) => e,
            (a, b) => Expr::Add(Box::new(a), Box::new(b)),
        }
    }
    fn mul(a: Expr, b: Expr) -> Expr {
        match (a, b) {
            (Expr::Const(x), Expr::Const(y)) => Expr::Const(x * y),
            (Expr::Const(0), _) | (_, Expr::Const(0)) => Expr::Const(0),
            (Expr::Const(1), e) | (e, Expr::Const(1)) => e,
            (a, b) => Expr::Mul(Box::new(a), Box::new(b)),
        }
    }
    /// The expression as an affine expression whose symbol `sN` is kernel parameter N. A
    /// product of two parameters is semi-affine (a product of symbols), which MLIR's affine
    /// maps allow.
    fn affine(&self) -> tilus_ir::attrs::AffineExpr {
        use tilus_ir::attrs::{AffineExpr as A, AffineOp};
        match self {
            Expr::Const(c) => A::Const(*c),
            Expr::Param(p) => A::Sym(*p as u32),
            Expr::Add(a, b) => A::Bin(AffineOp::Add, Box::new(a.affine()), Box::new(b.affine())),
            Expr::FloorDiv(a, c) => A::Bin(
                AffineOp::FloorDiv,
                Box::new(a.affine()),
                Box::new(A::Const(*c)),
            ),
            Expr::CeilDiv(a, c) => A::Bin(
                AffineOp::CeilDiv,
                Box::new(a.affine()),
                Box::new(A::Const(*c)),
            ),
            Expr::Mul(a, b) => {
                let (mut l, mut r) = (a.affine(), b.affine());
                // MLIR orders a product of two symbols by position; doing the same here
                // keeps the map's text unchanged through mlir-opt.
                if let (A::Sym(x), A::Sym(y)) = (&l, &r) {
                    if x > y {
                        std::mem::swap(&mut l, &mut r);
                    }
                }
                A::Bin(AffineOp::Mul, Box::new(l), Box::new(r))
            }
        }
    }
}

/// The host expression of a grid-constant value: constants, kernel parameters, and `arith`
/// add/mul/casts of them and their floor/ceil divisions by positive constants.
fn expr_of(ctx: &Context, kernel_entry: tilus_ir::BlockId, v: Value) -> Result<Expr, String> {
    if let Some(i) = ctx.block_args(kernel_entry).iter().position(|a| *a == v) {
        return Ok(Expr::Param(i));
    }
    let Some(d) = ctx.defining_op(v) else {
        return Err("a block argument that is not a kernel parameter".into());
    };
    use ArithOpKind as A;
    match A::classify(ctx, d) {
        Some(A::Constant(_)) => ctx
            .get_prop(d, "value")
            .and_then(|a| match ctx.attr_kind(a) {
                AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
                _ => None,
            })
            .map(Expr::Const)
            .ok_or_else(|| "a non-integer constant".into()),
        Some(k @ (A::AddI(_) | A::MulI(_))) => {
            let ops = ctx.operands(d);
            let (a, b) = (
                expr_of(ctx, kernel_entry, ops[0])?,
                expr_of(ctx, kernel_entry, ops[1])?,
            );
            Ok(if matches!(k, A::AddI(_)) {
                Expr::add(a, b)
            } else {
                Expr::mul(a, b)
            })
        }
        Some(k @ (A::FloorDivSI(_) | A::CeilDivSI(_))) => {
            let ops = ctx.operands(d);
            let a = expr_of(ctx, kernel_entry, ops[0])?;
            let c = match expr_of(ctx, kernel_entry, ops[1])? {
                Expr::Const(c) if c > 0 => c,
                _ => {
                    return Err(format!(
                        "a division by something other than a positive constant ('{}')",
                        ctx.op_name_str(d)
                    ))
                }
            };
            Ok(match (k, a) {
                (A::FloorDivSI(_), Expr::Const(x)) => Expr::Const(x.div_euclid(c)),
                (_, Expr::Const(x)) => Expr::Const(-((-x).div_euclid(c))),
                (_, a) if c == 1 => a,
                (A::FloorDivSI(_), a) => Expr::FloorDiv(Box::new(a), c),
                (_, a) => Expr::CeilDiv(Box::new(a), c),
            })
        }
        Some(A::IndexCast(_) | A::IndexCastUI(_) | A::ExtSI(_) | A::ExtUI(_) | A::TruncI(_)) => {
            expr_of(ctx, kernel_entry, ctx.operands(d)[0])
        }
        _ => Err(format!(
            "a value computed by '{}' (the host can evaluate only constants, kernel parameters, and arith add/mul/casts and floordivsi/ceildivsi by positive constants of them)",
            ctx.op_name_str(d)
        )),
    }
}

fn swizzle_name(m: SwizzleMode) -> &'static str {
    match m {
        SwizzleMode::None => "none",
        SwizzleMode::B32 => "32B",
        SwizzleMode::B64 => "64B",
        SwizzleMode::B128 => "128B",
    }
}

/// Appends a `!ptx.tensormap` parameter to the kernel and returns it.
fn add_tensormap_param(ctx: &mut Context, kn: &Kernel) -> (Value, usize) {
    let tm = tilus_dialects::ptx::TensorMapType::get(ctx);
    let index = ctx.block_args(kn.entry).len();
    let v = tilus_dialects::tilus::append_param(ctx, kn.op, tm, &format!("tensor_map{index}"));
    (v, index)
}

pub(super) fn lower_tma(
    ctx: &mut Context,
    kn: &mut Kernel,
    o: OpId,
    load: bool,
) -> Result<(), String> {
    let def = ctx.op_def(o).expect("registered");
    let group = |name: &str| tilus_ir::format::operand_group(ctx, def, o, name).to_vec();
    let (global, shared, offsets, bars, bar_idx, mask) = if load {
        (
            group("src")[0],
            group("dst")[0],
            group("offsets"),
            Some(group("barriers")[0]),
            Some(group("barrier_index")[0]),
            group("multicast_mask").first().copied(),
        )
    } else {
        let ops = ctx.operands(o).to_vec();
        (ops[1], ops[0], ops[2..].to_vec(), None, None, None)
    };
    let guard = issue_guard(ctx, kn, o)?;
    let g = tensor_of(ctx, global)?;
    let s = tensor_of(ctx, shared)?;
    let grank = g.shape.len();
    let dims: Vec<usize> = match ctx
        .get_inherent_or_attr(o, "dims")
        .and_then(|a| attr_i64s(ctx, a))
    {
        Some(d) => d.into_iter().map(|x| x as usize).collect(),
        None => (0..grank).collect(),
    };
    // The view: pointer parameter, extents and strides as host expressions.
    let view = ctx
        .defining_op(global)
        .filter(|d| GlobalViewOp::is(ctx, *d))
        .ok_or("expects the global tensor to come from 'tilus.global_view'")?;
    let vops = ctx.operands(view).to_vec();
    let ptr = vops[0];
    let pointer = ctx
        .block_args(kn.entry)
        .iter()
        .position(|a| *a == ptr)
        .ok_or("expects the global view of a pointer parameter of the kernel")?;
    let vdef = ctx.op_def(view).expect("registered");
    let ext_vals = tilus_ir::format::operand_group(ctx, vdef, view, "extents").to_vec();
    let str_vals = tilus_ir::format::operand_group(ctx, vdef, view, "strides").to_vec();
    let mut ext_it = ext_vals.iter();
    let mut extents = Vec::new();
    for &e in &g.shape {
        extents.push(if e == DYN {
            let v = *ext_it.next().ok_or("missing extent operand")?;
            expr_of(ctx, kn.entry, v).map_err(|e| format!("the view's extent is {e}"))?
        } else {
            Expr::Const(e)
        });
    }
    let strides: Vec<Expr> = match &g.strides {
        Some(st) => {
            let mut it = str_vals.iter();
            let mut out = Vec::new();
            for &x in st {
                out.push(if x == DYN {
                    let v = *it.next().ok_or("missing stride operand")?;
                    expr_of(ctx, kn.entry, v).map_err(|e| format!("the view's stride is {e}"))?
                } else {
                    Expr::Const(x)
                });
            }
            out
        }
        None => {
            let mut out = vec![Expr::Const(1); grank];
            for d in (0..grank.saturating_sub(1)).rev() {
                out[d] = Expr::mul(out[d + 1].clone(), extents[d + 1].clone());
            }
            out
        }
    };
    let eb = i64::from(g.dtype.bits()).max(8) / 8;
    // Offsets of dims outside the box fold into the map's base address.
    let mut base = Expr::Const(0);
    for d in 0..grank {
        if !dims.contains(&d) {
            let off = expr_of(ctx, kn.entry, offsets[d])
                .map_err(|e| format!("the offset of dimension {d} (outside dims, so folded into the tensor map) is {e}"))?;
            base = Expr::add(base, Expr::mul(off, strides[d].clone()));
        }
    }
    let r = dims.len();
    let (tmap, param) = add_tensormap_param(ctx, kn);
    // The host record: sizes as affine maps over the kernel parameters (symbol sN is
    // parameter N), which the host evaluates with the launch's arguments.
    let num_syms = ctx.block_args(kn.entry).len() as u32;
    let map = |ctx: &mut Context, xs: Vec<&Expr>| {
        ctx.attr(AttrKind::AffineMap(tilus_ir::attrs::AffineMap {
            num_dims: 0,
            num_syms,
            results: xs.into_iter().map(Expr::affine).collect(),
        }))
    };
    let gdims: Vec<&Expr> = dims.iter().rev().map(|&d| &extents[d]).collect();
    let byte_strides: Vec<Expr> = dims[..r - 1]
        .iter()
        .rev()
        .map(|&d| Expr::mul(strides[d].clone(), Expr::Const(eb)))
        .collect();
    let gstrides: Vec<&Expr> = byte_strides.iter().collect();
    let base_map = map(ctx, vec![&base]);
    let i64t = ctx.int_type(64);
    let rev_shape: Vec<i64> = s.shape.iter().rev().copied().collect();
    let box_dims = ctx.int_array_attr(64, &rev_shape);
    let mut entries = vec![
        ("param".to_string(), int_attr(ctx, i64t, param as u128)),
        ("pointer".to_string(), int_attr(ctx, i64t, pointer as u128)),
        ("dtype".to_string(), ctx.str_attr(&g.dtype.name())),
        (
            "direction".to_string(),
            ctx.str_attr(if load { "load" } else { "store" }),
        ),
        ("base_offset".to_string(), base_map),
    ];
    let gd = map(ctx, gdims);
    let gs = map(ctx, gstrides);
    entries.push(("global_dims".to_string(), gd));
    entries.push(("global_strides".to_string(), gs));
    entries.push(("box_dims".to_string(), box_dims));
    entries.push(("swizzle".to_string(), ctx.str_attr(swizzle_name(s.swizzle))));
    let rec = ctx.dict_attr(entries);
    kn.maps.push(rec);
    // The instruction.
    let mut b = before(ctx, o);
    let sa = b.shared_addr(shared);
    let mut coords = Vec::new();
    for &d in dims.iter().rev() {
        coords.push(b.as_i32(offsets[d]));
    }
    let cform = |first: usize| {
        (0..r)
            .map(|i| format!("${}", first + i))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if load {
        let bar = b.bar_addr(bars.unwrap(), bar_idx.unwrap());
        let cg = prop_i64(b.ctx(), o, "cta_group")
            .map(|g| format!(".cta_group::{g}"))
            .unwrap_or_default();
        let mut args = vec![sa, tmap];
        args.extend(&coords);
        args.push(bar);
        let form = format!("[$0], [$1, {{{}}}], [${}]", cform(2), 2 + r);
        match mask {
            None => {
                let opc = format!(
                    "cp.async.bulk.tensor.{r}d.shared::cta.global.tile.mbarrier::complete_tx::bytes{cg}"
                );
                b.inst0(&opc, &form, &args, guard);
            }
            Some(m) => {
                let i16t = b.int(16);
                let m16 = b.inst1("cvt.u16.u32", "$0", &[m], i16t, None);
                args.push(m16);
                let opc = format!(
                    "cp.async.bulk.tensor.{r}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster{cg}"
                );
                b.inst0(&opc, &format!("{form}, ${}", 3 + r), &args, guard);
            }
        }
    } else {
        let mut args = vec![tmap];
        args.extend(&coords);
        args.push(sa);
        let form = format!("[$0, {{{}}}], [${}]", cform(1), 1 + r);
        let opc = format!("cp.async.bulk.tensor.{r}d.global.shared::cta.tile.bulk_group");
        b.inst0(&opc, &form, &args, guard);
    }
    Ok(())
}
