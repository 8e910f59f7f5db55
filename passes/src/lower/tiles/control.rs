//! `scf.for`, `scf.if`, `scf.while`, `scf.index_switch` and `scf.execute_region` carrying
//! register tensors (one value per register), and building `scf` loops and branches.

use super::*;

impl Lowering {
    /// A register tensor may not cross a `cf` branch between the blocks of a region (as a
    /// block argument): the registers of a tile join only at the region's yields.
    fn check_tile_free_edges(ctx: &Context, blocks: &[BlockId]) -> Result<(), Diagnostic> {
        for &b in blocks {
            if ctx.block_args(b).iter().any(|a| is_reg(ctx, *a)) {
                // The block's first op stands for it (a block ends with a terminator).
                let at = ctx.block_ops(b).next().expect("a block has its terminator");
                return Err(Diagnostic::op(
                    at,
                    "lower-tiles: a register tensor as a block argument (passed by a branch) is \
                     not lowered; yield it from the region instead",
                ));
            }
        }
        Ok(())
    }

    /// An `scf.if`, `scf.index_switch` or `scf.execute_region` whose results include register
    /// tensors: each becomes one result per register, in the layout its type names (else the
    /// layout its first region, the then-branch or the switch's default, yields it in, which
    /// the other regions are gathered into). The registers join only at the yields: every
    /// region is one block ending with its yield, except an execute_region's, which may have
    /// several blocks joined by `cf` branches, each block ending with a branch or a yield, as
    /// long as no register tensor crosses a branch as a block argument.
    pub(super) fn lower_branches(&mut self, ctx: &mut Context, i: OpId) -> Result<(), Diagnostic> {
        let loc = ctx.op(i).loc;
        let name = ctx.op_name_str(i).to_string();
        let def = ctx.op_def(i).expect("a registered scf op");
        let operands = ctx.operands(i).to_vec();
        let regions = ctx.regions(i).to_vec();
        let results = ctx.results(i).to_vec();
        let mut region_blocks: Vec<Vec<BlockId>> = Vec::new();
        for r in &regions {
            let bs = ctx.region_blocks(*r).to_vec();
            match bs.len() {
                1 => {}
                _ if IfOp::is(ctx, i) => {
                    return Err(Diagnostic::op(
                        i,
                        "lower-tiles: an scf.if with register tensor results needs both branches",
                    ))
                }
                n if n > 1 && ExecuteRegionOp::is(ctx, i) => {
                    Self::check_tile_free_edges(ctx, &bs)?;
                }
                n => {
                    return Err(Diagnostic::op(
                        i,
                        format!(
                            "lower-tiles: an {name} with register tensor results needs one block \
                             in each region (a region has {n} blocks)"
                        ),
                    ))
                }
            }
            region_blocks.push(bs);
        }
        // Each block after the blocks that dominate it (the entry, then reverse post-order), so
        // a value is lowered before its uses in other blocks; unreachable blocks last.
        for (r, bs) in regions.iter().zip(&region_blocks) {
            let cfg = tilus_ir::Cfg::new(ctx, *r);
            let mut order: Vec<BlockId> = cfg.reverse_post_order().collect();
            order.extend(bs.iter().copied().filter(|b| !cfg.is_reachable(*b)));
            for bb in order {
                self.block(ctx, bb)?;
            }
        }
        let mut yields: Vec<OpId> = Vec::new();
        for bs in &region_blocks {
            for &bb in bs {
                let last = ctx.block_last(bb);
                match last.filter(|&y| YieldOp::is(ctx, y)) {
                    Some(y) if ctx.operands(y).len() == results.len() => yields.push(y),
                    // A block of several that ends with a branch.
                    None if bs.len() > 1 => {}
                    _ => {
                        return Err(Diagnostic::op(
                            i,
                            format!("lower-tiles: a region of this {name} does not end with the yield of its results"),
                        ))
                    }
                }
            }
        }
        if yields.is_empty() {
            return Err(Diagnostic::op(
                i,
                format!("lower-tiles: no block of this {name} yields its results"),
            ));
        }
        let mut layouts: Vec<Option<RegisterLayout>> = Vec::new();
        for (k, r) in results.iter().enumerate() {
            if !is_reg(ctx, *r) {
                layouts.push(None);
                continue;
            }
            let l = match ty_of(ctx, *r).and_then(|t| t.register_layout()) {
                Some(l) => l,
                None => {
                    let v = ctx.operands(yields[0])[k];
                    self.tile(v)
                        .map_err(|m| Diagnostic::op(i, m))?
                        .layout
                        .clone()
                }
            };
            layouts.push(Some(l));
        }
        let mut rtys: Vec<Type> = Vec::new();
        for y in &yields {
            let yops = ctx.operands(*y).to_vec();
            let mut ny = Vec::new();
            let mut tail = Vec::new();
            for (k, v) in yops.iter().enumerate() {
                match &layouts[k] {
                    Some(l) => {
                        tail.extend(self.gather(ctx, *v, l).map_err(|m| Diagnostic::op(*y, m))?)
                    }
                    None => ny.push(*v),
                }
            }
            ny.extend(tail);
            rtys = ny.iter().map(|v| ctx.value_type(*v)).collect();
            let mut b = before(ctx, *y);
            YieldOp::build(&mut b, &ny);
            ctx.erase_op(*y);
        }
        let mut st = OperationState::of(ctx, def)
            .with_operands(operands)
            .with_results(rtys);
        st.loc = loc;
        st.properties = ctx.op(i).properties;
        let mut new_regions = Vec::new();
        for bs in &region_blocks {
            let r = ctx.create_region();
            crate::lower::set_region_blocks(ctx, r, bs);
            new_regions.push(r);
        }
        st.regions = new_regions;
        let ni = ctx.create_op(st);
        ctx.insert_op_before(i, ni);
        let nres = ctx.results(ni).to_vec();
        let mut scalar_i = 0;
        let mut tail_i = results.iter().filter(|r| !is_reg(ctx, **r)).count();
        for (k, r) in results.iter().enumerate() {
            match &layouts[k] {
                None => {
                    let mut rw = Rewriter::new(ctx);
                    rw.replace_all_uses_with(*r, nres[scalar_i]);
                    scalar_i += 1;
                }
                Some(l) => {
                    let n = l.local_size() as usize;
                    self.set_tile(*r, nres[tail_i..tail_i + n].to_vec(), l.clone(), false);
                    tail_i += n;
                }
            }
        }
        self.dead.push(i);
        self.count += 1;
        Ok(())
    }

    pub(super) fn lower_for(&mut self, ctx: &mut Context, f: OpId) -> Result<(), Diagnostic> {
        let loc = ctx.op(f).loc;
        let ops = ctx.operands(f).to_vec();
        let (bounds, inits) = ops.split_at(3);
        let body = ctx.region_blocks(ctx.regions(f)[0])[0];
        let old_args: Vec<Value> = ctx.block_args(body)[1..].to_vec();
        let results = ctx.results(f).to_vec();
        let mut new_inits = Vec::new();
        let mut tail_inits = Vec::new();
        let mut layouts = Vec::new();
        for (i, &init) in inits.iter().enumerate() {
            if is_reg(ctx, init) {
                let (vals, l) = self.carried(ctx, f, init)?;
                // 16-bit tiles are carried as 32-bit words (two registers each), unpacked
                // right before their first use in the body: a word loaded in the previous
                // iteration is then not waited for before that use, and a store of the tile
                // (a dot's staging) takes the words as they are.
                let packed = ty_of(ctx, init).is_some_and(|t| t.dtype.bits() == 16)
                    && vals.len() % 2 == 0
                    && ctx.next_op(f).is_some();
                let vals = if packed {
                    self.pack_words(ctx, f, &vals)
                } else {
                    vals
                };
                // New block args for its registers.
                let mut args = Vec::new();
                for v in &vals {
                    let t = ctx.value_type(*v);
                    args.push(ctx.add_block_arg(body, t, None));
                }
                tail_inits.extend(vals);
                if packed {
                    let elem = elem_type(ctx, ty_of(ctx, init).expect("a tensor").dtype);
                    let at = first_user_in_block(ctx, ctx.block_first(body), old_args[i]);
                    let halves = self.unpack_words(ctx, at, &args, elem);
                    self.set_tile(old_args[i], halves, l.clone(), false);
                } else {
                    self.set_tile(old_args[i], args, l.clone(), false);
                }
                self.dead_args.push((body, old_args[i]));
                layouts.push(Some((l, packed)));
            } else {
                new_inits.push(init);
                layouts.push(None);
            }
        }
        new_inits.extend(tail_inits);
        self.block(ctx, body)?;
        // The yield.
        let y = ctx
            .block_last(body)
            .expect("an scf.for body ends with its yield");
        let yops = ctx.operands(y).to_vec();
        let mut ny = Vec::new();
        let mut tail = Vec::new();
        for (i, v) in yops.iter().enumerate() {
            match &layouts[i] {
                Some((l, packed)) => {
                    let vals = self.gather(ctx, *v, l).map_err(|m| Diagnostic::op(y, m))?;
                    if *packed {
                        tail.extend(self.pack_words(ctx, y, &vals));
                    } else {
                        tail.extend(vals);
                    }
                }
                None => ny.push(*v),
            }
        }
        ny.extend(tail);
        let mut b = before(ctx, y);
        YieldOp::build(&mut b, &ny);
        ctx.erase_op(y);
        // The new loop.
        let mut operands = bounds.to_vec();
        operands.extend(new_inits.iter().copied());
        let rtys: Vec<Type> = new_inits.iter().map(|v| ctx.value_type(*v)).collect();
        let mut st = OperationState::of(ctx, ForOp::DEF)
            .with_operands(operands)
            .with_results(rtys);
        st.loc = loc;
        st.properties = ctx.op(f).properties;
        let region = ctx.create_region();
        crate::lower::set_region_blocks(ctx, region, &[body]);
        st.regions = vec![region];
        let nf = ctx.create_op(st);
        ctx.insert_op_before(f, nf);
        let nres = ctx.results(nf).to_vec();
        let mut scalar_i = 0;
        let mut tail_i = results.iter().filter(|r| !is_reg(ctx, **r)).count();
        for (i, r) in results.iter().enumerate() {
            match &layouts[i] {
                None => {
                    let mut rw = Rewriter::new(ctx);
                    rw.replace_all_uses_with(*r, nres[scalar_i]);
                    scalar_i += 1;
                }
                Some((l, packed)) => {
                    let k = l.local_size() as usize;
                    if *packed {
                        let words = nres[tail_i..tail_i + k / 2].to_vec();
                        let elem = elem_type(ctx, ty_of(ctx, *r).expect("a tensor").dtype);
                        let at = first_user_in_block(ctx, ctx.next_op(f), *r);
                        let halves = self.unpack_words(ctx, at, &words, elem);
                        self.set_tile(*r, halves, l.clone(), false);
                        tail_i += k / 2;
                    } else {
                        self.set_tile(*r, nres[tail_i..tail_i + k].to_vec(), l.clone(), false);
                        tail_i += k;
                    }
                }
            }
        }
        self.dead.push(f);
        self.count += 1;
        Ok(())
    }
}

impl Lowering {
    /// The registers of register tensor `v` in the layout its type names, else in the layout it
    /// was lowered to: how a loop carries it.
    fn carried(
        &mut self,
        ctx: &mut Context,
        at: OpId,
        v: Value,
    ) -> Result<(Vec<Value>, RegisterLayout), Diagnostic> {
        let l = match ty_of(ctx, v).and_then(|t| t.register_layout()) {
            Some(l) => l,
            None => self
                .tile(v)
                .map_err(|m| Diagnostic::op(at, m))?
                .layout
                .clone(),
        };
        let vals = self.gather(ctx, v, &l).map_err(|m| Diagnostic::op(at, m))?;
        Ok((vals, l))
    }

    /// Replaces block `b`'s register-tensor arguments `old` (by position in `layouts`) with
    /// one argument per register, appended after the others; the old ones are removed later.
    fn split_args(
        &mut self,
        ctx: &mut Context,
        b: BlockId,
        layouts: &[Option<(RegisterLayout, Vec<Type>)>],
    ) {
        let old: Vec<Value> = ctx.block_args(b).to_vec();
        for (i, l) in layouts.iter().enumerate() {
            let Some((l, tys)) = l else { continue };
            let args: Vec<Value> = tys.iter().map(|t| ctx.add_block_arg(b, *t, None)).collect();
            self.set_tile(old[i], args, l.clone(), false);
            self.dead_args.push((b, old[i]));
        }
    }

    /// An `scf.while` whose inits or results include register tensors: each is carried as one
    /// value per register, through `before`'s arguments in the layout of its init (the yield
    /// of `after` is gathered into it) and through `after`'s arguments and the results in the
    /// layout of the value `scf.condition` forwards.
    pub(super) fn lower_while(&mut self, ctx: &mut Context, w: OpId) -> Result<(), Diagnostic> {
        let loc = ctx.op(w).loc;
        let regions = ctx.regions(w).to_vec();
        let (before_b, after_b) = (
            ctx.region_blocks(regions[0])[0],
            ctx.region_blocks(regions[1])[0],
        );
        // Inits, split into registers: `before`'s arguments.
        let inits = ctx.operands(w).to_vec();
        let mut new_inits = Vec::new();
        let mut tail = Vec::new();
        let mut in_layouts = Vec::new();
        for &v in &inits {
            if is_reg(ctx, v) {
                let (vals, l) = self.carried(ctx, w, v)?;
                let tys = vals.iter().map(|x| ctx.value_type(*x)).collect();
                tail.extend(vals);
                in_layouts.push(Some((l, tys)));
            } else {
                new_inits.push(v);
                in_layouts.push(None);
            }
        }
        new_inits.extend(tail);
        self.split_args(ctx, before_b, &in_layouts);
        self.block(ctx, before_b)?;
        // The condition's forwarded values: `after`'s arguments and the results.
        let cond = ctx
            .block_last(before_b)
            .filter(|&c| ConditionOp::is(ctx, c))
            .ok_or_else(|| {
                Diagnostic::op(
                    w,
                    "lower-tiles: an scf.while's 'before' region must end with scf.condition",
                )
            })?;
        let cops = ctx.operands(cond).to_vec();
        let mut fwd = Vec::new();
        let mut tail = Vec::new();
        let mut out_layouts = Vec::new();
        for &v in &cops[1..] {
            if is_reg(ctx, v) {
                let (vals, l) = self.carried(ctx, cond, v)?;
                let tys = vals.iter().map(|x| ctx.value_type(*x)).collect();
                tail.extend(vals);
                out_layouts.push(Some((l, tys)));
            } else {
                fwd.push(v);
                out_layouts.push(None);
            }
        }
        fwd.extend(tail);
        let mut b = before(ctx, cond);
        ConditionOp::build(&mut b, cops[0], &fwd);
        ctx.erase_op(cond);
        self.split_args(ctx, after_b, &out_layouts);
        self.block(ctx, after_b)?;
        // The yield of `after`, gathered into `before`'s layouts.
        let y = ctx
            .block_last(after_b)
            .expect("an scf.while's 'after' region ends with its yield");
        let yops = ctx.operands(y).to_vec();
        let mut ny = Vec::new();
        let mut tail = Vec::new();
        for (i, v) in yops.iter().enumerate() {
            match in_layouts.get(i).and_then(|x| x.as_ref()) {
                Some((l, _)) => {
                    tail.extend(self.gather(ctx, *v, l).map_err(|m| Diagnostic::op(y, m))?)
                }
                None => ny.push(*v),
            }
        }
        ny.extend(tail);
        let mut b = before(ctx, y);
        YieldOp::build(&mut b, &ny);
        ctx.erase_op(y);
        // The new loop, with the same blocks.
        let rtys: Vec<Type> = fwd.iter().map(|v| ctx.value_type(*v)).collect();
        let mut st = OperationState::of(ctx, WhileOp::DEF)
            .with_operands(new_inits)
            .with_results(rtys);
        st.loc = loc;
        st.properties = ctx.op(w).properties;
        let (rb, ra) = (ctx.create_region(), ctx.create_region());
        crate::lower::set_region_blocks(ctx, rb, &[before_b]);
        crate::lower::set_region_blocks(ctx, ra, &[after_b]);
        st.regions = vec![rb, ra];
        let nw = ctx.create_op(st);
        ctx.insert_op_before(w, nw);
        let nres = ctx.results(nw).to_vec();
        let results = ctx.results(w).to_vec();
        let mut scalar_i = 0;
        let mut tail_i = out_layouts.iter().filter(|l| l.is_none()).count();
        for (i, r) in results.iter().enumerate() {
            match &out_layouts[i] {
                None => {
                    let mut rw = Rewriter::new(ctx);
                    rw.replace_all_uses_with(*r, nres[scalar_i]);
                    scalar_i += 1;
                }
                Some((l, tys)) => {
                    let k = tys.len();
                    self.set_tile(*r, nres[tail_i..tail_i + k].to_vec(), l.clone(), false);
                    tail_i += k;
                }
            }
        }
        self.dead.push(w);
        self.count += 1;
        Ok(())
    }
}

/// `scf.if cond -> (tys) { then } else { else }`, returning the results.
/// `scf.for %i = lo to hi step st iter_args(inits)` (i32 bounds) with the body from `body_f`
/// (given the induction variable and the carried values, returning the yielded ones).
pub(super) fn build_for(
    b: &mut OpBuilder<'_>,
    lo: Value,
    hi: Value,
    st: Value,
    inits: &[Value],
    body_f: impl FnOnce(&mut OpBuilder<'_>, Value, &[Value]) -> Vec<Value>,
) -> Vec<Value> {
    let i32t = b.i32();
    let mut arg_tys = vec![i32t];
    arg_tys.extend(inits.iter().map(|v| b.ctx().value_type(*v)));
    let ctx = b.ctx_mut();
    let body = ctx.create_block(&arg_tys);
    let region = ctx.create_region();
    ctx.push_block(region, body);
    let loc = b.loc();
    let mut operands = vec![lo, hi, st];
    operands.extend(inits);
    let mut state = OperationState::of(b.ctx_mut(), ForOp::DEF)
        .with_operands(operands)
        .with_results(arg_tys[1..].to_vec())
        .with_regions(vec![region]);
    state.loc = loc;
    let f = b.create(state);
    let saved = b.insertion_point();
    b.set_insertion_point_to_end(body);
    let args = b.ctx().block_args(body).to_vec();
    let ys = body_f(b, args[0], &args[1..]);
    YieldOp::build(b, &ys);
    b.set_insertion_point(saved);
    b.ctx().results(f).to_vec()
}

pub(super) fn build_if(
    b: &mut OpBuilder<'_>,
    cond: Value,
    tys: &[Type],
    then_f: impl FnOnce(&mut OpBuilder<'_>) -> Vec<Value>,
    else_f: impl FnOnce(&mut OpBuilder<'_>) -> Vec<Value>,
) -> Vec<Value> {
    let ctx = b.ctx_mut();
    let tb = ctx.create_block(&[]);
    let eb = ctx.create_block(&[]);
    let tr = ctx.create_region();
    ctx.push_block(tr, tb);
    let er = ctx.create_region();
    ctx.push_block(er, eb);
    let loc = b.loc();
    let mut st = OperationState::of(b.ctx_mut(), IfOp::DEF)
        .with_operands(vec![cond])
        .with_results(tys.to_vec())
        .with_regions(vec![tr, er]);
    st.loc = loc;
    let i = b.create(st);
    let saved = b.insertion_point();
    b.set_insertion_point_to_end(tb);
    let tv = then_f(b);
    YieldOp::build(b, &tv);
    b.set_insertion_point_to_end(eb);
    let ev = else_f(b);
    YieldOp::build(b, &ev);
    b.set_insertion_point(saved);
    b.ctx().results(i).to_vec()
}

/// The first op from `start` on in its block that uses `v` (itself or inside its regions),
/// else the block's last op: where a value available before `start` is needed at the latest.
fn first_user_in_block(ctx: &Context, start: Option<OpId>, v: Value) -> OpId {
    let mut cur = start;
    let mut last = start.expect("a block with ops after the value's definition");
    while let Some(op) = cur {
        let mut uses = false;
        ctx.walk(op, &mut |x| uses |= ctx.operands(x).contains(&v));
        if uses {
            return op;
        }
        last = op;
        cur = ctx.next_op(op);
    }
    last
}
