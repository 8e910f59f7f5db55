//! `tilus-passes`: transformations over tilus IR.
//!
//! The pass manager, the rewriter and the first passes are the subject of the pass-infrastructure
//! issue; this crate is where they live so that `tilus-opt` links one place for them.
