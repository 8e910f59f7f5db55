//! `ptx.inst` with a register-tile operand (`tile_block`), made by `lower-async-to-ptx` for
//! `wgmma.mma`, `tcgen05.ld` and `tcgen05.st`.

use super::*;

impl Lowering {
    /// A `ptx.inst` with a register-tile operand (`tile_block = array<i64: b, n>`, made by
    /// `lower-async-to-ptx` for `wgmma.mma`, `tcgen05.ld`, `tcgen05.st`): the tile's registers
    /// in local-index order are cut into `n` equal blocks and block `b` becomes the
    /// instruction's register list.
    ///
    /// * With a result (the updated tile), the results are `bs = local_size / n` new scalars.
    ///   For `wgmma.*` the destination is read-write: the block's scalars become the leading
    ///   operands, written `{$0, ..., $bs-1}` where `{$0}` was, and the attribute `tied = bs`
    ///   says result `i` is operand `i` updated in place (the emitter gives both one register).
    ///   For `tcgen05.ld` it is write-only: `{$0}, ` leaves the form and `tied = 0` makes the
    ///   emitter print the results as the `{...}` destination. The result tile is the operand
    ///   tile with block `b` replaced by the new scalars.
    /// * Without a result (`tcgen05.st`): `{$0}` in the form becomes the brace list of the
    ///   block's scalars, appended after the other operands.
    pub(super) fn tile_inst(&mut self, ctx: &mut Context, o: OpId) -> R<()> {
        use tilus_dialects::ptx::{
            inst_args_and_guard, inst_form, split_form, str_prop, FormPiece,
        };
        let (b, n) = match ctx
            .get_attr(o, "tile_block")
            .and_then(|a| ctx.int_array_values(a))
            .as_deref()
        {
            Some(&[b, n]) => (b, n),
            _ => return Err("tile_block must be array<i64: b, n>".into()),
        };
        let opcode = str_prop(ctx, o, "opcode").unwrap_or_default();
        let (args, guard) = inst_args_and_guard(ctx, o);
        let tile_v = *args
            .first()
            .ok_or("a tile_block instruction without operands")?;
        let tt = ty_of(ctx, tile_v)
            .ok_or("operand 0 of a tile_block instruction is not a register tile")?;
        let layout = match tt.register_layout() {
            Some(l) => l,
            None => self.tile(tile_v)?.layout.clone(),
        };
        let vals = self.gather(ctx, tile_v, &layout)?;
        let ls = vals.len() as i64;
        if n <= 0 || b < 0 || b >= n || ls % n != 0 {
            return Err(format!(
                "tile_block [{b}, {n}] does not cut the {ls} registers per thread into equal blocks"
            ));
        }
        if tt.dtype.bits() != 32 {
            return Err(format!(
                "'{opcode}' on a {} tile: only 32-bit registers (f32, i32) are expanded (packed 16-bit accumulators are not lowered yet)",
                tt.dtype.name()
            ));
        }
        let bs = ls / n;
        if opcode.starts_with("wgmma.mma_async") {
            check_wgmma_fragment(&layout, &opcode, &tt.shape, b, n)?;
        }
        let mut blk: Vec<Value> = vals[(b * bs) as usize..((b + 1) * bs) as usize].to_vec();
        let has_result = !ctx.results(o).is_empty();
        let tied = has_result && opcode.starts_with("wgmma.");
        if tied {
            // A value in several registers of the tile (a splat `register_tensor init`) cannot
            // be updated in place: give each such register its own copy, made right after the
            // value's definition (so before the `wgmma.fence` that orders register writes).
            let elem_ty = ctx.value_type(blk[0]);
            let mov = if tt.dtype.is_float() {
                "mov.f32"
            } else {
                "mov.b32"
            };
            let mut last: FxHashMap<Value, OpId> = FxHashMap::default();
            for j in 0..blk.len() {
                let v = blk[j];
                if vals.iter().filter(|x| **x == v).count() > 1 {
                    let mut rw = Rewriter::new(ctx);
                    match last.get(&v).copied().or_else(|| rw.ctx().defining_op(v)) {
                        Some(d) => rw.set_insertion_point_after(d),
                        None => {
                            let bb = rw
                                .ctx()
                                .value_block(v)
                                .ok_or("a tile register without a block")?;
                            rw.set_insertion_point_to_start(bb)
                        }
                    }
                    let props = tilus_dialects::ptx::inst_properties(
                        rw.ctx_mut(),
                        mov,
                        Some("$0"),
                        1,
                        None,
                    );
                    let loc = ctx_loc_of(rw.ctx(), v, o);
                    let c = rw.build(InstOp::DEF.name, vec![v], vec![elem_ty], props, loc);
                    blk[j] = rw.ctx().results(c)[0];
                    last.insert(v, c);
                }
            }
        }
        let others: Vec<Value> = args[1..].to_vec();
        let form = inst_form(ctx, o, args.len());
        let pieces = split_form(&form)?;
        let ntied = if tied { bs as usize } else { 0 };
        let mut new_form = String::new();
        let mut operands: Vec<Value> = Vec::new();
        if has_result {
            // The destination `{$0}` comes first: for a tied (read-write) destination it becomes
            // the block's registers `{$0, ..., $bs-1}` (the leading operands); for a write-only
            // one it goes, with the separator after it (the results print as `{...}`).
            let mut it = pieces.into_iter();
            match (it.next(), it.next()) {
                (Some(FormPiece::Text(t0)), Some(FormPiece::Operand(0))) if t0.trim() == "{" => {}
                _ => {
                    return Err(format!(
                        "the form '{form}' does not start with the destination {{$0}}"
                    ))
                }
            }
            match it.next() {
                Some(FormPiece::Text(t)) => {
                    let t = t.trim_start();
                    let t = t.strip_prefix('}').ok_or("expected '}' after {$0}")?;
                    if tied {
                        new_form.push('{');
                        new_form.push_str(
                            &(0..ntied)
                                .map(|i| format!("${i}"))
                                .collect::<Vec<_>>()
                                .join(", "),
                        );
                        new_form.push('}');
                        new_form.push_str(&t.replace('$', "$$"));
                    } else {
                        let t = t.trim_start();
                        let t = t.strip_prefix(',').unwrap_or(t);
                        new_form.push_str(&t.trim_start().replace('$', "$$"));
                    }
                }
                None => {}
                Some(_) => return Err(format!("unexpected form '{form}'")),
            }
            for p in it {
                match p {
                    FormPiece::Text(t) => new_form.push_str(&t.replace('$', "$$")),
                    FormPiece::Operand(0) => {
                        return Err("the tile appears twice in the form".into())
                    }
                    FormPiece::Operand(k) => new_form.push_str(&format!("${}", k - 1 + ntied)),
                }
            }
            if tied {
                operands.extend(&blk);
            }
            operands.extend(&others);
        } else {
            let m = others.len();
            for p in pieces {
                match p {
                    FormPiece::Text(t) => new_form.push_str(&t.replace('$', "$$")),
                    FormPiece::Operand(0) => new_form.push_str(
                        &(0..bs as usize)
                            .map(|i| format!("${}", m + i))
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
                    FormPiece::Operand(k) => new_form.push_str(&format!("${}", k - 1)),
                }
            }
            operands.extend(&others);
            operands.extend(&blk);
        }
        let neg = ctx.get_prop(o, "guard_negated").is_some();
        let mut props = tilus_dialects::ptx::inst_properties(
            ctx,
            &opcode,
            Some(&new_form),
            operands.len(),
            guard.map(|_| neg),
        );
        let elem = elem_type(ctx, tt.dtype);
        let rtys: Vec<Type> = if has_result {
            vec![elem; bs as usize]
        } else {
            vec![]
        };
        let mut all = operands;
        all.extend(guard);
        let loc = ctx.op(o).loc;
        let mut rw = Rewriter::new(ctx);
        rw.set_insertion_point_before(o);
        let no = rw.build(InstOp::DEF.name, all, rtys, std::mem::take(&mut props), loc);
        if has_result {
            let i64t = ctx.int_type(64);
            let a = tilus_ir::rewrite::int_attr(ctx, i64t, ntied as u128);
            ctx.set_attr(no, "tied", Some(a));
            let res = ctx.results(no).to_vec();
            let mut nv = vals;
            nv[(b * bs) as usize..((b + 1) * bs) as usize].copy_from_slice(&res);
            let r = ctx.results(o)[0];
            self.set_tile(r, nv, layout, false);
        }
        Ok(())
    }
}

/// The location for a copy of `v`: its definition's, else `fallback`'s.
fn ctx_loc_of(ctx: &Context, v: Value, fallback: OpId) -> tilus_ir::Attr {
    ctx.defining_op(v)
        .map(|d| ctx.op(d).loc)
        .unwrap_or_else(|| ctx.op(fallback).loc)
}

/// Checks that register block `b` of `n` of an accumulator tile with layout `l` is the PTX
/// wgmma D fragment of a `wgmma.mma_async...m64n{N}k..` instruction (`opcode`): for thread `t`
/// of the warpgroup and register `j` of the block, the element is row `64·i + 16·(t/32) +
/// (t%32)/4 + 8·((j/2)%2)`, column `N·jn + 8·(j/4) + 2·(t%4) + j%2`, with `(i, jn) =
/// (b / rn, b % rn)` and `rn = cols / N` (spec §3.1, §6.5).
fn check_wgmma_fragment(l: &RegisterLayout, opcode: &str, shape: &[i64], b: i64, n: i64) -> R<()> {
    let inst_n: i64 = opcode
        .split('.')
        .find_map(|p| p.strip_prefix("m64n").and_then(|r| r.split('k').next()))
        .and_then(|x| x.parse().ok())
        .ok_or_else(|| format!("cannot read the instruction shape of '{opcode}'"))?;
    if shape.len() != 2 || shape[0] % 64 != 0 || shape[1] % inst_n != 0 {
        return Err(format!(
            "accumulator shape {shape:?} is not a multiple of m64n{inst_n}"
        ));
    }
    let (rm, rn) = (shape[0] / 64, shape[1] / inst_n);
    if rm * rn != n || l.num_threads() != 128 || l.local_size() != n * inst_n / 2 {
        return Err(format!(
            "the accumulator layout '{l}' is not the wgmma fragment of {rm}x{rn} m64n{inst_n} instructions (128 threads, {} registers each)",
            inst_n / 2
        ));
    }
    let bs = inst_n / 2;
    let (i, jn) = (b / rn, b % rn);
    for t in 0..128 {
        for j in 0..bs {
            let want = [
                64 * i + 16 * (t / 32) + (t % 32) / 4 + 8 * ((j / 2) % 2),
                inst_n * jn + 8 * (j / 4) + 2 * (t % 4) + j % 2,
            ];
            let got = l.coords(t, b * bs + j);
            if got != want {
                return Err(format!(
                    "the accumulator layout '{l}' puts thread {t}, register {} at {got:?}, but register {j} of wgmma block {b} holds {want:?} (use the wgmma accumulator layout, spec §3.1)",
                    b * bs + j
                ));
            }
        }
    }
    Ok(())
}
