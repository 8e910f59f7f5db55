//! Attributes: dictionaries (with the fast path and the cache of values by source text), every
//! builtin attribute form, dialect attributes, dense literals and affine maps and sets.

use super::*;

impl<'c, 's> Parser<'c, 's> {
    /// Parses a numeric literal's text (for attributes whose type the format implies).
    pub fn parse_number_text(&mut self) -> PResult<(String, Span)> {
        let p = self.rule(Rule::number)?;
        Ok((p.as_str().to_string(), self.off(&p)))
    }

    /// Parses `<...>` (balanced) and returns the text inside the brackets.
    pub fn parse_pretty_body(&mut self) -> PResult<String> {
        let p = self.rule(Rule::pretty_body)?;
        let s = p.as_str();
        Ok(s[1..s.len() - 1].to_string())
    }

    /// Builds a number attribute of a given type from literal text.
    pub fn number_attr_typed(&mut self, text: &str, ty: Type, sp: Span) -> PResult<Attr> {
        self.number_attr(text, Some(ty), sp)
    }

    /// Parses an attribute.
    pub fn parse_attribute(&mut self) -> PResult<Attr> {
        let p = self.rule(Rule::attribute)?;
        self.attribute(p)
    }

    /// Parses an attribute and reports its span.
    pub fn parse_attribute_spanned(&mut self) -> PResult<(Attr, Span)> {
        let p = self.rule(Rule::attribute)?;
        let sp = self.off(&p);
        Ok((self.attribute(p)?, sp))
    }

    /// Parses `{k = v, ...}` into entries (with spans).
    pub fn parse_attr_dict(&mut self) -> PResult<Vec<(String, Attr, Span)>> {
        self.skip_ws();
        let save = self.pos;
        if let Some(entries) = self.fast_attr_dict()? {
            return Ok(entries);
        }
        self.pos = save;
        let p = self.rule(Rule::dict_attr)?;
        let mut out = Vec::new();
        for e in p.into_inner() {
            let sp = self.off(&e);
            let (k, v) = self.dict_entry(e)?;
            if out.iter().any(|(k2, _, _): &(String, Attr, Span)| *k2 == k) {
                return Err(Diagnostic::at(
                    sp,
                    format!("attribute '{k}' occurs more than once in the attribute list"),
                ));
            }
            out.push((k, v, sp));
        }
        Ok(out)
    }

    /// `{k = v, flag, ...}` whose values all take [`Parser::fast_attr_value`]. `Ok(None)` means
    /// "use the grammar" (cursor unspecified; the caller restores it). Duplicate keys are real
    /// errors either way.
    pub(super) fn fast_attr_dict(&mut self) -> PResult<Option<Vec<(String, Attr, Span)>>> {
        let b = self.src.as_bytes();
        if self.grammar_only || self.peek() != Some(b'{') {
            return Ok(None);
        }
        self.pos += 1;
        let mut out: Vec<(String, Attr, Span)> = Vec::new();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Some(out));
        }
        loop {
            self.skip_ws();
            let ks = self.pos;
            if !b
                .get(ks)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
            {
                return Ok(None);
            }
            let mut ke = ks;
            while ke < b.len()
                && (b[ke].is_ascii_alphanumeric() || matches!(b[ke], b'_' | b'$' | b'.'))
            {
                ke += 1;
            }
            self.pos = ke;
            let value = if self.peek() == Some(b'=') {
                self.pos += 1;
                let vs = self.pos;
                let value = match self.cached_attr_value() {
                    Some(v) => Some(v),
                    None => {
                        self.pos = vs;
                        self.grammar_attr_value()
                    }
                };
                match value {
                    Some(v) => v,
                    None => return Ok(None),
                }
            } else {
                self.ctx.attr(AttrKind::Unit)
            };
            let sp = Span::new(ks, self.pos);
            let key = &self.src[ks..ke];
            if out.iter().any(|(k2, _, _)| k2 == key) {
                return Err(Diagnostic::at(
                    sp,
                    format!("attribute '{key}' occurs more than once in the attribute list"),
                ));
            }
            out.push((key.to_string(), value, sp));
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Some(out));
                }
                _ => return Ok(None),
            }
        }
    }

    /// The dictionary attribute written at `s` (`{...}`) if the same text was read before; the
    /// cursor then moves past it.
    pub(super) fn cached_dict(&mut self, s: usize) -> Option<Attr> {
        if self.grammar_only {
            return None;
        }
        let s = {
            self.pos = s;
            self.skip_ws();
            self.pos
        };
        let end = self.scan_braces(s)?;
        let a = *self.attr_values.get(&self.src[s..end])?;
        self.pos = end;
        Some(a)
    }

    /// Remembers the dictionary attribute read from `s` (at or before its `{`) to `end`.
    pub(super) fn remember_dict(&mut self, s: usize, end: usize, a: Attr) {
        let src: &'s str = self.src;
        let Some(open) = src[s..end].find('{').map(|i| s + i) else {
            return;
        };
        if self.scan_braces(open) == Some(end) && self.attr_values.len() < 1 << 16 {
            self.attr_values.insert(&src[open..end], a);
        }
    }

    /// The end (after the matching `}`) of the braces opening at `s`, with brackets and strings
    /// balanced; `None` for text with comments or escapes, which the caches leave alone.
    fn scan_braces(&self, s: usize) -> Option<usize> {
        let b = self.src.as_bytes();
        if b.get(s) != Some(&b'{') {
            return None;
        }
        let mut depth = 0usize;
        let mut i = s;
        let mut in_str = false;
        while i < b.len() {
            let c = b[i];
            if in_str {
                match c {
                    b'"' => in_str = false,
                    b'\\' | b'\n' => return None,
                    _ => {}
                }
            } else {
                match c {
                    b'"' => in_str = true,
                    b'/' => return None,
                    b'-' if b.get(i + 1) == Some(&b'>') => i += 1,
                    b'[' | b'(' | b'{' | b'<' => depth += 1,
                    b']' | b')' | b'>' => depth = depth.checked_sub(1)?,
                    b'}' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        None
    }

    /// [`Parser::fast_attr_value`] for a dictionary entry's value, found by its source text when
    /// the same text was read before (large files repeat the same few values).
    fn cached_attr_value(&mut self) -> Option<Attr> {
        const MAX_CACHED: usize = 1 << 16;
        self.skip_ws();
        let s = self.pos;
        let Some(end) = self.scan_dict_value(s) else {
            return self.fast_attr_value();
        };
        let src: &'s str = self.src;
        let text = &src[s..end];
        if let Some(&a) = self.attr_values.get(text) {
            self.pos = end;
            return Some(a);
        }
        let a = self.fast_attr_value()?;
        if self.pos == end && self.attr_values.len() < MAX_CACHED {
            self.attr_values.insert(text, a);
        }
        Some(a)
    }

    /// A dictionary entry's value that [`Parser::fast_attr_value`] does not read, by the
    /// grammar's `attribute` rule, remembered by its source text like the fast values so that
    /// pest reads each distinct spelling once. `None` (cursor unspecified) when the rule fails or
    /// the value does not end the entry: the caller then reads the whole dictionary by the
    /// grammar, which reports the error as it always has.
    fn grammar_attr_value(&mut self) -> Option<Attr> {
        const MAX_CACHED: usize = 1 << 16;
        self.skip_ws();
        let s = self.pos;
        let end = self.scan_dict_value(s);
        let p = self.rule(Rule::attribute).ok()?;
        let a = self.attribute(p).ok()?;
        let src: &'s str = self.src;
        if let Some(end) = end {
            if self.pos == end && self.attr_values.len() < MAX_CACHED {
                self.attr_values.insert(&src[s..end], a);
            }
        }
        Some(a)
    }

    /// The end of a dictionary entry's value starting at `s`: the text up to the `,` or `}` that
    /// ends the entry (brackets and strings balanced), without trailing whitespace. `None` for
    /// text with comments or escapes, which the cache leaves alone.
    fn scan_dict_value(&self, s: usize) -> Option<usize> {
        let b = self.src.as_bytes();
        let mut depth = 0usize;
        let mut i = s;
        let mut in_str = false;
        while i < b.len() {
            let c = b[i];
            if in_str {
                match c {
                    b'"' => in_str = false,
                    b'\\' | b'\n' => return None,
                    _ => {}
                }
            } else {
                match c {
                    b'"' => in_str = true,
                    b'/' => return None,
                    b'-' if b.get(i + 1) == Some(&b'>') => i += 1,
                    b'[' | b'(' | b'{' | b'<' => depth += 1,
                    b']' | b')' | b'>' => depth = depth.checked_sub(1)?,
                    b'}' if depth == 0 => break,
                    b'}' => depth -= 1,
                    b',' if depth == 0 => break,
                    _ => {}
                }
            }
            i += 1;
        }
        if i >= b.len() || in_str {
            return None;
        }
        while i > s && matches!(b[i - 1], b' ' | b'\t' | b'\n' | b'\r') {
            i -= 1;
        }
        (i > s).then_some(i)
    }

    /// Integers (optionally `: iN`/`: index`), `true`/`false`/`unit`, plain strings, flat symbol
    /// references and arrays of those; `None` (cursor unspecified) for anything else.
    fn fast_attr_value(&mut self) -> Option<Attr> {
        self.skip_ws();
        let b = self.src.as_bytes();
        let s = self.pos;
        let c = *b.get(s)?;
        if c == b'-' || c.is_ascii_digit() {
            let mut e = s + 1;
            while e < b.len() && b[e].is_ascii_digit() {
                e += 1;
            }
            if e == s + 1 && c == b'-' {
                return None;
            }
            if matches!(b.get(e), Some(b'.' | b'x' | b'e' | b'E'))
                || b.get(e).is_some_and(|c| c.is_ascii_alphabetic())
            {
                return None;
            }
            let text = &self.src[s..e];
            self.pos = e;
            let save = self.pos;
            let ty = if self.peek() == Some(b':') {
                self.pos += 1;
                let t = self.fast_scalar_type()?;
                if !matches!(
                    self.ctx.type_kind(t),
                    TypeKind::Integer { .. } | TypeKind::Index
                ) {
                    return None;
                }
                Some(t)
            } else {
                self.pos = save;
                None
            };
            // Out-of-range values take the grammar path, which reports them.
            return self.number_attr(text, ty, Span::new(s, e)).ok();
        }
        if c == b'"' {
            let mut e = s + 1;
            while e < b.len() && b[e] != b'"' {
                if b[e] == b'\\' || b[e] == b'\n' {
                    return None;
                }
                e += 1;
            }
            if e >= b.len() {
                return None;
            }
            self.pos = e + 1;
            let save = self.pos;
            if self.peek() == Some(b':') {
                return None;
            }
            self.pos = save;
            let value = self.src.as_bytes()[s + 1..e].to_vec();
            return Some(self.ctx.attr(AttrKind::String { value, ty: None }));
        }
        if c == b'[' {
            self.pos += 1;
            let mut items = Vec::new();
            if self.peek() == Some(b']') {
                self.pos += 1;
            } else {
                loop {
                    items.push(self.fast_attr_value()?);
                    match self.peek()? {
                        b',' => self.pos += 1,
                        b']' => {
                            self.pos += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
            }
            return Some(self.ctx.attr(AttrKind::Array(items)));
        }
        if c == b'@' {
            let e = self.ident_end(s + 1);
            let name = &self.src[s + 1..e];
            if name.is_empty()
                || name.contains('-')
                || !name.as_bytes()[0].is_ascii_alphabetic() && name.as_bytes()[0] != b'_'
            {
                return None;
            }
            if self.src[e..].starts_with("::") {
                return None;
            }
            self.pos = e;
            return Some(self.ctx.attr(AttrKind::SymbolRef {
                root: name.to_string(),
                nested: vec![],
            }));
        }
        let e = self.ident_end(s);
        let word = &self.src[s..e];
        let kind = match word {
            "true" | "false" => {
                let i1 = self.ctx.int_type(1);
                AttrKind::Integer {
                    value: BigInt::from((word == "true") as u8),
                    ty: i1,
                }
            }
            "unit" => AttrKind::Unit,
            _ => return None,
        };
        self.pos = e;
        Some(self.ctx.attr(kind))
    }

    pub(super) fn dict_entry(&mut self, e: Pair<'s, Rule>) -> PResult<(String, Attr)> {
        let mut it = e.into_inner();
        let k = it.next().unwrap();
        let key = match k.as_rule() {
            Rule::string_lit => String::from_utf8_lossy(&unescape(k.as_str())).into_owned(),
            _ => k.as_str().to_string(),
        };
        let v = match it.next() {
            Some(v) => self.attribute(v)?,
            None => self.ctx.attr(AttrKind::Unit),
        };
        Ok((key, v))
    }

    pub(super) fn is_layout_attr(&self, a: Attr) -> bool {
        matches!(
            self.ctx.attr_kind(a),
            AttrKind::AffineMap(_) | AttrKind::Strided { .. }
        )
    }

    /// Splits `!dialect.name<body>` / `#dialect.name<body>` into parts.
    pub(super) fn dialect_symbol(
        &self,
        p: Pair<'s, Rule>,
    ) -> (String, Option<String>, Option<String>) {
        let mut it = p.into_inner();
        let ident = it.next().unwrap().as_str();
        let body = it.next().map(|b| {
            let s = b.as_str();
            self.expand_aliases_in_body(&s[1..s.len() - 1])
        });
        match ident.split_once('.') {
            Some((d, n)) => (d.to_string(), Some(n.to_string()), body),
            None => (ident.to_string(), None, body),
        }
    }

    pub(super) fn attribute(&mut self, p: Pair<'s, Rule>) -> PResult<Attr> {
        let sp = self.off(&p);
        let p = if p.as_rule() == Rule::attribute {
            p.into_inner().next().unwrap()
        } else {
            p
        };
        let kind = match p.as_rule() {
            Rule::unit_attr => AttrKind::Unit,
            // As in MLIR, `true`/`false` are `i1` integer attributes.
            Rule::bool_attr => {
                let i1 = self.ctx.int_type(1);
                AttrKind::Integer {
                    value: BigInt::from((p.as_str() == "true") as u8),
                    ty: i1,
                }
            }
            Rule::number_attr => {
                let mut it = p.into_inner();
                let num = it.next().unwrap();
                let num_span = self.off(&num);
                let ty = match it.next() {
                    Some(t) => Some(self.type_(t)?),
                    None => None,
                };
                // As MLIR: `42 : f32` is an error (a hex literal is the float's bit pattern).
                let digits = num.as_str().trim_start_matches(['-', '+']);
                if ty.is_some_and(|t| matches!(self.ctx.type_kind(t), TypeKind::Float(_)))
                    && !digits.contains('.')
                    && !digits.starts_with("0x")
                {
                    return Err(Diagnostic::at(
                        num_span,
                        "unexpected decimal integer literal for a floating point value",
                    )
                    .with_help("add a trailing dot to make the literal a float"));
                }
                return self.number_attr(num.as_str(), ty, num_span);
            }
            Rule::string_attr => {
                let mut it = p.into_inner();
                let s = unescape(it.next().unwrap().as_str());
                let ty = match it.next() {
                    Some(t) => Some(self.type_(t)?),
                    None => None,
                };
                AttrKind::String { value: s, ty }
            }
            Rule::array_attr => {
                let mut v = Vec::new();
                for a in p.into_inner() {
                    v.push(self.attribute(a)?);
                }
                AttrKind::Array(v)
            }
            Rule::dict_attr => {
                let mut v: Vec<(String, Attr)> = Vec::new();
                for e in p.into_inner() {
                    let esp = self.off(&e);
                    let (k, a) = self.dict_entry(e)?;
                    if v.iter().any(|(k2, _)| *k2 == k) {
                        return Err(Diagnostic::at(
                            esp,
                            format!("duplicate key '{k}' in dictionary attribute"),
                        ));
                    }
                    v.push((k, a));
                }
                v.sort_by(|a, b| a.0.cmp(&b.0));
                AttrKind::Dict(v)
            }
            Rule::symbol_ref_attr => {
                let mut names = p.into_inner().map(symbol_text);
                let root = names.next().unwrap();
                AttrKind::SymbolRef {
                    root,
                    nested: names.collect(),
                }
            }
            Rule::typed_dialect_attr => {
                let mut it = p.into_inner();
                let sym = it.next().unwrap();
                // `#name` without a dot or body is an alias, not a dialect symbol: MLIR reads no
                // type after it.
                let is_alias = !sym.as_str()[1..].contains(['.', '<']);
                let attr = self.attribute(sym)?;
                let Some(t) = it.next() else {
                    return Ok(attr);
                };
                if is_alias {
                    return Err(Diagnostic::at(
                        self.off(&t),
                        "a type follows only a dialect attribute, not an attribute alias",
                    ));
                }
                let ty = self.type_(t)?;
                AttrKind::TypedDialect { attr, ty }
            }
            Rule::dialect_attr => {
                let (d, n, body) = self.dialect_symbol(p);
                match (n, body) {
                    (None, None) => {
                        return self.attr_aliases.get(d.as_str()).copied().ok_or_else(|| {
                            Diagnostic::at(sp, format!("undefined symbol alias id '{d}'"))
                        })
                    }
                    (None, Some(body)) => match opaque_payload(&body) {
                        Some(data) => AttrKind::Opaque { dialect: d, data },
                        None => AttrKind::Dialect {
                            dialect: d,
                            name: String::new(),
                            body: Some(body),
                        },
                    },
                    (Some(n), body) => {
                        let kind = AttrKind::Dialect {
                            dialect: d,
                            name: n,
                            body,
                        };
                        return self
                            .ctx
                            .registered_attr(&kind)
                            .map_err(|e| symbol_diag(sp, e, true));
                    }
                }
            }
            Rule::attr_alias_ref => {
                let name = &p.as_str()[1..];
                return self.attr_aliases.get(name).copied().ok_or_else(|| {
                    Diagnostic::at(sp, format!("undefined symbol alias id '{name}'"))
                });
            }
            Rule::type_ | Rule::function_type => AttrKind::Type(self.type_(p)?),
            Rule::dense_attr => {
                let mut data = DenseData::Empty;
                let mut ty = None;
                let mut lit_pair = None;
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::dense_lit => {
                            lit_pair = Some(q.clone());
                            let inner = q.clone().into_inner().next().unwrap();
                            data = if inner.as_rule() == Rule::string_lit
                                && inner.as_str().starts_with("\"0x")
                            {
                                DenseData::Hex(
                                    inner.as_str()[1..inner.as_str().len() - 1].to_string(),
                                )
                            } else {
                                DenseData::Literal(dense_lit(q))
                            };
                        }
                        _ => ty = Some(self.type_(q)?),
                    }
                }
                let ty = ty.unwrap();
                if matches!(data, DenseData::Empty) {
                    let n = match self.ctx.type_kind(ty) {
                        TypeKind::RankedTensor { shape, .. } | TypeKind::Vector { shape, .. }
                            if shape.iter().all(|d| *d >= 0) =>
                        {
                            Some(shape.iter().product::<i64>())
                        }
                        _ => None,
                    };
                    if n.is_some_and(|n| n > 0) {
                        return Err(Diagnostic::at(
                            sp,
                            format!(
                                "parsed zero elements, but type ('{}') expected at least 1",
                                crate::syntax::printer::type_to_string(self.ctx, ty)
                            ),
                        ));
                    }
                }
                if let DenseData::Hex(h) = &data {
                    if !hex_size_valid(self.ctx, ty, &h[2..]) {
                        return Err(Diagnostic::at(
                            sp,
                            format!(
                                "elements hex data size is invalid for provided type: '{}'",
                                crate::syntax::printer::type_to_string(self.ctx, ty)
                            ),
                        ));
                    }
                }
                if let DenseData::Literal(lit @ DenseLit::List(_)) = &data {
                    let want = match self.ctx.type_kind(ty) {
                        TypeKind::RankedTensor { shape, .. } | TypeKind::Vector { shape, .. } => {
                            Some(shape.clone())
                        }
                        _ => None,
                    };
                    let got = literal_shape(lit).ok_or_else(|| {
                        Diagnostic::at(
                            sp,
                            "tensor literal is invalid; ranks are not consistent between elements",
                        )
                    })?;
                    if let Some(want) = want {
                        if want != got {
                            return Err(Diagnostic::at(
                                sp,
                                format!("inferred shape of elements literal ({got:?}) does not match type ({want:?})"),
                            ));
                        }
                    }
                }
                if !matches!(
                    self.ctx.type_kind(ty),
                    TypeKind::RankedTensor { .. } | TypeKind::Vector { .. }
                ) {
                    return Err(Diagnostic::at(
                        sp,
                        "elements literal must be a shaped type (ranked tensor or vector)",
                    ));
                }
                if let (Some(q), DenseData::Literal(_)) = (lit_pair, &data) {
                    self.check_dense_elements(q, ty)?;
                }
                AttrKind::DenseElements { data, ty }
            }
            Rule::sparse_attr => {
                let mut parts = Vec::new();
                let mut ty = None;
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::dense_lit => parts.push(dense_lit(q)),
                        _ => ty = Some(self.type_(q)?),
                    }
                }
                AttrKind::Sparse {
                    indices: parts.first().cloned(),
                    values: parts.get(1).cloned(),
                    ty: ty.unwrap(),
                }
            }
            Rule::dense_resource_attr => {
                let mut it = p.into_inner();
                let h = it.next().unwrap();
                let handle = h.as_str().to_string();
                let ty = self.type_(it.next().unwrap())?;
                if !matches!(
                    self.ctx.type_kind(ty),
                    TypeKind::RankedTensor { .. }
                        | TypeKind::UnrankedTensor { .. }
                        | TypeKind::Vector { .. }
                        | TypeKind::MemRef { .. }
                        | TypeKind::UnrankedMemRef { .. }
                ) {
                    return Err(Diagnostic::at(
                        sp,
                        "`dense_resource` expected a shaped type",
                    ));
                }
                AttrKind::DenseResource { handle, ty }
            }
            Rule::dense_array_attr => {
                let mut it = p.into_inner();
                let elem = self.type_(it.next().unwrap())?;
                if !matches!(
                    self.ctx.type_kind(elem),
                    TypeKind::Integer { .. } | TypeKind::Float(_)
                ) {
                    return Err(Diagnostic::at(
                        sp,
                        "expected an integer or float element type in array<...>",
                    ));
                }
                // MLIR stores the elements as bytes: only `i1` and whole-byte widths.
                let bits = match *self.ctx.type_kind(elem) {
                    TypeKind::Integer { width, .. } => width,
                    TypeKind::Float(k) => k.width(),
                    _ => 8,
                };
                if bits != 1 && bits % 8 != 0 {
                    return Err(Diagnostic::at(
                        sp,
                        "element type bitwidth must be a multiple of 8",
                    ));
                }
                let values = match *self.ctx.type_kind(elem) {
                    TypeKind::Float(k) => {
                        let mut v = Vec::new();
                        for e in it {
                            let esp = self.off(&e);
                            let t = e.as_str();
                            if t == "true" || t == "false" || !(t.contains('.') || t.contains("0x"))
                            {
                                return Err(Diagnostic::at(
                                    esp,
                                    "unexpected decimal integer literal for a floating point value",
                                )
                                .with_help("add a trailing dot to make the literal a float"));
                            }
                            v.push(float_bits(t, k, esp)?);
                        }
                        DenseArrayValues::Float(v)
                    }
                    TypeKind::Integer { width, signedness } => {
                        let mut v = Vec::new();
                        for e in it {
                            let esp = self.off(&e);
                            let t = e.as_str();
                            let x = match t {
                                "true" | "false" if width == 1 => BigInt::from((t == "true") as u8),
                                _ if width == 1 => {
                                    return Err(Diagnostic::at(
                                        esp,
                                        "expected 'true' or 'false' in an array of i1",
                                    ))
                                }
                                "true" | "false" => {
                                    return Err(Diagnostic::at(
                                        esp,
                                        "expected an integer literal, found a boolean",
                                    ))
                                }
                                _ => int_value(t, width, signedness, esp)?,
                            };
                            v.push(x);
                        }
                        DenseArrayValues::Int(v)
                    }
                    _ => unreachable!("checked above"),
                };
                AttrKind::DenseArray { elem, values }
            }
            Rule::affine_map_attr => {
                let mut it = p.into_inner();
                let dims = names_of(it.next().unwrap());
                let mut syms = Vec::new();
                let mut results = Vec::new();
                for q in it {
                    if q.as_rule() == Rule::affine_syms {
                        syms = names_of(q);
                    } else {
                        results.push(affine_expr(q, &dims, &syms)?);
                    }
                }
                AttrKind::AffineMap(AffineMap {
                    num_dims: dims.len() as u32,
                    num_syms: syms.len() as u32,
                    results,
                })
            }
            Rule::affine_set_attr => {
                let mut it = p.into_inner();
                let dims = names_of(it.next().unwrap());
                let mut syms = Vec::new();
                let mut constraints = Vec::new();
                for q in it {
                    if q.as_rule() == Rule::affine_syms {
                        syms = names_of(q);
                    } else {
                        let mut c = q.into_inner();
                        let l = affine_expr(c.next().unwrap(), &dims, &syms)?;
                        let op = match c.next().unwrap().as_str() {
                            ">=" => AffineCmp::Ge,
                            "<=" => AffineCmp::Le,
                            _ => AffineCmp::Eq,
                        };
                        let r = affine_expr(c.next().unwrap(), &dims, &syms)?;
                        constraints.push((l, op, r));
                    }
                }
                AttrKind::IntegerSet(IntegerSet {
                    num_dims: dims.len() as u32,
                    num_syms: syms.len() as u32,
                    constraints,
                })
            }
            Rule::distinct_attr => {
                let mut it = p.into_inner();
                let n: u64 = it
                    .next()
                    .unwrap()
                    .as_str()
                    .parse()
                    .map_err(|_| Diagnostic::at(sp, "invalid distinct id"))?;
                let inner = match it.next() {
                    Some(a) => self.attribute(a)?,
                    None => self.ctx.attr(AttrKind::Unit),
                };
                let id = match self.distinct.get(&n) {
                    // A later `distinct[N]` refers to the first; MLIR requires the same value.
                    Some(&(id, first)) if first == inner => {
                        let existing = self.ctx.attr(AttrKind::Distinct { id, attr: inner });
                        return Ok(existing);
                    }
                    Some(&(_, first)) => {
                        return Err(Diagnostic::at(
                            sp,
                            format!(
                                "referenced attribute does not match previous definition: {}",
                                crate::syntax::printer::attr_to_string(self.ctx, first)
                            ),
                        ))
                    }
                    None => {
                        let id = self.ctx.fresh_distinct_id();
                        self.distinct.insert(n, (id, inner));
                        id
                    }
                };
                AttrKind::Distinct { id, attr: inner }
            }
            Rule::strided_attr => {
                let mut strides = Vec::new();
                let mut offset = 0;
                let n = p.as_str().matches(',').count();
                let has_offset = p.as_str().contains("offset");
                let items: Vec<_> = p.into_inner().collect();
                let _ = n;
                for (i, s) in items.iter().enumerate() {
                    let v = if s.as_str() == "?" {
                        DYNAMIC
                    } else {
                        s.as_str()
                            .parse()
                            .map_err(|_| Diagnostic::at(sp, "invalid stride"))?
                    };
                    if has_offset && i == items.len() - 1 {
                        offset = v;
                    } else {
                        strides.push(v);
                    }
                }
                AttrKind::Strided { strides, offset }
            }
            Rule::loc_attr => return self.loc_attr(p),
            r => unreachable!("attribute rule {r:?}"),
        };
        Ok(self.ctx.attr(kind))
    }

    fn number_attr(&mut self, text: &str, ty: Option<Type>, sp: Span) -> PResult<Attr> {
        let is_float_lit = text.contains('.');
        let ty = match ty {
            Some(t) => t,
            None => {
                if is_float_lit {
                    self.ctx.float_type(FloatKind::F64)
                } else {
                    self.ctx.int_type(64)
                }
            }
        };
        let kind = match self.ctx.type_kind(ty) {
            TypeKind::Float(k) => TypeKind::Float(*k),
            TypeKind::Integer { width, signedness } => TypeKind::Integer {
                width: *width,
                signedness: *signedness,
            },
            TypeKind::Index => TypeKind::Index,
            _ => TypeKind::None,
        };
        match kind {
            TypeKind::Float(k) => {
                let bits = float_bits(text, k, sp)?;
                Ok(self.ctx.attr(AttrKind::Float { bits, ty }))
            }
            TypeKind::Integer { width, signedness } => {
                let v = int_value(text, width, signedness, sp)?;
                Ok(self.ctx.attr(AttrKind::Integer { value: v, ty }))
            }
            TypeKind::Index => {
                let v = int_value(text, 64, Signedness::Signless, sp)?;
                Ok(self.ctx.attr(AttrKind::Integer { value: v, ty }))
            }
            _ => Err(Diagnostic::at(
                sp,
                "integer literal not valid for specified type",
            )),
        }
    }

    /// Checks each element of a `dense<...>` literal against the element type as mlir-opt
    /// does: integers in range (`dense<300> : tensor<2xi8>` is rejected, not wrapped),
    /// `true`/`false` only for `i1`, no float literal for an integer type and no decimal integer
    /// for a float type (a hex literal is a float's bit pattern).
    fn check_dense_elements(&self, q: Pair<'s, Rule>, ty: Type) -> PResult<()> {
        let elem = match self.ctx.type_kind(ty) {
            TypeKind::RankedTensor { elem, .. } | TypeKind::Vector { elem, .. } => *elem,
            _ => return Ok(()),
        };
        let kind = self.ctx.type_kind(elem).clone();
        let mut stack = vec![q];
        while let Some(p) = stack.pop() {
            match p.as_rule() {
                Rule::dense_lit | Rule::dense_list => stack.extend(p.into_inner()),
                Rule::number | Rule::dense_bool => {
                    let sp = self.off(&p);
                    let text = p.as_str();
                    let is_bool = p.as_rule() == Rule::dense_bool;
                    let is_float = !is_bool && !text.contains("0x") && text.contains('.');
                    match &kind {
                        TypeKind::Integer { .. } | TypeKind::Index => {
                            let (width, sig) = match &kind {
                                TypeKind::Integer { width, signedness } => (*width, *signedness),
                                _ => (64, Signedness::Signless),
                            };
                            if is_bool {
                                if width != 1 {
                                    return Err(Diagnostic::at(
                                        sp,
                                        "expected i1 type for 'true' or 'false' values",
                                    ));
                                }
                                continue;
                            }
                            if is_float {
                                return Err(Diagnostic::at(
                                    sp,
                                    "expected integer elements, but parsed floating-point",
                                ));
                            }
                            if sig == Signedness::Unsigned && text.starts_with('-') {
                                return Err(Diagnostic::at(
                                    sp,
                                    "expected unsigned integer elements, but parsed negative value",
                                ));
                            }
                            let v = parse_bigint(text)
                                .ok_or_else(|| Diagnostic::at(sp, "invalid integer literal"))?;
                            if check_int_range(v, width, sig).is_none() {
                                return Err(Diagnostic::at(
                                    sp,
                                    "integer constant out of range for type",
                                )
                                .with_help(format!(
                                    "an element of type '{}' holds {}",
                                    crate::syntax::printer::type_to_string(self.ctx, elem),
                                    int_range_text(width, sig)
                                )));
                            }
                        }
                        TypeKind::Float(k) => {
                            if is_bool {
                                return Err(Diagnostic::at(sp, "expected floating point literal"));
                            }
                            if !is_float && !text.trim_start_matches(['-', '+']).starts_with("0x") {
                                return Err(Diagnostic::at(
                                    sp,
                                    "unexpected decimal integer literal for a floating point value",
                                )
                                .with_help(format!("write it as a float, e.g. `{text}.0`")));
                            }
                            float_bits(text, *k, sp)?;
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// The shape a nested dense literal spells (`[[1, 2], [3, 4]]` is `[2, 2]`); `None` when the
/// nesting is ragged.
fn literal_shape(l: &DenseLit) -> Option<Vec<i64>> {
    match l {
        DenseLit::List(items) => {
            let mut inner: Option<Vec<i64>> = None;
            for it in items {
                let s = literal_shape(it)?;
                match &inner {
                    None => inner = Some(s),
                    Some(prev) if *prev == s => {}
                    Some(_) => return None,
                }
            }
            let mut shape = vec![items.len() as i64];
            shape.extend(inner.unwrap_or_default());
            Some(shape)
        }
        _ => Some(Vec::new()),
    }
}

fn names_of(p: Pair<'_, Rule>) -> Vec<String> {
    p.into_inner().map(|x| x.as_str().to_string()).collect()
}

pub(super) fn affine_expr(
    p: Pair<'_, Rule>,
    dims: &[String],
    syms: &[String],
) -> PResult<AffineExpr> {
    let base = p.as_str().as_ptr() as usize;
    let _ = base;
    match p.as_rule() {
        Rule::affine_expr | Rule::affine_term => {
            let mut it = p.into_inner();
            let mut acc = affine_expr(it.next().unwrap(), dims, syms)?;
            while let Some(op) = it.next() {
                let rhs = affine_expr(it.next().unwrap(), dims, syms)?;
                let op = match op.as_str() {
                    "+" => AffineOp::Add,
                    "-" => AffineOp::Sub,
                    "*" => AffineOp::Mul,
                    "floordiv" => AffineOp::FloorDiv,
                    "ceildiv" => AffineOp::CeilDiv,
                    _ => AffineOp::Mod,
                };
                acc = AffineExpr::Bin(op, Box::new(acc), Box::new(rhs));
            }
            Ok(acc)
        }
        Rule::affine_factor => {
            let parts: Vec<_> = p.into_inner().collect();
            let (negs, atom) = parts.split_at(parts.len() - 1);
            let mut e = affine_expr(atom[0].clone(), dims, syms)?;
            for _ in negs {
                e = AffineExpr::Neg(Box::new(e));
            }
            Ok(e)
        }
        Rule::affine_atom => {
            let inner = p.into_inner().next().unwrap();
            match inner.as_rule() {
                Rule::dec_int => inner.as_str().parse().map(AffineExpr::Const).map_err(|_| {
                    Diagnostic::at(Span::default(), "constant too large for affine expression")
                }),
                Rule::bare_id => {
                    let n = inner.as_str();
                    if let Some(i) = dims.iter().position(|d| d == n) {
                        Ok(AffineExpr::Dim(i as u32))
                    } else if let Some(i) = syms.iter().position(|d| d == n) {
                        Ok(AffineExpr::Sym(i as u32))
                    } else {
                        Err(Diagnostic::at(
                            Span::default(),
                            format!("use of undeclared identifier '{n}' in affine expression"),
                        ))
                    }
                }
                _ => affine_expr(inner, dims, syms),
            }
        }
        r => unreachable!("affine rule {r:?}"),
    }
}

pub(super) fn dense_lit(p: Pair<'_, Rule>) -> DenseLit {
    let p = if p.as_rule() == Rule::dense_lit {
        p.into_inner().next().unwrap()
    } else {
        p
    };
    match p.as_rule() {
        Rule::dense_list => DenseLit::List(p.into_inner().map(dense_lit).collect()),
        Rule::dense_complex => {
            let mut it = p.into_inner();
            let a = dense_lit(it.next().unwrap());
            let b = dense_lit(it.next().unwrap());
            DenseLit::Complex(Box::new(a), Box::new(b))
        }
        Rule::string_lit => DenseLit::Str(unescape(p.as_str())),
        _ => DenseLit::Scalar(p.as_str().to_string()),
    }
}

pub(super) fn symbol_text(p: Pair<'_, Rule>) -> String {
    let inner = p.into_inner().next().unwrap();
    if inner.as_rule() == Rule::string_lit {
        String::from_utf8_lossy(&unescape(inner.as_str())).into_owned()
    } else {
        inner.as_str().to_string()
    }
}

/// `"data"` (a single string literal) → the data, for opaque dialect symbols.
/// The diagnostic for a dialect type (or attribute, when `attr`) that its registered dialect
/// rejects, at the symbol's span.
pub(crate) fn symbol_diag(sp: Span, e: SymbolError, attr: bool) -> Diagnostic {
    let (sigil, what) = if attr {
        ('#', "attribute")
    } else {
        ('!', "type")
    };
    match e {
        SymbolError::Unknown { name, known } => {
            let d = name.split('.').next().unwrap_or(&name);
            Diagnostic::at(
                sp,
                format!(
                    "unknown {what} '{sigil}{name}': dialect '{d}' declares {}",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ),
            )
        }
        SymbolError::Invalid {
            name,
            message,
            syntax,
        } => Diagnostic::at(sp, format!("invalid '{sigil}{name}' {what}: {message}"))
            .with_help(format!("syntax: {syntax}")),
    }
}

/// MLIR's `DenseElementsAttr::isValidRawBuffer`: a `dense<"0x...">` blob holds one element
/// (a splat) or all of them, each in its storage width (`i1` packed by the bit, other widths
/// rounded up to bytes, complex numbers two of their element). True when the element type has
/// no fixed width (strings, dialect types) or the shape is not static.
fn hex_size_valid(ctx: &Context, ty: Type, hex: &str) -> bool {
    fn storage_bits(ctx: &Context, t: Type) -> Option<u64> {
        match ctx.type_kind(t) {
            TypeKind::Integer { width: 1, .. } => Some(1),
            TypeKind::Integer { width, .. } => Some(u64::from(*width).div_ceil(8) * 8),
            TypeKind::Index => Some(64),
            TypeKind::Float(k) => Some(u64::from(k.width()).div_ceil(8) * 8),
            TypeKind::Complex(e) => storage_bits(ctx, *e).map(|b| 2 * b),
            _ => None,
        }
    }
    let (shape, elem) = match ctx.type_kind(ty) {
        TypeKind::RankedTensor { shape, elem, .. } | TypeKind::Vector { shape, elem, .. } => {
            (shape, *elem)
        }
        _ => return true,
    };
    if shape.iter().any(|d| *d < 0) {
        return true;
    }
    let Some(width) = storage_bits(ctx, elem) else {
        return true;
    };
    let n: u64 = shape.iter().map(|d| *d as u64).product();
    let bits = hex.len() as u64 * 4;
    if width == 1 {
        // One byte of all zeros or all ones is a splat; otherwise one bit per element.
        let splat = matches!(hex.to_ascii_lowercase().as_str(), "00" | "ff");
        return splat || bits == n.div_ceil(8) * 8;
    }
    bits == width || bits == width * n
}

pub(super) fn opaque_payload(body: &str) -> Option<String> {
    let t = body.trim();
    if t.len() >= 2 && t.starts_with('"') && t.ends_with('"') {
        // Only when the whole body is one string literal.
        let inner = &t[1..t.len() - 1];
        let mut esc = false;
        for c in inner.chars() {
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                return None;
            }
        }
        // MLIR keeps an opaque symbol's data as written (`OpaqueAttr::getAttrData` is the raw
        // body text), so `"\22"` and `"\""` are different data: keep the escapes verbatim.
        return Some(inner.to_string());
    }
    None
}
