//! Blackwell tensor memory: 128 lanes x 512 columns of 32-bit cells per CTA.

use super::value::TmemVal;
use crate::tensor::{decode, encode, for_each_index, Tensor};
use std::ops::Range;
use tilus_ir::OpId;

pub(crate) const LANES: i64 = 128;
pub(crate) const COLUMNS: i64 = 512;

/// Tensor memory of one CTA and its column allocations.
#[derive(Clone, Debug)]
pub(crate) struct Tmem {
    cells: Vec<u32>,
    /// `(first column, columns, tcgen05.alloc op)`.
    pub allocs: Vec<(i64, i64, OpId)>,
}

impl Tmem {
    pub(crate) fn new() -> Tmem {
        Tmem {
            cells: vec![0; (LANES * COLUMNS) as usize],
            allocs: Vec::new(),
        }
    }

    /// Allocates `ncols` columns (a power of two) at a multiple of `ncols`; `None` when full.
    pub(crate) fn alloc(&mut self, ncols: i64, op: OpId) -> Option<i64> {
        let mut col = 0;
        while col + ncols <= COLUMNS {
            let clash = self
                .allocs
                .iter()
                .any(|&(c, n, _)| col < c + n && c < col + ncols);
            if !clash {
                self.allocs.push((col, ncols, op));
                return Some(col);
            }
            col += ncols;
        }
        None
    }

    /// Frees the allocation starting at `col`; false when there is none.
    pub(crate) fn free(&mut self, col: i64) -> bool {
        let before = self.allocs.len();
        self.allocs.retain(|&(c, _, _)| c != col);
        self.allocs.len() != before
    }

    /// Columns free in total.
    pub(crate) fn free_columns(&self) -> i64 {
        COLUMNS - self.allocs.iter().map(|a| a.1).sum::<i64>()
    }

    /// The lanes and columns a tensor covers.
    pub(crate) fn footprint(t: &TmemVal) -> (Range<i64>, Range<i64>) {
        let lanes = t.layout.lane_offset..t.layout.lane_offset + t.layout.shape[0];
        let cols = t.base_col..t.base_col + t.layout.num_columns(t.dtype.bits());
        (lanes, cols)
    }

    fn check(&self, t: &TmemVal) -> Result<(), String> {
        let (lanes, cols) = Self::footprint(t);
        if lanes.start < 0 || lanes.end > LANES {
            return Err(format!(
                "lanes [{}, {}) are outside tensor memory's {LANES} lanes",
                lanes.start, lanes.end
            ));
        }
        let inside = self
            .allocs
            .iter()
            .any(|&(c, n, _)| c <= cols.start && cols.end <= c + n);
        if !inside {
            return Err(format!(
                "columns [{}, {}) are not inside a live tcgen05.alloc allocation",
                cols.start, cols.end
            ));
        }
        Ok(())
    }

    fn locate(t: &TmemVal, idx: &[i64]) -> (usize, u32) {
        let (lane, col, bit) = t.layout.cell(idx, t.dtype.bits());
        (((lane * COLUMNS) + t.base_col + col) as usize, bit)
    }

    /// Reads the whole tensor.
    pub(crate) fn read(&self, t: &TmemVal) -> Result<Tensor, String> {
        self.check(t)?;
        let bits = t.dtype.bits();
        let nbytes = bits.div_ceil(8) as usize;
        let mut data = Vec::with_capacity(t.layout.shape.iter().product::<i64>() as usize);
        for_each_index(&t.layout.shape, |idx| {
            let (cell, bit) = Self::locate(t, idx);
            let raw = (self.cells[cell] >> bit) as u64;
            let raw = if bits >= 32 {
                raw
            } else {
                raw & ((1u64 << bits) - 1)
            };
            let bytes = raw.to_le_bytes();
            data.push(decode(t.dtype, &bytes[..nbytes]));
        });
        Ok(Tensor {
            dtype: t.dtype,
            shape: t.layout.shape.clone(),
            data,
        })
    }

    /// Writes the whole tensor (shapes must agree).
    pub(crate) fn write(&mut self, t: &TmemVal, x: &Tensor) -> Result<(), String> {
        self.check(t)?;
        if x.shape != t.layout.shape {
            return Err(format!(
                "a tile of shape {:?} written to tensor memory of shape {:?}",
                x.shape, t.layout.shape
            ));
        }
        let bits = t.dtype.bits();
        let nbytes = bits.div_ceil(8) as usize;
        let mut i = 0usize;
        let mut updates = Vec::with_capacity(x.data.len());
        for_each_index(&t.layout.shape, |idx| {
            let mut bytes = [0u8; 8];
            encode(t.dtype, x.data[i], &mut bytes[..nbytes]);
            i += 1;
            let raw = u64::from_le_bytes(bytes);
            updates.push((Self::locate(t, idx), raw));
        });
        for ((cell, bit), raw) in updates {
            if bits >= 32 {
                self.cells[cell] = raw as u32;
            } else {
                let mask = (((1u64 << bits) - 1) as u32) << bit;
                self.cells[cell] = (self.cells[cell] & !mask) | (((raw as u32) << bit) & mask);
            }
        }
        Ok(())
    }
}
