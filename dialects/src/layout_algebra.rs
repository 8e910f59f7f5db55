//! The layout algebra of the Tilus dialects: which thread holds which element of a register
//! tensor, where an element of a shared tensor lives (and how it is swizzled), and where an
//! element of a tensor-memory tensor lives.
//!
//! This module is deliberately free of the IR crate. Verifiers, layout inference, the lowering
//! and the CPU interpreter all need the same answers ("which threads hold `x[3, 7]`?", "what
//! offset does `s[r, c]` have?"), so the arithmetic lives here once, as plain values that can be
//! tested exhaustively, and the IR only stores the textual form.
//!
//! * [`RegisterLayout`] — the mode-based register layouts of spec §3.1: primitives
//!   (`spatial`, `column_spatial`, `local`, `column_local`, `replicate`), composition, the forward
//!   and inverse maps, `reduce`, `permute`, semantic equality, and a textual form that
//!   round-trips.
//! * [`SharedLayout`] with [`Swizzle`] / [`SwizzleMode`] — strided shared-memory layouts and the
//!   element-level swizzles that reproduce TMA's `SWIZZLE_32B/64B/128B` (spec §3.2), with
//!   [`swizzle_mode_matches`], the "evaluate both and compare" check the spec recommends.
//! * [`TmemLayout`] — Blackwell tensor-memory layouts (spec §3.4).
//! * [`wgmma_accumulator`] — the Hopper accumulator fragment of spec §3.1's worked example.
//!
//! The user guide is `docs/guide/layouts.md`.

use std::fmt;

// ---------------------------------------------------------------------------------------------
// Mixed-radix helpers
// ---------------------------------------------------------------------------------------------

/// Row-major serialization: the first digit is the most significant.
fn ser(digits: impl IntoIterator<Item = (i64, i64)>) -> i64 {
    digits.into_iter().fold(0, |acc, (d, r)| acc * r + d)
}

/// Product with overflow detection; layouts come from user text, so sizes can be anything.
fn checked_product(values: impl IntoIterator<Item = i64>) -> Option<i64> {
    values
        .into_iter()
        .try_fold(1i64, |acc, v| acc.checked_mul(v))
}

/// Every index of `shape`, row-major (the last index fastest). One empty index for rank 0.
fn for_each_index(shape: &[i64], mut f: impl FnMut(&[i64]) -> bool) {
    if shape.iter().any(|&s| s <= 0) {
        return;
    }
    let mut idx = vec![0i64; shape.len()];
    loop {
        if !f(&idx) {
            return;
        }
        let mut k = shape.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Register layouts
// ---------------------------------------------------------------------------------------------

/// A register layout (spec §3.1): how the elements of a register tensor are spread over the
/// threads of a thread group and the local registers of each thread.
///
/// Every dim `k` of `shape` is split into consecutive *modes* (`dim_modes[k]` of them, taken in
/// order from `mode_shape`; the first is the most significant digit). Each mode is either
/// distributed over threads (listed in `spatial`) or kept in a thread's registers (listed in
/// `local`). A negative `spatial` entry `-r` is a replication factor: `r` threads hold the same
/// data. Thread and register indices are the row-major serializations of the `spatial` and
/// `local` digits, so the order of those lists decides which thread is "adjacent" to which.
///
/// Keeping the modes explicit (rather than a closure) is what makes layouts comparable,
/// printable and composable, and lets `reduce` and `permute` be exact.
///
/// Modes of size 1 carry no information and are never produced by the constructors; a
/// layout is *valid* when every mode appears exactly once in `spatial ∪ local`
/// ([`RegisterLayout::validate`]). The maps ([`coords`](Self::coords),
/// [`holders`](Self::holders)) assume a valid layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RegisterLayout {
    /// The logical shape of the tensor.
    pub shape: Vec<i64>,
    /// The sizes of all modes, dim after dim.
    pub mode_shape: Vec<i64>,
    /// How many modes each dim has (0 for a dim of size 1).
    pub dim_modes: Vec<usize>,
    /// Thread digits, most significant first: a mode index, or `-r` for an `r`-fold replication.
    pub spatial: Vec<i64>,
    /// Register digits, most significant first: mode indices.
    pub local: Vec<usize>,
}

/// A parse error in the textual form of a layout.
///
/// The byte offset lets the IR parser turn it into a diagnostic that points into the type
/// where the layout was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutError {
    /// Byte offset into the parsed text where the problem is.
    pub offset: usize,
    /// What was expected and what was found.
    pub message: String,
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for LayoutError {}

/// The kinds of one-mode-per-dim primitive; they differ only in where the modes go and in
/// which order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PrimKind {
    Spatial,
    ColumnSpatial,
    Local,
    ColumnLocal,
}

impl PrimKind {
    fn name(self) -> &'static str {
        match self {
            PrimKind::Spatial => "spatial",
            PrimKind::ColumnSpatial => "column_spatial",
            PrimKind::Local => "local",
            PrimKind::ColumnLocal => "column_local",
        }
    }
}

/// Where a problem of a `modes(...)` description is, so the parser can point at it.
#[derive(Clone, Copy, Debug)]
enum ModesSite {
    Shape(usize),
    Mode(usize),
    Spatial(usize),
    Local(usize),
    Whole,
}

impl RegisterLayout {
    fn primitive(shape: &[i64], kind: PrimKind) -> Self {
        for &s in shape {
            assert!(
                s > 0,
                "{}: sizes must be positive, got {shape:?}",
                kind.name()
            );
        }
        let mut mode_shape = Vec::new();
        let mut dim_modes = Vec::new();
        let mut mode_of_dim = Vec::new();
        for &s in shape {
            if s > 1 {
                mode_of_dim.push(Some(mode_shape.len()));
                mode_shape.push(s);
                dim_modes.push(1);
            } else {
                mode_of_dim.push(None);
                dim_modes.push(0);
            }
        }
        let order: Vec<usize> = match kind {
            PrimKind::Spatial | PrimKind::Local => mode_of_dim.iter().flatten().copied().collect(),
            PrimKind::ColumnSpatial | PrimKind::ColumnLocal => {
                mode_of_dim.iter().rev().flatten().copied().collect()
            }
        };
        let (spatial, local) = match kind {
            PrimKind::Spatial | PrimKind::ColumnSpatial => {
                (order.iter().map(|&m| m as i64).collect(), Vec::new())
            }
            PrimKind::Local | PrimKind::ColumnLocal => (Vec::new(), order),
        };
        RegisterLayout {
            shape: shape.to_vec(),
            mode_shape,
            dim_modes,
            spatial,
            local,
        }
    }

    /// One element per thread, threads in row-major order over `shape` (the last dim is the
    /// fastest-varying thread index) — the usual way to give adjacent threads adjacent columns.
    ///
    /// # Panics
    /// If a size is not positive.
    pub fn spatial(shape: &[i64]) -> Self {
        Self::primitive(shape, PrimKind::Spatial)
    }

    /// One element per thread, threads in column-major order (dim 0 fastest) — the order of
    /// `threadIdx.x`-fastest grids and of the wgmma warp/row pattern.
    ///
    /// # Panics
    /// If a size is not positive.
    pub fn column_spatial(shape: &[i64]) -> Self {
        Self::primitive(shape, PrimKind::ColumnSpatial)
    }

    /// The whole `shape` in every (single) thread's registers, row-major — vectors and repeat
    /// loops.
    ///
    /// # Panics
    /// If a size is not positive.
    pub fn local(shape: &[i64]) -> Self {
        Self::primitive(shape, PrimKind::Local)
    }

    /// The whole `shape` in registers, column-major (dim 0 fastest register index).
    ///
    /// # Panics
    /// If a size is not positive.
    pub fn column_local(shape: &[i64]) -> Self {
        Self::primitive(shape, PrimKind::ColumnLocal)
    }

    /// A rank-0 layout held by `r` threads: composed with another layout it makes `r` threads
    /// hold the same data (broadcast values, reduction results, barrier addresses).
    ///
    /// # Panics
    /// If `r < 1`.
    pub fn replicate(r: i64) -> Self {
        assert!(r >= 1, "replicate: the factor must be at least 1, got {r}");
        RegisterLayout {
            shape: Vec::new(),
            mode_shape: Vec::new(),
            dim_modes: Vec::new(),
            spatial: if r > 1 { vec![-r] } else { Vec::new() },
            local: Vec::new(),
        }
    }

    /// Builds a layout from the general description used by the textual `modes(...)` form:
    /// modes are grouped into dims greedily (which is unambiguous because modes of size 1 are
    /// not allowed). Use it when a layout is not a chain of primitives.
    pub fn from_modes(
        shape: &[i64],
        mode_shape: &[i64],
        spatial: &[i64],
        local: &[i64],
    ) -> Result<Self, String> {
        Self::from_modes_at(shape, mode_shape, spatial, local).map_err(|(m, _)| m)
    }

    fn from_modes_at(
        shape: &[i64],
        mode_shape: &[i64],
        spatial: &[i64],
        local: &[i64],
    ) -> Result<Self, (String, ModesSite)> {
        for (i, &s) in shape.iter().enumerate() {
            if s <= 0 {
                return Err((
                    format!("dim sizes must be positive, found {s}"),
                    ModesSite::Shape(i),
                ));
            }
        }
        if checked_product(shape.iter().copied()).is_none() {
            return Err((
                "the number of elements overflows 64 bits".to_string(),
                ModesSite::Whole,
            ));
        }
        for (i, &m) in mode_shape.iter().enumerate() {
            if m < 2 {
                return Err((
                    format!(
                        "mode sizes must be at least 2 (modes of size 1 are left out), found {m}"
                    ),
                    ModesSite::Mode(i),
                ));
            }
        }
        let mut dim_modes = Vec::with_capacity(shape.len());
        let mut next = 0usize;
        for (k, &s) in shape.iter().enumerate() {
            let first = next;
            let mut prod = 1i64;
            while prod < s && next < mode_shape.len() {
                prod = prod.saturating_mul(mode_shape[next]);
                next += 1;
                if s % prod != 0 {
                    return Err((
                        format!(
                            "mode sizes of dim {k} multiply to {prod}, expected the dim size {s}"
                        ),
                        ModesSite::Mode(next - 1),
                    ));
                }
            }
            if prod != s {
                return Err((
                    format!("mode sizes of dim {k} multiply to {prod}, expected the dim size {s}"),
                    ModesSite::Shape(k),
                ));
            }
            dim_modes.push(next - first);
        }
        if next < mode_shape.len() {
            return Err((
                format!(
                    "{} mode(s) left over after the last dim; the mode sizes multiply past the shape",
                    mode_shape.len() - next
                ),
                ModesSite::Mode(next),
            ));
        }
        let n = mode_shape.len();
        let mut seen = vec![false; n];
        for (i, &p) in spatial.iter().enumerate() {
            if p >= 0 {
                let m = p as usize;
                if m >= n {
                    return Err((
                        format!("mode index {p} is out of range: 'modes' lists {n} mode(s)"),
                        ModesSite::Spatial(i),
                    ));
                }
                if seen[m] {
                    return Err((
                        format!("'modes' lists mode {p} twice"),
                        ModesSite::Spatial(i),
                    ));
                }
                seen[m] = true;
            }
        }
        if checked_product(
            spatial
                .iter()
                .map(|&p| if p >= 0 { mode_shape[p as usize] } else { -p }),
        )
        .is_none()
        {
            return Err((
                "the number of threads overflows 64 bits".to_string(),
                ModesSite::Whole,
            ));
        }
        let mut local_modes = Vec::with_capacity(local.len());
        for (i, &q) in local.iter().enumerate() {
            if q < 0 {
                return Err((
                    format!("local entries are mode indices, found {q}"),
                    ModesSite::Local(i),
                ));
            }
            let m = q as usize;
            if m >= n {
                return Err((
                    format!("mode index {q} is out of range: 'modes' lists {n} mode(s)"),
                    ModesSite::Local(i),
                ));
            }
            if seen[m] {
                return Err((format!("'modes' lists mode {q} twice"), ModesSite::Local(i)));
            }
            seen[m] = true;
            local_modes.push(m);
        }
        if let Some(m) = seen.iter().position(|&s| !s) {
            let dim = dim_modes
                .iter()
                .scan(0usize, |acc, &c| {
                    *acc += c;
                    Some(*acc)
                })
                .position(|end| m < end)
                .unwrap_or(0);
            return Err((
                format!(
                    "mode {m} (size {} of dim {dim}) is neither spatial nor local",
                    mode_shape[m]
                ),
                ModesSite::Whole,
            ));
        }
        Ok(RegisterLayout {
            shape: shape.to_vec(),
            mode_shape: mode_shape.to_vec(),
            dim_modes,
            spatial: merge_replication(spatial.to_vec()),
            local: local_modes,
        })
    }

    /// Checks the structural invariants, so layouts built by hand (the fields are public) can
    /// be rejected with a reason before the maps are used on them.
    pub fn validate(&self) -> Result<(), String> {
        if self.dim_modes.len() != self.shape.len() {
            return Err(format!(
                "dim_modes has {} entries for a rank-{} shape",
                self.dim_modes.len(),
                self.rank()
            ));
        }
        if self.dim_modes.iter().sum::<usize>() != self.mode_shape.len() {
            return Err(format!(
                "dim_modes counts {} modes, mode_shape has {}",
                self.dim_modes.iter().sum::<usize>(),
                self.mode_shape.len()
            ));
        }
        if let Some(&m) = self.mode_shape.iter().find(|&&m| m < 1) {
            return Err(format!("mode sizes must be positive, found {m}"));
        }
        let starts = self.mode_starts();
        for (k, (w, &size)) in starts.windows(2).zip(&self.shape).enumerate() {
            let prod = checked_product(self.mode_shape[w[0]..w[1]].iter().copied());
            if prod != Some(size) {
                return Err(format!(
                    "mode sizes of dim {k} multiply to {}, expected the dim size {size}",
                    prod.map_or("more than 2^63".to_string(), |p| p.to_string()),
                ));
            }
        }
        let n = self.mode_shape.len();
        let mut seen = vec![false; n];
        for &p in &self.spatial {
            if p >= 0 {
                let m = p as usize;
                if m >= n || seen[m] {
                    return Err(format!("spatial entry {p} is out of range or repeated"));
                }
                seen[m] = true;
            }
        }
        for &m in &self.local {
            if m >= n || seen[m] {
                return Err(format!("local entry {m} is out of range or repeated"));
            }
            seen[m] = true;
        }
        if let Some(m) = seen.iter().position(|&s| !s) {
            return Err(format!("mode {m} is neither spatial nor local"));
        }
        if checked_product(self.spatial_shape()).is_none() {
            return Err("the number of threads overflows 64 bits".to_string());
        }
        Ok(())
    }

    /// The number of dims.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The number of threads the layout spreads over (replication included); it should equal
    /// the size of the thread group that owns the tensor.
    pub fn num_threads(&self) -> i64 {
        self.spatial_shape().product()
    }

    /// The number of registers (elements) each thread holds.
    pub fn local_size(&self) -> i64 {
        self.local.iter().map(|&q| self.mode_shape[q]).product()
    }

    /// The number of logical elements of the tensor.
    pub fn num_elements(&self) -> i64 {
        self.shape.iter().product()
    }

    /// How many threads hold each element (the product of the replication factors).
    pub fn replication(&self) -> i64 {
        self.spatial
            .iter()
            .filter(|&&p| p < 0)
            .map(|&p| -p)
            .product()
    }

    /// The radix of each thread digit (replication factors included), most significant first.
    pub fn spatial_shape(&self) -> impl Iterator<Item = i64> + '_ {
        self.spatial.iter().map(|&p| {
            if p >= 0 {
                self.mode_shape[p as usize]
            } else {
                -p
            }
        })
    }

    /// The radix of each register digit, most significant first.
    pub fn local_shape(&self) -> impl Iterator<Item = i64> + '_ {
        self.local.iter().map(|&q| self.mode_shape[q])
    }

    fn mode_starts(&self) -> Vec<usize> {
        let mut starts = Vec::with_capacity(self.dim_modes.len() + 1);
        let mut acc = 0;
        for &c in &self.dim_modes {
            starts.push(acc);
            acc += c;
        }
        starts.push(acc);
        starts
    }

    fn dim_of_modes(&self) -> Vec<usize> {
        let mut dims = Vec::with_capacity(self.mode_shape.len());
        for (k, &c) in self.dim_modes.iter().enumerate() {
            dims.extend(std::iter::repeat_n(k, c));
        }
        dims
    }

    /// The inverse map: the logical index that register `local` of thread `thread` holds.
    /// Replication digits of the thread index do not matter (replicas hold the same element).
    ///
    /// # Panics
    /// If `thread` or `local` is out of range.
    pub fn coords(&self, thread: i64, local: i64) -> Vec<i64> {
        assert!(
            (0..self.num_threads()).contains(&thread),
            "thread {thread} out of range 0..{}",
            self.num_threads()
        );
        assert!(
            (0..self.local_size()).contains(&local),
            "local index {local} out of range 0..{}",
            self.local_size()
        );
        let mut mu = vec![0i64; self.mode_shape.len()];
        let mut t = thread;
        for &p in self.spatial.iter().rev() {
            let size = if p >= 0 {
                self.mode_shape[p as usize]
            } else {
                -p
            };
            if p >= 0 {
                mu[p as usize] = t % size;
            }
            t /= size;
        }
        let mut l = local;
        for &q in self.local.iter().rev() {
            let size = self.mode_shape[q];
            mu[q] = l % size;
            l /= size;
        }
        let starts = self.mode_starts();
        (0..self.rank())
            .map(|k| {
                let r = starts[k]..starts[k + 1];
                ser(mu[r.clone()]
                    .iter()
                    .copied()
                    .zip(self.mode_shape[r].iter().copied()))
            })
            .collect()
    }

    /// The forward map: the threads (ascending; more than one when replicated) that hold the
    /// logical element `idx`, and the register index it has in each of them (the same in all).
    ///
    /// # Panics
    /// If `idx` has the wrong rank or is out of range.
    pub fn holders(&self, idx: &[i64]) -> (Vec<i64>, i64) {
        assert_eq!(idx.len(), self.rank(), "index rank");
        let mut mu = vec![0i64; self.mode_shape.len()];
        let starts = self.mode_starts();
        for (k, &x) in idx.iter().enumerate() {
            assert!(
                (0..self.shape[k]).contains(&x),
                "index {idx:?} out of range for shape {:?}",
                self.shape
            );
            let mut v = x;
            for m in (starts[k]..starts[k + 1]).rev() {
                mu[m] = v % self.mode_shape[m];
                v /= self.mode_shape[m];
            }
        }
        let local = ser(self.local.iter().map(|&q| (mu[q], self.mode_shape[q])));
        let mut base = 0i64;
        let mut stride = 1i64;
        let mut repl = Vec::new();
        for &p in self.spatial.iter().rev() {
            if p >= 0 {
                base += mu[p as usize] * stride;
                stride *= self.mode_shape[p as usize];
            } else {
                repl.push((stride, -p));
                stride *= -p;
            }
        }
        let mut threads = vec![base];
        for (s, r) in repl {
            threads = threads
                .iter()
                .flat_map(|&t| (0..r).map(move |j| t + j * s))
                .collect();
        }
        threads.sort_unstable();
        (threads, local)
    }

    /// Composition `self * inner` (spec §3.1): `self` is the outer, more significant part in
    /// every dim, of the thread index and of the register index. This is how hierarchical
    /// distributions (repeat × warps × lanes × vector) are written.
    ///
    /// # Panics
    /// If the composed sizes overflow 64 bits.
    pub fn compose(&self, inner: &RegisterLayout) -> RegisterLayout {
        self.try_compose(inner)
            .expect("layout composition overflows 64 bits")
    }

    /// [`compose`](Self::compose) that reports overflow instead of panicking (for user text).
    pub fn try_compose(&self, inner: &RegisterLayout) -> Option<RegisterLayout> {
        let a = self;
        let b = inner;
        let rank = a.rank().max(b.rank());
        let pad_a = rank - a.rank();
        let pad_b = rank - b.rank();
        let a_starts = a.mode_starts();
        let b_starts = b.mode_starts();
        let mut shape = Vec::with_capacity(rank);
        let mut mode_shape = Vec::new();
        let mut dim_modes = Vec::with_capacity(rank);
        let mut a_map = vec![0usize; a.mode_shape.len()];
        let mut b_map = vec![0usize; b.mode_shape.len()];
        for k in 0..rank {
            let (sa, ra) = if k >= pad_a {
                let d = k - pad_a;
                (a.shape[d], a_starts[d]..a_starts[d + 1])
            } else {
                (1, 0..0)
            };
            let (sb, rb) = if k >= pad_b {
                let d = k - pad_b;
                (b.shape[d], b_starts[d]..b_starts[d + 1])
            } else {
                (1, 0..0)
            };
            shape.push(sa.checked_mul(sb)?);
            let count = ra.len() + rb.len();
            for m in ra {
                a_map[m] = mode_shape.len();
                mode_shape.push(a.mode_shape[m]);
            }
            for m in rb {
                b_map[m] = mode_shape.len();
                mode_shape.push(b.mode_shape[m]);
            }
            dim_modes.push(count);
        }
        checked_product(shape.iter().copied())?;
        let remap = |p: i64, map: &[usize]| if p >= 0 { map[p as usize] as i64 } else { p };
        let spatial: Vec<i64> = a
            .spatial
            .iter()
            .map(|&p| remap(p, &a_map))
            .chain(b.spatial.iter().map(|&p| remap(p, &b_map)))
            .collect();
        let local = a
            .local
            .iter()
            .map(|&q| a_map[q])
            .chain(b.local.iter().map(|&q| b_map[q]))
            .collect();
        let out = RegisterLayout {
            shape,
            mode_shape,
            dim_modes,
            spatial: merge_replication(spatial),
            local,
        };
        checked_product(out.spatial_shape())?;
        Some(out)
    }

    /// The layout of `reduce(x, dims, keepdim)` (spec §3.1): spatial modes of the reduced dims
    /// become replication (every thread that held part of a reduced row holds the result,
    /// which is what a warp shuffle / cross-warp reduction leaves behind) and their local
    /// modes disappear. With `keepdim` the reduced dims stay with size 1.
    ///
    /// # Panics
    /// If a dim is out of range or listed twice.
    pub fn reduce(&self, dims: &[usize], keepdim: bool) -> RegisterLayout {
        let mut reduced = vec![false; self.rank()];
        for &d in dims {
            assert!(
                d < self.rank(),
                "reduce: dim {d} out of range for rank {}",
                self.rank()
            );
            assert!(!reduced[d], "reduce: dim {d} listed twice");
            reduced[d] = true;
        }
        let dim_of = self.dim_of_modes();
        let mut new_index = vec![None; self.mode_shape.len()];
        let mut mode_shape = Vec::new();
        for (m, &size) in self.mode_shape.iter().enumerate() {
            if !reduced[dim_of[m]] {
                new_index[m] = Some(mode_shape.len());
                mode_shape.push(size);
            }
        }
        let mut shape = Vec::new();
        let mut dim_modes = Vec::new();
        for (k, &red) in reduced.iter().enumerate() {
            if red {
                if keepdim {
                    shape.push(1);
                    dim_modes.push(0);
                }
            } else {
                shape.push(self.shape[k]);
                dim_modes.push(self.dim_modes[k]);
            }
        }
        let spatial = self
            .spatial
            .iter()
            .map(|&p| {
                if p < 0 {
                    p
                } else {
                    match new_index[p as usize] {
                        Some(n) => n as i64,
                        None => -self.mode_shape[p as usize],
                    }
                }
            })
            .collect();
        let local = self.local.iter().filter_map(|&q| new_index[q]).collect();
        RegisterLayout {
            shape,
            mode_shape,
            dim_modes,
            spatial: merge_replication(spatial),
            local,
        }
    }

    /// The layout of the permuted tensor `y = x.permute(perm)` (`y`'s dim `i` is `x`'s dim
    /// `perm[i]`): every thread keeps the same elements in the same registers, only the
    /// logical index is reordered, so permuting is free.
    ///
    /// # Panics
    /// If `perm` is not a permutation of `0..rank`.
    pub fn permute(&self, perm: &[usize]) -> RegisterLayout {
        assert_permutation(perm, self.rank());
        let starts = self.mode_starts();
        // Old mode indices in their new order.
        let order: Vec<usize> = perm
            .iter()
            .flat_map(|&d| starts[d]..starts[d + 1])
            .collect();
        let mut new_index = vec![0usize; self.mode_shape.len()];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        let mode_shape = order.iter().map(|&m| self.mode_shape[m]).collect();
        RegisterLayout {
            shape: perm.iter().map(|&d| self.shape[d]).collect(),
            mode_shape,
            dim_modes: perm.iter().map(|&d| self.dim_modes[d]).collect(),
            spatial: self.renumbered_spatial(&new_index),
            local: self.local.iter().map(|&q| new_index[q]).collect(),
        }
    }

    /// The thread modes with each mode index `m` replaced by `new_index[m]` (replication
    /// factors, negative, kept): the spatial list after modes were reordered or dropped.
    fn renumbered_spatial(&self, new_index: &[usize]) -> Vec<i64> {
        self.spatial
            .iter()
            .map(|&p| {
                if p >= 0 {
                    new_index[p as usize] as i64
                } else {
                    p
                }
            })
            .collect()
    }

    /// This layout with a dimension of one element inserted at `dim` (no modes, so the same
    /// threads and registers): the layout whose reduction over `dim`, without `keepdim`, is
    /// this one.
    ///
    /// # Panics
    /// If `dim > rank`.
    pub fn unsqueeze(&self, dim: usize) -> RegisterLayout {
        let mut u = self.clone();
        u.shape.insert(dim, 1);
        u.dim_modes.insert(dim, 0);
        u
    }

    /// The layout of the box `[offsets, offsets + shape)` of a tensor in this layout, when each
    /// thread keeps exactly the elements of the box it held (`tilus.slice_register`): the
    /// registers of the result are a subset of the source's, so the slice moves no data.
    ///
    /// That holds when, in every dimension, the box keeps the innermost modes whole, a
    /// contiguous run of the next mode's digits, and one digit of each mode outside it, and
    /// every mode it cuts is a local one: cutting a spatial mode would leave threads without
    /// elements, which a register tensor of the same group cannot have. The error says which
    /// dimension breaks the rule.
    pub fn slice(&self, offsets: &[i64], shape: &[i64]) -> Result<RegisterLayout, String> {
        if offsets.len() != self.rank() || shape.len() != self.rank() {
            return Err(format!(
                "expects {} offsets and extents, found {} and {}",
                self.rank(),
                offsets.len(),
                shape.len()
            ));
        }
        let starts = self.mode_starts();
        let is_spatial = |m: usize| self.spatial.contains(&(m as i64));
        // New size of each old mode (1: dropped).
        let mut new_size = self.mode_shape.clone();
        for k in 0..self.rank() {
            let (o, e, full) = (offsets[k], shape[k], self.shape[k]);
            if e < 1 || o < 0 || o > full - e {
                return Err(format!(
                    "the box [{o}, {}) of dim {k} is not inside its extent {full}",
                    o.saturating_add(e)
                ));
            }
            if e == full {
                continue;
            }
            // Modes of dim k, innermost first.
            let modes: Vec<usize> = (starts[k]..starts[k + 1]).rev().collect();
            let mut inner = 1i64;
            let mut i = 0;
            while i < modes.len() && e % (inner * self.mode_shape[modes[i]]) == 0 {
                inner *= self.mode_shape[modes[i]];
                i += 1;
            }
            // Modes 0..i are kept whole; mode i keeps `f` digits; the outer ones one digit.
            let f = e / inner;
            let cut = |m: usize| {
                if is_spatial(m) {
                    Err(format!(
                        "the box [{o}, {}) of dim {k} cuts a mode its threads are spread over \
                         (only register modes can be sliced without moving data)",
                        o + e
                    ))
                } else {
                    Ok(())
                }
            };
            if o % inner != 0
                || (i < modes.len()
                    && (o / inner) % self.mode_shape[modes[i]] + f > self.mode_shape[modes[i]])
            {
                return Err(format!(
                    "the box [{o}, {}) of dim {k} does not keep whole blocks of {inner} \
                     consecutive indices",
                    o + e
                ));
            }
            for (j, &m) in modes.iter().enumerate().skip(i) {
                cut(m)?;
                new_size[m] = if j == i { f } else { 1 };
            }
        }
        let mut new_index = vec![usize::MAX; self.mode_shape.len()];
        let mut mode_shape = Vec::new();
        for (m, &s) in new_size.iter().enumerate() {
            if s > 1 {
                new_index[m] = mode_shape.len();
                mode_shape.push(s);
            }
        }
        let spatial = self.renumbered_spatial(&new_index);
        let local: Vec<i64> = self
            .local
            .iter()
            .filter(|&&q| new_index[q] != usize::MAX)
            .map(|&q| new_index[q] as i64)
            .collect();
        RegisterLayout::from_modes(shape, &mode_shape, &spatial, &local)
    }

    /// Semantic equality: same shape, thread count and register count, and every
    /// `(thread, local)` pair names the same element. Two layouts can be written differently
    /// (`local(8)` and `local(2) * local(4)`) and still be the same; verifiers must compare
    /// with this, not with `==`.
    pub fn same_mapping(&self, other: &RegisterLayout) -> bool {
        // Identical structure is the same mapping; only layouts written differently need the
        // element-by-element walk (which verifying large wgmma tiles made a visible cost).
        if self == other {
            return true;
        }
        if self.shape != other.shape
            || self.num_threads() != other.num_threads()
            || self.local_size() != other.local_size()
        {
            return false;
        }
        (0..self.num_threads())
            .all(|t| (0..self.local_size()).all(|l| self.coords(t, l) == other.coords(t, l)))
    }

    /// The same layout with size-1 modes removed and adjacent replication factors merged:
    /// the form that is printed.
    fn canonical(&self) -> RegisterLayout {
        let mut new_index = vec![None; self.mode_shape.len()];
        let mut mode_shape = Vec::new();
        let mut dim_modes = vec![0usize; self.rank()];
        for ((m, &size), &dim) in self.mode_shape.iter().enumerate().zip(&self.dim_of_modes()) {
            if size != 1 {
                new_index[m] = Some(mode_shape.len());
                mode_shape.push(size);
                dim_modes[dim] += 1;
            }
        }
        let spatial = self
            .spatial
            .iter()
            .filter_map(|&p| {
                if p < 0 {
                    Some(p)
                } else {
                    new_index[p as usize].map(|n| n as i64)
                }
            })
            .collect();
        RegisterLayout {
            shape: self.shape.clone(),
            mode_shape,
            dim_modes,
            spatial: merge_replication(spatial),
            local: self.local.iter().filter_map(|&q| new_index[q]).collect(),
        }
    }

    /// Recovers the shortest chain of primitives that composes to exactly this (canonical)
    /// layout, or `None` when the mode order cannot come from a chain (then the general form
    /// is printed).
    ///
    /// In a chain, each primitive takes the next unused mode of some distinct dims, in
    /// increasing dim order (`spatial`, `local`) or decreasing (`column_*`), and appends them
    /// to the thread (register) digits; `replicate` appends one replication digit. So a
    /// partial chain is fully described by how many thread digits `pi` and register digits
    /// `qi` it has produced, and the shortest chain is a shortest path from `(0, 0)` to the
    /// end over those states, each step one primitive.
    fn chain(&self) -> Option<Vec<String>> {
        #[derive(Clone, Copy)]
        enum Step {
            Replicate(i64),
            Group {
                local: bool,
                len: usize,
                column: bool,
            },
        }
        if self.validate().is_err() {
            return None;
        }
        let dim_of = self.dim_of_modes();
        let starts = self.mode_starts();
        let (np, nq) = (self.spatial.len(), self.local.len());
        let digits_p: Vec<Option<usize>> = self
            .spatial
            .iter()
            .map(|&p| (p >= 0).then_some(p as usize))
            .collect();
        let digits_q: Vec<Option<usize>> = self.local.iter().map(|&q| Some(q)).collect();
        // best[pi][qi] = (number of primitives, previous state, step taken)
        type Best = Option<(usize, (usize, usize), Step)>;
        let mut best: Vec<Vec<Best>> = vec![vec![None; nq + 1]; np + 1];
        let mut reached = vec![vec![false; nq + 1]; np + 1];
        reached[0][0] = true;
        let mut cost = vec![vec![usize::MAX; nq + 1]; np + 1];
        cost[0][0] = 0;
        for s in 0..=np + nq {
            for pi in s.saturating_sub(nq)..=s.min(np) {
                let qi = s - pi;
                if !reached[pi][qi] {
                    continue;
                }
                // The next unused mode of each dim, given the digits produced so far.
                let mut next = starts.clone();
                for m in digits_p[..pi].iter().chain(&digits_q[..qi]).flatten() {
                    next[dim_of[*m]] += 1;
                }
                let here = cost[pi][qi];
                let mut relax = |to: (usize, usize), step: Step| {
                    if here + 1 < cost[to.0][to.1] {
                        cost[to.0][to.1] = here + 1;
                        reached[to.0][to.1] = true;
                        best[to.0][to.1] = Some((here + 1, (pi, qi), step));
                    }
                };
                if pi < np && self.spatial[pi] < 0 {
                    relax((pi + 1, qi), Step::Replicate(-self.spatial[pi]));
                }
                for (local, digits, at) in [(false, &digits_p, pi), (true, &digits_q, qi)] {
                    let mut dir = 0i32;
                    let mut prev_dim = None;
                    for (len, d) in digits[at..].iter().enumerate() {
                        let Some(m) = *d else { break };
                        let dim = dim_of[m];
                        if next[dim] != m {
                            break;
                        }
                        if let Some(prev) = prev_dim {
                            let step = if dim > prev { 1 } else { -1 };
                            if dim == prev || (dir != 0 && step != dir) {
                                break;
                            }
                            dir = step;
                        }
                        prev_dim = Some(dim);
                        let to = if local {
                            (pi, qi + len + 1)
                        } else {
                            (pi + len + 1, qi)
                        };
                        let column = dir < 0;
                        relax(
                            to,
                            Step::Group {
                                local,
                                len: len + 1,
                                column,
                            },
                        );
                    }
                }
            }
        }
        if !reached[np][nq] {
            return None;
        }
        let mut steps = Vec::new();
        let mut at = (np, nq);
        while let Some((_, prev, step)) = best[at.0][at.1] {
            steps.push((prev, step));
            at = prev;
        }
        steps.reverse();
        let mut terms = Vec::new();
        let mut any_shaped = false;
        for ((pi, qi), step) in steps {
            match step {
                Step::Replicate(r) => terms.push(format!("replicate({r})")),
                Step::Group { local, len, column } => {
                    let modes: Vec<usize> = if local {
                        self.local[qi..qi + len].to_vec()
                    } else {
                        self.spatial[pi..pi + len]
                            .iter()
                            .map(|&p| p as usize)
                            .collect()
                    };
                    let mut sizes = vec![1i64; self.rank()];
                    for &m in &modes {
                        sizes[dim_of[m]] = self.mode_shape[m];
                    }
                    let kind = match (local, column) {
                        (false, false) => PrimKind::Spatial,
                        (false, true) => PrimKind::ColumnSpatial,
                        (true, false) => PrimKind::Local,
                        (true, true) => PrimKind::ColumnLocal,
                    };
                    terms.push(format!("{}({})", kind.name(), join(&sizes)));
                    any_shaped = true;
                }
            }
        }
        if !any_shaped && self.rank() > 0 {
            terms.push(format!("local({})", join(&vec![1i64; self.rank()])));
        }
        if terms.is_empty() {
            terms.push("replicate(1)".to_string());
        }
        Some(terms)
    }

    /// Parses the textual form (the part after `layout =` in a `!tilus.reg` type); the whole
    /// text must be one layout.
    pub fn parse(text: &str) -> Result<RegisterLayout, LayoutError> {
        let mut p = LayoutParser { text, pos: 0 };
        let layout = p.layout()?;
        p.skip_ws();
        if p.pos < text.len() {
            return Err(p.error(format!(
                "expected '*' or the end of the layout, found {}",
                p.found()
            )));
        }
        Ok(layout)
    }

    /// Parses a layout at the start of `text` and returns it with the number of bytes it
    /// used, so a type parser can continue after it (e.g. at the `>` closing the type).
    pub fn parse_prefix(text: &str) -> Result<(RegisterLayout, usize), LayoutError> {
        let mut p = LayoutParser { text, pos: 0 };
        let layout = p.layout()?;
        Ok((layout, p.pos))
    }
}

/// Adjacent replication digits act as one (their product) and factors of 1 do nothing;
/// merging them keeps printed forms short.
fn merge_replication(spatial: Vec<i64>) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::with_capacity(spatial.len());
    for p in spatial {
        if p == -1 {
            continue;
        }
        if p < 0 {
            if let Some(last) = out.last_mut() {
                if *last < 0 {
                    *last = -(last.saturating_mul(p));
                    continue;
                }
            }
        }
        out.push(p);
    }
    out
}

fn assert_permutation(perm: &[usize], rank: usize) {
    assert_eq!(
        perm.len(),
        rank,
        "permute: {perm:?} is not a permutation of 0..{rank}"
    );
    let mut seen = vec![false; rank];
    for &d in perm {
        assert!(
            d < rank && !seen[d],
            "permute: {perm:?} is not a permutation of 0..{rank}"
        );
        seen[d] = true;
    }
}

fn join(values: &[i64]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for RegisterLayout {
    /// Prints the primitive chain when there is one (`spatial(8, 4) * local(1, 2)`), else the
    /// general `modes(...)` form; either way [`RegisterLayout::parse`] reads it back to a
    /// layout with the same mapping.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.canonical();
        if let Some(terms) = c.chain() {
            return write!(f, "{}", terms.join(" * "));
        }
        write!(
            f,
            "modes(shape = [{}], modes = [{}], spatial = [{}], local = [{}])",
            join(&c.shape),
            join(&c.mode_shape),
            join(&c.spatial),
            join(&c.local.iter().map(|&q| q as i64).collect::<Vec<_>>())
        )
    }
}

// ---------------------------------------------------------------------------------------------
// The textual form
// ---------------------------------------------------------------------------------------------

const PRIMITIVES: &str = "spatial, column_spatial, local, column_local, replicate, modes";

struct LayoutParser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> LayoutParser<'a> {
    fn skip_ws(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn error(&self, message: String) -> LayoutError {
        LayoutError {
            offset: self.pos,
            message,
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    /// Describes the token at the cursor for "found ..." messages.
    fn found(&self) -> String {
        let rest = &self.text[self.pos..];
        let Some(c) = rest.chars().next() else {
            return "the end of the text".to_string();
        };
        let word_len = |s: &str, f: fn(char) -> bool| s.find(|c: char| !f(c)).unwrap_or(s.len());
        if c.is_ascii_alphabetic() || c == '_' {
            let n = word_len(rest, |c| c.is_ascii_alphanumeric() || c == '_');
            return format!("'{}'", &rest[..n]);
        }
        if c.is_ascii_digit() || (c == '-' && rest[1..].starts_with(|c: char| c.is_ascii_digit())) {
            let n = 1 + word_len(&rest[1..], |c| c.is_ascii_digit());
            return format!("'{}'", &rest[..n]);
        }
        format!("'{c}'")
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char, context: &str) -> Result<(), LayoutError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(format!("expected '{c}'{context}, found {}", self.found())))
        }
    }

    fn ident(&mut self) -> Option<(usize, &'a str)> {
        self.skip_ws();
        let rest = &self.text[self.pos..];
        if !rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            return None;
        }
        let n = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let start = self.pos;
        self.pos += n;
        Some((start, &self.text[start..start + n]))
    }

    /// An integer (optionally negative); `what` names it in the error.
    fn int(&mut self, what: &str) -> Result<(usize, i64), LayoutError> {
        self.skip_ws();
        let start = self.pos;
        let rest = &self.text[start..];
        let neg = rest.starts_with('-');
        let digits = &rest[neg as usize..];
        let n = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        if n == 0 {
            return Err(self.error(format!("expected {what}, found {}", self.found())));
        }
        let len = neg as usize + n;
        let v: i64 = rest[..len].parse().map_err(|_| LayoutError {
            offset: start,
            message: format!("the number '{}' does not fit in 64 bits", &rest[..len]),
        })?;
        self.pos += len;
        Ok((start, v))
    }

    fn layout(&mut self) -> Result<RegisterLayout, LayoutError> {
        let (_, mut acc) = self.term()?;
        loop {
            let save = self.pos;
            if !self.eat('*') {
                self.pos = save;
                return Ok(acc);
            }
            let (at, t) = self.term()?;
            acc = acc.try_compose(&t).ok_or(LayoutError {
                offset: at,
                message: "the composed layout's sizes overflow 64 bits".to_string(),
            })?;
        }
    }

    fn term(&mut self) -> Result<(usize, RegisterLayout), LayoutError> {
        self.skip_ws();
        let unknown = |p: &Self| {
            p.error(format!(
                "expected a layout primitive ({PRIMITIVES}), found {}",
                p.found()
            ))
        };
        let save = self.pos;
        let Some((at, name)) = self.ident() else {
            return Err(unknown(self));
        };
        let kind = match name {
            "spatial" => Some(PrimKind::Spatial),
            "column_spatial" => Some(PrimKind::ColumnSpatial),
            "local" => Some(PrimKind::Local),
            "column_local" => Some(PrimKind::ColumnLocal),
            "replicate" | "modes" => None,
            _ => {
                self.pos = save;
                return Err(unknown(self));
            }
        };
        let context = format!(" after '{name}'");
        self.expect('(', &context)?;
        if name == "modes" {
            return Ok((at, self.modes_body(at)?));
        }
        let mut sizes = Vec::new();
        loop {
            let (pos, v) = self.int("a size")?;
            if v <= 0 {
                return Err(LayoutError {
                    offset: pos,
                    message: format!("expected a positive size, found '{v}'"),
                });
            }
            sizes.push(v);
            if self.eat(')') {
                break;
            }
            if !self.eat(',') {
                return Err(self.error(format!("expected ',' or ')', found {}", self.found())));
            }
        }
        let layout = match kind {
            Some(kind) => {
                if checked_product(sizes.iter().copied()).is_none() {
                    return Err(LayoutError {
                        offset: at,
                        message: format!("the sizes of '{name}' multiply past 64 bits"),
                    });
                }
                RegisterLayout::primitive(&sizes, kind)
            }
            None => {
                if sizes.len() != 1 {
                    return Err(LayoutError {
                        offset: at,
                        message: format!(
                            "'replicate' takes one size (the number of threads holding each \
                             element), found {}",
                            sizes.len()
                        ),
                    });
                }
                RegisterLayout::replicate(sizes[0])
            }
        };
        Ok((at, layout))
    }

    /// `[a, b, ...]`, keeping each entry's offset.
    fn list(&mut self, what: &str) -> Result<Vec<(usize, i64)>, LayoutError> {
        self.expect('[', "")?;
        let mut out = Vec::new();
        if self.eat(']') {
            return Ok(out);
        }
        loop {
            out.push(self.int(what)?);
            if self.eat(']') {
                return Ok(out);
            }
            if !self.eat(',') {
                return Err(self.error(format!("expected ',' or ']', found {}", self.found())));
            }
        }
    }

    fn modes_body(&mut self, at: usize) -> Result<RegisterLayout, LayoutError> {
        let mut lists: Vec<Vec<(usize, i64)>> = Vec::new();
        for (i, (key, what)) in [
            ("shape", "a dim size"),
            ("modes", "a mode size"),
            ("spatial", "a mode index or a negative replication factor"),
            ("local", "a mode index"),
        ]
        .into_iter()
        .enumerate()
        {
            if i > 0 {
                self.expect(',', "")?;
            }
            let save = self.pos;
            match self.ident() {
                Some((_, k)) if k == key => {}
                _ => {
                    self.pos = save;
                    self.skip_ws();
                    return Err(self.error(format!("expected '{key}', found {}", self.found())));
                }
            }
            self.expect('=', &format!(" after '{key}'"))?;
            lists.push(self.list(what)?);
        }
        self.expect(')', " to close 'modes'")?;
        let values = |l: &[(usize, i64)]| l.iter().map(|&(_, v)| v).collect::<Vec<_>>();
        RegisterLayout::from_modes_at(
            &values(&lists[0]),
            &values(&lists[1]),
            &values(&lists[2]),
            &values(&lists[3]),
        )
        .map_err(|(message, site)| {
            let offset = match site {
                ModesSite::Shape(i) => lists[0][i].0,
                ModesSite::Mode(i) => lists[1][i].0,
                ModesSite::Spatial(i) => lists[2][i].0,
                ModesSite::Local(i) => lists[3][i].0,
                ModesSite::Whole => at,
            };
            LayoutError { offset, message }
        })
    }
}

// ---------------------------------------------------------------------------------------------
// wgmma accumulator
// ---------------------------------------------------------------------------------------------

/// The Hopper `wgmma` accumulator (D) fragment: a namespace for its constants and layout, so
/// callers that think in "the accumulator of this instruction" find it by that name.
#[derive(Clone, Copy, Debug, Default)]
pub struct WgmmaAccumulator;

impl WgmmaAccumulator {
    /// Rows of one `wgmma` instruction (one warpgroup: 4 warps × 16 rows).
    pub const INST_M: i64 = 64;
    /// Threads of the warpgroup that executes it.
    pub const THREADS: i64 = 128;

    /// Same as [`wgmma_accumulator`].
    pub fn layout(m: i64, n: i64, inst_n: i64) -> RegisterLayout {
        wgmma_accumulator(m, n, inst_n)
    }
}

/// The register layout of an `m × n` accumulator tile computed by `(m/64) × (n/inst_n)`
/// `wgmma.m64n{inst_n}` instructions (spec §3.1 worked example):
/// `local(rm, rn) * column_spatial(4, 1) * column_local(2, inst_n/8) * spatial(8, 4) * local(1, 2)`.
/// It must match the PTX fragment exactly, or the values the hardware writes land in the
/// wrong logical elements; instruction `(i, j)` owns the register block `i·rn + j`.
///
/// # Panics
/// If `m` is not a positive multiple of 64, `inst_n` is not a multiple of 8 in `8..=256`, or
/// `n` is not a positive multiple of `inst_n`.
pub fn wgmma_accumulator(m: i64, n: i64, inst_n: i64) -> RegisterLayout {
    assert!(
        m > 0 && m % 64 == 0,
        "wgmma accumulator: m = {m} is not a multiple of 64"
    );
    assert!(
        (8..=256).contains(&inst_n) && inst_n % 8 == 0,
        "wgmma accumulator: instruction n = {inst_n} is not a multiple of 8 in 8..=256"
    );
    assert!(
        n > 0 && n % inst_n == 0,
        "wgmma accumulator: n = {n} is not a multiple of the instruction n {inst_n}"
    );
    RegisterLayout::local(&[m / 64, n / inst_n])
        .compose(&RegisterLayout::column_spatial(&[4, 1]))
        .compose(&RegisterLayout::column_local(&[2, inst_n / 8]))
        .compose(&RegisterLayout::spatial(&[8, 4]))
        .compose(&RegisterLayout::local(&[1, 2]))
}

// ---------------------------------------------------------------------------------------------
// Shared layouts and swizzles
// ---------------------------------------------------------------------------------------------

/// The TMA swizzle modes (`CU_TENSOR_MAP_SWIZZLE_*`) that shared tiles are laid out for, so a
/// tile can be written by TMA and read by wgmma/tcgen05 without bank conflicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwizzleMode {
    /// No swizzle.
    None,
    /// `SWIZZLE_32B`: byte-address bit 4 ^= bit 7.
    B32,
    /// `SWIZZLE_64B`: byte-address bits 4..6 ^= bits 7..9.
    B64,
    /// `SWIZZLE_128B`: byte-address bits 4..7 ^= bits 7..10.
    B128,
}

impl SwizzleMode {
    /// All modes, in the order [`swizzle_mode_matches`] tries them.
    pub const ALL: [SwizzleMode; 4] = [
        SwizzleMode::None,
        SwizzleMode::B32,
        SwizzleMode::B64,
        SwizzleMode::B128,
    ];

    /// How many 16-byte-chunk bits are XORed (0 to 3).
    pub fn bits(self) -> u32 {
        match self {
            SwizzleMode::None => 0,
            SwizzleMode::B32 => 1,
            SwizzleMode::B64 => 2,
            SwizzleMode::B128 => 3,
        }
    }

    /// The swizzle span in bytes: TMA requires the inner box extent to fit in it.
    pub fn span_bytes(self) -> i64 {
        16 << self.bits()
    }

    /// The repeat length in bytes (the pattern's period): a swizzled tile's base must be
    /// aligned to it, which is why the shared allocator raises alignment to it.
    pub fn repeat_bytes(self) -> i64 {
        128 << self.bits()
    }
}

/// CuTe's `Swizzle<bits, base, shift>` on element offsets (spec §3.2):
/// `swz(o) = o ^ ((o & (((1 << bits) - 1) << (base + shift))) >> shift)`.
/// The XOR permutes 16-byte chunks within a row by the row number, which spreads the
/// rows of a column over all shared-memory banks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    /// Number of bits XORed.
    pub bits: u32,
    /// Lowest bit that is changed (in element units).
    pub base: u32,
    /// Distance from the bits read to the bits changed.
    pub shift: u32,
}

impl Swizzle {
    /// A swizzle with the given parameters.
    pub fn new(bits: u32, base: u32, shift: u32) -> Self {
        Swizzle { bits, base, shift }
    }

    /// The element-level swizzle that reproduces TMA's byte-level swizzle `mode` for elements
    /// of `elem_bits` bits: `Swizzle<mode.bits(), 7 - log2(elem_bits), 3>` (for f16:
    /// `Swizzle<3, 3, 3>` with 128B). `Ok(None)` for [`SwizzleMode::None`].
    pub fn from_mode(mode: SwizzleMode, elem_bits: u32) -> Result<Option<Swizzle>, String> {
        if !elem_bits.is_power_of_two() || elem_bits > 128 {
            return Err(format!(
                "element width must be a power of two from 1 to 128 bits, found {elem_bits}"
            ));
        }
        if mode == SwizzleMode::None {
            return Ok(None);
        }
        // Byte bit 4 is element bit 4 + 3 - log2(elem_bits).
        Ok(Some(Swizzle::new(
            mode.bits(),
            7 - elem_bits.trailing_zeros(),
            3,
        )))
    }

    /// Applies the swizzle to an element offset.
    #[inline]
    pub fn apply(&self, offset: i64) -> i64 {
        let mask = ((1i64 << self.bits) - 1) << (self.base + self.shift);
        offset ^ ((offset & mask) >> self.shift)
    }
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Swizzle<{}, {}, {}>", self.bits, self.base, self.shift)
    }
}

/// A shared-memory layout: `offset(x) = swizzle(base + Σ x_j·strides_j)` in elements.
///
/// Shared tiles are strided boxes (row-major, column-major, transposed or sliced views of
/// them) with an optional XOR swizzle; that is all TMA and the tensor-core descriptors can
/// express, so that is all this type holds. `base` is the element offset of index 0 before
/// the swizzle: 0 for a fresh tile, non-zero for slices, and it sits *inside* the swizzle
/// because the hardware swizzles absolute address bits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SharedLayout {
    /// The logical shape.
    pub shape: Vec<i64>,
    /// Element strides of each dim.
    pub strides: Vec<i64>,
    /// The swizzle applied to the whole offset, if any.
    pub swizzle: Option<Swizzle>,
    /// Element offset of index 0, before the swizzle (0 except for slices).
    pub base: i64,
}

impl SharedLayout {
    /// A layout with explicit strides, no swizzle and base 0.
    ///
    /// # Panics
    /// If the lengths differ or a size is not positive.
    pub fn strided(shape: &[i64], strides: &[i64]) -> Self {
        assert_eq!(
            shape.len(),
            strides.len(),
            "shape and strides differ in rank"
        );
        assert!(
            shape.iter().all(|&s| s > 0),
            "sizes must be positive: {shape:?}"
        );
        SharedLayout {
            shape: shape.to_vec(),
            strides: strides.to_vec(),
            swizzle: None,
            base: 0,
        }
    }

    /// Dense row-major (last dim contiguous): the layout TMA writes a box in.
    pub fn row_major(shape: &[i64]) -> Self {
        let mut strides = vec![1i64; shape.len()];
        for k in (0..shape.len().saturating_sub(1)).rev() {
            strides[k] = strides[k + 1] * shape[k + 1];
        }
        Self::strided(shape, &strides)
    }

    /// Dense column-major (dim 0 contiguous): MN-major operands.
    pub fn column_major(shape: &[i64]) -> Self {
        let mut strides = vec![1i64; shape.len()];
        for k in 1..shape.len() {
            strides[k] = strides[k - 1] * shape[k - 1];
        }
        Self::strided(shape, &strides)
    }

    /// The same layout under the element-level swizzle equivalent to TMA's `mode` for
    /// `elem_bits`-bit elements (replacing any swizzle it had; `SwizzleMode::None` removes
    /// it). Errors when `elem_bits` is not a power of two from 1 to 128.
    pub fn with_swizzle_mode(mut self, mode: SwizzleMode, elem_bits: u32) -> Result<Self, String> {
        self.swizzle = Swizzle::from_mode(mode, elem_bits)?;
        Ok(self)
    }

    /// The number of dims.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The number of logical elements.
    pub fn num_elements(&self) -> i64 {
        self.shape.iter().product()
    }

    /// The element offset of `idx`.
    ///
    /// # Panics
    /// If `idx` has the wrong rank or is out of range.
    pub fn offset(&self, idx: &[i64]) -> i64 {
        assert_eq!(idx.len(), self.rank(), "index rank");
        let mut o = self.base;
        for ((&x, &s), &st) in idx.iter().zip(&self.shape).zip(&self.strides) {
            assert!(
                (0..s).contains(&x),
                "index {idx:?} out of range for shape {:?}",
                self.shape
            );
            o += x * st;
        }
        match self.swizzle {
            Some(sw) => sw.apply(o),
            None => o,
        }
    }

    /// Elements of storage the tile spans, `1 + Σ (shape_j − 1)·stride_j` (before the
    /// swizzle, which permutes within the span): what the allocator reserves and what a stage
    /// dim prepended in front of it strides by.
    pub fn footprint(&self) -> i64 {
        1 + self
            .shape
            .iter()
            .zip(&self.strides)
            .map(|(&s, &st)| (s - 1) * st)
            .sum::<i64>()
    }

    /// The view `y = x.permute(perm)` (`y`'s dim `i` is `x`'s dim `perm[i]`); no data moves.
    ///
    /// # Panics
    /// If `perm` is not a permutation of `0..rank`.
    pub fn permute(&self, perm: &[usize]) -> Self {
        assert_permutation(perm, self.rank());
        SharedLayout {
            shape: perm.iter().map(|&d| self.shape[d]).collect(),
            strides: perm.iter().map(|&d| self.strides[d]).collect(),
            swizzle: self.swizzle,
            base: self.base,
        }
    }

    /// The view of the box `offsets .. offsets + shape`: same strides and swizzle, the box
    /// origin added to `base` so `slice.offset(i) == self.offset(offsets + i)` exactly, even
    /// for swizzled tiles sliced at unaligned positions.
    ///
    /// # Panics
    /// If the ranks differ or the box does not fit.
    pub fn slice(&self, offsets: &[i64], shape: &[i64]) -> Self {
        assert_eq!(offsets.len(), self.rank(), "slice offsets rank");
        assert_eq!(shape.len(), self.rank(), "slice shape rank");
        for k in 0..self.rank() {
            assert!(
                offsets[k] >= 0 && shape[k] > 0 && offsets[k] + shape[k] <= self.shape[k],
                "slice {offsets:?} + {shape:?} does not fit in {:?}",
                self.shape
            );
        }
        SharedLayout {
            shape: shape.to_vec(),
            strides: self.strides.clone(),
            swizzle: self.swizzle,
            base: self.base
                + offsets
                    .iter()
                    .zip(&self.strides)
                    .map(|(&o, &s)| o * s)
                    .sum::<i64>(),
        }
    }

    /// Whether both layouts have the same shape and give every index the same offset (the
    /// exact check, independent of how strides and swizzles are written).
    pub fn same_offsets(&self, other: &SharedLayout) -> bool {
        if self.shape != other.shape {
            return false;
        }
        let mut same = true;
        for_each_index(&self.shape, |idx| {
            same = self.offset(idx) == other.offset(idx);
            same
        });
        same
    }
}

impl fmt::Display for SharedLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "shared(shape = [{}], strides = [{}]",
            join(&self.shape),
            join(&self.strides)
        )?;
        if self.base != 0 {
            write!(f, ", base = {}", self.base)?;
        }
        if let Some(sw) = self.swizzle {
            write!(f, ", swizzle = {sw}")?;
        }
        write!(f, ")")
    }
}

/// Which TMA swizzle mode makes a TMA load of a box of `layout.shape` (written row-major
/// from the tile's base) produce exactly `layout`'s offsets, or `None` if no mode does.
/// The check is the one the spec recommends (§3.2): evaluate both on the whole box and
/// compare, which is exact for any way the layout was built.
///
/// Only boxes TMA accepts are matched: rank 1 to 5, every extent at most 256, the inner
/// extent a multiple of 16 bytes and, when swizzled, at most the swizzle span; the base a
/// multiple of 128 bytes. Modes are tried in the order none, 32B, 64B, 128B (a box so small
/// that several modes agree gets the simplest).
pub fn swizzle_mode_matches(layout: &SharedLayout, elem_bits: u32) -> Option<SwizzleMode> {
    if !elem_bits.is_power_of_two() || elem_bits > 128 {
        return None;
    }
    let rank = layout.rank();
    if !(1..=5).contains(&rank) || layout.shape.iter().any(|&s| !(1..=256).contains(&s)) {
        return None;
    }
    let bits = elem_bits as i64;
    let inner_bits = layout.shape[rank - 1] * bits;
    if inner_bits % 128 != 0 || (layout.base * bits) % 1024 != 0 {
        return None;
    }
    SwizzleMode::ALL.into_iter().find(|&mode| {
        if mode != SwizzleMode::None && inner_bits > mode.span_bytes() * 8 {
            return false;
        }
        let Ok(sw) = Swizzle::from_mode(mode, elem_bits) else {
            return false;
        };
        let mut want = SharedLayout::row_major(&layout.shape);
        want.swizzle = sw;
        want.base = layout.base;
        want.same_offsets(layout)
    })
}

// ---------------------------------------------------------------------------------------------
// Tensor-memory layouts
// ---------------------------------------------------------------------------------------------

/// The lane / column address stride of a TMEM address (`lane << 16 | column`).
pub const TMEM_LANE_STRIDE: i64 = 0x10000;

/// A Blackwell tensor-memory layout (spec §3.4): dim 0 is the lane dim, the other dims are
/// laid out over 32-bit columns with `column_strides` (in elements; `column_strides[0]` is 0).
/// TMEM is addressed by (lane, column) rather than bytes, so it needs its own small type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TmemLayout {
    /// The logical shape; `shape[0]` is the number of lanes (32, 64 or 128 for a fresh tile).
    pub shape: Vec<i64>,
    /// Element strides of each dim along the columns; `column_strides[0] == 0`.
    pub column_strides: Vec<i64>,
    /// The first lane (non-zero for lane slices); a compile-time constant.
    pub lane_offset: i64,
}

impl TmemLayout {
    /// The default layout of `tcgen05.alloc`ed tensors: row-major over dims `1..`. Errors
    /// when the rank is below 2 or the lane extent is not 32, 64 or 128, the shapes the
    /// hardware's lane quadrants allow.
    pub fn row_major(shape: &[i64]) -> Result<Self, String> {
        if shape.len() < 2 {
            return Err(format!(
                "a TMEM tensor needs at least 2 dims (lanes, columns...), found {}",
                shape.len()
            ));
        }
        if ![32, 64, 128].contains(&shape[0]) {
            return Err(format!(
                "the lane dim of a TMEM tensor must be 32, 64 or 128, found {}",
                shape[0]
            ));
        }
        if let Some(&s) = shape.iter().find(|&&s| s <= 0) {
            return Err(format!("sizes must be positive, found {s}"));
        }
        let mut strides = vec![0i64; shape.len()];
        let last = shape.len() - 1;
        strides[last] = 1;
        for k in (1..last).rev() {
            strides[k] = strides[k + 1] * shape[k + 1];
        }
        Ok(TmemLayout {
            shape: shape.to_vec(),
            column_strides: strides,
            lane_offset: 0,
        })
    }

    /// The cell of element `idx` for `elem_bits`-bit elements: `(lane, 32-bit column, bit
    /// offset in the cell)`, relative to the allocation base.
    ///
    /// # Panics
    /// If `idx` has the wrong rank or is out of range.
    pub fn cell(&self, idx: &[i64], elem_bits: u32) -> (i64, i64, u32) {
        assert_eq!(idx.len(), self.shape.len(), "index rank");
        for (k, (&x, &s)) in idx.iter().zip(&self.shape).enumerate() {
            assert!((0..s).contains(&x), "index {idx:?} dim {k} out of range");
        }
        let elems: i64 = idx
            .iter()
            .zip(&self.column_strides)
            .skip(1)
            .map(|(&x, &s)| x * s)
            .sum();
        let bit = elems * elem_bits as i64;
        (self.lane_offset + idx[0], bit / 32, (bit % 32) as u32)
    }

    /// The 32-bit TMEM address of element `idx` relative to the allocation base
    /// (`lane << 16 | column`). The lane offset is included, which Tilus forgets (spec §3.4).
    pub fn address(&self, idx: &[i64], elem_bits: u32) -> i64 {
        let (lane, col, _) = self.cell(idx, elem_bits);
        lane * TMEM_LANE_STRIDE + col
    }

    /// 32-bit columns spanned, `⌈(1 + Σ_{k≥1} (shape_k − 1)·stride_k)·elem_bits / 32⌉`: the
    /// allocation size to round up to a power of two.
    pub fn num_columns(&self, elem_bits: u32) -> i64 {
        let elems = 1 + self
            .shape
            .iter()
            .zip(&self.column_strides)
            .skip(1)
            .map(|(&s, &st)| (s - 1) * st)
            .sum::<i64>();
        (elems * elem_bits as i64 + 31) / 32
    }

    /// The view of the box `offsets .. offsets + shape` and the 32-bit column offset to add to
    /// the base address (the lane offset is recorded in the layout).
    ///
    /// # Panics
    /// If the box does not fit or its column origin is not a whole 32-bit column.
    pub fn slice(&self, offsets: &[i64], shape: &[i64], elem_bits: u32) -> (Self, i64) {
        assert_eq!(offsets.len(), self.shape.len(), "slice offsets rank");
        assert_eq!(shape.len(), self.shape.len(), "slice shape rank");
        for k in 0..self.shape.len() {
            assert!(
                offsets[k] >= 0 && shape[k] > 0 && offsets[k] + shape[k] <= self.shape[k],
                "slice {offsets:?} + {shape:?} does not fit in {:?}",
                self.shape
            );
        }
        let elems: i64 = offsets
            .iter()
            .zip(&self.column_strides)
            .skip(1)
            .map(|(&o, &s)| o * s)
            .sum();
        let bits = elems * elem_bits as i64;
        assert!(
            bits % 32 == 0,
            "slice origin is not at a 32-bit column boundary"
        );
        (
            TmemLayout {
                shape: shape.to_vec(),
                column_strides: self.column_strides.clone(),
                lane_offset: self.lane_offset + offsets[0],
            },
            bits / 32,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitives_and_composition() {
        let l = RegisterLayout::parse("spatial(8, 4) * local(1, 2)").unwrap();
        assert_eq!(l.shape, vec![8, 8]);
        assert_eq!(l.num_threads(), 32);
        assert_eq!(l.local_size(), 2);
        assert_eq!(l.coords(5, 1), vec![1, 3]);
        assert_eq!(l.holders(&[1, 3]), (vec![5], 1));
        assert_eq!(l.to_string(), "spatial(8, 4) * local(1, 2)");
    }

    #[test]
    fn replication_and_general_form() {
        let l = RegisterLayout::parse("replicate(2) * spatial(4)").unwrap();
        assert_eq!(l.holders(&[3]), (vec![3, 7], 0));
        let g = RegisterLayout::from_modes(&[4], &[2, 2], &[1, 0], &[]).unwrap();
        assert!(g.to_string().starts_with("modes("));
        assert!(RegisterLayout::parse(&g.to_string())
            .unwrap()
            .same_mapping(&g));
    }

    #[test]
    fn swizzle_f16_128b() {
        let s = SharedLayout::row_major(&[128, 64])
            .with_swizzle_mode(SwizzleMode::B128, 16)
            .unwrap();
        assert_eq!(s.swizzle, Some(Swizzle::new(3, 3, 3)));
        assert_eq!(s.offset(&[1, 0]), 64 + 8);
        assert_eq!(swizzle_mode_matches(&s, 16), Some(SwizzleMode::B128));
    }
}
