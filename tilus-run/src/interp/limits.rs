//! Sizes checked before a run allocates anything: a type such as `!tilus.reg<65536x65536xf32>`
//! or `!mbarrier.barriers<100000000>` is well formed, but the interpreter would abort trying to
//! allocate it (Rust aborts on allocation failure). Each such op gets a report at its span
//! instead, with the limit and why it is there.

use tilus_dialects::tilus_types::{barrier_count, Space, TensorType};
use tilus_ir::{Context, Diagnostic, OpId};

/// Most elements one register or tensor-memory tile may hold in the interpreter. The interpreter
/// keeps each element as an `f64`, so this is 512 MiB per tile; real tiles are far smaller (a
/// CTA has 256 KiB of registers and 256 KiB of tensor memory).
pub const MAX_TILE_ELEMENTS: u64 = 1 << 26;

/// Most mbarriers one allocation may hold: an mbarrier is 8 bytes of shared memory, and a CTA has
/// at most 227 KiB of it.
pub const MAX_BARRIERS: i64 = 227 * 1024 / 8;

/// The element count of `shape`, or `None` when it overflows `u64` (or has an unknown extent).
pub fn checked_elements(shape: &[i64]) -> Option<u64> {
    shape.iter().try_fold(1u64, |n, &d| {
        u64::try_from(d).ok().and_then(|d| n.checked_mul(d))
    })
}

/// Checks every tile and barrier array the kernel's ops produce against the limits above.
pub fn check_kernel_sizes(ctx: &Context, kernel: OpId) -> Result<(), Diagnostic> {
    let mut bad = None;
    ctx.walk(kernel, &mut |op| {
        if bad.is_some() {
            return;
        }
        for &r in ctx.results(op) {
            let t = ctx.value_type(r);
            if let Some(n) = barrier_count(ctx, t) {
                if n > MAX_BARRIERS {
                    bad = Some(
                        Diagnostic::op(
                            op,
                            format!(
                                "{n} mbarriers do not fit in shared memory (at most {MAX_BARRIERS}: 8 bytes each in 227 KiB)"
                            ),
                        )
                        .with_help("allocate fewer barriers"),
                    );
                    return;
                }
            }
            let Some(tt) = TensorType::of(ctx, t) else {
                continue;
            };
            if !matches!(tt.space, Space::Register | Space::TensorMemory) {
                continue;
            }
            let n = checked_elements(&tt.shape);
            if n.is_none_or(|n| n > MAX_TILE_ELEMENTS) {
                let count = n.map_or("more than 2^64".to_string(), |n| n.to_string());
                bad = Some(
                    Diagnostic::op(
                        op,
                        format!(
                            "a tile of {count} elements is too large for the interpreter (at most {MAX_TILE_ELEMENTS})"
                        ),
                    )
                    .with_help("a CTA holds at most 256 KiB of registers; split the tile"),
                );
                return;
            }
        }
    });
    bad.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_counts_that_overflow_are_none() {
        assert_eq!(checked_elements(&[65536, 65536]), Some(1 << 32));
        assert_eq!(checked_elements(&[1 << 32, 1 << 32, 2]), None);
        assert_eq!(checked_elements(&[-1, 4]), None);
    }
}
