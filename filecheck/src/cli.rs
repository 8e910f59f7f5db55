//! Command-line parsing with the rules of LLVM's `cl` library, which FileCheck's users meet in
//! RUN lines: one or two leading dashes, `--name=value` or `--name value`, `-DNAME=VALUE` glued
//! to its option, single-letter flags grouped (`-vv` is `-v -v`), every malformed argument
//! reported (with a "Did you mean" suggestion for unknown ones) before exiting with status 1.

use crate::{DumpInput, DumpInputFilter, Options, Outcome};

/// Whether an option takes a value (LLVM `ValueExpected`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Value {
    /// Needs one: attached with `=` or taken from the next argument.
    Required,
    /// A boolean flag: `--flag` or `--flag=true|false|1|0`.
    Optional,
    /// Takes none (`--help`, `--version`).
    Disallowed,
}

/// One option FileCheck 22 accepts.
struct Spec {
    name: &'static str,
    value: Value,
    /// `-DNAME=VALUE`: the value is always glued to the name.
    always_prefix: bool,
    /// A single-letter flag that may be grouped with others (`-vv`).
    grouping: bool,
}

const fn opt(name: &'static str, value: Value) -> Spec {
    Spec {
        name,
        value,
        always_prefix: false,
        grouping: false,
    }
}

/// Every option of LLVM FileCheck 22 (its own and the generic ones its binary registers), in
/// the order LLVM's option table iterates them: when several options are equally close to a
/// mistyped one, the first in this order is suggested, as LLVM does. The order was measured
/// against the real tool (its table is a hash map, so the order is not alphabetical).
const SPECS: &[Spec] = &include!("cli_order.in");

fn find(name: &str) -> Option<&'static Spec> {
    SPECS.iter().find(|s| s.name == name)
}

/// Levenshtein distance with replacements (LLVM `StringRef::edit_distance`).
fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let sub = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            cur[j] = sub.min(prev[j] + 1).min(cur[j - 1] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The option closest to the unknown `arg` (dashes removed), spelled as LLVM suggests it
/// (LLVM `LookupNearestOption`): options that take a value are compared with the part before
/// `=`, and the suggestion keeps the value the user wrote.
fn nearest(arg: &str) -> Option<String> {
    if arg.is_empty() {
        return None;
    }
    let (lhs, rhs) = arg.split_once('=').unwrap_or((arg, ""));
    let mut best: Option<(usize, String)> = None;
    for s in SPECS {
        let permit_value = s.value != Value::Disallowed;
        let flag = if permit_value { lhs } else { arg };
        let d = edit_distance(s.name.as_bytes(), flag.as_bytes());
        if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
            let shown = if rhs.is_empty() || !permit_value {
                s.name.to_string()
            } else {
                format!("{}={rhs}", s.name)
            };
            best = Some((d, shown));
        }
    }
    best.map(|(_, name)| format!("{}{name}", if name.len() == 1 { "-" } else { "--" }))
}

/// What the command line asked for.
pub struct Cli {
    pub opts: Options,
    pub check_file: Option<String>,
    pub input_file: Option<String>,
}

/// Parse state: the settings so far and the errors met (all are reported, as LLVM does).
struct Parser {
    program: String,
    errors: String,
    opts: Options,
    input_file: Option<String>,
    dump: Option<DumpInput>,
    filter: Option<DumpInputFilter>,
    context: Option<usize>,
    color: Option<bool>,
}

/// An early exit requested by an option (`--help`, `--version`).
type Exit = Outcome;

impl Parser {
    fn error(&mut self, spec: &Spec, msg: &str) {
        let dashes = if spec.name.len() == 1 { "-" } else { "--" };
        self.errors.push_str(&format!(
            "FileCheck: for the {dashes}{} option: {msg}\n",
            spec.name
        ));
    }

    fn boolean(&mut self, spec: &Spec, v: Option<&str>) -> Option<bool> {
        match v {
            None | Some("" | "true" | "TRUE" | "True" | "1") => Some(true),
            Some("false" | "FALSE" | "False" | "0") => Some(false),
            Some(other) => {
                self.error(
                    spec,
                    &format!("'{other}' is invalid value for boolean argument! Try 0 or 1"),
                );
                None
            }
        }
    }

    /// Gives `value` to the option (LLVM `ProvideOption`), taking the next argument when a
    /// required value is missing.
    fn provide(
        &mut self,
        spec: &'static Spec,
        value: Option<String>,
        args: &[String],
        i: &mut usize,
    ) -> Result<(), Exit> {
        let value = match spec.value {
            Value::Required => match value {
                Some(v) => Some(v),
                None if *i + 1 >= args.len() || spec.always_prefix => {
                    self.error(spec, "requires a value!");
                    return Ok(());
                }
                None => {
                    *i += 1;
                    Some(args[*i].clone())
                }
            },
            Value::Disallowed => {
                if let Some(v) = value {
                    self.error(spec, &format!("does not allow a value! '{v}' specified."));
                    return Ok(());
                }
                None
            }
            Value::Optional => value,
        };
        let v = value.as_deref();
        let o = &mut self.opts;
        match spec.name {
            "D" => o.defines.push(v.unwrap_or_default().to_string()),
            "check-prefix" => o.check_prefixes.push(v.unwrap_or_default().to_string()),
            "check-prefixes" => o
                .check_prefixes
                .extend(v.unwrap_or_default().split(',').map(String::from)),
            "comment-prefixes" => o
                .comment_prefixes
                .get_or_insert_with(Vec::new)
                .extend(v.unwrap_or_default().split(',').map(String::from)),
            "input-file" => self.input_file = Some(v.unwrap_or_default().to_string()),
            "implicit-check-not" => o.implicit_check_not.push(v.unwrap_or_default().to_string()),
            "dump-input" => {
                let d = match v.unwrap_or_default() {
                    "help" => DumpInput::Help,
                    "always" => DumpInput::Always,
                    "fail" => DumpInput::Fail,
                    "never" => DumpInput::Never,
                    other => {
                        let msg = format!("Cannot find option named '{other}'!");
                        self.error(spec, &msg);
                        return Ok(());
                    }
                };
                // The earliest value in the list help/always/fail/never wins.
                self.dump = Some(match self.dump {
                    Some(prev) if (prev as u8) < (d as u8) => prev,
                    _ => d,
                });
            }
            "dump-input-filter" => {
                let f = match v.unwrap_or_default() {
                    "all" => DumpInputFilter::All,
                    "annotation-full" => DumpInputFilter::AnnotationFull,
                    "annotation" => DumpInputFilter::Annotation,
                    "error" => DumpInputFilter::Error,
                    other => {
                        let msg = format!("Cannot find option named '{other}'!");
                        self.error(spec, &msg);
                        return Ok(());
                    }
                };
                self.filter = Some(match self.filter {
                    Some(prev) if (prev as u8) < (f as u8) => prev,
                    _ => f,
                });
            }
            "dump-input-context" => {
                let text = v.unwrap_or_default();
                match text.parse::<u32>() {
                    Ok(n) => {
                        let n = n as usize;
                        self.context = Some(self.context.map_or(n, |c| c.max(n)));
                    }
                    Err(_) => {
                        let msg = format!("'{text}' value invalid for uint argument!");
                        self.error(spec, &msg);
                    }
                }
            }
            "help" | "h" | "help-hidden" | "help-list" | "help-list-hidden" => {
                return Err(Outcome {
                    exit_code: 0,
                    stdout: USAGE.to_string(),
                    stderr: std::mem::take(&mut self.errors),
                });
            }
            "version" => {
                return Err(Outcome {
                    exit_code: 0,
                    stdout: format!(
                        "tilus-filecheck {} (compatible with LLVM FileCheck 22)\n",
                        env!("CARGO_PKG_VERSION")
                    ),
                    stderr: std::mem::take(&mut self.errors),
                });
            }
            name if spec.value == Value::Optional => {
                let Some(b) = self.boolean(spec, v) else {
                    return Ok(());
                };
                let o = &mut self.opts;
                match name {
                    "strict-whitespace" => o.strict_whitespace = b,
                    "match-full-lines" => o.match_full_lines = b,
                    "allow-empty" => o.allow_empty = b,
                    "ignore-case" => o.ignore_case = b,
                    "enable-var-scope" => o.enable_var_scope = b,
                    "allow-unused-prefixes" => o.allow_unused_prefixes = b,
                    "allow-deprecated-dag-overlap" => o.allow_deprecated_dag_overlap = b,
                    "v" => o.verbose = b,
                    "vv" => {
                        o.very_verbose = b;
                        o.verbose |= b;
                    }
                    "color" => self.color = Some(b),
                    // LLVM's generic flags (statistics, timers, crash handling) have no
                    // effect on checking.
                    _ => {}
                }
            }
            // Generic LLVM options with a value, likewise without effect here.
            _ => {}
        }
        Ok(())
    }

    /// An argument that is not an option name: a glued prefix option (`-DX=1`) or a group of
    /// single-letter flags (LLVM `HandlePrefixedOrGroupedOption`). `name` is left at the part
    /// that could not be used, for the suggestion.
    fn prefixed_or_grouped(
        &mut self,
        name: &mut String,
        args: &[String],
        i: &mut usize,
    ) -> Result<bool, Exit> {
        if name.len() == 1 {
            return Ok(false);
        }
        let longest = |s: &str, pred: &dyn Fn(&Spec) -> bool| -> Option<&'static Spec> {
            (1..=s.len())
                .rev()
                .filter(|&l| s.is_char_boundary(l))
                .find_map(|l| find(&s[..l]).filter(|sp| pred(sp)))
        };
        let mut spec = longest(name, &|s: &Spec| s.always_prefix || s.grouping);
        while let Some(sp) = spec {
            let rest = name[sp.name.len()..].to_string();
            if rest.is_empty() || sp.always_prefix {
                let value = if rest.is_empty() { None } else { Some(rest) };
                self.provide(sp, value, args, i)?;
                return Ok(true);
            }
            if let Some(v) = rest.strip_prefix('=') {
                self.provide(sp, Some(v.to_string()), args, i)?;
                return Ok(true);
            }
            self.provide(sp, None, args, i)?;
            *name = rest;
            spec = longest(name, &|s: &Spec| s.always_prefix || s.grouping);
        }
        Ok(false)
    }
}

/// Parses FileCheck's command line (`args[0]` is the program), preceded by the words of
/// `FILECHECK_OPTS` as in LLVM. Err: what to print and the exit status (1 for bad options, 0
/// for `--help`/`--version`).
pub fn parse(args: &[String]) -> Result<Cli, Outcome> {
    let mut p = Parser {
        program: args.first().cloned().unwrap_or_else(|| "FileCheck".into()),
        errors: String::new(),
        opts: Options {
            command_line: args.to_vec(),
            ..Options::default()
        },
        input_file: None,
        dump: None,
        filter: None,
        context: None,
        color: None,
    };
    let mut all: Vec<String> = Vec::new();
    if let Ok(env) = std::env::var("FILECHECK_OPTS") {
        all.extend(env.split_whitespace().map(String::from));
    }
    all.extend(args.iter().skip(1).cloned());
    let args = all;
    let mut positional = Vec::new();
    let mut only_positional = false;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].clone();
        if only_positional || !a.starts_with('-') || a == "-" {
            positional.push(a);
            i += 1;
            continue;
        }
        if a == "--" {
            only_positional = true;
            i += 1;
            continue;
        }
        let body = &a[1..];
        let mut name = body.strip_prefix('-').unwrap_or(body).to_string();
        // `--name=value` or `--name`, unless the option only takes glued values.
        let direct = match name.split_once('=') {
            Some((n, v)) => find(n)
                .filter(|s| !s.always_prefix)
                .map(|s| (s, Some(v.to_string()))),
            None => find(&name).map(|s| (s, None)),
        };
        let handled = match direct {
            Some((spec, value)) => {
                p.provide(spec, value, &args, &mut i)?;
                true
            }
            None => p.prefixed_or_grouped(&mut name, &args, &mut i)?,
        };
        if !handled {
            p.errors.push_str(&format!(
                "FileCheck: Unknown command line argument '{a}'.  Try: '{} --help'\n",
                p.program
            ));
            if let Some(s) = nearest(&name) {
                p.errors
                    .push_str(&format!("FileCheck: Did you mean '{s}'?\n"));
            }
        }
        i += 1;
    }
    if positional.len() > 1 {
        p.errors.push_str(&format!(
            "FileCheck: Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: {} --help\n",
            p.program
        ));
    }
    if !p.errors.is_empty() {
        return Err(Outcome {
            exit_code: 1,
            stdout: String::new(),
            stderr: p.errors,
        });
    }
    let mut opts = p.opts;
    opts.dump_input = p.dump.unwrap_or(DumpInput::Fail);
    opts.dump_input_filter = p.filter;
    opts.dump_input_context = p.context.unwrap_or(5);
    // Like LLVM: colours when asked for, else when standard error is a terminal.
    opts.color = p
        .color
        .unwrap_or_else(|| std::io::IsTerminal::is_terminal(&std::io::stderr()));
    Ok(Cli {
        opts,
        check_file: positional.pop(),
        input_file: p.input_file,
    })
}

const USAGE: &str = "\
USAGE: tilus-filecheck [options] <check-file>

Checks that the input (standard input, or --input-file) matches the CHECK directives of
<check-file>. Compatible with LLVM FileCheck.

OPTIONS:
  -D <VAR=VALUE>                 Define a variable to be used in capture patterns
  --allow-deprecated-dag-overlap Enable overlapping among matches in a CHECK-DAG group
  --allow-empty                  Allow the input file to be empty
  --allow-unused-prefixes        Allow prefixes to be specified but not appear in the test
  --check-prefix=<string>        Prefix to use from check file (defaults to 'CHECK')
  --check-prefixes=<a,b,...>     Several prefixes, comma separated
  --color                        Use colors in output (default: when stderr is a terminal)
  --comment-prefixes=<a,b,...>   Comment prefixes (defaults to 'COM,RUN')
  --dump-input=<help|always|fail|never>
  --dump-input-context=<N>
  --dump-input-filter=<all|annotation-full|annotation|error>
  --enable-var-scope             Reset non-'$' variables at each CHECK-LABEL block
  --ignore-case                  Use case-insensitive matching
  --implicit-check-not=<pattern> Add an implicit negative check
  --input-file=<filename>        File to check (defaults to stdin)
  --match-full-lines             Require all positive matches to cover an entire input line
  --strict-whitespace            Do not treat all horizontal whitespace as equivalent
  -v, --vv                       Verbose output
";
