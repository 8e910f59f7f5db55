//! The textual format: the pest grammar, the parser and the printer.

pub mod depth;
pub mod parser;
pub mod printer;
