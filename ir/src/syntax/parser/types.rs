//! Types: the grammar path (builtin, dialect and aliased types, function types) and the fast
//! paths for scalar and function types, cached by their source text.

use super::*;

impl<'c, 's> Parser<'c, 's> {
    /// Parses a type.
    pub fn parse_type(&mut self) -> PResult<Type> {
        let p = self.rule(Rule::type_)?;
        self.type_(p)
    }

    /// A builtin scalar type keyword (`i32`, `index`, `f16`, ...) at the cursor.
    pub(super) fn fast_scalar_type(&mut self) -> Option<Type> {
        self.skip_ws();
        let s = self.pos;
        let e = self.ident_end(s);
        let word = &self.src[s..e];
        if word.is_empty() || word.contains('.') {
            return None;
        }
        let kind = if let Some(d) = word
            .strip_prefix('i')
            .filter(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
        {
            TypeKind::Integer {
                width: d.parse().ok().filter(|w| *w <= 16_777_215)?,
                signedness: Signedness::Signless,
            }
        } else if word == "index" {
            TypeKind::Index
        } else {
            TypeKind::Float(FloatKind::from_keyword(word)?)
        };
        self.pos = e;
        Some(self.ctx.ty(kind))
    }

    /// `(T, ...) -> U` or `(T, ...) -> (U, ...)` over scalar types. Types already read are
    /// found by their text (large files spell the same few signatures over and over).
    pub(super) fn fast_function_type(&mut self) -> Option<Type> {
        if self.grammar_only {
            return None;
        }
        let save = self.pos;
        let src: &'s str = self.src;
        if let Some(end) = self.scan_fast_function_type(save) {
            if let Some(&t) = self.fn_types.get(&src[save..end]) {
                self.pos = end;
                return Some(t);
            }
            let t = self.fast_function_type_uncached();
            if let Some(ty) = t {
                if self.pos == end && self.fn_types.len() < 1 << 16 {
                    self.fn_types.insert(&src[save..end], ty);
                }
            }
            return t;
        }
        self.fast_function_type_uncached()
    }

    /// The extent of what [`Parser::fast_function_type`] would read at `pos`, if it reads
    /// anything: a parenthesised list of words, `->`, a word or such a list, and no type
    /// continuing after it. Words are only checked by [`Parser::fast_function_type_uncached`].
    fn scan_fast_function_type(&self, pos: usize) -> Option<usize> {
        let b = self.src.as_bytes();
        let ws = |mut i: usize| {
            while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
                i += 1;
            }
            i
        };
        let word = |i: usize| {
            let e = self.ident_end(i);
            (e > i && b[i].is_ascii_alphabetic()).then_some(e)
        };
        let list = |i: usize| -> Option<usize> {
            let mut i = ws(i);
            if b.get(i) != Some(&b'(') {
                return None;
            }
            i = ws(i + 1);
            if b.get(i) == Some(&b')') {
                return Some(i + 1);
            }
            loop {
                i = ws(word(i)?);
                match b.get(i)? {
                    b',' => i = ws(i + 1),
                    b')' => return Some(i + 1),
                    _ => return None,
                }
            }
        };
        let mut i = ws(list(pos)?);
        if !self.src[i..].starts_with("->") {
            return None;
        }
        i = ws(i + 2);
        let end = if b.get(i) == Some(&b'(') {
            list(i)?
        } else {
            word(i)?
        };
        // Comments are not part of a type's text; leave them to the slow path (none can start
        // inside what was scanned, but the check is one pass with the one for `.`), and a
        // type that goes on (`i32<...>`) too.
        if b.get(end) == Some(&b'<') || memchr::memchr2(b'.', b'/', &b[pos..end]).is_some() {
            return None;
        }
        Some(end)
    }

    /// A function type the fast path does not read (dialect, shaped or nested types), by the
    /// grammar, remembered by its source text like the fast path's so that pest reads each
    /// distinct signature once.
    pub(super) fn grammar_function_type(&mut self) -> PResult<Type> {
        self.skip_ws();
        let s = self.pos;
        let src: &'s str = self.src;
        let end = self.scan_balanced_type(s).filter(|_| !self.grammar_only);
        if let Some(end) = end {
            if let Some(&t) = self.fn_types.get(&src[s..end]) {
                self.pos = end;
                return Ok(t);
            }
        }
        let p = self.rule(Rule::function_type)?;
        let t = self.function_type(p)?;
        if end == Some(self.pos) && self.fn_types.len() < 1 << 16 {
            self.fn_types.insert(&src[s..self.pos], t);
        }
        Ok(t)
    }

    /// The end of the type text at `pos` as far as brackets tell: up to the first whitespace,
    /// `,`, `)`, `}` or `{` outside brackets, after `->` and its following space if the text is
    /// a function type. A guess checked against where the grammar ends (only then is the text
    /// remembered); `None` for text with comments or strings.
    fn scan_balanced_type(&self, pos: usize) -> Option<usize> {
        let b = self.src.as_bytes();
        let mut depth = 0usize;
        let mut i = pos;
        loop {
            let c = *b.get(i)?;
            match c {
                b'"' => return None,
                b'/' => return None,
                b'-' if b.get(i + 1) == Some(&b'>') => {
                    i += 2;
                    if depth == 0 {
                        while b.get(i) == Some(&b' ') {
                            i += 1;
                        }
                    }
                    continue;
                }
                b'(' | b'<' | b'[' => depth += 1,
                b')' | b'>' | b']' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        // A parenthesised list followed by `->` goes on.
                        let mut j = i + 1;
                        while b.get(j) == Some(&b' ') {
                            j += 1;
                        }
                        if c == b')' && b.get(j) == Some(&b'-') && b.get(j + 1) == Some(&b'>') {
                            i = j;
                            continue;
                        }
                    }
                }
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b')' | b'}' | b'{' if depth == 0 => break,
                _ => {}
            }
            i += 1;
        }
        (i > pos).then_some(i)
    }

    fn fast_function_type_uncached(&mut self) -> Option<Type> {
        let save = self.pos;
        let r = (|| {
            let list = |p: &mut Self| -> Option<Vec<Type>> {
                let mut v = Vec::new();
                if p.peek()? != b'(' {
                    return None;
                }
                p.pos += 1;
                if p.peek()? == b')' {
                    p.pos += 1;
                    return Some(v);
                }
                loop {
                    v.push(p.fast_scalar_type()?);
                    match p.peek()? {
                        b',' => p.pos += 1,
                        b')' => {
                            p.pos += 1;
                            return Some(v);
                        }
                        _ => return None,
                    }
                }
            };
            let inputs = list(self)?;
            self.skip_ws();
            if !self.src[self.pos..].starts_with("->") {
                return None;
            }
            self.pos += 2;
            let results = if self.peek()? == b'(' {
                list(self)?
            } else {
                vec![self.fast_scalar_type()?]
            };
            // The type must end here (not continue as e.g. `i32x4` or a nested function type).
            let next = self.src.as_bytes().get(self.pos).copied();
            if matches!(next, Some(c) if c.is_ascii_alphanumeric() || c == b'<' || c == b'-') {
                return None;
            }
            Some(self.ctx.function_type(inputs, results))
        })();
        if r.is_none() {
            self.pos = save;
        }
        r
    }

    pub(super) fn type_(&mut self, p: Pair<'s, Rule>) -> PResult<Type> {
        let sp = self.off(&p);
        let p = if p.as_rule() == Rule::type_ {
            p.into_inner().next().unwrap()
        } else {
            p
        };
        let kind = match p.as_rule() {
            Rule::function_type => return self.function_type(p),
            Rule::integer_type => {
                let s = p.as_str();
                let (sig, digits) = if let Some(d) = s.strip_prefix("si") {
                    (Signedness::Signed, d)
                } else if let Some(d) = s.strip_prefix("ui") {
                    (Signedness::Unsigned, d)
                } else {
                    (Signedness::Signless, &s[1..])
                };
                let width: u32 = digits
                    .parse()
                    .map_err(|_| Diagnostic::at(sp, "invalid integer width"))?;
                if width > 16_777_215 {
                    return Err(Diagnostic::at(
                        sp,
                        format!("integer bitwidth is limited to 16777215 bits, found {width}"),
                    ));
                }
                TypeKind::Integer {
                    width,
                    signedness: sig,
                }
            }
            Rule::index_type => TypeKind::Index,
            Rule::none_type => TypeKind::None,
            Rule::float_type => TypeKind::Float(FloatKind::from_keyword(p.as_str()).unwrap()),
            Rule::complex_type => {
                let inner = p.into_inner().next().unwrap();
                let isp = self.off(&inner);
                let elem = self.type_(inner)?;
                // MLIR's ComplexType::verify: integer or float elements only.
                if !matches!(
                    self.ctx.type_kind(elem),
                    TypeKind::Integer { .. } | TypeKind::Float(_)
                ) {
                    return Err(Diagnostic::at(isp, "invalid element type for complex"));
                }
                TypeKind::Complex(elem)
            }
            Rule::tuple_type => {
                let mut ts = Vec::new();
                for t in p.into_inner() {
                    ts.push(self.type_(t)?);
                }
                TypeKind::Tuple(ts)
            }
            Rule::vector_type => {
                let mut it = p.into_inner();
                let dims = it.next().unwrap();
                let mut shape = Vec::new();
                let mut scalable = Vec::new();
                let dims: String = dims.as_str().split_whitespace().collect();
                for d in dims.split('x').filter(|d| !d.is_empty()) {
                    let (s, n) = if let Some(inner) = d.strip_prefix('[') {
                        (true, inner.trim_end_matches(']'))
                    } else {
                        (false, d)
                    };
                    let n: i64 = n
                        .parse()
                        .map_err(|_| Diagnostic::at(sp, "invalid vector dimension"))?;
                    if n <= 0 {
                        return Err(Diagnostic::at(
                            sp,
                            "vector types must have positive constant sizes",
                        ));
                    }
                    shape.push(n);
                    scalable.push(s);
                }
                let elem = self.type_(it.next().unwrap())?;
                // MLIR accepts integers, index, floats and dialect types that implement
                // VectorElementTypeInterface (`!llvm.ptr`); a dialect type we do not know is
                // given the benefit of the doubt, builtin containers are not.
                if matches!(
                    self.ctx.type_kind(elem),
                    TypeKind::None
                        | TypeKind::Function { .. }
                        | TypeKind::Complex(_)
                        | TypeKind::Tuple(_)
                        | TypeKind::Vector { .. }
                        | TypeKind::RankedTensor { .. }
                        | TypeKind::UnrankedTensor { .. }
                        | TypeKind::MemRef { .. }
                        | TypeKind::UnrankedMemRef { .. }
                ) {
                    return Err(Diagnostic::at(
                        sp,
                        "failed to verify 'elementType': VectorElementTypeInterface instance",
                    ));
                }
                TypeKind::Vector {
                    shape,
                    scalable,
                    elem,
                }
            }
            Rule::tensor_type | Rule::memref_type => {
                let is_tensor = p.as_rule() == Rule::tensor_type;
                let mut it = p.into_inner();
                let first = it.next().unwrap();
                if first.as_rule() == Rule::unranked {
                    let elem = self.type_(it.next().unwrap())?;
                    if is_tensor {
                        TypeKind::UnrankedTensor { elem }
                    } else {
                        let memspace = match it.next() {
                            Some(a) => Some(self.attribute(a)?),
                            None => None,
                        };
                        TypeKind::UnrankedMemRef { elem, memspace }
                    }
                } else {
                    let shape = parse_shape(first.as_str(), sp)?;
                    let elem = self.type_(it.next().unwrap())?;
                    let mut extra = Vec::new();
                    for a in it {
                        extra.push(self.attribute(a)?);
                    }
                    if is_tensor {
                        TypeKind::RankedTensor {
                            shape,
                            elem,
                            encoding: extra.first().copied(),
                        }
                    } else {
                        let (layout, memspace) = match extra.as_slice() {
                            [] => (None, None),
                            [a] => {
                                if self.is_layout_attr(*a) {
                                    (Some(*a), None)
                                } else {
                                    (None, Some(*a))
                                }
                            }
                            [a, b] => (Some(*a), Some(*b)),
                            _ => return Err(Diagnostic::at(sp, "memref type has too many parameters: expected at most a layout and a memory space")),
                        };
                        // MLIR's `MemRefType::verify`: the layout speaks of every dimension
                        // (checked before an identity map is dropped).
                        match layout.map(|l| self.ctx.attr_kind(l)) {
                            Some(AttrKind::AffineMap(m)) if m.num_dims as usize != shape.len() => {
                                return Err(Diagnostic::at(
                                    sp,
                                    format!(
                                        "memref layout mismatch between rank and affine map: {} != {}",
                                        shape.len(),
                                        m.num_dims
                                    ),
                                ));
                            }
                            Some(AttrKind::Strided { strides, .. })
                                if strides.len() != shape.len() =>
                            {
                                return Err(Diagnostic::at(
                                    sp,
                                    "expected the number of strides to match the rank",
                                ));
                            }
                            _ => {}
                        }
                        TypeKind::MemRef {
                            shape,
                            elem,
                            layout,
                            memspace,
                        }
                    }
                }
            }
            Rule::dialect_type => {
                let (d, n, body) = self.dialect_symbol(p);
                match (n, body) {
                    (None, None) => {
                        return self.type_aliases.get(&d).copied().ok_or_else(|| {
                            Diagnostic::at(sp, format!("undefined symbol alias id '{d}'"))
                        })
                    }
                    (None, Some(body)) => self.opaque_or_dialect_type(d, body),
                    (Some(n), body) => {
                        let kind = TypeKind::Dialect {
                            dialect: d,
                            name: n,
                            body,
                        };
                        return self
                            .ctx
                            .registered_type(&kind)
                            .map_err(|e| symbol_diag(sp, e, false));
                    }
                }
            }
            Rule::type_alias_ref => {
                let name = &p.as_str()[1..];
                return self.type_aliases.get(name).copied().ok_or_else(|| {
                    Diagnostic::at(sp, format!("undefined symbol alias id '{name}'"))
                });
            }
            r => unreachable!("type rule {r:?}"),
        };
        Ok(self.ctx.ty(kind))
    }

    fn opaque_or_dialect_type(&self, dialect: String, body: String) -> TypeKind {
        // `!foo<"data">` is MLIR's opaque form; anything else is a namespace-only pretty type.
        match opaque_payload(&body) {
            Some(data) => TypeKind::Opaque { dialect, data },
            None => TypeKind::Dialect {
                dialect,
                name: String::new(),
                body: Some(body),
            },
        }
    }

    pub(super) fn function_type(&mut self, p: Pair<'s, Rule>) -> PResult<Type> {
        let mut it = p.into_inner();
        let ins = it.next().unwrap();
        let mut inputs = Vec::new();
        for t in ins.into_inner() {
            inputs.push(self.type_(t)?);
        }
        let res = it.next().unwrap().into_inner().next().unwrap();
        let mut results = Vec::new();
        if res.as_rule() == Rule::type_list_parens {
            for t in res.into_inner() {
                results.push(self.type_(t)?);
            }
        } else {
            results.push(self.type_(res)?);
        }
        Ok(self.ctx.function_type(inputs, results))
    }
}
