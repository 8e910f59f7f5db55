//! `wgmma.mma`: the decomposition into `wgmma.mma_async` instructions on accumulator blocks.

use super::*;

/// One `wgmma.mma_async` of a `wgmma.mma`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WgmmaInst {
    /// M block, N block, K step.
    pub i: i64,
    pub j: i64,
    pub kk: i64,
    /// Byte offsets of the A and B start addresses from the operands' first elements.
    pub a_offset: i64,
    pub b_offset: i64,
    /// Accumulator register block `i·rn + j` of `blocks`.
    pub block: i64,
}

/// The decomposition of a `wgmma.mma` (spec §6.2–6.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WgmmaPlan {
    pub opcode: String,
    pub a: KMajor,
    pub b: KMajor,
    /// Register blocks of the accumulator: `rm · rn`.
    pub blocks: i64,
    /// k-outer, then m, then n.
    pub insts: Vec<WgmmaInst>,
    /// Integer kinds take no scale/transpose immediates.
    pub integer: bool,
}

/// Plans a `wgmma.mma` with shared A `[M, K]`, shared B `[K, N]` and accumulator type `d`.
pub fn wgmma_plan(a: &TensorType, b: &TensorType, d: DType) -> Result<WgmmaPlan, String> {
    if a.space != Space::Shared {
        return Err("expects A in shared memory (register A is not lowered yet)".into());
    }
    let (m, k, n) = (a.shape[0], a.shape[1], b.shape[1]);
    let inst_k = tilus_dialects::wgmma::inst_k(a.dtype)
        .ok_or_else(|| format!("no wgmma for {} inputs", a.dtype.name()))?;
    let inst_n = gcd(n, 256);
    let ka = KMajor::of(a, 1).map_err(|e| format!("A: {e}"))?;
    let kb = KMajor::of(b, 0).map_err(|e| format!("B: {e}"))?;
    let (dn, an, bn) = (
        mma_type_name(d).ok_or("unsupported accumulator type")?,
        mma_type_name(a.dtype).ok_or("unsupported A type")?,
        mma_type_name(b.dtype).ok_or("unsupported B type")?,
    );
    let (rm, rn) = (m / 64, n / inst_n);
    let mut insts = Vec::new();
    for kk in 0..k / inst_k {
        for i in 0..rm {
            for j in 0..rn {
                insts.push(WgmmaInst {
                    i,
                    j,
                    kk,
                    a_offset: ka.offset(i * 64, kk * inst_k),
                    b_offset: kb.offset(j * inst_n, kk * inst_k),
                    block: i * rn + j,
                });
            }
        }
    }
    Ok(WgmmaPlan {
        opcode: format!("wgmma.mma_async.sync.aligned.m64n{inst_n}k{inst_k}.{dn}.{an}.{bn}"),
        a: ka,
        b: kb,
        blocks: rm * rn,
        insts,
        integer: matches!(a.dtype, DType::Int { .. }),
    })
}

pub(super) fn block_attr(ctx: &mut Context, b: i64, n: i64) -> Attr {
    ctx.int_array_attr(64, &[b, n])
}

pub(super) fn lower_wgmma(ctx: &mut Context, o: OpId) -> Result<Value, String> {
    let ops = ctx.operands(o).to_vec();
    let a = tensor_of(ctx, ops[0])?;
    let bt = tensor_of(ctx, ops[1])?;
    let acc = tensor_of(ctx, ops[2])?;
    let plan = wgmma_plan(&a, &bt, acc.dtype)?;
    let acc_ty = ctx.value_type(ops[2]);
    let ahi = wgmma_descriptor_hi(plan.a.lbo() as u64, plan.a.sbo() as u64, plan.a.swizzle);
    let bhi = wgmma_descriptor_hi(plan.b.lbo() as u64, plan.b.sbo() as u64, plan.b.swizzle);
    let mut b = before(ctx, o);
    let abase = b.shared_addr(ops[0]);
    let bbase = b.shared_addr(ops[1]);
    let mut cur = ops[2];
    let form = if plan.integer {
        "{$0}, $1, $2, 1"
    } else {
        "{$0}, $1, $2, 1, 1, 1, 0, 0"
    };
    for inst in &plan.insts {
        let ad = b.descriptor(abase, inst.a_offset, ahi);
        let bd = b.descriptor(bbase, inst.b_offset, bhi);
        let op = b.inst(&plan.opcode, form, &[cur, ad, bd], vec![acc_ty], None);
        let blk = block_attr(b.ctx_mut(), inst.block, plan.blocks);
        b.ctx_mut().set_attr(op, "tile_block", Some(blk));
        cur = b.ctx().results(op)[0];
    }
    Ok(cur)
}
