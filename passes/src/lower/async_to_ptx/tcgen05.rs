//! tcgen05 (Blackwell tensor memory and MMA): instruction descriptors and the op lowerings.

use super::*;

/// `tcgen05.mma` kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MmaKind {
    F16,
    Tf32,
    F8f6f4,
    I8,
}

impl MmaKind {
    /// The kind of an input type.
    pub fn of(d: DType) -> Option<MmaKind> {
        Some(match d {
            DType::F16 | DType::BF16 => MmaKind::F16,
            DType::TF32 => MmaKind::Tf32,
            DType::F8E4M3 | DType::F8E5M2 | DType::F6E2M3 | DType::F6E3M2 | DType::F4E2M1 => {
                MmaKind::F8f6f4
            }
            DType::Int { bits: 8, .. } => MmaKind::I8,
            _ => return None,
        })
    }
    /// `f16`, `tf32`, `f8f6f4`, `i8`.
    pub fn name(self) -> &'static str {
        match self {
            MmaKind::F16 => "f16",
            MmaKind::Tf32 => "tf32",
            MmaKind::F8f6f4 => "f8f6f4",
            MmaKind::I8 => "i8",
        }
    }
    /// The K of one instruction.
    pub fn inst_k(self) -> i64 {
        match self {
            MmaKind::F16 => 16,
            MmaKind::Tf32 => 8,
            MmaKind::F8f6f4 | MmaKind::I8 => 32,
        }
    }
}

fn idesc_input_code(kind: MmaKind, d: DType) -> Option<u32> {
    Some(match (kind, d) {
        (MmaKind::F16, DType::F16) => 0,
        (MmaKind::F16, DType::BF16) => 1,
        (MmaKind::Tf32, DType::TF32) => 0,
        (MmaKind::F8f6f4, DType::F8E4M3) => 0,
        (MmaKind::F8f6f4, DType::F8E5M2) => 1,
        (MmaKind::F8f6f4, DType::F6E2M3) => 3,
        (MmaKind::F8f6f4, DType::F6E3M2) => 4,
        (MmaKind::F8f6f4, DType::F4E2M1) => 5,
        (MmaKind::I8, DType::Int { signedness, .. }) => {
            u32::from(signedness != tilus_ir::types::Signedness::Unsigned)
        }
        _ => return None,
    })
}

/// The 32-bit `tcgen05.mma` instruction descriptor (spec §7.2) for dense, K-major (or, with
/// `trans_*`, MN-major) operands; `None` for type combinations the kinds do not have.
pub fn tcgen05_instr_descriptor(
    a: DType,
    b: DType,
    d: DType,
    m: i64,
    n: i64,
    trans_a: bool,
    trans_b: bool,
) -> Option<u32> {
    let kind = MmaKind::of(a)?;
    if MmaKind::of(b)? != kind || (matches!(kind, MmaKind::F16 | MmaKind::Tf32) && a != b) {
        return None;
    }
    let dcode: u32 = match (kind, d) {
        (MmaKind::I8, DType::Int { bits: 32, .. }) => 0,
        (MmaKind::I8, _) => return None,
        (_, DType::F16) => 0,
        (_, DType::F32) => 1,
        _ => return None,
    };
    let (ac, bc) = (idesc_input_code(kind, a)?, idesc_input_code(kind, b)?);
    Some(
        (dcode << 4)
            | (ac << 7)
            | (bc << 10)
            | (u32::from(trans_a) << 15)
            | (u32::from(trans_b) << 16)
            | ((((n >> 3) as u32) & 0x3f) << 17)
            | ((((m >> 4) as u32) & 0x1f) << 24),
    )
}

fn tmem_addr(kn: &Kernel, v: Value) -> Result<Value, String> {
    kn.tmem
        .get(&v)
        .copied()
        .ok_or_else(|| "expects a tensor-memory tensor made by a lowered 'tcgen05.alloc', 'tcgen05.slice' or 'tcgen05.view' of this kernel".into())
}

fn cta_group_of(ctx: &Context, o: OpId) -> i64 {
    prop_i64(ctx, o, "cta_group").unwrap_or(1)
}

/// The predicate "first warp of the group" (`tilus.warp_id == 0`).
fn first_warp(b: &mut OpBuilder<'_>) -> Value {
    let i32t = b.int(32);
    let i1 = b.int(1);
    let w = WarpIdOp::build(b, i32t).result(b.ctx());
    b.inst1("setp.eq.u32", "$0, 0", &[w], i1, None)
}

pub(super) fn lower_tcgen05(
    ctx: &mut Context,
    kn: &mut Kernel,
    o: OpId,
    kind: C,
) -> Result<Lowered, String> {
    let ops = ctx.operands(o).to_vec();
    let cg = cta_group_of(ctx, o);
    match kind {
        C::Alloc(_) => {
            let t = tensor_of(ctx, ctx.results(o)[0])?;
            let cols = tilus_dialects::tcgen05::alloc_columns(&t);
            let mut b = before(ctx, o);
            let slot_ty = TensorType {
                space: Space::Shared,
                shape: vec![1],
                dtype: DType::Int {
                    bits: 32,
                    signedness: tilus_ir::types::Signedness::Signless,
                },
                strides: None,
                swizzle: SwizzleMode::None,
                layout: None,
            }
            .get(b.ctx_mut());
            let slot = SharedTensorOp::build(&mut b, slot_ty).result(b.ctx());
            let sa = b.shared_addr(slot);
            let p = first_warp(&mut b);
            b.inst0(
                &format!("tcgen05.alloc.cta_group::{cg}.sync.aligned.shared::cta.b32"),
                &format!("[$0], {cols}"),
                &[sa],
                Some((p, false)),
            );
            b.inst0("tcgen05.fence::before_thread_sync", "", &[], None);
            SyncOp::build(&mut b);
            b.inst0("tcgen05.fence::after_thread_sync", "", &[], None);
            let i32t = b.int(32);
            let addr = b.inst1("ld.shared.b32", "[$0]", &[sa], i32t, None);
            let res = b.ctx().results(o)[0];
            kn.tmem.insert(res, addr);
            return Ok(Lowered::KeepUntilUnused);
        }
        C::Dealloc(_) => {
            let t = tensor_of(ctx, ops[0])?;
            let cols = tilus_dialects::tcgen05::alloc_columns(&t);
            let a = tmem_addr(kn, ops[0])?;
            let mut b = before(ctx, o);
            let p = first_warp(&mut b);
            b.inst0(
                &format!("tcgen05.dealloc.cta_group::{cg}.sync.aligned.b32"),
                &format!("$0, {cols}"),
                &[a],
                Some((p, false)),
            );
        }
        C::RelinquishAllocPermit(_) => before(ctx, o).inst0(
            &format!("tcgen05.relinquish_alloc_permit.cta_group::{cg}.sync.aligned"),
            "",
            &[],
            None,
        ),
        C::Slice(_) | C::View(_) => {
            let base = tmem_addr(kn, ops[0])?;
            let addr = if matches!(kind, C::Slice(_)) {
                let src = tensor_of(ctx, ops[0])?;
                let lane = prop_i64(ctx, o, "lane_offset").unwrap_or(0);
                // Row-major column strides over dims 1.. of the source, in elements.
                let rank = src.shape.len();
                let mut st = vec![1i64; rank];
                for d in (1..rank.saturating_sub(1)).rev() {
                    st[d] = st[d + 1] * src.shape[d + 1];
                }
                let bits = i64::from(src.dtype.bits());
                let mut b = before(ctx, o);
                let mut acc = base;
                for (k, &off) in ops[1..].iter().enumerate() {
                    // Column offset of this index: off * stride * bits / 32.
                    let off = b.as_i32(off);
                    let scaled = st[k + 1] * bits;
                    let v = if scaled % 32 == 0 {
                        let c = b.cint(32, scaled / 32);
                        b.bin(IntBinOp::MulI, off, c)
                    } else {
                        let c = b.cint(32, scaled);
                        let m = b.bin(IntBinOp::MulI, off, c);
                        let c5 = b.cint(32, 5);
                        b.bin(IntBinOp::ShRUI, m, c5)
                    };
                    acc = b.bin(IntBinOp::AddI, acc, v);
                }
                if lane != 0 {
                    let c = b.cint(32, lane << 16);
                    acc = b.bin(IntBinOp::AddI, acc, c);
                }
                acc
            } else {
                base
            };
            let res = ctx.results(o)[0];
            kn.tmem.insert(res, addr);
            return Ok(Lowered::KeepUntilUnused);
        }
        C::Mma(_) => {
            let a = tensor_of(ctx, ops[0])?;
            let bt = tensor_of(ctx, ops[1])?;
            let d = tensor_of(ctx, ops[2])?;
            if a.space != Space::Shared {
                return Err("expects A in shared memory (TMEM A is not lowered yet)".into());
            }
            let kind = MmaKind::of(a.dtype).ok_or("unsupported input type")?;
            let ka = KMajor::of(&a, 1).map_err(|e| format!("A: {e}"))?;
            let kb = KMajor::of(&bt, 0).map_err(|e| format!("B: {e}"))?;
            let (m, k) = (a.shape[0], a.shape[1]);
            let n_local = bt.shape[1];
            let inst_k = kind.inst_k();
            // cta_group 2: one instruction of M = 2·m over N = 2·n_local per K step.
            let (inst_m, inst_n, rn) = if cg == 2 {
                (2 * m, 2 * n_local, 1)
            } else {
                let inst_n = gcd(d.shape[1], 256);
                (m, inst_n, d.shape[1] / inst_n)
            };
            let idesc =
                tcgen05_instr_descriptor(a.dtype, bt.dtype, d.dtype, inst_m, inst_n, false, false)
                    .ok_or("unsupported type combination")?;
            let guard = issue_guard(ctx, kn, o)?;
            let dbase = tmem_addr(kn, ops[2])?;
            let ahi = tcgen05_descriptor_hi(ka.lbo() as u64, ka.sbo() as u64, ka.swizzle);
            let bhi = tcgen05_descriptor_hi(kb.lbo() as u64, kb.sbo() as u64, kb.swizzle);
            let dbits = i64::from(d.dtype.bits());
            let mut b = before(ctx, o);
            let abase = b.shared_addr(ops[0]);
            let bbase = b.shared_addr(ops[1]);
            let opc = format!("tcgen05.mma.cta_group::{cg}.kind::{}", kind.name());
            let per_cta_n = if cg == 2 { n_local } else { inst_n };
            let mut on = None;
            for j in 0..rn {
                let dcol = j * inst_n * dbits / 32;
                let daddr = if dcol == 0 {
                    dbase
                } else {
                    let c = b.cint(32, dcol);
                    b.bin(IntBinOp::AddI, dbase, c)
                };
                for kk in 0..k / inst_k {
                    let ad = b.descriptor(abase, ka.offset(0, kk * inst_k), ahi);
                    let bd = b.descriptor(bbase, kb.offset(j * per_cta_n, kk * inst_k), bhi);
                    let en = if kk == 0 {
                        ops[3]
                    } else {
                        *on.get_or_insert_with(|| b.ctrue())
                    };
                    b.inst0(
                        &opc,
                        &format!("[$0], $1, $2, {idesc:#010x}, $3"),
                        &[daddr, ad, bd, en],
                        guard,
                    );
                }
            }
        }
        C::Commit(_) => {
            let guard = issue_guard(ctx, kn, o)?;
            let mut b = before(ctx, o);
            let a = b.bar_addr(ops[0], ops[1]);
            match ops.get(2) {
                None => b.inst0(
                    &format!(
                        "tcgen05.commit.cta_group::{cg}.mbarrier::arrive::one.shared::cluster.b64"
                    ),
                    "[$0]",
                    &[a],
                    guard,
                ),
                Some(&m) => {
                    let i16t = b.int(16);
                    let m16 = b.inst1("cvt.u16.u32", "$0", &[m], i16t, None);
                    b.inst0(
                        &format!("tcgen05.commit.cta_group::{cg}.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64"),
                        "[$0], $1",
                        &[a, m16],
                        guard,
                    )
                }
            }
        }
        C::Ld(_) | C::St(_) => {
            let ld = matches!(kind, C::Ld(_));
            let (tile, tm) = if ld {
                (ctx.results(o)[0], ops[0])
            } else {
                (ops[0], ops[1])
            };
            let tt = tensor_of(ctx, tile)?;
            let (lanes, cols) = (tt.shape[0], tt.shape[1..].iter().product::<i64>());
            let want =
                RegisterLayout::spatial(&[lanes, 1]).compose(&RegisterLayout::local(&[1, cols]));
            if let Some(l) = tt.register_layout() {
                if tt.shape.len() != 2 || !l.same_mapping(&want) {
                    return Err(format!(
                        "only the 32x32b shape is lowered: expects the layout {want} (one lane per thread, its columns in order)"
                    ));
                }
            }
            let regs = cols * i64::from(tt.dtype.bits()) / 32;
            if regs * 32 != cols * i64::from(tt.dtype.bits()) {
                return Err("expects whole 32-bit columns per thread".into());
            }
            let chunk = (1..=regs.min(128))
                .rev()
                .find(|c| regs % c == 0 && (*c as u64).is_power_of_two())
                .unwrap_or(1);
            let nblocks = regs / chunk;
            let base = tmem_addr(kn, tm)?;
            let tile_ty = ctx.value_type(tile);
            let mut b = before(ctx, o);
            let i32t = b.int(32);
            // Warp w of the group reads lanes [32w, 32w + 32): lane offset (32w) << 16.
            let w = WarpIdOp::build(&mut b, i32t).result(b.ctx());
            let c21 = b.cint(32, 21);
            let lane = b.bin(IntBinOp::ShLI, w, c21);
            let wbase = b.bin(IntBinOp::AddI, base, lane);
            let mut cur = if ld {
                RegisterTensorOp::build(&mut b, None, tile_ty).result(b.ctx())
            } else {
                tile
            };
            for blk in 0..nblocks {
                let addr = if blk == 0 {
                    wbase
                } else {
                    let c = b.cint(32, blk * chunk);
                    b.bin(IntBinOp::AddI, wbase, c)
                };
                let attr = block_attr(b.ctx_mut(), blk, nblocks);
                let op = if ld {
                    let op = b.inst(
                        &format!("tcgen05.ld.sync.aligned.32x32b.x{chunk}.b32"),
                        "{$0}, [$1]",
                        &[cur, addr],
                        vec![tile_ty],
                        None,
                    );
                    cur = b.ctx().results(op)[0];
                    op
                } else {
                    b.inst(
                        &format!("tcgen05.st.sync.aligned.32x32b.x{chunk}.b32"),
                        "[$1], {$0}",
                        &[cur, addr],
                        vec![],
                        None,
                    )
                };
                b.ctx_mut().set_attr(op, "tile_block", Some(attr));
            }
            if ld {
                return Ok(Lowered::Replace(cur));
            }
        }
        C::WaitLd(_) => before(ctx, o).inst0("tcgen05.wait::ld.sync.aligned", "", &[], None),
        C::WaitSt(_) => before(ctx, o).inst0("tcgen05.wait::st.sync.aligned", "", &[], None),
        C::FenceBeforeThreadSync(_) => {
            before(ctx, o).inst0("tcgen05.fence::before_thread_sync", "", &[], None)
        }
        C::FenceAfterThreadSync(_) => {
            before(ctx, o).inst0("tcgen05.fence::after_thread_sync", "", &[], None)
        }
        C::Cp(_) => {
            let s = tensor_of(ctx, ops[0])?;
            let km = KMajor::of(&s, 1).map_err(|e| format!("the source: {e}"))?;
            let guard = issue_guard(ctx, kn, o)?;
            let base = tmem_addr(kn, ops[1])?;
            let hi = tcgen05_descriptor_hi(km.lbo() as u64, km.sbo() as u64, km.swizzle);
            let row_bytes = s.shape[1] * km.elem_bytes;
            let mut b = before(ctx, o);
            let sbase = b.shared_addr(ops[0]);
            // One 128-row × 16-byte piece per 16 bytes of a row: 4 TMEM columns each.
            for c in 0..row_bytes / 16 {
                let sd = b.descriptor(sbase, c * 16, hi);
                let t = if c == 0 {
                    base
                } else {
                    let k = b.cint(32, c * 4);
                    b.bin(IntBinOp::AddI, base, k)
                };
                b.inst0(
                    &format!("tcgen05.cp.cta_group::{cg}.128x128b"),
                    "[$0], $1",
                    &[t, sd],
                    guard,
                );
            }
        }
    }
    Ok(Lowered::Erase)
}
