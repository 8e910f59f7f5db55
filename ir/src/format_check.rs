//! The compile-time check of op declarations: `const _: () = MY_OP.check();` runs these
//! functions while the dialect crate compiles, so a format that names an undeclared slot, leaves
//! an operand out or misuses a directive is a build error.
//!
//! They read only the declaration (its slots and the format text as bytes), which is why they
//! live in the values layer beside [`OpDef`] rather than with the format engine
//! ([`crate::format`]) that interprets formats at run time: the declaration can check itself
//! without naming the parser.

use crate::opdef::OpDef;

/// Byte equality in a `const fn` (the std `==` on slices is not const).
pub(crate) const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn sub(s: &[u8], start: usize, end: usize) -> &[u8] {
    let (_, rest) = s.split_at(start);
    let (mid, _) = rest.split_at(end - start);
    mid
}

const fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// What `n` names in `def`, as a number const code can compare; the format engine uses it too,
/// so compile time and run time agree on which slot a `$name` is.
pub(crate) const fn name_kind(def: &OpDef, n: &[u8]) -> u8 {
    // 1 operand, 2 result, 3 attribute, 4 region, 5 successor, 0 unknown.
    let mut i = 0;
    while i < def.operands.len() {
        if bytes_eq(def.operands[i].name.as_bytes(), n) {
            return 1;
        }
        i += 1;
    }
    i = 0;
    while i < def.results.len() {
        if bytes_eq(def.results[i].name.as_bytes(), n) {
            return 2;
        }
        i += 1;
    }
    i = 0;
    while i < def.attributes.len() {
        if bytes_eq(def.attributes[i].name.as_bytes(), n) {
            return 3;
        }
        i += 1;
    }
    i = 0;
    while i < def.regions.len() {
        if bytes_eq(def.regions[i].name.as_bytes(), n) {
            return 4;
        }
        i += 1;
    }
    i = 0;
    while i < def.successors.len() {
        if bytes_eq(def.successors[i].name.as_bytes(), n) {
            return 5;
        }
        i += 1;
    }
    0
}

const fn mentions(f: &[u8], n: &[u8]) -> bool {
    // Is `$n` (not a prefix of a longer name) in the format?
    let mut i = 0;
    while i + n.len() < f.len() {
        if f[i] == b'$' && bytes_eq(sub(f, i + 1, i + 1 + n.len()), n) {
            let after = i + 1 + n.len();
            if after >= f.len() || !is_ident(f[after]) {
                return true;
            }
        }
        i += 1;
    }
    false
}

const fn has_word(f: &[u8], w: &[u8]) -> bool {
    let mut i = 0;
    while i + w.len() <= f.len() {
        if bytes_eq(sub(f, i, i + w.len()), w) {
            let before_ok = i == 0 || !(is_ident(f[i - 1]) || f[i - 1] == b'-' || f[i - 1] == b'$');
            let after = i + w.len();
            let after_ok = after >= f.len() || !(is_ident(f[after]) || f[after] == b'-');
            if before_ok && after_ok {
                return true;
            }
        }
        i += 1;
    }
    false
}

const fn count_name(def: &OpDef, n: &[u8]) -> usize {
    let mut c = 0;
    let mut i = 0;
    while i < def.operands.len() {
        c += bytes_eq(def.operands[i].name.as_bytes(), n) as usize;
        i += 1;
    }
    i = 0;
    while i < def.results.len() {
        c += bytes_eq(def.results[i].name.as_bytes(), n) as usize;
        i += 1;
    }
    i = 0;
    while i < def.attributes.len() {
        c += bytes_eq(def.attributes[i].name.as_bytes(), n) as usize;
        i += 1;
    }
    i = 0;
    while i < def.regions.len() {
        c += bytes_eq(def.regions[i].name.as_bytes(), n) as usize;
        i += 1;
    }
    i = 0;
    while i < def.successors.len() {
        c += bytes_eq(def.successors[i].name.as_bytes(), n) as usize;
        i += 1;
    }
    c
}

/// Every operand, result, attribute, region and successor name must be unique within an op, since
/// formats, verifier messages and accessors refer to them by name (called from [`OpDef::check`]).
pub const fn check_unique_names_const(def: &OpDef) {
    let mut i = 0;
    while i < def.operands.len() {
        if count_name(def, def.operands[i].name.as_bytes()) != 1 {
            panic!("op declaration: two slots share an operand's name");
        }
        i += 1;
    }
    i = 0;
    while i < def.results.len() {
        if count_name(def, def.results[i].name.as_bytes()) != 1 {
            panic!("op declaration: two slots share a result's name");
        }
        i += 1;
    }
    i = 0;
    while i < def.attributes.len() {
        if count_name(def, def.attributes[i].name.as_bytes()) != 1 {
            panic!("op declaration: two slots share an attribute's name");
        }
        i += 1;
    }
    i = 0;
    while i < def.regions.len() {
        if count_name(def, def.regions[i].name.as_bytes()) != 1 {
            panic!("op declaration: two slots share a region's name");
        }
        i += 1;
    }
    i = 0;
    while i < def.successors.len() {
        if count_name(def, def.successors[i].name.as_bytes()) != 1 {
            panic!("op declaration: two slots share a successor's name");
        }
        i += 1;
    }
}

const fn is_directive(w: &[u8]) -> bool {
    bytes_eq(w, b"attr-dict")
        || bytes_eq(w, b"attr-dict-with-keyword")
        || bytes_eq(w, b"type")
        || bytes_eq(w, b"functional-type")
        || bytes_eq(w, b"qualified")
        || bytes_eq(w, b"operands")
        || bytes_eq(w, b"results")
        || bytes_eq(w, b"regions")
        || bytes_eq(w, b"successors")
}

const fn find_attr<'d>(def: &'d OpDef, n: &[u8]) -> Option<&'d crate::opdef::AttrDef> {
    let mut i = 0;
    while i < def.attributes.len() {
        if bytes_eq(def.attributes[i].name.as_bytes(), n) {
            return Some(&def.attributes[i]);
        }
        i += 1;
    }
    None
}

const fn is_unit_attr(def: &OpDef, n: &[u8]) -> bool {
    match find_attr(def, n) {
        Some(a) => bytes_eq(
            a.constraint.desc.as_bytes(),
            crate::opdef::UNIT_ATTR.desc.as_bytes(),
        ),
        None => false,
    }
}

const fn skip_ws_const(f: &[u8], mut i: usize) -> usize {
    while i < f.len() && f[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

const fn ident_end_const(f: &[u8], mut i: usize) -> usize {
    while i < f.len() && (is_ident(f[i]) || f[i] == b'-') {
        i += 1;
    }
    i
}

/// Checks one reference of `functional-type(...)` at `i` (`$name` or `operands`/`results`):
/// `want` is 1 for the inputs (an operand group), 2 for the outputs (a result group).
const fn check_functional_ref(def: &OpDef, f: &[u8], i: usize, want: u8) -> usize {
    let i = skip_ws_const(f, i);
    if i < f.len() && f[i] == b'$' {
        let j = ident_end_const(f, i + 1);
        if name_kind(def, sub(f, i + 1, j)) != want {
            panic!("assembly format: functional-type takes an operand group, then a result group");
        }
        return j;
    }
    let j = ident_end_const(f, i);
    let w = sub(f, i, j);
    let ok = if want == 1 {
        bytes_eq(w, b"operands")
    } else {
        bytes_eq(w, b"results")
    };
    if !ok {
        panic!("assembly format: functional-type takes an operand group, then a result group");
    }
    j
}

/// Checks `custom<Name>(args)` starting after the word `custom`; returns the index after `)`.
const fn check_custom_const(def: &OpDef, f: &[u8], i: usize) -> usize {
    if i >= f.len() || f[i] != b'<' {
        panic!("assembly format: expected `<Name>` after `custom`");
    }
    let j = ident_end_const(f, i + 1);
    if j >= f.len() || f[j] != b'>' || j == i + 1 {
        panic!("assembly format: expected `<Name>` after `custom`");
    }
    let name = sub(f, i + 1, j);
    let mut k = 0;
    let mut found = false;
    while k < def.custom_directives.len() {
        if bytes_eq(def.custom_directives[k].name.as_bytes(), name) {
            found = true;
        }
        k += 1;
    }
    if !found {
        panic!("assembly format: `custom<Name>` names a directive the op does not register in `custom_directives`");
    }
    let mut i = skip_ws_const(f, j + 1);
    if i >= f.len() || f[i] != b'(' {
        panic!("assembly format: expected `(` after `custom<Name>`");
    }
    i += 1;
    loop {
        i = skip_ws_const(f, i);
        if i < f.len() && f[i] == b')' {
            return i + 1;
        }
        if i < f.len() && f[i] == b'$' {
            let e = ident_end_const(f, i + 1);
            if name_kind(def, sub(f, i + 1, e)) == 0 {
                panic!("assembly format names a `$variable` that is not an operand, result, attribute, region or successor of the op");
            }
            i = e;
        } else {
            let e = ident_end_const(f, i);
            if !bytes_eq(sub(f, i, e), b"type") {
                panic!("assembly format: a `custom<Name>` argument is `$name` or `type($name)`");
            }
            i = skip_ws_const(f, e);
            if i >= f.len() || f[i] != b'(' {
                panic!("assembly format: a `custom<Name>` argument is `$name` or `type($name)`");
            }
            i = skip_ws_const(f, i + 1);
            if i >= f.len() || f[i] != b'$' {
                panic!("assembly format: a `custom<Name>` argument is `$name` or `type($name)`");
            }
            let e = ident_end_const(f, i + 1);
            let kind = name_kind(def, sub(f, i + 1, e));
            if kind != 1 && kind != 2 {
                panic!("assembly format: `type($x)` names an operand or result group");
            }
            i = skip_ws_const(f, e);
            if i >= f.len() || f[i] != b')' {
                panic!("assembly format: a `custom<Name>` argument is `$name` or `type($name)`");
            }
            i += 1;
        }
        i = skip_ws_const(f, i);
        if i < f.len() && f[i] == b',' {
            i += 1;
        } else if i >= f.len() || f[i] != b')' {
            panic!("assembly format: expected `,` or `)` in `custom<Name>(...)`");
        }
    }
}

/// A keyword enum's cases must each read back as one bare keyword.
const fn check_keywords_const(kws: &[&str]) {
    let mut k = 0;
    while k < kws.len() {
        let w = kws[k].as_bytes();
        if w.is_empty() || !(w[0].is_ascii_alphabetic() || w[0] == b'_') {
            panic!("keyword enum: every case must be an identifier (letter or `_` first)");
        }
        let mut i = 1;
        while i < w.len() {
            if !(is_ident(w[i]) || w[i] == b'.' || w[i] == b'$') {
                panic!(
                    "keyword enum: every case must be an identifier (letters, digits, `_`, `.`)"
                );
            }
            i += 1;
        }
        k += 1;
    }
}

/// Validates a declarative format against its op at compile time (called from [`OpDef::check`]).
///
/// A well-formed declaration compiles:
///
/// ```
/// use tilus_ir::opdef::{one, Format, OpDef, Trait, SIGNLESS_INT_LIKE};
/// const ADD: OpDef = OpDef {
///     name: "demo.add",
///     operands: &[one("lhs", SIGNLESS_INT_LIKE), one("rhs", SIGNLESS_INT_LIKE)],
///     results: &[one("result", SIGNLESS_INT_LIKE)],
///     traits: &[Trait::SameOperandsAndResultType],
///     format: Format::Declarative("$lhs `,` $rhs attr-dict `:` type($result)"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = ADD.check();
/// ```
///
/// A format naming an undeclared variable is a build error:
///
/// ```compile_fail
/// use tilus_ir::opdef::{one, Format, OpDef, SIGNLESS_INT_LIKE};
/// const ADD: OpDef = OpDef {
///     name: "demo.add",
///     operands: &[one("lhs", SIGNLESS_INT_LIKE)],
///     results: &[one("result", SIGNLESS_INT_LIKE)],
///     format: Format::Declarative("$lsh attr-dict `:` type($result)"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = ADD.check();
/// ```
///
/// So is a misspelled directive:
///
/// ```compile_fail
/// use tilus_ir::opdef::{one, Format, OpDef, SIGNLESS_INT_LIKE};
/// const ADD: OpDef = OpDef {
///     name: "demo.add",
///     operands: &[one("lhs", SIGNLESS_INT_LIKE)],
///     results: &[one("result", SIGNLESS_INT_LIKE)],
///     format: Format::Declarative("$lhs attr-dict `:` typ($result)"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = ADD.check();
/// ```
///
/// The directives have their own rules. This declaration uses each of them: a unit attribute as
/// the anchor of a group that starts with a keyword, a keyword enum, a function type over named
/// groups and a registered `custom<Name>` hook:
///
/// ```
/// use tilus_ir::format::{directive, CustomArg, CustomDirective, FormatState};
/// use tilus_ir::opdef::{attr, enum_attr, many, one, opt_attr, Format, OpDef, ANY_TYPE, I32, UNIT_ATTR};
/// use tilus_ir::syntax::parser::PResult;
/// use tilus_ir::{OpId, Parser, Printer};
/// fn parse_tag(_: &mut Parser, _: &mut FormatState, _: &[CustomArg]) -> PResult<()> { Ok(()) }
/// fn print_tag(_: &mut Printer, _: OpId, _: &[CustomArg]) {}
/// const OP: OpDef = OpDef {
///     name: "demo.call",
///     operands: &[one("tag", I32), many("args", ANY_TYPE)],
///     results: &[many("results", ANY_TYPE)],
///     attributes: &[attr("mode", enum_attr("mode", &["fast", "safe"])), opt_attr("pure", UNIT_ATTR)],
///     format: Format::Declarative(
///         "$mode custom<Tag>($tag) $args (`pure` $pure^)? attr-dict `:` functional-type($args, $results)",
///     ),
///     custom_directives: &[directive(&CustomDirective { name: "Tag", parse: parse_tag, print: print_tag })],
///     ..OpDef::DEFAULT
/// };
/// const _: () = OP.check();
/// ```
///
/// Regions take part too: a region slot with an implicit terminator, a group anchored on a
/// hook, and a hook that binds a region's entry-block arguments (`scf.while`'s declaration):
///
/// ```
/// use tilus_ir::format::{directive, CustomArg, CustomDirective, FormatState};
/// use tilus_ir::opdef::{many, region, Elide, Format, OpDef, ANY_TYPE};
/// use tilus_ir::syntax::parser::PResult;
/// use tilus_ir::{OpId, Parser, Printer};
/// fn parse_list(_: &mut Parser, _: &mut FormatState, _: &[CustomArg]) -> PResult<()> { Ok(()) }
/// fn print_list(_: &mut Printer, _: OpId, _: &[CustomArg]) {}
/// static YIELD: OpDef = OpDef { name: "demo.yield", ..OpDef::DEFAULT };
/// static LOOP: OpDef = OpDef {
///     name: "demo.loop",
///     operands: &[many("inits", ANY_TYPE)],
///     results: &[many("results", ANY_TYPE)],
///     regions: &[region("before"), region("after").implicit(&YIELD, Elide::Never)],
///     format: Format::Declarative(
///         "(` ` `(` custom<AssignmentList>($inits, $before)^ `)`)? `:` \
///          functional-type($inits, $results) $before `do` $after attr-dict",
///     ),
///     custom_directives: &[directive(&CustomDirective { name: "AssignmentList", parse: parse_list, print: print_list })],
///     ..OpDef::DEFAULT
/// };
/// const _: () = LOOP.check();
/// ```
///
/// A unit attribute anywhere else has no spelling, so it is an error:
///
/// ```compile_fail
/// use tilus_ir::opdef::{opt_attr, Format, OpDef, UNIT_ATTR};
/// const OP: OpDef = OpDef {
///     name: "demo.wait",
///     attributes: &[opt_attr("read", UNIT_ATTR)],
///     format: Format::Declarative("$read attr-dict"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = OP.check();
/// ```
///
/// ```compile_fail
/// use tilus_ir::opdef::{opt_attr, Format, OpDef, UNIT_ATTR};
/// const OP: OpDef = OpDef {
///     name: "demo.wait",
///     attributes: &[opt_attr("read", UNIT_ATTR)],
///     format: Format::Declarative("($read^ `read`)? attr-dict"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = OP.check();
/// ```
///
/// So is a `custom<Name>` the op does not register, or one that starts an optional group:
///
/// ```compile_fail
/// use tilus_ir::opdef::{one, Format, OpDef, I32};
/// const OP: OpDef = OpDef {
///     name: "demo.tag",
///     operands: &[one("tag", I32)],
///     format: Format::Declarative("custom<Tag>($tag) attr-dict"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = OP.check();
/// ```
///
/// ```compile_fail
/// use tilus_ir::format::{directive, CustomArg, CustomDirective, FormatState};
/// use tilus_ir::opdef::{maybe, Format, OpDef, I32};
/// use tilus_ir::syntax::parser::PResult;
/// use tilus_ir::{OpId, Parser, Printer};
/// fn parse_tag(_: &mut Parser, _: &mut FormatState, _: &[CustomArg]) -> PResult<()> { Ok(()) }
/// fn print_tag(_: &mut Printer, _: OpId, _: &[CustomArg]) {}
/// const OP: OpDef = OpDef {
///     name: "demo.tag",
///     operands: &[maybe("tag", I32)],
///     format: Format::Declarative("(custom<Tag>($tag) `tag`)? attr-dict"),
///     custom_directives: &[directive(&CustomDirective { name: "Tag", parse: parse_tag, print: print_tag })],
///     ..OpDef::DEFAULT
/// };
/// const _: () = OP.check();
/// ```
///
/// A hook may anchor an optional group (`` (`->` custom<Types>(type($results))^)? ``), which is
/// then present when the hook's first argument is; an anchor outside a group decides nothing:
///
/// ```compile_fail
/// use tilus_ir::format::{directive, CustomArg, CustomDirective, FormatState};
/// use tilus_ir::opdef::{many, Format, OpDef, ANY_TYPE};
/// use tilus_ir::syntax::parser::PResult;
/// use tilus_ir::{OpId, Parser, Printer};
/// fn parse_types(_: &mut Parser, _: &mut FormatState, _: &[CustomArg]) -> PResult<()> { Ok(()) }
/// fn print_types(_: &mut Printer, _: OpId, _: &[CustomArg]) {}
/// const OP: OpDef = OpDef {
///     name: "demo.types",
///     results: &[many("results", ANY_TYPE)],
///     format: Format::Declarative("`->` custom<Types>(type($results))^ attr-dict"),
///     custom_directives: &[directive(&CustomDirective { name: "Types", parse: parse_types, print: print_types })],
///     ..OpDef::DEFAULT
/// };
/// const _: () = OP.check();
/// ```
///
/// A function type with its groups swapped, and a keyword enum whose case is not one word:
///
/// ```compile_fail
/// use tilus_ir::opdef::{many, Format, OpDef, ANY_TYPE};
/// const OP: OpDef = OpDef {
///     name: "demo.call",
///     operands: &[many("args", ANY_TYPE)],
///     results: &[many("results", ANY_TYPE)],
///     format: Format::Declarative("$args attr-dict `:` functional-type($results, $args)"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = OP.check();
/// ```
///
/// ```compile_fail
/// use tilus_ir::opdef::{attr, enum_attr, Format, OpDef};
/// const OP: OpDef = OpDef {
///     name: "demo.mode",
///     attributes: &[attr("mode", enum_attr("mode", &["fast", "very safe"]))],
///     format: Format::Declarative("$mode attr-dict"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = OP.check();
/// ```
///
/// And two slots with one name, or an operand the format leaves out:
///
/// ```compile_fail
/// use tilus_ir::opdef::{one, Format, OpDef, SIGNLESS_INT_LIKE};
/// const ADD: OpDef = OpDef {
///     name: "demo.add",
///     operands: &[one("x", SIGNLESS_INT_LIKE), one("x", SIGNLESS_INT_LIKE)],
///     format: Format::Declarative("$x attr-dict"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = ADD.check();
/// ```
///
/// ```compile_fail
/// use tilus_ir::opdef::{one, Format, OpDef, SIGNLESS_INT_LIKE};
/// const ADD: OpDef = OpDef {
///     name: "demo.add",
///     operands: &[one("lhs", SIGNLESS_INT_LIKE), one("rhs", SIGNLESS_INT_LIKE)],
///     format: Format::Declarative("$lhs attr-dict"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = ADD.check();
/// ```
pub const fn check_format_const(def: &OpDef, f: &[u8]) {
    // Open parentheses: 1 an optional group, 2 a directive's arguments (`type(`, `qualified(`).
    // `first` says what an open group starts with: 0 nothing yet, 1 a literal, 2 anything else.
    let mut kinds = [0u8; 16];
    let mut first = [0u8; 16];
    let mut depth: usize = 0;
    let mut after_directive = false;
    let mut i = 0;
    while i < f.len() {
        let c = f[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // What an element that starts here is, for the enclosing group's `first`.
        let starts = if c == b'`' {
            1
        } else if c == b'$' || c.is_ascii_alphabetic() || c == b'(' {
            2
        } else {
            0
        };
        let opens_group =
            starts != 0 && depth > 0 && kinds[depth - 1] == 1 && first[depth - 1] == 0;
        if opens_group {
            first[depth - 1] = starts;
        }
        if c == b'`' {
            let mut j = i + 1;
            while j < f.len() && f[j] != b'`' {
                j += 1;
            }
            if j >= f.len() {
                panic!("assembly format: unterminated literal (missing closing backtick)");
            }
            i = j + 1;
            after_directive = false;
            continue;
        }
        if c == b'$' {
            let mut j = i + 1;
            while j < f.len() && is_ident(f[j]) {
                j += 1;
            }
            let name = sub(f, i + 1, j);
            if name_kind(def, name) == 0 {
                panic!("assembly format names a `$variable` that is not an operand, result, attribute, region or successor of the op");
            }
            let anchor = j < f.len() && f[j] == b'^';
            let in_directive = depth > 0 && kinds[depth - 1] == 2;
            if is_unit_attr(def, name)
                && !in_directive
                && (!anchor || depth == 0 || kinds[depth - 1] != 1 || first[depth - 1] != 1)
            {
                panic!("assembly format: a unit attribute is written only as the anchor of an optional group that starts with a keyword: (`kw` $flag^)?");
            }
            if let Some(a) = find_attr(def, name) {
                check_keywords_const(a.constraint.keywords);
            }
            i = if anchor { j + 1 } else { j };
            after_directive = false;
            continue;
        }
        if c.is_ascii_alphabetic() {
            let j = ident_end_const(f, i);
            let w = sub(f, i, j);
            after_directive = false;
            if bytes_eq(w, b"custom") {
                if opens_group {
                    // The parser decides on a group by its first element; a hook cannot say.
                    panic!("assembly format: an optional group cannot start with `custom<Name>`");
                }
                i = check_custom_const(def, f, j);
                if i < f.len() && f[i] == b'^' {
                    if depth == 0 || kinds[depth - 1] != 1 {
                        // Only a group has a presence to decide.
                        panic!("assembly format: an anchor `^` belongs inside an optional group");
                    }
                    i += 1;
                }
                continue;
            }
            if bytes_eq(w, b"functional-type") {
                let mut k = skip_ws_const(f, j);
                if k >= f.len() || f[k] != b'(' {
                    panic!("assembly format: expected `(` after `functional-type`");
                }
                k = check_functional_ref(def, f, k + 1, 1);
                k = skip_ws_const(f, k);
                if k >= f.len() || f[k] != b',' {
                    panic!("assembly format: expected `,` in `functional-type(inputs, results)`");
                }
                k = check_functional_ref(def, f, k + 1, 2);
                k = skip_ws_const(f, k);
                if k >= f.len() || f[k] != b')' {
                    panic!("assembly format: expected `)` to close `functional-type(`");
                }
                i = k + 1;
                continue;
            }
            if !is_directive(w) {
                panic!("assembly format: unknown directive (expected attr-dict, attr-dict-with-keyword, type, functional-type, qualified, custom, operands, results, regions or successors)");
            }
            after_directive = bytes_eq(w, b"type") || bytes_eq(w, b"qualified");
            i = j;
            continue;
        }
        if c == b'(' {
            if depth >= kinds.len() {
                panic!("assembly format: groups nested too deeply");
            }
            kinds[depth] = if after_directive { 2 } else { 1 };
            first[depth] = 0;
            depth += 1;
        } else if c == b')' {
            if depth == 0 {
                panic!("assembly format: unbalanced ')'");
            }
            depth -= 1;
            if kinds[depth] == 1 {
                let k = skip_ws_const(f, i + 1);
                if k >= f.len() || f[k] != b'?' {
                    panic!("assembly format: an optional group must end with `)?`");
                }
                if first[depth] == 0 {
                    panic!("assembly format: an optional group must not be empty");
                }
                i = k;
            }
        }
        after_directive = false;
        i += 1;
    }
    if depth != 0 {
        panic!("assembly format: unbalanced '('");
    }
    if !has_word(f, b"attr-dict") && !has_word(f, b"attr-dict-with-keyword") {
        panic!("assembly format must contain `attr-dict` or `attr-dict-with-keyword`");
    }
    let all_operands = has_word(f, b"operands");
    let mut k = 0;
    while k < def.operands.len() {
        if !all_operands && !mentions(f, def.operands[k].name.as_bytes()) {
            panic!(
                "assembly format leaves an operand out: every operand needs `$name` or `operands`"
            );
        }
        k += 1;
    }
    let all_regions = has_word(f, b"regions");
    k = 0;
    while k < def.regions.len() {
        if !all_regions && !mentions(f, def.regions[k].name.as_bytes()) {
            panic!("assembly format leaves a region out: every region needs `$name` or `regions`");
        }
        k += 1;
    }
    let all_succ = has_word(f, b"successors");
    k = 0;
    while k < def.successors.len() {
        if !all_succ && !mentions(f, def.successors[k].name.as_bytes()) {
            panic!("assembly format leaves a successor out");
        }
        k += 1;
    }
}
