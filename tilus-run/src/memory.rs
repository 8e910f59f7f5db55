//! Global and shared memory of the interpreter.
//!
//! Memory is kept as bytes (not as `f64` tiles) so that views of one buffer with other
//! strides, dtypes or offsets see exactly what a GPU would, and so that bounds errors can
//! name the byte that was out of range. Tiles cross into memory through
//! [`encode`](crate::tensor::encode)/[`decode`](crate::tensor::decode). Sub-byte dtypes take
//! one byte per element here (not packed yet, see docs/design/interpreter.md).

use crate::tensor::{
    decode_contiguous_into, decode_many, encode_contiguous, encode_many, storage_bytes, DType,
    Tensor,
};
use std::fmt;
use tilus_dialects::layout_algebra::SharedLayout;

/// A failed memory access or allocation; the interpreter turns it into a diagnostic at the op
/// that made the access, so every message says which buffer, index and size were involved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemError {
    /// An access outside a global buffer or outside shared memory (or a box whose rank does
    /// not match its view). `what` is the complete description.
    OutOfBounds { what: String },
    /// An address or alignment that is not a multiple of what it must be.
    Misaligned { what: String },
    /// A shared allocation of `need` bytes that does not fit; `have` is the largest block
    /// that was free at the requested alignment.
    OutOfSharedMemory { need: i64, have: i64 },
}

impl fmt::Display for MemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemError::OutOfBounds { what } => write!(f, "out-of-bounds access: {what}"),
            MemError::Misaligned { what } => write!(f, "misaligned access: {what}"),
            MemError::OutOfSharedMemory { need, have } => write!(
                f,
                "out of shared memory: an allocation of {need} bytes does not fit (the largest free block at that alignment is {have} bytes)"
            ),
        }
    }
}

impl std::error::Error for MemError {}

/// One global-memory buffer (a kernel pointer argument or a workspace): its bytes, with the
/// dtype it was created with (what [`GlobalMemory::tensor`] reads it as).
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalBuffer {
    /// The name used in reports (the kernel parameter's name).
    pub name: String,
    /// The element type the buffer was created with.
    pub dtype: DType,
    /// The contents, little endian.
    pub bytes: Vec<u8>,
}

/// All global buffers of a run; kernels refer to them by index (`ArgValue::Buffer`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GlobalMemory {
    /// The buffers, indexed by the values [`GlobalMemory::add`] returned.
    pub buffers: Vec<GlobalBuffer>,
}

/// A strided view of a global buffer (`tilus.global_view`, spec §2.2): element
/// `idx` lives at element `offset + Σ idx_d·strides_d` of the buffer, in units of `dtype`.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalView {
    /// Index into [`GlobalMemory::buffers`].
    pub buffer: usize,
    /// The element type the view reads and writes.
    pub dtype: DType,
    /// The view's extents: box elements outside them read 0 and are not stored.
    pub shape: Vec<i64>,
    /// Element strides of each dim.
    pub strides: Vec<i64>,
    /// Element offset of index 0 in the buffer.
    pub offset: i64,
}

impl GlobalMemory {
    /// Adds a buffer holding `t`'s elements (row-major, `t.dtype`), returning its index.
    pub fn add(&mut self, name: &str, t: &Tensor) -> usize {
        let size = storage_bytes(t.dtype);
        let mut bytes = vec![0u8; size * t.data.len()];
        crate::tensor::par_chunks_mut(&mut bytes, size, |off, chunk| {
            let first = off / size;
            encode_contiguous(t.dtype, chunk, &t.data[first..first + chunk.len() / size]);
        });
        self.buffers.push(GlobalBuffer {
            name: name.to_string(),
            dtype: t.dtype,
            bytes,
        });
        self.buffers.len() - 1
    }

    /// The first `numel(shape)` elements of a buffer, read as its dtype, as a tile of `shape`
    /// (outputs written back to `.npy`, comparisons).
    ///
    /// # Panics
    /// If there is no such buffer or it holds fewer elements than `shape` needs.
    pub fn tensor(&self, buffer: usize, shape: &[i64]) -> Tensor {
        let b = &self.buffers[buffer];
        let size = storage_bytes(b.dtype);
        let n: usize = shape.iter().map(|&s| s.max(0) as usize).product();
        assert!(
            n * size <= b.bytes.len(),
            "buffer '{}' holds {} bytes, fewer than the {n} {} elements of shape {shape:?}",
            b.name,
            b.bytes.len(),
            b.dtype.name()
        );
        let mut data = Vec::with_capacity(n);
        decode_contiguous_into(b.dtype, &b.bytes[..n * size], &mut data);
        Tensor {
            dtype: b.dtype,
            shape: shape.to_vec(),
            data,
        }
    }

    /// The buffer of a view, or an error naming the missing index.
    pub(crate) fn buffer(&self, v: &GlobalView) -> Result<&GlobalBuffer, MemError> {
        self.buffers
            .get(v.buffer)
            .ok_or_else(|| MemError::OutOfBounds {
                what: format!(
                    "no global buffer #{} (there are {})",
                    v.buffer,
                    self.buffers.len()
                ),
            })
    }

    /// For each element of the box `offsets .. offsets + shape` of `v` (row-major): `None`
    /// when outside the view's extents, else its byte address in the buffer, checked against
    /// the buffer.
    fn box_addresses(
        &self,
        v: &GlobalView,
        offsets: &[i64],
        shape: &[i64],
    ) -> Result<Vec<Option<usize>>, MemError> {
        self.buffer(v)?.box_addresses(v, offsets, shape)
    }

    /// Loads the box `offsets .. offsets + shape` of `v` as a tile of `v.dtype`
    /// (`load_global`, TMA loads): elements outside the view's extents read 0 (spec §2.2,
    /// TMA's out-of-bound fill); an element inside the view whose address falls outside the
    /// buffer is an error (the kernel's view is larger than the memory it was given).
    pub fn load_box(
        &self,
        v: &GlobalView,
        offsets: &[i64],
        shape: &[i64],
    ) -> Result<Tensor, MemError> {
        let addrs = self.box_addresses(v, offsets, shape)?;
        let bytes = &self.buffers[v.buffer].bytes;
        let data = decode_many(v.dtype, bytes, addrs.iter().copied());
        Ok(Tensor {
            dtype: v.dtype,
            shape: shape.to_vec(),
            data,
        })
    }

    /// Stores `t` (rounded to `v.dtype`) into the box of `v` at `offsets` with `t`'s shape
    /// (`store_global`, TMA stores): elements outside the view's extents are skipped; one inside
    /// the view but outside the buffer is an error, and then nothing is written.
    pub fn store_box(
        &mut self,
        v: &GlobalView,
        offsets: &[i64],
        t: &Tensor,
    ) -> Result<(), MemError> {
        let addrs = self.box_addresses(v, offsets, &t.shape)?;
        let bytes = &mut self.buffers[v.buffer].bytes;
        encode_many(v.dtype, bytes, addrs.iter().copied(), &t.data);
        Ok(())
    }
}

/// A run of a box's elements along its last dim (see [`GlobalBuffer::box_runs`]): `len`
/// elements of the tile from row-major position `at`, at bytes `byte`, `byte + step`, ... of
/// the buffer, or outside the view's extents (`byte: None`: they read 0 and are not stored).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    pub at: usize,
    pub len: usize,
    pub byte: Option<usize>,
    pub step: usize,
}

impl Run {
    /// The byte address of each element (`None` outside the view).
    pub(crate) fn addrs(&self) -> impl Iterator<Item = Option<usize>> + '_ {
        (0..self.len).map(|j| self.byte.map(|b| b + j * self.step))
    }
}

impl GlobalBuffer {
    /// The box of [`box_addresses`](Self::box_addresses) as runs along its last dim, in
    /// row-major order: per row at most a run before the view, one inside it, one after. The
    /// same elements, addresses and errors, with bounds checked per run instead of per
    /// element (a run with a negative or out-of-buffer end takes the per-element path, which
    /// names the first element outside the buffer).
    pub(crate) fn box_runs(
        &self,
        v: &GlobalView,
        offsets: &[i64],
        shape: &[i64],
    ) -> Result<Vec<Run>, MemError> {
        let rank = v.shape.len();
        let per_element = |b: &GlobalBuffer| -> Result<Vec<Run>, MemError> {
            let size = storage_bytes(v.dtype);
            Ok(b.box_addresses(v, offsets, shape)?
                .into_iter()
                .enumerate()
                .map(|(at, byte)| Run {
                    at,
                    len: 1,
                    byte,
                    step: size,
                })
                .collect())
        };
        if rank == 0
            || offsets.len() != rank
            || shape.len() != rank
            || v.strides.len() != rank
            || shape.iter().any(|&e| e <= 0)
            || v.strides[rank - 1] < 0
        {
            return per_element(self);
        }
        let size = storage_bytes(v.dtype) as i64;
        let elems = self.bytes.len() as i64 / size;
        let last = rank - 1;
        let n = shape[last];
        // The columns of the box inside the view's last extent: [j0, j1).
        let j0 = (-offsets[last]).clamp(0, n);
        let j1 = (v.shape[last] - offsets[last]).clamp(j0, n);
        let mut out = Vec::new();
        let mut at = 0usize;
        let mut idx = vec![0i64; last];
        loop {
            let mut inside = j0 < j1;
            let mut row_elem = v.offset;
            for d in 0..last {
                let g = offsets[d] + idx[d];
                inside &= (0..v.shape[d]).contains(&g);
                row_elem += g * v.strides[d];
            }
            let outside = |at: usize, len: i64| Run {
                at,
                len: len as usize,
                byte: None,
                step: size as usize,
            };
            if !inside {
                out.push(outside(at, n));
            } else {
                let first = row_elem + (offsets[last] + j0) * v.strides[last];
                let end = first + (j1 - j0 - 1) * v.strides[last];
                if first < 0 || end >= elems {
                    return per_element(self);
                }
                if j0 > 0 {
                    out.push(outside(at, j0));
                }
                out.push(Run {
                    at: at + j0 as usize,
                    len: (j1 - j0) as usize,
                    byte: Some((first * size) as usize),
                    step: (v.strides[last] * size) as usize,
                });
                if j1 < n {
                    out.push(outside(at + j1 as usize, n - j1));
                }
            }
            at += n as usize;
            let mut d = last;
            loop {
                if d == 0 {
                    return Ok(out);
                }
                d -= 1;
                idx[d] += 1;
                if idx[d] < shape[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
    }

    /// For each element of the box `offsets .. offsets + shape` of `v` (row-major): `None`
    /// when outside the view's extents, else its byte address in the buffer, checked against
    /// the buffer. (Per buffer, so that a run can address a private copy of one: the
    /// interpreter's parallel workers.)
    pub(crate) fn box_addresses(
        &self,
        v: &GlobalView,
        offsets: &[i64],
        shape: &[i64],
    ) -> Result<Vec<Option<usize>>, MemError> {
        let b = self;
        let rank = v.shape.len();
        if offsets.len() != rank || shape.len() != rank || v.strides.len() != rank {
            return Err(MemError::OutOfBounds {
                what: format!(
                    "a box with offsets {offsets:?} and shape {shape:?} does not match the rank {rank} of the view of buffer '{}' (shape {:?}, strides {:?})",
                    b.name, v.shape, v.strides
                ),
            });
        }
        let size = storage_bytes(v.dtype) as i64;
        let len = b.bytes.len() as i64;
        let n: i64 = shape.iter().product();
        if rank == 0 || shape.iter().any(|&e| e <= 0) {
            // A rank-0 box is one element; an empty one has none.
            return if rank == 0 {
                let elem = v.offset;
                let byte = elem * size;
                if elem < 0 || byte + size > len {
                    Err(self.out_of_buffer(v, &[], elem))
                } else {
                    Ok(vec![Some(byte as usize)])
                }
            } else {
                Ok(Vec::new())
            };
        }
        let mut out = Vec::with_capacity(n as usize);
        // Row by row: the outer coordinates (and whether they are inside the view) change once
        // per row, the last one runs in a plain loop.
        let last = rank - 1;
        let mut idx = vec![0i64; last];
        loop {
            let mut outer_inside = true;
            let mut row_elem = v.offset;
            for d in 0..last {
                let g = offsets[d] + idx[d];
                outer_inside &= (0..v.shape[d]).contains(&g);
                row_elem += g * v.strides[d];
            }
            for j in 0..shape[last] {
                let g = offsets[last] + j;
                if !outer_inside || !(0..v.shape[last]).contains(&g) {
                    out.push(None);
                    continue;
                }
                let elem = row_elem + g * v.strides[last];
                let byte = elem * size;
                if elem < 0 || byte + size > len {
                    let mut coords: Vec<i64> = (0..last).map(|d| offsets[d] + idx[d]).collect();
                    coords.push(g);
                    return Err(self.out_of_buffer(v, &coords, elem));
                }
                out.push(Some(byte as usize));
            }
            let mut d = last;
            loop {
                if d == 0 {
                    return Ok(out);
                }
                d -= 1;
                idx[d] += 1;
                if idx[d] < shape[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
    }

    /// The report of element `g` of view `v` lying at element `elem` of its buffer, outside it.
    fn out_of_buffer(&self, v: &GlobalView, g: &[i64], elem: i64) -> MemError {
        let b = self;
        let size = storage_bytes(v.dtype) as i64;
        let len = b.bytes.len() as i64;
        let byte = elem * size;
        MemError::OutOfBounds {
            what: format!(
                "element {g:?} of a view of buffer '{}' (view shape {:?}, strides {:?}, offset {}) is at element {elem} ({}, {size} byte{} each: byte {byte}), outside the buffer of {len} bytes ({} elements)",
                b.name,
                v.shape,
                v.strides,
                v.offset,
                v.dtype.name(),
                if size == 1 { "" } else { "s" },
                len / size
            ),
        }
    }
}

/// A shared-memory tensor: the tile's byte address `base` in the CTA's shared memory and the
/// layout giving each element's offset (in elements, swizzle included) from it.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedView {
    /// Byte address of the tile (the allocation, aligned to the swizzle's repeat length).
    pub base: i64,
    /// The element type.
    pub dtype: DType,
    /// Element offsets of each index from `base` (spec §3.2).
    pub layout: SharedLayout,
}

/// The shared memory of one CTA: its bytes and the live allocations of the first-fit
/// allocator (`shared_tensor` / `free_shared`, spec §2.3).
#[derive(Clone, Debug, PartialEq)]
pub struct SharedMemory {
    /// The contents; its length is the capacity.
    pub bytes: Vec<u8>,
    /// Live allocations `(base, size)` in bytes, sorted by base.
    allocations: Vec<(i64, i64)>,
}

impl SharedMemory {
    /// Shared memory of `capacity` bytes (227 KiB on sm_90: 232448), zero-filled, with
    /// nothing allocated.
    pub fn new(capacity: i64) -> SharedMemory {
        SharedMemory {
            bytes: vec![0; capacity.max(0) as usize],
            allocations: Vec::new(),
        }
    }

    /// The live allocations `(base, bytes)`, sorted by base: for reports and for checking a
    /// `free` of an address that was never allocated.
    pub fn allocations(&self) -> &[(i64, i64)] {
        &self.allocations
    }

    /// Allocates `bytes` bytes at the lowest address that is a multiple of `align` and does not
    /// overlap a live allocation (first fit, as Tilus' static allocator), returning the base.
    /// A zero-byte request takes one byte so every live allocation has its own base. `align`
    /// must be a positive power of two.
    pub fn alloc(&mut self, bytes: i64, align: i64) -> Result<i64, MemError> {
        if align <= 0 || align & (align - 1) != 0 {
            return Err(MemError::Misaligned {
                what: format!("shared allocation alignment {align} is not a power of two"),
            });
        }
        if bytes < 0 {
            return Err(MemError::OutOfSharedMemory {
                need: bytes,
                have: 0,
            });
        }
        let size = bytes.max(1);
        let cap = self.bytes.len() as i64;
        let align_up = |x: i64| (x + align - 1) & !(align - 1);
        let mut start = 0i64;
        let mut best = 0i64;
        // Gaps: before each allocation, then the tail.
        let ends = self
            .allocations
            .iter()
            .map(|&(b, s)| (b, b + s))
            .chain(std::iter::once((cap, cap)));
        for (pos, (gap_end, next_start)) in ends.enumerate() {
            let base = align_up(start);
            if base + size <= gap_end {
                self.allocations.insert(pos, (base, size));
                return Ok(base);
            }
            best = best.max(gap_end - base);
            start = next_start;
        }
        Err(MemError::OutOfSharedMemory {
            need: bytes,
            have: best.max(0),
        })
    }

    /// Releases the allocation starting at `base` (`free_shared`); a base that is not the start
    /// of a live allocation is ignored (see [`SharedMemory::allocations`] to report it).
    pub fn free(&mut self, base: i64) {
        if let Some(i) = self.allocations.iter().position(|&(b, _)| b == base) {
            self.allocations.remove(i);
        }
    }

    /// The byte address of every element of `v` (row-major over its shape), each checked to lie
    /// inside shared memory and the base checked to be aligned to the element size.
    fn addresses(&self, v: &SharedView, access: &str) -> Result<Vec<usize>, MemError> {
        let size = storage_bytes(v.dtype) as i64;
        if v.base % size != 0 {
            return Err(MemError::Misaligned {
                what: format!(
                    "shared {access} of {} at byte {}: not a multiple of the element size {size}",
                    v.dtype.name(),
                    v.base
                ),
            });
        }
        let cap = self.bytes.len() as i64;
        let l = &v.layout;
        let rank = l.shape.len();
        let mut out = Vec::with_capacity(l.num_elements().max(0) as usize);
        if l.shape.iter().any(|&e| e <= 0) {
            return Ok(out);
        }
        // `l.offset(idx)` row by row: the outer dims' part of the (pre-swizzle) offset once per
        // row, the last dim in a plain loop, then the swizzle.
        let (inner, inner_stride) = match rank {
            0 => (1, 0),
            _ => (l.shape[rank - 1], l.strides[rank - 1]),
        };
        let outer = rank.saturating_sub(1);
        let mut idx = vec![0i64; outer];
        loop {
            let row: i64 = l.base + (0..outer).map(|d| idx[d] * l.strides[d]).sum::<i64>();
            for j in 0..inner {
                let o = row + j * inner_stride;
                let o = match l.swizzle {
                    Some(sw) => sw.apply(o),
                    None => o,
                };
                let byte = v.base + o * size;
                if byte < 0 || byte + size > cap {
                    let mut at = idx.clone();
                    if rank > 0 {
                        at.push(j);
                    }
                    return Err(MemError::OutOfBounds {
                        what: format!(
                            "shared {access} of element {at:?} of a {} tile at byte {} with layout {}: byte {byte} is outside shared memory ({cap} bytes)",
                            v.dtype.name(),
                            v.base,
                            v.layout
                        ),
                    });
                }
                out.push(byte as usize);
            }
            let mut d = outer;
            loop {
                if d == 0 {
                    return Ok(out);
                }
                d -= 1;
                idx[d] += 1;
                if idx[d] < l.shape[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
    }

    /// Reads the tile `v` (through its layout, swizzle included) as a tensor of the layout's
    /// shape.
    pub fn read(&self, v: &SharedView) -> Result<Tensor, MemError> {
        let addrs = self.addresses(v, "read")?;
        Ok(Tensor {
            dtype: v.dtype,
            shape: v.layout.shape.clone(),
            data: decode_many(v.dtype, &self.bytes, addrs.iter().map(|&p| Some(p))),
        })
    }

    /// Writes `t` (rounded to `v.dtype`) into the tile `v`; `t`'s shape must be the layout's.
    /// On an error nothing is written.
    pub fn write(&mut self, v: &SharedView, t: &Tensor) -> Result<(), MemError> {
        if t.shape != v.layout.shape {
            return Err(MemError::OutOfBounds {
                what: format!(
                    "shared write of a tile of shape {:?} into a view of shape {:?}",
                    t.shape, v.layout.shape
                ),
            });
        }
        self.write_row_major(v, t)
    }

    /// Writes `t`'s elements in row-major order into the tile `v`, whatever `t`'s shape, as
    /// long as the counts agree: `tilus.store_shared` into a view that splits the value's
    /// dimensions (the verifier checked the split). On an error nothing is written.
    pub fn write_row_major(&mut self, v: &SharedView, t: &Tensor) -> Result<(), MemError> {
        if t.data.len() as i64 != v.layout.shape.iter().product::<i64>() {
            return Err(MemError::OutOfBounds {
                what: format!(
                    "shared write of {} elements into a view of shape {:?}",
                    t.data.len(),
                    v.layout.shape
                ),
            });
        }
        let addrs = self.addresses(v, "write")?;
        encode_many(
            v.dtype,
            &mut self.bytes,
            addrs.iter().map(|&p| Some(p)),
            &t.data,
        );
        Ok(())
    }

    /// The bytes `[lo, hi)` that the view can touch (swizzle included), for tracking races
    /// between async copies/MMAs and other accesses. Exact (min/max over every element) for
    /// tiles up to 2^22 elements; larger ones get the strided bound widened to the swizzle's
    /// aligned blocks, which contains every address. An empty view gives an empty range at
    /// `base`.
    pub fn byte_range(v: &SharedView) -> std::ops::Range<i64> {
        let l = &v.layout;
        let size = storage_bytes(v.dtype) as i64;
        if l.shape.iter().any(|&s| s <= 0) {
            return v.base..v.base;
        }
        let (lo, hi) = if l.num_elements() <= 1 << 22 {
            let (mut lo, mut hi) = (i64::MAX, i64::MIN);
            // Every element's offset, row by row (as `addresses` walks them).
            let rank = l.shape.len();
            let (inner, inner_stride) = match rank {
                0 => (1, 0),
                _ => (l.shape[rank - 1], l.strides[rank - 1]),
            };
            let outer = rank.saturating_sub(1);
            let mut idx = vec![0i64; outer];
            'rows: loop {
                let row: i64 = l.base + (0..outer).map(|d| idx[d] * l.strides[d]).sum::<i64>();
                match l.swizzle {
                    Some(sw) => {
                        for j in 0..inner {
                            let o = sw.apply(row + j * inner_stride);
                            lo = lo.min(o);
                            hi = hi.max(o);
                        }
                    }
                    None => {
                        let last = row + (inner - 1) * inner_stride;
                        lo = lo.min(row.min(last));
                        hi = hi.max(row.max(last));
                    }
                }
                let mut d = outer;
                loop {
                    if d == 0 {
                        break 'rows;
                    }
                    d -= 1;
                    idx[d] += 1;
                    if idx[d] < l.shape[d] {
                        break;
                    }
                    idx[d] = 0;
                }
            }
            (lo, hi)
        } else {
            let mut lo = l.base;
            let mut hi = l.base;
            for (&s, &st) in l.shape.iter().zip(&l.strides) {
                let d = (s - 1) * st;
                lo += d.min(0);
                hi += d.max(0);
            }
            match l.swizzle {
                // The swizzle XORs into bits [base, base + bits) only, so it permutes
                // offsets within aligned blocks of 2^(base + bits) elements.
                Some(sw) => {
                    let block = 1i64 << (sw.base + sw.bits);
                    (lo & !(block - 1), hi | (block - 1))
                }
                None => (lo, hi),
            }
        };
        v.base + lo * size..v.base + (hi + 1) * size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `box_runs` expands to exactly `box_addresses`' elements, and fails where it fails.
    #[test]
    fn box_runs_are_box_addresses() {
        let mut m = GlobalMemory::default();
        let b = m.add("x", &Tensor::zeros(DType::F32, &[100]));
        let view = |shape: Vec<i64>, strides: Vec<i64>, offset| GlobalView {
            buffer: b,
            dtype: DType::F32,
            shape,
            strides,
            offset,
        };
        let cases = [
            (view(vec![10, 10], vec![10, 1], 0), vec![0, 0], vec![4, 8]),
            (view(vec![10, 10], vec![10, 1], 0), vec![-2, 7], vec![4, 8]),
            (view(vec![10, 10], vec![10, 1], 0), vec![8, -3], vec![4, 16]),
            (view(vec![7, 9], vec![9, 2], 3), vec![1, 2], vec![3, 5]),
            (view(vec![5, 5], vec![1, 5], 0), vec![0, 0], vec![5, 5]),
            (view(vec![12, 10], vec![10, 1], 0), vec![8, 0], vec![4, 10]),
            (view(vec![4, 40], vec![40, 1], 0), vec![0, 0], vec![4, 40]),
            (
                view(vec![3, 2, 20], vec![40, 20, 1], 0),
                vec![0, 1, 5],
                vec![3, 2, 10],
            ),
        ];
        let buf = &m.buffers[b];
        for (v, offs, shape) in cases {
            let want = buf.box_addresses(&v, &offs, &shape);
            let got = buf.box_runs(&v, &offs, &shape).map(|runs| {
                let mut all = Vec::new();
                for r in &runs {
                    assert_eq!(r.at, all.len(), "runs in order: {runs:?}");
                    all.extend(r.addrs());
                }
                all
            });
            match (want, got) {
                (Ok(w), Ok(g)) => assert_eq!(w, g, "{v:?} {offs:?} {shape:?}"),
                (Err(w), Err(g)) => assert_eq!(w.to_string(), g.to_string()),
                (w, g) => panic!("{v:?} {offs:?} {shape:?}: {w:?} vs {g:?}"),
            }
        }
    }
}
