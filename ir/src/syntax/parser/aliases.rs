//! Attribute and type alias definitions (`#name = ...`, `!name = ...`) and their expansion in
//! dialect bodies.

use super::*;

impl<'c, 's> Parser<'c, 's> {
    pub(super) fn at_alias_def(&mut self) -> bool {
        let rest = &self.src[self.pos..];
        let b = rest.as_bytes();
        if b.is_empty() || (b[0] != b'#' && b[0] != b'!') {
            return false;
        }
        let mut i = 1;
        while i < b.len()
            && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'$' | b'.' | b'-'))
        {
            i += 1;
        }
        while i < b.len() && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        i < b.len() && b[i] == b'=' && b.get(i + 1) != Some(&b'=')
    }

    pub(super) fn parse_alias_def(&mut self) -> PResult<()> {
        let src: &'s str = self.src;
        let start = self.pos;
        let is_attr = src.as_bytes()[self.pos] == b'#';
        let e = self.ident_end(start + 1);
        let name = &src[start + 1..e];
        let name_span = Span::new(start, e);
        if name.contains('.') {
            return Err(Diagnostic::at(
                name_span,
                "expected alias name without '.' (dotted names are dialect symbols)",
            ));
        }
        self.pos = e;
        self.expect("=")?;
        if is_attr {
            // `mlir-opt --mlir-print-debuginfo` ends files with one location alias per op.
            let a = match self.fast_loc_attr() {
                Some(l) => l?,
                None => self.parse_attribute()?,
            };
            if self.attr_aliases.is_empty()
                || self.attr_aliases.len() == self.attr_aliases.capacity()
            {
                // The uses seen so far that wait for a definition are about as many as the
                // definitions still to come (bounded by what the rest of the text can hold,
                // `#a = loc(unknown)` being about 16 bytes): room for them at once saves
                // growing the table step by step.
                let pending = self.fwd_op_locs.len() + self.fwd_locs.len();
                let room = pending.min((src.len() - self.pos) / 16);
                self.attr_aliases.reserve(room);
            }
            match self.attr_aliases.entry(name) {
                Entry::Occupied(e) => {
                    return Err(Diagnostic::at(
                        name_span,
                        format!("redefinition of attribute alias id '{}'", e.key()),
                    ));
                }
                Entry::Vacant(e) => {
                    e.insert(a);
                }
            }
        } else {
            if self.type_aliases.contains_key(name) {
                return Err(Diagnostic::at(
                    name_span,
                    format!("redefinition of type alias id '{name}'"),
                ));
            }
            let t = self.parse_type()?;
            self.type_aliases.insert(name.to_string(), t);
        }
        Ok(())
    }

    /// A raw dialect body with each use of an attribute or type alias defined in this file
    /// (`#name`, `!name`; strings skipped) replaced by what the alias stands for. The body is
    /// kept as text, so without this the printed body would name an alias that the output no
    /// longer defines; MLIR's own parser resolves such uses while reading the body.
    pub(super) fn expand_aliases_in_body(&self, body: &str) -> String {
        if !body.contains(['#', '!']) {
            return body.to_string();
        }
        let b = body.as_bytes();
        let mut out = String::with_capacity(body.len());
        let mut i = 0;
        let mut copied = 0;
        while i < b.len() {
            match b[i] {
                b'"' => {
                    i += 1;
                    while i < b.len() && b[i] != b'"' {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                c @ (b'#' | b'!')
                    if b.get(i + 1)
                        .is_some_and(|n| n.is_ascii_alphabetic() || *n == b'_') =>
                {
                    let mut e = i + 1;
                    while e < b.len()
                        && (b[e].is_ascii_alphanumeric() || matches!(b[e], b'_' | b'$' | b'.'))
                    {
                        e += 1;
                    }
                    let name = &body[i + 1..e];
                    let text = if name.contains('.') {
                        None
                    } else if c == b'#' {
                        self.attr_aliases
                            .get(name)
                            .map(|&a| crate::syntax::printer::attr_to_string(self.ctx, a))
                    } else {
                        self.type_aliases
                            .get(name)
                            .map(|&t| crate::syntax::printer::type_to_string(self.ctx, t))
                    };
                    if let Some(text) = text {
                        out.push_str(&body[copied..i]);
                        out.push_str(&text);
                        copied = e;
                    }
                    i = e;
                }
                _ => i += 1,
            }
        }
        out.push_str(&body[copied.min(body.len())..]);
        out
    }
}
