//! Evaluation of affine expressions and maps (the kernel's `blocks` grid map).

use tilus_ir::attrs::{AffineExpr, AffineMap, AffineOp};

/// Floor division that rounds toward negative infinity.
pub(crate) fn floor_div(a: i64, b: i64) -> i64 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// Ceiling division.
pub(crate) fn ceil_div(a: i64, b: i64) -> i64 {
    -floor_div(-a, b)
}

/// Modulo with a result in `[0, |b|)` for positive `b` (MLIR's `mod`).
pub(crate) fn modulo(a: i64, b: i64) -> i64 {
    a - floor_div(a, b) * b
}

/// Evaluates `e` with dimension values `dims` and symbol values `syms`.
pub(crate) fn eval_expr(e: &AffineExpr, dims: &[i64], syms: &[i64]) -> Result<i64, String> {
    Ok(match e {
        AffineExpr::Dim(i) => *dims.get(*i as usize).ok_or_else(|| {
            format!(
                "the map uses d{i}, but only {} values are given",
                dims.len()
            )
        })?,
        AffineExpr::Sym(i) => *syms
            .get(*i as usize)
            .ok_or_else(|| format!("the map uses s{i}, but no value is given for it"))?,
        AffineExpr::Const(c) => *c,
        AffineExpr::Neg(x) => eval_expr(x, dims, syms)?.wrapping_neg(),
        AffineExpr::Bin(op, l, r) => {
            let a = eval_expr(l, dims, syms)?;
            let b = eval_expr(r, dims, syms)?;
            match op {
                AffineOp::Add => a.wrapping_add(b),
                AffineOp::Sub => a.wrapping_sub(b),
                AffineOp::Mul => a.wrapping_mul(b),
                AffineOp::FloorDiv | AffineOp::CeilDiv | AffineOp::Mod => {
                    if b == 0 {
                        return Err(format!(
                            "division by zero in '{}' of the affine map",
                            op.spelling()
                        ));
                    }
                    match op {
                        AffineOp::FloorDiv => floor_div(a, b),
                        AffineOp::CeilDiv => ceil_div(a, b),
                        _ => modulo(a, b),
                    }
                }
            }
        }
    })
}

/// Evaluates every result of `map`.
pub(crate) fn eval_map(map: &AffineMap, dims: &[i64], syms: &[i64]) -> Result<Vec<i64>, String> {
    map.results
        .iter()
        .map(|e| eval_expr(e, dims, syms))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: i64) -> Box<AffineExpr> {
        Box::new(AffineExpr::Const(v))
    }
    fn d(i: u32) -> Box<AffineExpr> {
        Box::new(AffineExpr::Dim(i))
    }

    #[test]
    fn divisions_round_like_mlir() {
        assert_eq!(floor_div(-7, 2), -4);
        assert_eq!(ceil_div(-7, 2), -3);
        assert_eq!(ceil_div(7, 2), 4);
        assert_eq!(modulo(-7, 2), 1);
        let e = AffineExpr::Bin(AffineOp::CeilDiv, d(1), c(128));
        assert_eq!(eval_expr(&e, &[0, 300], &[]).unwrap(), 3);
        let e = AffineExpr::Bin(
            AffineOp::Add,
            Box::new(AffineExpr::Bin(AffineOp::Mul, d(0), c(3))),
            Box::new(AffineExpr::Bin(AffineOp::Mod, d(1), c(5))),
        );
        assert_eq!(eval_expr(&e, &[2, 13], &[]).unwrap(), 9);
        assert!(eval_expr(&AffineExpr::Dim(4), &[1], &[]).is_err());
    }
}
