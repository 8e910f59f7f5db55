//! Option values as pipelines spell them: parsing helpers for [`crate::Pass::set_option`] and the
//! matching printers for [`crate::Pass::options`], so every pass accepts and prints the same
//! forms (`true`/`false`, decimal integers, `{a,b}` lists) and reports the same errors.

/// `true`, `false`, `1` or `0` (what MLIR's command-line parser accepts for a flag).
pub fn parse_bool(value: &str) -> Result<bool, String> {
    match value {
        "true" | "TRUE" | "True" | "1" => Ok(true),
        "false" | "FALSE" | "False" | "0" => Ok(false),
        _ => Err(format!("expected 'true' or 'false', got '{value}'")),
    }
}

/// A decimal integer of type `T` (range errors included).
pub fn parse_int<T: std::str::FromStr>(value: &str) -> Result<T, String> {
    value
        .trim()
        .parse::<T>()
        .map_err(|_| format!("expected an integer, got '{value}'"))
}

/// One of `allowed`; the error lists them.
pub fn parse_enum<'a>(value: &str, allowed: &[&'a str]) -> Result<&'a str, String> {
    allowed
        .iter()
        .find(|a| **a == value)
        .copied()
        .ok_or_else(|| {
            format!(
                "expected one of {}, got '{value}'",
                allowed
                    .iter()
                    .map(|a| format!("'{a}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

/// A list, braced (`{a,b}`) or bare (`a,b`), as MLIR accepts both; empty items are dropped.
pub fn parse_list(value: &str) -> Vec<String> {
    let v = value.trim();
    let v = v
        .strip_prefix('{')
        .and_then(|v| v.strip_suffix('}'))
        .unwrap_or(v);
    let mut items = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in v.chars() {
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    items.push(cur);
    items
        .into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A list as [`crate::Pass::options`] reports it: pipeline text that [`parse_list`] reads back
/// as `items`, after the pipeline parser has read it as one option value. Usually `{a,b}`, or
/// `{}` when empty (which the pipeline printer leaves out, as MLIR does). Items whose brackets
/// do not balance make the braced form unreadable (`{a}}` ends at the first `}`), so it is
/// quoted instead (`"{a}}"`), and when it holds both kinds of quote the items are written bare
/// (`a"'(}`, or `,{"'(` where a leading `{` would be taken for the list's brace). Every list
/// [`parse_list`] returns for a value the pipeline parser read prints this way; a list built in
/// code that none of the forms can carry is printed braced.
pub fn print_list(items: &[String]) -> String {
    let joined = items.join(",");
    let braced = format!("{{{joined}}}");
    let candidates = [braced.clone(), joined.clone(), format!(",{joined}")];
    for c in &candidates {
        if parse_list(c) != items {
            continue;
        }
        if let Some(spelled) = quote_value(c) {
            return spelled;
        }
    }
    braced
}

/// Whether the pipeline parser reads `text` as exactly one option value, up to its end, both when
/// another option (` `) and when the closing `}` of the options follows, as in
/// [`crate::pipeline::pass_text`]'s output. Returns the value it reads (quotes removed).
fn read_whole_value(text: &str) -> Option<String> {
    let mut value = None;
    for next in [" ", "}"] {
        let (v, end) = crate::pipeline::read_option_value(&format!("{text}{next}"))?;
        if end != text.len() || value.as_ref().is_some_and(|w| *w != v) {
            return None;
        }
        value = Some(v);
    }
    value
}

/// Whether `text` already is the pipeline spelling of one option value (bare `x`, braced
/// `{a,b}`, quoted `"a b"` or `'a"b'`), so [`crate::pipeline::pass_text`] prints it unchanged.
pub fn is_value_spelling(text: &str) -> bool {
    read_whole_value(text).is_some()
}

/// How pipeline text spells the option value `value`: unchanged when the pipeline parser reads it
/// back as itself (bare text such as `canonicalize{top-down=false},cse`, or a balanced `{...}`),
/// otherwise in double quotes, or in single quotes when it contains a double quote. `None` when
/// it holds both kinds of quote and cannot be written bare or braced (pipeline values have no
/// escapes, as in MLIR).
pub fn quote_value(value: &str) -> Option<String> {
    if read_whole_value(value).as_deref() == Some(value) {
        return Some(value.to_string());
    }
    ['"', '\'']
        .into_iter()
        .find(|q| !value.contains(*q))
        .map(|q| format!("{q}{value}{q}"))
}

/// Edit distance between two names (insertions, deletions, substitutions, transpositions).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The candidates close enough to `name` to suggest, best first: within a third of the
/// name's length in edits (at least 1, at most 3), or sharing a prefix of 3+ characters when
/// `name` is a prefix of the candidate.
pub fn closest<'a>(name: &str, candidates: &[&'a str]) -> Vec<&'a str> {
    let limit = (name.chars().count() / 3).clamp(1, 3);
    let mut scored: Vec<(usize, &'a str)> = candidates
        .iter()
        .filter_map(|c| {
            let d = edit_distance(name, c);
            if d <= limit || (name.len() >= 3 && c.starts_with(name)) {
                Some((d, *c))
            } else {
                None
            }
        })
        .collect();
    scored.sort();
    scored.dedup();
    scored.into_iter().map(|(_, c)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bools_ints_enums() {
        assert_eq!(parse_bool("true"), Ok(true));
        assert_eq!(parse_bool("0"), Ok(false));
        assert!(parse_bool("yes").unwrap_err().contains("'yes'"));
        assert_eq!(parse_int::<i64>("-1"), Ok(-1));
        assert!(parse_int::<u32>("-1").is_err());
        assert_eq!(parse_enum("b", &["a", "b"]), Ok("b"));
        assert_eq!(
            parse_enum("c", &["a", "b"]).unwrap_err(),
            "expected one of 'a', 'b', got 'c'"
        );
    }

    #[test]
    fn lists() {
        assert_eq!(parse_list("{a,b}"), ["a", "b"]);
        assert_eq!(parse_list("a, b"), ["a", "b"]);
        assert_eq!(parse_list("{}"), Vec::<String>::new());
        assert_eq!(parse_list("f(a,b),c"), ["f(a,b)", "c"]);
        assert_eq!(print_list(&["x".into(), "y".into()]), "{x,y}");
        assert_eq!(print_list(&[]), "{}");
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn values_are_quoted_only_when_needed() {
        assert_eq!(quote_value("x").as_deref(), Some("x"));
        assert_eq!(quote_value("").as_deref(), Some(""));
        assert_eq!(quote_value("{a,{b c}}").as_deref(), Some("{a,{b c}}"));
        assert_eq!(quote_value("a{b c},d").as_deref(), Some("a{b c},d"));
        assert_eq!(quote_value("cse, dce").as_deref(), Some("\"cse, dce\""));
        assert_eq!(quote_value("{a}}").as_deref(), Some("\"{a}}\""));
        assert_eq!(quote_value("{a\"").as_deref(), Some("'{a\"'"));
        assert_eq!(quote_value("\"x\"").as_deref(), Some("'\"x\"'"));
        assert_eq!(quote_value("{\"'"), None);
        assert!(is_value_spelling("\"{a}}\""));
        assert!(is_value_spelling("{a,b}"));
        assert!(!is_value_spelling("a b"));
        assert!(!is_value_spelling("{a"));
        assert!(!is_value_spelling("a("));
    }

    #[test]
    fn lists_print_in_a_form_that_reads_back() {
        for (items, printed) in [
            (&["a", "b"][..], "{a,b}"),
            (&["a}"], "\"{a}}\""),
            (
                &["e.m%donicalize{enable-patterns=x"],
                "\"{e.m%donicalize{enable-patterns=x}\"",
            ),
            (&["a\"'(}"], "a\"'(}"),
            (&["{)\"'"], ",{)\"'"),
            (&["a b", "c"], "{a b,c}"),
        ] {
            let items = strings(items);
            assert_eq!(print_list(&items), printed, "{items:?}");
            let read = read_whole_value(printed).unwrap();
            assert_eq!(parse_list(&read), items, "{printed}");
        }
    }

    #[test]
    fn suggestions() {
        assert_eq!(edit_distance("cse", "cse"), 0);
        assert_eq!(edit_distance("cze", "cse"), 1);
        assert_eq!(edit_distance("ecs", "ces"), 1);
        let c = ["cse", "canonicalize", "symbol-dce", "dce"];
        assert_eq!(closest("cze", &c), ["cse"]);
        assert_eq!(closest("canonicalise", &c), ["canonicalize"]);
        assert_eq!(closest("canon", &c), ["canonicalize"]);
        assert!(closest("zzzzzz", &c).is_empty());
    }
}
