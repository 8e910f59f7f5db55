//! Locations: line and column of an offset, the default location of an op, `loc(...)` in the
//! grammar and on the fast path, and location aliases used before their definition.

use super::*;

impl<'c, 's> Parser<'c, 's> {
    /// 1-based line and (byte) column of `offset`.
    pub(super) fn line_col(&mut self, offset: usize) -> (u32, u32) {
        let src = self.src.as_bytes();
        let starts = self.line_starts.get_or_insert_with(|| {
            let mut v = Vec::with_capacity(src.len() / 64 + 1);
            v.extend(memchr::memchr_iter(b'\n', src).map(|i| i + 1));
            v
        });
        // `k` lines start at or before `offset`: it is on line `k + 1`, which starts at
        // `starts[k - 1]` (the first line, at 0, is not in the table).
        let fits = |k: usize| {
            (k == 0 || starts[k - 1] <= offset) && starts.get(k).is_none_or(|&s| s > offset)
        };
        let hint = self.line_hint;
        let k = match (hint..hint + 4).find(|&k| k <= starts.len() && fits(k)) {
            Some(k) => k,
            None => starts.partition_point(|&s| s <= offset),
        };
        self.line_hint = k;
        let start = if k == 0 { 0 } else { starts[k - 1] };
        (k as u32 + 1, (offset - start + 1) as u32)
    }

    /// The file name as a string attribute.
    pub(super) fn file_attr(&mut self) -> Attr {
        match self.file_attr {
            Some(a) => a,
            None => {
                let a = self.ctx.str_attr(&self.filename.clone());
                self.file_attr = Some(a);
                a
            }
        }
    }

    pub(super) fn loc_of(&mut self, offset: usize) -> Attr {
        let at = self.default_loc_at(offset);
        self.default_loc(at)
    }

    /// Where an op's location points when ops take their location from the source, for
    /// [`Parser::default_loc`] to turn into a line and column only when the op has no location
    /// of its own.
    pub(super) fn default_loc_at(&mut self, offset: usize) -> Option<usize> {
        self.file_locations.then_some(offset)
    }

    /// The location [`Parser::default_loc_at`] found.
    pub(super) fn default_loc(&mut self, at: Option<usize>) -> Attr {
        let Some(offset) = at else {
            return self.ctx.unknown_loc();
        };
        let (line, col) = self.line_col(offset);
        let file = self.file_attr();
        self.ctx.attr(AttrKind::Loc(Location::File {
            file,
            line,
            col,
            end: None,
        }))
    }

    pub(super) fn resolve_forward_locs(&mut self, region: RegionId) {
        for (op, name, sp) in std::mem::take(&mut self.fwd_op_locs) {
            match self.attr_aliases.get(name) {
                Some(a) if matches!(self.ctx.attr_kind(*a), AttrKind::Loc(_)) => {
                    self.ctx.op_mut(op).loc = *a;
                }
                Some(_) => self.diags.push(Diagnostic::at(
                    sp,
                    format!("expected location, but '#{name}' is not a location"),
                )),
                None => self.diags.push(Diagnostic::at(
                    sp,
                    format!("undefined symbol alias id '{name}'"),
                )),
            }
        }
        if self.fwd_locs.is_empty() {
            return;
        }
        let mut map = HashMap::default();
        for (name, ph, sp) in std::mem::take(&mut self.fwd_locs) {
            match self.attr_aliases.get(name.as_str()) {
                Some(a) if matches!(self.ctx.attr_kind(*a), AttrKind::Loc(_)) => {
                    map.insert(ph, *a);
                }
                Some(_) => self.diags.push(Diagnostic::at(
                    sp,
                    format!("expected location, but '#{name}' is not a location"),
                )),
                None => self.diags.push(Diagnostic::at(
                    sp,
                    format!("undefined symbol alias id '{name}'"),
                )),
            }
        }
        let mut ops = Vec::new();
        for &b in self.ctx.region_blocks(region) {
            for o in self.ctx.block_ops(b) {
                self.ctx.walk(o, &mut |x| ops.push(x));
            }
        }
        for o in ops {
            if let Some(r) = map.get(&self.ctx.op(o).loc) {
                self.ctx.op_mut(o).loc = *r;
            }
            for &r in self.ctx.regions(o).to_vec().iter() {
                for &b in self.ctx.region_blocks(r).to_vec().iter() {
                    for &a in self.ctx.block_args(b).to_vec().iter() {
                        if let Some(l) = self.ctx.value(a).loc {
                            if let Some(real) = map.get(&l) {
                                self.ctx.set_value_loc(a, Some(*real));
                            }
                        }
                    }
                }
            }
        }
    }

    /// An op's trailing `loc(...)`. A reference to an alias not yet defined comes back as the
    /// alias name beside the unknown location (the caller records it against the op it
    /// creates).
    #[allow(clippy::type_complexity)]
    pub(super) fn parse_op_loc(&mut self) -> PResult<(Attr, Option<(&'s str, Span)>)> {
        self.skip_ws();
        let src: &'s str = self.src;
        let s = self.pos + 4;
        if !self.grammar_only && src[self.pos..].starts_with("loc(#") {
            let e = self.ident_end(s + 1);
            let name = &src[s + 1..e];
            if !name.is_empty()
                && !name.contains('.')
                && src.as_bytes().get(e) == Some(&b')')
                && !self.attr_aliases.contains_key(name)
            {
                self.pos = e + 1;
                return Ok((self.ctx.unknown_loc(), Some((name, Span::new(s, e)))));
            }
        }
        Ok((self.parse_loc()?, None))
    }

    /// Parses a location `loc(...)`.
    pub fn parse_loc(&mut self) -> PResult<Attr> {
        if let Some(l) = self.fast_loc_attr() {
            return l;
        }
        let p = self.rule(Rule::loc_attr)?;
        self.loc_attr(p)
    }

    /// `loc(#alias)`, `loc("file":line:col)` and `loc(unknown)`, the locations `mlir-opt`
    /// prints for every op; `None` (cursor restored) for any other spelling.
    pub(super) fn fast_loc_attr(&mut self) -> Option<PResult<Attr>> {
        if self.grammar_only {
            return None;
        }
        let save = self.pos;
        let r = self.fast_loc_attr_inner();
        if r.is_none() {
            self.pos = save;
        }
        r
    }

    fn fast_loc_attr_inner(&mut self) -> Option<PResult<Attr>> {
        self.skip_ws();
        let src: &'s str = self.src;
        let b = src.as_bytes();
        if !src[self.pos..].starts_with("loc(") {
            return None;
        }
        let s = self.pos + 4;
        // Up to 9 digits, so that the value fits a `u32` (longer numbers take the grammar path,
        // which reports what does not fit).
        let digits = |mut i: usize| {
            let d = i;
            let mut v = 0u32;
            while i < b.len() && b[i].is_ascii_digit() && i - d < 9 {
                v = v * 10 + (b[i] - b'0') as u32;
                i += 1;
            }
            (i > d && !b.get(i).is_some_and(u8::is_ascii_digit)).then_some((v, i))
        };
        let (r, e) = match *b.get(s)? {
            b'#' => {
                let e = self.ident_end(s + 1);
                let name = &src[s + 1..e];
                if name.is_empty() || name.contains('.') || b.get(e) != Some(&b')') {
                    return None;
                }
                (self.alias_location(name, Span::new(s, e)), e)
            }
            b'"' => {
                // A file's locations nearly all name the same file: compared with the last
                // name whole, the name is not scanned byte by byte.
                let (q, same_file) = match self.loc_file {
                    Some((n, a))
                        if b[s + 1..].starts_with(n.as_bytes())
                            && b.get(s + 1 + n.len()) == Some(&b'"') =>
                    {
                        (s + 1 + n.len(), Some(a))
                    }
                    _ => {
                        let q = s + 1 + memchr::memchr3(b'"', b'\\', b'\n', &b[s + 1..])?;
                        if b[q] != b'"' {
                            return None;
                        }
                        (q, None)
                    }
                };
                if b.get(q + 1) != Some(&b':') {
                    return None;
                }
                let (line, i) = digits(q + 2)?;
                if b.get(i) != Some(&b':') {
                    return None;
                }
                let (col, i) = digits(i + 1)?;
                if b.get(i) != Some(&b')') {
                    return None;
                }
                let file = match same_file {
                    Some(a) => a,
                    None => {
                        let name = &src[s + 1..q];
                        let a = self.ctx.str_attr(name);
                        self.loc_file = Some((name, a));
                        a
                    }
                };
                let loc = Location::File {
                    file,
                    line,
                    col,
                    end: None,
                };
                (Ok(self.ctx.attr(AttrKind::Loc(loc))), i)
            }
            _ if src[s..].starts_with("unknown)") => (Ok(self.ctx.unknown_loc()), s + 7),
            _ => return None,
        };
        self.pos = e + 1;
        Some(r)
    }

    /// `#name` used as a location: the alias's location, or a placeholder resolved at the end
    /// of the file when the alias is defined later (MLIR prints location aliases last).
    fn alias_location(&mut self, name: &str, sp: Span) -> PResult<Attr> {
        let Some(a) = self.attr_aliases.get(name).copied() else {
            let ph = self.ctx.attr(AttrKind::Loc(Location::Name {
                name: format!("\0fwd#{name}"),
                child: None,
            }));
            self.fwd_locs.push((name.to_string(), ph, sp));
            return Ok(ph);
        };
        if !matches!(self.ctx.attr_kind(a), AttrKind::Loc(_)) {
            return Err(Diagnostic::at(
                sp,
                format!("expected location, but found '#{name}'"),
            ));
        }
        Ok(a)
    }

    pub(super) fn loc_attr(&mut self, p: Pair<'s, Rule>) -> PResult<Attr> {
        let inner = p.into_inner().next().unwrap();
        self.location(inner)
    }

    pub(super) fn location(&mut self, p: Pair<'s, Rule>) -> PResult<Attr> {
        let sp = self.off(&p);
        let p = if p.as_rule() == Rule::location {
            p.into_inner().next().unwrap()
        } else {
            p
        };
        let loc = match p.as_rule() {
            Rule::unknown_loc => Location::Unknown,
            Rule::callsite_loc => {
                let mut it = p.into_inner();
                let callee = self.location(it.next().unwrap())?;
                let caller = self.location(it.next().unwrap())?;
                Location::CallSite { callee, caller }
            }
            Rule::fused_loc => {
                let mut metadata = None;
                let mut locs = Vec::new();
                for q in p.into_inner() {
                    if q.as_rule() == Rule::attribute {
                        metadata = Some(self.attribute(q)?);
                    } else {
                        locs.push(self.location(q)?);
                    }
                }
                Location::Fused { metadata, locs }
            }
            Rule::file_loc => {
                let mut it = p.into_inner();
                let value = unescape(it.next().unwrap().as_str());
                let file = self.ctx.attr(AttrKind::String { value, ty: None });
                let num = |s: &str| {
                    s.parse::<u32>()
                        .map_err(|_| Diagnostic::at(sp, "expected a 32-bit line or column number"))
                };
                let line = num(it.next().unwrap().as_str())?;
                let mut col = 0;
                let mut end = None;
                if let Some(c) = it.next() {
                    col = num(c.as_str())?;
                    if let Some(r) = it.next() {
                        let parts: Vec<_> = r.into_inner().collect();
                        end = Some(if parts.len() == 2 {
                            (Some(num(parts[0].as_str())?), num(parts[1].as_str())?)
                        } else {
                            (None, num(parts[0].as_str())?)
                        });
                    }
                }
                Location::File {
                    file,
                    line,
                    col,
                    end,
                }
            }
            Rule::name_loc => {
                let mut it = p.into_inner();
                let name =
                    String::from_utf8_lossy(&unescape(it.next().unwrap().as_str())).into_owned();
                let child = match it.next() {
                    Some(c) => Some(self.location(c)?),
                    None => None,
                };
                Location::Name { name, child }
            }
            Rule::attr_alias_ref => return self.alias_location(&p.as_str()[1..], sp),
            r => unreachable!("location rule {r:?}"),
        };
        Ok(self.ctx.attr(AttrKind::Loc(loc)))
    }
}
