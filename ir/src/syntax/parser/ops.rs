//! Ops, regions and SSA values: the generic and custom op forms, value and block scopes,
//! forward references, successors, and the fast paths for op results, generic heads and block
//! labels.

use super::*;

impl<'c, 's> Parser<'c, 's> {
    fn push_scope(&mut self, isolated: bool) {
        self.scopes.push(Scope {
            values: HashMap::default(),
            forward: vec![],
            isolated,
        });
        self.block_scopes.push(BlockScope {
            blocks: HashMap::default(),
        });
    }

    pub(super) fn pop_scope(&mut self) {
        let scope = self.scopes.pop().expect("scope");
        let mut unresolved = Vec::new();
        for (name, num, ph, span) in scope.forward {
            // A value first used in a nested region may be defined later in an enclosing one.
            if !scope.isolated && !self.scopes.is_empty() {
                self.scopes
                    .last_mut()
                    .unwrap()
                    .forward
                    .push((name, num, ph, span));
            } else {
                unresolved.push((name, span));
            }
        }
        for (name, span) in unresolved {
            self.diags.push(Diagnostic::at(
                span,
                format!("use of undeclared SSA value name '{name}'"),
            ));
        }
    }

    fn pop_block_scope(&mut self) {
        let bs = self.block_scopes.pop().expect("block scope");
        let mut undefined: Vec<(String, Span)> = bs
            .blocks
            .into_iter()
            .filter(|(_, (_, d, _))| !d)
            .map(|(n, (_, _, s))| (n, s))
            .collect();
        undefined.sort_by_key(|(_, s)| s.start);
        for (name, span) in undefined {
            self.diags.push(Diagnostic::at(
                span,
                format!("reference to an undefined block '{name}'"),
            ));
        }
    }

    /// Binds a name to `count` consecutive values starting at `first` (an op's result group,
    /// or one block argument).
    fn define_values(
        &mut self,
        name: Cow<'s, str>,
        first: Value,
        count: u32,
        span: Span,
    ) -> PResult<()> {
        let scope = self.scopes.last_mut().unwrap();
        if let Some(&(_, _, prev)) = scope.values.get(name.as_ref()) {
            return Err(
                Diagnostic::at(span, format!("redefinition of SSA value '{name}'"))
                    .with_note(DiagLoc::Span(prev), "previously defined here"),
            );
        }
        // Resolve forward references to this name.
        let mut i = 0;
        let mut err = None;
        while i < scope.forward.len() {
            if scope.forward[i].0 == name {
                let (_, num, ph, use_span) = scope.forward.swap_remove(i);
                if num < count {
                    let real = Value(first.0 + num);
                    let (pt, rt) = (self.ctx.value_type(ph), self.ctx.value_type(real));
                    if pt != rt && err.is_none() {
                        err = Some(
                            Diagnostic::at(use_span, format!(
                                "use of value '{name}' expects different type than prior uses: '{}' vs '{}'",
                                crate::syntax::printer::type_to_string(self.ctx, pt),
                                crate::syntax::printer::type_to_string(self.ctx, rt)
                            ))
                            .with_note(DiagLoc::Span(span), "prior use here"),
                        );
                    }
                    self.ctx.replace_all_uses(ph, real);
                } else {
                    err.get_or_insert_with(|| Diagnostic::at(use_span, format!("result number {num} of '{name}' is out of range (it has {count} results)")));
                }
                continue;
            }
            i += 1;
        }
        scope.values.insert(name, (first, count, span));
        match err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Resolves an operand reference with its expected type (creating a forward reference when the
    /// value is defined later).
    pub fn resolve_operand(&mut self, u: &UnresolvedOperand, ty: Type) -> PResult<Value> {
        match self.lookup_operand(&u.name, u.number, u.span, ty)? {
            Some(v) => Ok(v),
            None => self.forward_operand(Cow::Owned(u.name.clone()), u.number, u.span, ty),
        }
    }

    /// [`Parser::resolve_operand`] for a name borrowed from the source.
    fn resolve_operand_ref(&mut self, u: OperandRef<'s>, ty: Type) -> PResult<Value> {
        match self.lookup_operand(u.name, u.number, u.span, ty)? {
            Some(v) => Ok(v),
            None => self.forward_operand(Cow::Borrowed(u.name), u.number, u.span, ty),
        }
    }

    /// A value already defined in a visible scope, checked against the expected type.
    fn lookup_operand(
        &mut self,
        name: &str,
        number: u32,
        span: Span,
        ty: Type,
    ) -> PResult<Option<Value>> {
        for scope in self.scopes.iter().rev() {
            if let Some(&(first, count, def_span)) = scope.values.get(name) {
                if number >= count {
                    return Err(Diagnostic::at(
                        span,
                        format!(
                            "result number {number} of '{name}' is out of range (it has {count} results)"
                        ),
                    ));
                }
                let v = Value(first.0 + number);
                let vt = self.ctx.value_type(v);
                if vt != ty {
                    return Err(Diagnostic::at(
                        span,
                        format!(
                            "use of value '{}' expects different type than prior uses: '{}' vs '{}'",
                            name,
                            crate::syntax::printer::type_to_string(self.ctx, ty),
                            crate::syntax::printer::type_to_string(self.ctx, vt)
                        ),
                    )
                    .with_label(format!("used here as '{}'", crate::syntax::printer::type_to_string(self.ctx, ty)))
                    .with_note(DiagLoc::Span(def_span), format!("'{}' is defined here with type '{}'", name, crate::syntax::printer::type_to_string(self.ctx, vt))));
                }
                return Ok(Some(v));
            }
            if scope.isolated {
                break;
            }
        }
        Ok(None)
    }

    /// A forward reference in the innermost scope; reuses a placeholder of the same name/number.
    fn forward_operand(
        &mut self,
        name: Cow<'s, str>,
        number: u32,
        span: Span,
        ty: Type,
    ) -> PResult<Value> {
        let scope_idx = self.scopes.len() - 1;
        if let Some((_, _, ph, _)) = self.scopes[scope_idx]
            .forward
            .iter()
            .find(|(n, k, _, _)| *n == name && *k == number)
        {
            let ph = *ph;
            if self.ctx.value_type(ph) != ty {
                return Err(Diagnostic::at(
                    span,
                    format!("use of value '{name}' expects different type than prior uses"),
                ));
            }
            return Ok(ph);
        }
        let fb = match self.fwd_block {
            Some(b) => b,
            None => {
                let b = self.ctx.create_block(&[]);
                self.fwd_block = Some(b);
                b
            }
        };
        let ph = self.ctx.add_block_arg(fb, ty, None);
        self.scopes[scope_idx]
            .forward
            .push((name, number, ph, span));
        Ok(ph)
    }

    fn block_ref(&mut self, name: &str, span: Span) -> BlockId {
        let bs = self.block_scopes.last_mut().unwrap();
        if let Some((b, _, _)) = bs.blocks.get(name) {
            return *b;
        }
        let b = self.ctx.create_block(&[]);
        self.block_scopes
            .last_mut()
            .unwrap()
            .blocks
            .insert(name.to_string(), (b, false, span));
        b
    }

    /// Parses one op (generic or custom) and returns it detached.
    pub fn parse_op(&mut self) -> PResult<OpId> {
        self.skip_ws();
        let start = self.pos;
        // Result names go on a stack shared by nested ops (they finish before this op binds).
        let base = self.result_stack.len();
        if self.src[self.pos..].starts_with('%') && !self.fast_op_results() {
            self.result_stack.truncate(base);
            self.pos = start;
            self.check_digit_led_name()?;
            let p = self.rule(Rule::op_results)?;
            for r in p.into_inner() {
                let span = self.off(&r);
                let mut it = r.into_inner();
                let name = it.next().unwrap().as_str();
                let count = match it.next() {
                    Some(n) => n
                        .as_str()
                        .parse::<u32>()
                        .map_err(|_| Diagnostic::at(span, "invalid result count"))?,
                    None => 1,
                };
                if count == 0 {
                    return Err(Diagnostic::at(
                        span,
                        "expected named operation to have at least 1 result",
                    ));
                }
                self.result_stack.push((name, count, span));
            }
        }
        let end = self.result_stack.len();
        let total: u32 = self.result_stack[base..end].iter().map(|r| r.1).sum();
        self.skip_ws();
        // MLIR locates an op at its name token, not at its result list.
        let loc_default = self.default_loc_at(self.pos);
        let op = if self.src[self.pos..].starts_with('"') {
            self.parse_generic_op(loc_default)?
        } else {
            self.parse_custom_op(total as usize, loc_default)?
        };
        // Bind result names.
        let vals = self.ctx.results(op);
        let (first, num_vals) = (vals.first().copied(), vals.len());
        if end > base && total as usize != num_vals {
            let sp = Span::new(start, self.result_stack[end - 1].2.end);
            self.result_stack.truncate(base);
            return Err(Diagnostic::at(
                sp,
                format!("operation defines {num_vals} results but was provided {total} to bind"),
            ));
        }
        let mut i = 0u32;
        for k in base..end {
            let (name, count, span) = self.result_stack[k];
            let v = Value(first.map_or(0, |f| f.0) + i);
            i += count;
            if let Err(e) = self.define_values(Cow::Borrowed(name), v, count, span) {
                self.result_stack.truncate(base);
                return Err(e);
            }
        }
        self.result_stack.truncate(base);
        Ok(op)
    }

    fn parse_generic_op(&mut self, loc_default: Option<usize>) -> PResult<OpId> {
        let mut name_span = Span::default();
        let mut name: Cow<'s, str> = Cow::Borrowed("");
        // Operands go on a stack shared by nested ops, like result names.
        let base = self.operand_stack.len();
        let mut succs: Vec<(BlockId, Vec<(UnresolvedOperand, Type)>)> = Vec::new();
        let mut props = None;
        let mut props_span = None;
        let head_start = self.pos;
        let mut fast_name = "";
        let head = match self.fast_generic_head(&mut fast_name, &mut name_span) {
            true => {
                name = Cow::Borrowed(fast_name);
                // The rare parts (successors, properties) still go through the grammar.
                if self.peek() == Some(b'[') {
                    let p = self.rule(Rule::successors)?;
                    for s in p.into_inner() {
                        succs.push(self.successor(s)?);
                    }
                }
                if self.peek() == Some(b'<') {
                    let ps = self.pos;
                    self.pos += 1;
                    let ds = self.pos;
                    // Whole property dictionaries repeat (`<{overflowFlags = ...}>` on every
                    // integer op): found by their text, they cost no parsing at all.
                    let cached = self.cached_dict(ds);
                    let fast = match cached {
                        Some(_) => None,
                        None if self.peek() == Some(b'{') => self.fast_attr_dict()?,
                        None => None,
                    };
                    match (cached, fast) {
                        (Some(a), _) if self.peek() == Some(b'>') => {
                            self.pos += 1;
                            props_span = Some(Span::new(ps, self.pos));
                            props = Some(a);
                        }
                        (None, Some(entries)) if self.peek() == Some(b'>') => {
                            let de = self.pos;
                            self.pos += 1;
                            props_span = Some(Span::new(ps, self.pos));
                            let entries = entries.into_iter().map(|(k, v, _)| (k, v)).collect();
                            let a = self.ctx.dict_attr(entries);
                            self.remember_dict(ds, de, a);
                            props = Some(a);
                        }
                        _ => {
                            self.pos = ps;
                            let p = self.rule(Rule::properties)?;
                            props_span = Some(self.off(&p));
                            props = Some(self.attribute(p.into_inner().next().unwrap())?);
                        }
                    }
                }
                None
            }
            false => {
                self.pos = head_start;
                self.operand_stack.truncate(base);
                Some(self.rule(Rule::generic_head)?)
            }
        };
        for p in head.into_iter().flat_map(|h| h.into_inner()) {
            match p.as_rule() {
                Rule::string_lit => {
                    name_span = self.off(&p);
                    name = Cow::Owned(String::from_utf8_lossy(&unescape(p.as_str())).into_owned());
                }
                Rule::value_uses => {
                    for u in p.into_inner() {
                        let r = self.operand_ref(u);
                        self.operand_stack.push(r);
                    }
                }
                Rule::successors => {
                    for s in p.into_inner() {
                        succs.push(self.successor(s)?);
                    }
                }
                Rule::properties => {
                    props_span = Some(self.off(&p));
                    props = Some(self.attribute(p.into_inner().next().unwrap())?);
                }
                _ => unreachable!(),
            }
        }
        let num_uses = self.operand_stack.len() - base;
        if name.is_empty() {
            return Err(Diagnostic::at(name_span, "empty operation name is invalid"));
        }
        let opname = self.ctx.op_name(&name);
        // Regions.
        let mut regions = Vec::new();
        if self.peek() == Some(b'(') {
            self.pos += 1;
            let def = self.ctx.def_of(opname);
            let isolated = def.is_some_and(|d| d.is_isolated());
            // The generic form does not ask the op for a default dialect (MLIR's parser does
            // not): its regions resolve unprefixed names as the enclosing scope does.
            let inherited = self.default_dialects.last().copied().flatten();
            self.default_dialects.push(inherited);
            loop {
                let r = self.parse_region(Vec::new(), isolated);
                match r {
                    Ok(r) => regions.push(r),
                    Err(e) => {
                        self.default_dialects.pop();
                        return Err(e);
                    }
                }
                if !self.eat(",") {
                    break;
                }
            }
            self.default_dialects.pop();
            self.expect(")")?;
        }
        let mut attrs = Vec::new();
        let fty;
        let loc;
        let mut attr_spans: Vec<(u32, Span)> = Vec::new();
        let fty_span;
        // The tail `{attrs} : (T, ...) -> U loc(...)`, piece by piece so the function type can take
        // the fast path; each piece is the grammar rule `generic_tail` is made of.
        if self.peek() == Some(b'{') {
            let entries = self.parse_attr_dict()?;
            attrs.reserve_exact(entries.len());
            attr_spans.reserve_exact(entries.len());
            for (k, v, sp) in entries {
                attr_spans.push((self.source_map.name_id(&k), sp));
                attrs.push((k, v));
            }
        }
        self.expect(":")?;
        self.skip_ws();
        let fs = self.pos;
        match self.fast_function_type() {
            Some(t) => {
                fty = Some(t);
                fty_span = Span::new(fs, self.pos);
            }
            None => {
                let t = self.grammar_function_type()?;
                fty_span = Span::new(fs, self.pos);
                fty = Some(t);
            }
        }
        let mut fwd_loc = None;
        if self.peek_str("loc(") {
            (loc, fwd_loc) = self.parse_op_loc()?;
        } else {
            loc = self.default_loc(loc_default);
        }
        let fty = fty.unwrap();
        // Operand and result types, in a buffer reused across ops.
        let mut types = std::mem::take(&mut self.type_scratch);
        types.clear();
        let num_inputs = match self.ctx.type_kind(fty) {
            TypeKind::Function { inputs, results } => {
                types.extend_from_slice(inputs);
                types.extend_from_slice(results);
                inputs.len()
            }
            _ => unreachable!(),
        };
        if num_inputs != num_uses {
            return Err(Diagnostic::at(
                fty_span,
                format!(
                    "expected {} operand type{} but had {}",
                    num_uses,
                    if num_uses == 1 { "" } else { "s" },
                    num_inputs
                ),
            ));
        }
        let mut operands = Vec::with_capacity(num_uses);
        for (k, &ty) in types.iter().enumerate().take(num_uses) {
            let u = self.operand_stack[base + k];
            operands.push(self.resolve_operand_ref(u, ty)?);
        }
        self.operand_stack.truncate(base);
        let mut successors = Vec::new();
        for (b, args) in succs {
            for (u, t) in args {
                operands.push(self.resolve_operand(&u, t)?);
            }
            successors.push(b);
        }
        let op = self.ctx.create_op_with_types(
            OperationState {
                name: opname,
                operands,
                result_types: Vec::new(),
                properties: props,
                attrs,
                regions,
                successors,
                loc,
            },
            &types[num_inputs..],
        );
        self.type_scratch = types;
        if let Some((name, sp)) = fwd_loc {
            self.fwd_op_locs.push((op, name, sp));
        }
        self.source_map.set_op_name(op, name_span);
        for (k, sp) in attr_spans {
            self.source_map.set_op_attr_id(op, k, sp, false);
        }
        if let (Some(sp), Some(p)) = (props_span, props) {
            if let AttrKind::Dict(entries) = self.ctx.attr_kind(p) {
                for (k, _) in entries {
                    self.source_map.set_op_attr(op, k, sp, true);
                }
            }
        }
        Ok(op)
    }

    fn parse_custom_op(&mut self, num_results: usize, loc_default: Option<usize>) -> PResult<OpId> {
        let p = self.rule(Rule::custom_op_name).map_err(|_| {
            let mut d = self.err_here("expected operation name in quotes or a custom op name");
            d.label = Some("expected an operation".into());
            d
        })?;
        let name_span = self.off(&p);
        let written = p.as_str();
        let mut candidates = Vec::new();
        if written.contains('.') {
            candidates.push(written.to_string());
        }
        // The enclosing op's default dialect only applies to names without a dialect prefix:
        // builtin at the top level and in a module, func in a function, none in the regions of
        // a custom-form op that names none (MLIR rejects `call` in an `scf.for` body).
        if let (Some(Some(d)), false) = (self.default_dialects.last(), written.contains('.')) {
            candidates.push(format!("{d}.{written}"));
        }
        let def = candidates
            .iter()
            .find_map(|c| self.ctx.lookup_op_name(c).and_then(|n| self.ctx.def_of(n)));
        let Some(def) = def else {
            let tried: Vec<String> = candidates
                .iter()
                .filter(|c| *c != written)
                .map(|c| format!("'{c}'"))
                .collect();
            let mut d = Diagnostic::at(
                name_span,
                if tried.is_empty() {
                    format!("custom op '{written}' is unknown")
                } else {
                    format!(
                        "custom op '{written}' is unknown (tried {} as well)",
                        tried.join(", ")
                    )
                },
            )
            .with_label("unknown operation");
            if !self.ctx.allow_unregistered || !written.contains('.') {
                d.help = Some("ops of dialects that are not registered must be written in generic form, e.g. \"dialect.op\"(%x) : (i32) -> ()".into());
            } else {
                d.help = Some("unregistered ops can only be written in generic form: \"dialect.op\"(...) : (...) -> (...)".into());
            }
            return Err(d);
        };
        let implicit_mark = self.implicit_ops.len();
        // A custom-form op sets the default dialect of its regions (none unless it names one),
        // however its format parses them.
        self.default_dialects.push(def.default_dialect);
        let st = crate::format::parse_custom(self, def, num_results);
        self.default_dialects.pop();
        let mut st = st?;
        // Trailing location.
        let mut fwd_loc = None;
        if self.peek_str("loc(") {
            (st.loc, fwd_loc) = self.parse_op_loc()?;
        } else {
            st.loc = self.default_loc(loc_default);
        }
        for o in self
            .implicit_ops
            .split_off(implicit_mark.min(self.implicit_ops.len()))
        {
            self.ctx.op_mut(o).loc = st.loc;
            if let Some((name, sp)) = fwd_loc {
                self.fwd_op_locs.push((o, name, sp));
            }
        }
        st.name = self.ctx.op_name(def.name);
        let attr_spans = std::mem::take(&mut self.pending_attr_spans);
        let op = self.ctx.create_op(st);
        if let Some((name, sp)) = fwd_loc {
            self.fwd_op_locs.push((op, name, sp));
        }
        self.source_map.set_op_name(op, name_span);
        for (k, sp) in attr_spans {
            self.source_map.set_op_attr(op, &k, sp, false);
        }
        Ok(op)
    }

    fn unresolved(&self, u: Pair<'s, Rule>) -> UnresolvedOperand {
        let r = self.operand_ref(u);
        UnresolvedOperand {
            name: r.name.to_string(),
            number: r.number,
            span: r.span,
        }
    }

    fn operand_ref(&self, u: Pair<'s, Rule>) -> OperandRef<'s> {
        let span = self.off(&u);
        let mut it = u.into_inner();
        let name = it.next().unwrap().as_str();
        let number = it
            .next()
            .map(|n| n.as_str().parse().unwrap_or(u32::MAX))
            .unwrap_or(0);
        OperandRef { name, number, span }
    }

    fn successor(
        &mut self,
        s: Pair<'s, Rule>,
    ) -> PResult<(BlockId, Vec<(UnresolvedOperand, Type)>)> {
        let mut it = s.into_inner();
        let id = it.next().unwrap();
        let sp = self.off(&id);
        let b = self.block_ref(id.as_str(), sp);
        let mut uses = Vec::new();
        let mut types = Vec::new();
        for p in it {
            match p.as_rule() {
                Rule::value_use => uses.push(self.unresolved(p)),
                _ => types.push(self.type_(p)?),
            }
        }
        if uses.len() != types.len() {
            return Err(Diagnostic::at(
                sp,
                format!(
                    "expected {} types for successor operands, found {}",
                    uses.len(),
                    types.len()
                ),
            ));
        }
        Ok((b, uses.into_iter().zip(types).collect()))
    }

    /// Parses `{ ... }` as a region. `entry_args` are arguments declared outside (custom forms).
    pub fn parse_region(
        &mut self,
        entry_args: Vec<RegionArg>,
        isolated: bool,
    ) -> PResult<RegionId> {
        self.expect("{")?;
        self.push_scope(isolated);
        let region = self.ctx.create_region();
        let r = self.parse_region_body(region, entry_args);
        // Always unwind scopes, even on error, so recovery starts clean.
        if r.is_err() {
            self.scopes.pop();
            self.block_scopes.pop();
            return r.map(|_| region);
        }
        self.pop_scope();
        self.pop_block_scope();
        Ok(region)
    }

    fn parse_region_body(&mut self, region: RegionId, entry_args: Vec<RegionArg>) -> PResult<()> {
        if self.eat("}") {
            if !entry_args.is_empty() {
                let b = self.ctx.create_block(&[]);
                self.ctx.push_block(region, b);
                self.define_block_args(b, entry_args)?;
            }
            return Ok(());
        }
        let mut cur = None;
        if self.peek() != Some(b'^') {
            let b = self.ctx.create_block(&[]);
            self.ctx.push_block(region, b);
            self.define_block_args(b, entry_args)?;
            cur = Some(b);
        } else if !entry_args.is_empty() {
            return Err(self.err_here("invalid block name in region with named arguments"));
        }
        loop {
            match self.peek() {
                None => return Err(self.err_here("expected '}' to end the region")),
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'^') => {
                    let (name, sp, args) = match self.fast_block_label() {
                        Some(l) => l,
                        None => {
                            let lab = self.rule(Rule::block_label)?;
                            let mut it = lab.into_inner();
                            let id = it.next().unwrap();
                            let sp = self.off(&id);
                            let mut args = Vec::new();
                            for a in it {
                                let asp = self.off(&a);
                                let mut ai = a.into_inner();
                                let n = ai.next().unwrap().as_str().to_string();
                                let t = self.type_(ai.next().unwrap())?;
                                let l = match ai.next() {
                                    Some(l) => Some(self.loc_attr(l)?),
                                    None => None,
                                };
                                args.push(RegionArg {
                                    name: n,
                                    ty: t,
                                    loc: l,
                                    span: asp,
                                });
                            }
                            (id.as_str(), sp, args)
                        }
                    };
                    let b = self.block_ref(name, sp);
                    let entry = self
                        .block_scopes
                        .last_mut()
                        .unwrap()
                        .blocks
                        .get_mut(name)
                        .unwrap();
                    if entry.1 {
                        let prev = entry.2;
                        return Err(
                            Diagnostic::at(sp, format!("redefinition of block '{name}'"))
                                .with_note(DiagLoc::Span(prev), "previously defined here"),
                        );
                    }
                    entry.1 = true;
                    entry.2 = sp;
                    self.ctx.push_block(region, b);
                    self.define_block_args(b, args)?;
                    cur = Some(b);
                }
                Some(_) => {
                    let op = self.parse_op()?;
                    self.ctx.append_op(cur.unwrap(), op);
                }
            }
        }
    }

    fn define_block_args(&mut self, b: BlockId, args: Vec<RegionArg>) -> PResult<()> {
        for a in args {
            let loc = a.loc.or_else(|| {
                if self.file_locations {
                    Some(self.loc_of(a.span.start))
                } else {
                    None
                }
            });
            let v = self.ctx.add_block_arg(b, a.ty, loc);
            self.define_values(Cow::Owned(a.name), v, 1, a.span)?;
        }
        Ok(())
    }

    /// Parses a successor reference `^bb` (custom forms); operands are parsed by the format.
    pub fn parse_successor_ref(&mut self) -> PResult<BlockId> {
        let p = self.rule(Rule::caret_id)?;
        let sp = self.off(&p);
        Ok(self.block_ref(p.as_str(), sp))
    }

    /// Parses `%name` or `%name#N`.
    pub fn parse_operand(&mut self) -> PResult<UnresolvedOperand> {
        let p = self.rule(Rule::value_use)?;
        Ok(self.unresolved(p))
    }

    /// Parses `%name` (a name being defined, e.g. a region argument).
    pub fn parse_value_name(&mut self) -> PResult<(String, Span)> {
        let p = self.rule(Rule::value_id)?;
        Ok((p.as_str().to_string(), self.off(&p)))
    }

    /// Pushes the default dialect used to resolve unqualified op names inside a custom op's regions.
    pub fn push_default_dialect(&mut self, d: Option<&'static str>) {
        self.default_dialects.push(d);
    }

    /// Pops what [`Parser::push_default_dialect`] pushed.
    pub fn pop_default_dialect(&mut self) {
        self.default_dialects.pop();
    }

    //
    // The grammar in `mlir.pest` defines the syntax. These hand-written paths recognise only the
    // commonest simple spellings (SSA names, plain op-name strings, builtin scalar and function
    // types) and build exactly what the grammar's rules would; on anything else they return
    // "not handled" with the cursor where it was, and the caller runs the pest rule.

    /// `%a, %b:2 =`.
    fn fast_op_results(&mut self) -> bool {
        if self.grammar_only {
            return false;
        }
        let src: &'s str = self.src;
        let b = src.as_bytes();
        loop {
            self.skip_ws();
            let s = self.pos;
            if b.get(s) != Some(&b'%') {
                return false;
            }
            // `%1abc` is no name (a number-led name is digits only); the grammar reports it.
            let Some(e) = self.suffix_id_end(s + 1) else {
                return false;
            };
            let mut count = 1;
            let mut end = e;
            if b.get(e) == Some(&b':') {
                let mut d = e + 1;
                while d < b.len() && b[d].is_ascii_digit() {
                    d += 1;
                }
                match self.src[e + 1..d].parse::<u32>() {
                    Ok(n) if n > 0 => count = n,
                    _ => return false,
                }
                end = d;
            }
            self.result_stack
                .push((&src[s..e], count, Span::new(s, end)));
            self.pos = end;
            self.skip_ws();
            match b.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b'=') if b.get(self.pos + 1) != Some(&b'=') => {
                    self.pos += 1;
                    return true;
                }
                _ => return false,
            }
        }
    }

    /// `"name"(%a, %b#1)` with a name free of escapes.
    fn fast_generic_head(&mut self, name: &mut &'s str, name_span: &mut Span) -> bool {
        if self.grammar_only {
            return false;
        }
        let src: &'s str = self.src;
        let b = src.as_bytes();
        let s = self.pos;
        if b.get(s) != Some(&b'"') {
            return false;
        }
        let mut e = s + 1;
        while e < b.len() && b[e] != b'"' {
            if b[e] == b'\\' || b[e] == b'\n' {
                return false;
            }
            e += 1;
        }
        if e >= b.len() || e == s + 1 {
            return false;
        }
        *name = &src[s + 1..e];
        *name_span = Span::new(s, e + 1);
        self.pos = e + 1;
        if self.peek() != Some(b'(') {
            return false;
        }
        self.pos += 1;
        if self.peek() == Some(b')') {
            self.pos += 1;
            return true;
        }
        loop {
            self.skip_ws();
            let us = self.pos;
            if b.get(us) != Some(&b'%') {
                return false;
            }
            let Some(ue) = self.suffix_id_end(us + 1) else {
                return false;
            };
            let mut number = 0;
            let mut end = ue;
            if b.get(ue) == Some(&b'#') {
                let mut d = ue + 1;
                while d < b.len() && b[d].is_ascii_digit() {
                    d += 1;
                }
                match self.src[ue + 1..d].parse::<u32>() {
                    Ok(n) => number = n,
                    Err(_) => return false,
                }
                end = d;
            }
            self.operand_stack.push(OperandRef {
                name: &src[us..ue],
                number,
                span: Span::new(us, end),
            });
            self.pos = end;
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b')') => {
                    self.pos += 1;
                    return true;
                }
                _ => return false,
            }
        }
    }

    /// `^name(%a: T loc(...), ...):` with builtin scalar argument types; `None` (cursor
    /// restored) for anything else.
    fn fast_block_label(&mut self) -> Option<(&'s str, Span, Vec<RegionArg>)> {
        if self.grammar_only {
            return None;
        }
        let save = self.pos;
        let r = self.fast_block_label_inner();
        if r.is_none() {
            self.pos = save;
        }
        r
    }

    /// The end of a `suffix_id` after a sigil at `s`: digits only, or an identifier.
    fn suffix_id_end(&self, s: usize) -> Option<usize> {
        let b = self.src.as_bytes();
        let e = self.ident_end(s);
        if e == s || (b[s].is_ascii_digit() && !b[s..e].iter().all(u8::is_ascii_digit)) {
            return None;
        }
        Some(e)
    }

    fn fast_block_label_inner(&mut self) -> Option<(&'s str, Span, Vec<RegionArg>)> {
        let src: &'s str = self.src;
        let b = src.as_bytes();
        let s = self.pos;
        let e = self.suffix_id_end(s + 1)?;
        self.pos = e;
        let mut args = Vec::new();
        if b.get(e) == Some(&b'(') {
            self.pos += 1;
            if self.peek()? == b')' {
                self.pos += 1;
            } else {
                loop {
                    self.skip_ws();
                    let a = self.pos;
                    if b.get(a) != Some(&b'%') {
                        return None;
                    }
                    let ae = self.suffix_id_end(a + 1)?;
                    self.pos = ae;
                    if self.peek()? != b':' {
                        return None;
                    }
                    self.pos += 1;
                    let ty = self.fast_scalar_type()?;
                    if matches!(b.get(self.pos), Some(b'<' | b'x')) {
                        return None;
                    }
                    let loc = if self.peek_str("loc(") {
                        Some(self.fast_loc_attr()?.ok()?)
                    } else {
                        None
                    };
                    args.push(RegionArg {
                        name: src[a..ae].to_string(),
                        ty,
                        loc,
                        span: Span::new(a, self.pos),
                    });
                    match self.peek()? {
                        b',' => self.pos += 1,
                        b')' => {
                            self.pos += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
            }
        }
        if self.peek()? != b':' {
            return None;
        }
        self.pos += 1;
        Some((&src[s..e], Span::new(s, e), args))
    }

    /// Records an op a custom parser created without text (an implicit terminator), so it gets
    /// the location of the op being parsed once that is known.
    pub fn mark_implicit(&mut self, op: OpId) {
        self.implicit_ops.push(op);
    }

    /// Spans of attributes parsed by a custom format, attached to the op when it is created.
    pub fn note_attr_span(&mut self, name: &str, span: Span) {
        self.pending_attr_spans.push((name.to_string(), span));
    }
}
