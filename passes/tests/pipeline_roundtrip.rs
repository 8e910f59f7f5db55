//! Printed pipelines parse back to themselves: `to_pipeline_string` (and the
//! `--dump-pass-pipeline` layout) of any pipeline the parser accepts reads back to a pipeline that
//! prints the same text. Option values with spaces, unbalanced braces or quotes are quoted or
//! written bare as needed. The inputs under "fuzz finds" are the `pipeline` fuzz target's crashes
//! (docs/fuzzing.md), reduced by hand.

use tilus_passes::{parse_pipeline, Nesting};

/// Parses `text` with both nestings, prints it, parses the print and prints again; the two
/// prints must agree, and so must the pretty form's reparse. Returns the one-line print
/// (explicit nesting).
fn round_trip(text: &str) -> String {
    let mut first = None;
    for nesting in [Nesting::Explicit, Nesting::Implicit] {
        let pm = parse_pipeline(text, nesting)
            .unwrap_or_else(|d| panic!("{text:?} does not parse ({nesting:?}): {}", d.message));
        let s1 = pm.to_pipeline_string();
        let pm2 = parse_pipeline(&s1, nesting).unwrap_or_else(|d| {
            panic!(
                "printed pipeline does not parse ({nesting:?}): {}\n input: {text:?}\n printed: {s1:?}",
                d.message
            )
        });
        assert_eq!(pm2.to_pipeline_string(), s1, "input: {text:?}");
        let pretty = pm.to_pretty_string();
        let pm3 = parse_pipeline(&pretty, nesting).unwrap_or_else(|d| {
            panic!(
                "pretty pipeline does not parse ({nesting:?}): {}\n input: {text:?}\n printed:\n{pretty}",
                d.message
            )
        });
        assert_eq!(pm3.to_pipeline_string(), s1, "input: {text:?}");
        first.get_or_insert(s1);
    }
    first.unwrap()
}

/// The printed options of the only pass in `builtin.module(pass{...})`'s print.
fn printed_options(text: &str) -> String {
    let s = round_trip(text);
    let open = s.find('{').expect("options");
    s[open + 1..s.len() - 2].to_string()
}

#[test]
fn plain_values_print_as_before() {
    assert_eq!(
        round_trip("builtin.module(canonicalize{enable-patterns={a,b} max-iterations=3})"),
        "builtin.module(canonicalize{ enable-patterns={a,b} max-iterations=3 max-num-rewrites=-1 \
         region-simplify=normal test-convergence=false top-down=true})"
    );
    assert_eq!(
        round_trip("builtin.module(inline)"),
        "builtin.module(inline{default-pipeline=canonicalize inlining-threshold=4294967295 \
         max-iterations=4 })"
    );
    // Braces with spaces inside stay bare, as MLIR prints them.
    assert!(printed_options(
        "builtin.module(inline{default-pipeline='canonicalize{max-iterations=2 top-down=false}'})"
    )
    .starts_with("default-pipeline=canonicalize{max-iterations=2 top-down=false} "));
    assert!(
        printed_options("builtin.module(canonicalize{enable-patterns={a b,c}})")
            .contains(" enable-patterns={a b,c} ")
    );
}

#[test]
fn string_values_with_spaces_are_quoted() {
    assert!(
        printed_options("builtin.module(inline{default-pipeline=\"cse, canonicalize\"})")
            .starts_with("default-pipeline=\"cse, canonicalize\" ")
    );
    // An empty value prints as `key=` (the parser reads that as empty, as MLIR does).
    assert!(
        printed_options("builtin.module(inline{default-pipeline=\"\"})")
            .starts_with("default-pipeline= ")
    );
}

#[test]
fn fuzz_finds_unbalanced_list_items() {
    // The first run's finding (docs/fuzzing.md): `{` in a bare list value; its braced print
    // `{a{(}}}` closed early.
    assert!(
        printed_options("builtin.module(canonicalize{enable-patterns=a{(}}})")
            .contains(" enable-patterns=\"{a{(}}}\" ")
    );
    assert!(
        printed_options("builtin.module(canonicalize{enable-patterns=\"a}\"})")
            .contains(" enable-patterns=\"{a}}\" ")
    );
    assert!(
        printed_options("builtin.module(test-print-op-count{only=\"{a\"})")
            .ends_with(" only=\"{{a}\"")
    );
    // A double quote too: single quotes.
    assert!(
        printed_options("builtin.module(test-print-op-count{only='{\"'})")
            .ends_with(" only='{{\"}'")
    );
}

#[test]
fn fuzz_finds_both_quotes_and_unbalanced_braces() {
    // No quote can carry these; the items are written bare.
    assert!(
        printed_options("builtin.module(canonicalize{enable-patterns=a\"'(}})")
            .contains(" enable-patterns=a\"'(} ")
    );
    // A leading `{` would be read as the list's brace, so a leading `,` (an empty item) is kept.
    assert!(
        printed_options("builtin.module(canonicalize{disable-patterns=,{)\"'})")
            .starts_with("disable-patterns=,{)\"' ")
    );
}

#[test]
fn fuzz_crash_inputs_round_trip() {
    // Verbatim crash inputs of the first `pipeline` run (control bytes included).
    for text in [
        "builtmniltmn.module(canonicalize{enable-patterns=e.m%donicalize{enable-patterns=e.m%dplm\\\\;\r\x1b]corrupt\x03\x03\x03\x07\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0builpt\x03\x03\x03\x07\x03\x03\x03})",
        "builmn.module(canonicalize{enable-patterns=e.m%dunmlu.doe(canonicaliinmlu.doe(cacseicZlies]ze{m}ac}})",
        "bumn.module(canonicalize{enable-patterns=e.jjjjjjjjjjjodule(func.func(any(cse),cse),an{(csebtu),liimo.ndule),any(cseu),liimo.ndule(cse),csebtu),liimo.ndule(cse),cse)int\0\0\0\0\0\0\0\0\0\0\0s@e})",
        "builtin.modulem(canonicalize{disable-patterns=-1C\0\0\0\0\0\0\0\0\0builtin.module(\0}})",
        "builmn.module(canonicalize{enable-patterns=le\x1c\0anonicalize{enableradefault-pIpeline)=ns=,{c}})",
    ] {
        round_trip(text);
    }
}

/// Every pipeline that parses, among single-character insertions into option values of a few
/// pipelines, round-trips (a small deterministic fuzz over the characters that matter).
#[test]
fn mutated_option_values_round_trip() {
    let bases = [
        "builtin.module(canonicalize{enable-patterns={a,b} disable-patterns=c,d})",
        "builtin.module(test-print-op-count{only={x.y,z} limit=3},inline{default-pipeline='cse,dce'})",
        "builtin.module(inline{default-pipeline=\"canonicalize{top-down=false},cse\"})",
    ];
    let specials = [
        '{', '}', '(', ')', '[', ']', ',', ' ', '"', '\'', '=', '\n', 'é',
    ];
    let mut parsed = 0;
    for base in bases {
        let opts_start = base.find('{').unwrap();
        let positions: Vec<usize> = base
            .char_indices()
            .map(|(i, _)| i)
            .filter(|&i| i > opts_start)
            .collect();
        for &i in &positions {
            for &c in &specials {
                for &j in &positions {
                    if j < i {
                        continue;
                    }
                    // Two insertions (same or different place), so pairs of quotes/braces appear.
                    for &d in &specials {
                        let mut m = String::new();
                        m.push_str(&base[..i]);
                        m.push(c);
                        m.push_str(&base[i..j]);
                        m.push(d);
                        m.push_str(&base[j..]);
                        if parse_pipeline(&m, Nesting::Explicit).is_ok() {
                            parsed += 1;
                            round_trip(&m);
                        }
                    }
                }
            }
        }
    }
    assert!(parsed > 1000, "only {parsed} mutants parsed");
}
