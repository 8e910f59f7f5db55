//! Pass declarations: what a pass is called, what it does, its options and its statistics,
//! written once, in [`declare_pass!`], and read by everything else.
//!
//! Before declarations, a pass spelled each option three times (the field, the listing in
//! `options()`, the match arm in `set_option()`), which let a default, a name or a doc drift
//! apart. Now the macro generates the struct with one field per option, its `Default`, option
//! parsing and printing (through [`OptionValue`]), and a static [`PassDecl`] that
//! `--list-passes`, `--dump-pass-pipeline`, the per-pass flags, the pass reference
//! ([`markdown_reference`]) and `--pass-statistics` read. A pass's code then implements only
//! [`crate::Pass::run`].
//!
//! ```
//! use tilus_passes::{declare_pass, Changed, DeclaredPass, Pass, Statistics};
//! use tilus_ir::{Context, Diagnostic, OpId};
//!
//! declare_pass! {
//!     /// Counts ops deeper than a given nesting level.
//!     pub struct CountDeep {
//!         name: "count-deep",
//!         summary: "Count ops nested deeper than `depth`",
//!         description: "Walks the op and counts what is nested deeper than `depth` regions.",
//!         options: {
//!             depth: i64 = 2, "depth", "How many regions deep an op must be to count";
//!         },
//!         statistics: {
//!             NUM_DEEP = "num-deep", "Ops nested deeper than depth";
//!         },
//!     }
//! }
//!
//! impl Pass for CountDeep {
//!     fn run(&mut self, _: &mut Context, _: OpId, stats: &mut Statistics)
//!         -> Result<Changed, Vec<Diagnostic>> {
//!         stats.add(Self::NUM_DEEP, 0);
//!         Ok(Changed::No)
//!     }
//! }
//!
//! let mut p = CountDeep::default();
//! p.set_option("depth", "5").unwrap();
//! assert_eq!(p.depth, 5);
//! assert_eq!(tilus_passes::pipeline::pass_text(&p), "count-deep{depth=5}");
//! ```

use crate::options::{parse_bool, parse_enum, parse_int, parse_list, print_list};

/// Everything about a pass except its code: the one place its name, docs, options and
/// statistics are written. Made by [`declare_pass!`]; `&'static` so listings need no pass value.
#[derive(Clone, Copy, Debug)]
pub struct PassDecl {
    /// Name in pipelines and on the command line (`cse`, `canonicalize`).
    pub name: &'static str,
    /// The name reports show (`IR Dump After CSE (cse)`, timing, statistics): MLIR's pass class
    /// name. `None` derives it from `name` in CamelCase (`symbol-dce` → `SymbolDce`).
    pub class_name: Option<&'static str>,
    /// One line for listings and `--help`.
    pub summary: &'static str,
    /// One paragraph: what the pass does and why one would run it.
    pub description: &'static str,
    /// The op the pass must run on (`builtin.module`, `func.func`), or `None` for any op.
    pub anchor: Option<&'static str>,
    /// The options, in declaration order (printing sorts them by name, as MLIR does).
    pub options: &'static [OptionDecl],
    /// The counters the pass may report.
    pub statistics: &'static [StatisticDecl],
}

impl PassDecl {
    /// The class name reports show.
    pub fn class_name(&self) -> String {
        match self.class_name {
            Some(c) => c.to_string(),
            None => crate::camel_case(self.name),
        }
    }
    /// The option called `name`.
    pub fn option(&self, name: &str) -> Option<&'static OptionDecl> {
        self.options.iter().find(|o| o.name == name)
    }
}

/// One declared option.
#[derive(Clone, Copy, Debug)]
pub struct OptionDecl {
    /// Name in pipelines: `canonicalize{max-iterations=3}`.
    pub name: &'static str,
    /// What values it takes, for listings (`integer`, `bool`, `list`, `'a' | 'b'`).
    pub value_kind: fn() -> String,
    /// The default value as pipeline text would spell it.
    pub default: fn() -> String,
    /// One line: what the option changes.
    pub doc: &'static str,
    /// Whether a bare `key` (no `=value`) means `key=true`.
    pub flag: bool,
    /// Reads a value as the option's type (and its check) and prints it back: how a named
    /// pipeline checks its options before putting them into its steps.
    pub normalize: fn(&str) -> Result<String, String>,
}

/// One declared statistic. Passes name it by the constant [`declare_pass!`] makes
/// (`stats.add(Self::NUM_CSED, n)`), so an undeclared or misspelled counter does not compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatisticDecl {
    /// Name in reports (`num-cse'd`).
    pub name: &'static str,
    /// What it counts.
    pub description: &'static str,
}

/// A type an option can have: how pipeline text spells its values. One impl per type keeps
/// every pass accepting and printing the same forms and reporting the same errors.
pub trait OptionValue: Sized {
    /// Whether a bare `key` means `key=true` (only `bool`).
    const FLAG: bool = false;
    /// What values it takes, for listings.
    fn value_kind() -> String;
    /// Reads a value; the error says what was expected.
    fn parse_option(text: &str) -> Result<Self, String>;
    /// Writes a value so that [`OptionValue::parse_option`] reads it back.
    fn print_option(&self) -> String;
}

impl OptionValue for bool {
    const FLAG: bool = true;
    fn value_kind() -> String {
        "bool".into()
    }
    fn parse_option(text: &str) -> Result<bool, String> {
        parse_bool(text)
    }
    fn print_option(&self) -> String {
        self.to_string()
    }
}

macro_rules! int_option {
    ($($t:ty => $kind:literal),*) => {$(
        impl OptionValue for $t {
            fn value_kind() -> String {
                $kind.into()
            }
            fn parse_option(text: &str) -> Result<$t, String> {
                parse_int(text)
            }
            fn print_option(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
int_option!(i64 => "integer", i32 => "integer", u32 => "unsigned", u64 => "unsigned");

impl OptionValue for String {
    fn value_kind() -> String {
        "string".into()
    }
    fn parse_option(text: &str) -> Result<String, String> {
        Ok(text.to_string())
    }
    fn print_option(&self) -> String {
        self.clone()
    }
}

impl OptionValue for Vec<String> {
    fn value_kind() -> String {
        "list".into()
    }
    fn parse_option(text: &str) -> Result<Vec<String>, String> {
        Ok(parse_list(text))
    }
    fn print_option(&self) -> String {
        print_list(self)
    }
}

/// Reads one of `spellings` as its value (the shared body of [`option_enum!`] types).
pub fn parse_choice<T: Copy>(text: &str, spellings: &[(&str, T)]) -> Result<T, String> {
    let names: Vec<&str> = spellings.iter().map(|s| s.0).collect();
    let picked = parse_enum(text, &names)?;
    Ok(spellings
        .iter()
        .find(|s| s.0 == picked)
        .map(|s| s.1)
        .expect("parse_enum returns one of the names"))
}

/// `'a' | 'b'` for listings.
pub fn choice_kind(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// An option type with a fixed set of spellings. Declares the enum (or, with `impl`, takes an
/// existing one, such as the IR core's `RegionSimplify`) and implements [`OptionValue`] for it.
///
/// ```ignore
/// option_enum! {
///     /// What `test-fail` does at a marked op.
///     pub enum FailMode { Error = "error", Corrupt = "corrupt" }
/// }
/// ```
#[macro_export]
macro_rules! option_enum {
    ($(#[$meta:meta])* $vis:vis enum $ty:ident { $($(#[$vmeta:meta])* $var:ident = $spell:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $ty { $($(#[$vmeta])* $var),+ }
        $crate::option_enum!(impl $ty { $($var = $spell),+ });
    };
    (impl $ty:ty { $($var:ident = $spell:literal),+ $(,)? }) => {
        impl $crate::decl::OptionValue for $ty {
            fn value_kind() -> String {
                $crate::decl::choice_kind(&[$($spell),+])
            }
            fn parse_option(text: &str) -> Result<Self, String> {
                $crate::decl::parse_choice(text, &[$(($spell, <$ty>::$var)),+])
            }
            fn print_option(&self) -> String {
                match self {
                    $(<$ty>::$var => $spell.to_string()),+
                }
            }
        }
    };
}

/// Declares a pass: its struct (one public field per option), `Default` from the declared
/// defaults, a constant per statistic, the static [`PassDecl`] (`Self::DECL`) and the option
/// plumbing of [`crate::Pass`] ([`crate::decl::DeclaredPass`]). The pass then implements only
/// `run` (and `anchor` when an option chooses it).
///
/// Each option is `field: Type = default, "pipeline-name", "doc";`, optionally followed by
/// `check = path` before the `;`, a `fn(&Type) -> Result<(), String>` that rejects values the
/// type accepts but the pass does not. `class` and `anchor` may be left out.
#[macro_export]
macro_rules! declare_pass {
    // No options: a unit struct, so the pass is written as a value (`Cse`).
    (
        $(#[$meta:meta])*
        $vis:vis struct $ty:ident {
            name: $name:literal,
            $(class: $class:literal,)?
            $(anchor: $anchor:literal,)?
            summary: $summary:literal,
            description: $desc:literal,
            options: {},
            statistics: {
                $($sconst:ident = $sname:literal, $sdesc:literal;)*
            } $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default)]
        $vis struct $ty;

        $crate::declare_pass!(@impl $ty, $name, [$($class)?], [$($anchor)?], $summary, $desc,
            [], [$($sconst = $sname, $sdesc;)*]);
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $ty:ident {
            name: $name:literal,
            $(class: $class:literal,)?
            $(anchor: $anchor:literal,)?
            summary: $summary:literal,
            description: $desc:literal,
            options: {
                $($field:ident : $fty:ty = $default:expr, $oname:literal, $odoc:literal $(, check = $check:path)? ;)*
            },
            statistics: {
                $($sconst:ident = $sname:literal, $sdesc:literal;)*
            } $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug)]
        $vis struct $ty {
            $(
                #[doc = $odoc]
                pub $field: $fty,
            )*
        }

        impl Default for $ty {
            fn default() -> Self {
                $ty { $($field: $default,)* }
            }
        }

        $crate::declare_pass!(@impl $ty, $name, [$($class)?], [$($anchor)?], $summary, $desc,
            [$($field : $fty = $default, $oname, $odoc $(, $check)?;)*],
            [$($sconst = $sname, $sdesc;)*]);
    };
    (@impl $ty:ident, $name:literal, [$($class:literal)?], [$($anchor:literal)?], $summary:literal,
        $desc:literal,
        [$($field:ident : $fty:ty = $default:expr, $oname:literal, $odoc:literal $(, $check:path)?;)*],
        [$($sconst:ident = $sname:literal, $sdesc:literal;)*]
    ) => {
        #[allow(dead_code)]
        impl $ty {
            $(
                #[doc = $sdesc]
                pub const $sconst: $crate::decl::StatisticDecl =
                    $crate::decl::StatisticDecl { name: $sname, description: $sdesc };
            )*
            /// The declaration: name, docs, options and statistics.
            pub const DECL: $crate::decl::PassDecl = $crate::decl::PassDecl {
                name: $name,
                class_name: $crate::__first_some!($(Some($class))?),
                summary: $summary,
                description: $desc,
                anchor: $crate::__first_some!($(Some($anchor))?),
                options: &[$(
                    $crate::__option_decl!($fty, $default, $oname, $odoc $(, $check)?),
                )*],
                statistics: &[$(Self::$sconst),*],
            };
            /// The registry entry.
            pub const INFO: $crate::PassInfo = $crate::PassInfo {
                decl: &Self::DECL,
                create: || Box::new(<$ty>::default()),
            };
        }

        impl $crate::decl::DeclaredPass for $ty {
            fn decl(&self) -> &'static $crate::decl::PassDecl {
                &Self::DECL
            }
            #[allow(unused_variables)]
            fn option_value(&self, name: &str) -> Option<String> {
                $(
                    if name == $oname {
                        return Some($crate::decl::OptionValue::print_option(&self.$field));
                    }
                )*
                None
            }
            #[allow(unused_variables)]
            fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
                $(
                    if name == $oname {
                        let v = <$fty as $crate::decl::OptionValue>::parse_option(value)?;
                        $($check(&v)?;)?
                        self.$field = v;
                        return Ok(());
                    }
                )*
                Err(format!("pass '{}' has no option '{name}'", $name))
            }
        }
    };
}

/// The [`OptionDecl`] of one declared option (shared by [`declare_pass!`] and
/// [`crate::declare_pipeline!`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __option_decl {
    ($fty:ty, $default:expr, $oname:literal, $odoc:literal $(, $check:path)?) => {
        $crate::decl::OptionDecl {
            name: $oname,
            value_kind: <$fty as $crate::decl::OptionValue>::value_kind,
            default: || {
                let v: $fty = $default;
                $crate::decl::OptionValue::print_option(&v)
            },
            doc: $odoc,
            flag: <$fty as $crate::decl::OptionValue>::FLAG,
            normalize: |text| {
                let v = <$fty as $crate::decl::OptionValue>::parse_option(text)?;
                $($check(&v)?;)?
                Ok($crate::decl::OptionValue::print_option(&v))
            },
        }
    };
}

/// `Some(x)` when given one, else `None` (optional parts of [`declare_pass!`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __first_some {
    () => {
        None
    };
    ($e:expr) => {
        $e
    };
}

/// The option plumbing [`declare_pass!`] generates; a supertrait of [`crate::Pass`], so that a
/// pass value answers what its declaration says.
pub trait DeclaredPass {
    /// The static declaration.
    fn decl(&self) -> &'static PassDecl;
    /// The current value of option `name`, spelled as pipeline text; `None` when undeclared.
    fn option_value(&self, name: &str) -> Option<String>;
    /// Sets an option from its pipeline spelling; the error says what was expected.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String>;
}

/// The pass and pipeline reference (`docs/reference/passes.md`, `tilus-opt
/// --dump-pass-docs`): one section per pass, made from the declarations alone.
pub fn markdown_reference() -> String {
    use std::fmt::Write;
    let mut passes = crate::registry();
    passes.sort_by_key(|p| p.decl.name);
    let mut s = String::from(
        "# Passes\n\nGenerated from the pass declarations by `tilus-opt --dump-pass-docs`; \
         do not edit.\n\n",
    );
    for info in &passes {
        let d = info.decl;
        let _ = writeln!(s, "## `{}`\n\n{}\n\n{}\n", d.name, d.summary, d.description);
        if let Some(a) = d.anchor {
            let _ = writeln!(s, "Runs on `{a}` ops.\n");
        }
        option_table(&mut s, d.options);
        if !d.statistics.is_empty() {
            let _ = writeln!(s, "| Statistic | Counts |\n|---|---|");
            for st in d.statistics {
                let _ = writeln!(s, "| `{}` | {} |", st.name, st.description);
            }
            s.push('\n');
        }
    }
    let mut pipelines = crate::pipelines::pipeline_registry();
    pipelines.sort_by_key(|p| p.name);
    if !pipelines.is_empty() {
        s.push_str("# Pass pipelines\n\n");
    }
    for p in &pipelines {
        let _ = writeln!(
            s,
            "## `{}`\n\n{}\n\n{}\n\nRuns on `{}` ops. Steps (with default options): `{}`\n",
            p.name, p.summary, p.description, p.anchor, p.steps
        );
        option_table(&mut s, p.options);
    }
    s
}

fn option_table(s: &mut String, options: &[OptionDecl]) {
    use std::fmt::Write;
    if options.is_empty() {
        return;
    }
    let mut opts = options.to_vec();
    opts.sort_by_key(|o| o.name);
    let _ = writeln!(
        s,
        "| Option | Values | Default | Meaning |\n|---|---|---|---|"
    );
    for o in opts {
        let _ = writeln!(
            s,
            "| `{}` | {} | `{}` | {} |",
            o.name,
            (o.value_kind)().replace('|', "\\|"),
            (o.default)(),
            o.doc.replace('|', "\\|")
        );
    }
    s.push('\n');
}
