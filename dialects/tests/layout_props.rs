//! Property tests of the layout algebra (`tilus_dialects::layout_algebra`).
//!
//! Layouts decide which thread computes which element, so a wrong map is a silent wrong
//! answer on the GPU. These tests check the algebra's laws over a few hundred random layouts
//! (a tiny deterministic xorshift RNG, no extra crates, so failures reproduce exactly) plus
//! the worked examples of spec §3 and the CK-Tile / Metal mappings the guide describes.

use std::collections::HashMap;
use tilus_dialects::layout_algebra::{
    swizzle_mode_matches, wgmma_accumulator, RegisterLayout, SharedLayout, Swizzle, SwizzleMode,
    TmemLayout, WgmmaAccumulator,
};

/// xorshift64* — deterministic, good enough to pick shapes.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

const CASES: u64 = 300;
/// Cap on threads × registers so exhaustive checks stay fast.
const MAX_PAIRS: i64 = 4096;

fn pairs(l: &RegisterLayout) -> i64 {
    l.num_threads() * l.local_size()
}

/// A random primitive as text (with random spacing) and as the constructor builds it.
fn random_prim(rng: &mut Rng, max_rank: usize) -> (String, RegisterLayout) {
    let kind = rng.below(9);
    if kind == 8 {
        let r = rng.range(1, 4);
        return (format!("replicate({r})"), RegisterLayout::replicate(r));
    }
    let rank = rng.range(1, max_rank as i64) as usize;
    let sizes: Vec<i64> = (0..rank).map(|_| rng.pick(&[1, 1, 2, 2, 3, 4])).collect();
    let (name, layout) = match kind % 4 {
        0 => ("spatial", RegisterLayout::spatial(&sizes)),
        1 => ("column_spatial", RegisterLayout::column_spatial(&sizes)),
        2 => ("local", RegisterLayout::local(&sizes)),
        _ => ("column_local", RegisterLayout::column_local(&sizes)),
    };
    let sp = |rng: &mut Rng| if rng.below(3) == 0 { " " } else { "" };
    let args: Vec<String> = sizes.iter().map(|s| format!("{}{s}", sp(rng))).collect();
    let text = format!("{name}{}({}{})", sp(rng), args.join(","), sp(rng));
    (text, layout)
}

/// A random chain of 1–4 primitives, its text and the layout composed by hand.
fn random_chain(rng: &mut Rng) -> (String, RegisterLayout) {
    loop {
        let max_rank = rng.range(1, 3) as usize;
        let n = rng.range(1, 4);
        let (mut text, mut layout) = random_prim(rng, max_rank);
        for _ in 1..n {
            let (t, l) = random_prim(rng, max_rank);
            text = format!("{text} * {t}");
            layout = layout.compose(&l);
        }
        if pairs(&layout) <= MAX_PAIRS {
            return (text, layout);
        }
    }
}

/// A random layout in the general form: random mode splits, modes shuffled over thread and
/// register digits, replication digits inserted anywhere — mostly not a primitive chain.
fn random_general(rng: &mut Rng) -> RegisterLayout {
    loop {
        let rank = rng.range(0, 3) as usize;
        let mut shape = Vec::new();
        let mut modes = Vec::new();
        for _ in 0..rank {
            let n = rng.range(0, 3);
            let parts: Vec<i64> = (0..n).map(|_| rng.pick(&[2, 2, 3, 4])).collect();
            shape.push(parts.iter().product());
            modes.extend(parts);
        }
        let mut ids: Vec<i64> = (0..modes.len() as i64).collect();
        rng.shuffle(&mut ids);
        let cut = rng.range(0, ids.len() as i64) as usize;
        let mut spatial = ids[..cut].to_vec();
        let local = ids[cut..].to_vec();
        for _ in 0..rng.below(3) {
            let at = rng.range(0, spatial.len() as i64) as usize;
            spatial.insert(at, -rng.range(2, 3));
        }
        let l = RegisterLayout::from_modes(&shape, &modes, &spatial, &local)
            .expect("generated modes are valid");
        if pairs(&l) <= MAX_PAIRS {
            return l;
        }
    }
}

/// Any random layout: a chain, a general one, or one of those reduced / permuted.
fn random_layout(rng: &mut Rng) -> RegisterLayout {
    let mut l = if rng.below(2) == 0 {
        random_chain(rng).1
    } else {
        random_general(rng)
    };
    if l.rank() > 0 && rng.below(4) == 0 {
        let mut perm: Vec<usize> = (0..l.rank()).collect();
        rng.shuffle(&mut perm);
        l = l.permute(&perm);
    }
    if l.rank() > 0 && rng.below(4) == 0 {
        let d = rng.below(l.rank() as u64) as usize;
        l = l.reduce(&[d], rng.below(2) == 0);
    }
    l
}

fn all_indices(shape: &[i64]) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for &s in shape {
        out = out
            .into_iter()
            .flat_map(|p| {
                (0..s).map(move |x| {
                    let mut q = p.clone();
                    q.push(x);
                    q
                })
            })
            .collect();
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Laws over random layouts
// ---------------------------------------------------------------------------------------------

#[test]
fn coords_and_holders_are_inverse() {
    let mut rng = Rng::new(1);
    for case in 0..CASES {
        let l = random_layout(&mut rng);
        l.validate().unwrap();
        for t in 0..l.num_threads() {
            for j in 0..l.local_size() {
                let x = l.coords(t, j);
                let (threads, local) = l.holders(&x);
                assert_eq!(local, j, "case {case}: {l}: local of {x:?}");
                assert!(
                    threads.contains(&t),
                    "case {case}: {l}: {t} not among {threads:?}"
                );
            }
        }
        for x in all_indices(&l.shape) {
            let (threads, local) = l.holders(&x);
            for t in threads {
                assert_eq!(l.coords(t, local), x, "case {case}: {l}");
            }
        }
    }
}

#[test]
fn every_element_is_held_by_exactly_replication_threads() {
    let mut rng = Rng::new(2);
    let mut bijections = 0;
    for case in 0..CASES {
        let l = random_layout(&mut rng);
        let r = l.replication();
        assert_eq!(pairs(&l), l.num_elements() * r, "case {case}: {l}");
        let mut seen: HashMap<Vec<i64>, Vec<(i64, i64)>> = HashMap::new();
        for t in 0..l.num_threads() {
            for j in 0..l.local_size() {
                seen.entry(l.coords(t, j)).or_default().push((t, j));
            }
        }
        assert_eq!(seen.len() as i64, l.num_elements(), "case {case}: {l}");
        for (x, holders) in &seen {
            assert_eq!(holders.len() as i64, r, "case {case}: {l}: {x:?}");
            assert!(
                holders.iter().all(|&(_, j)| j == holders[0].1),
                "case {case}: {l}"
            );
            let (threads, _) = l.holders(x);
            let mut want: Vec<i64> = holders.iter().map(|&(t, _)| t).collect();
            want.sort_unstable();
            assert_eq!(threads, want, "case {case}: {l}: {x:?}");
        }
        if r == 1 {
            bijections += 1;
        }
    }
    assert!(
        bijections > CASES / 4,
        "too few unreplicated cases: {bijections}"
    );
}

#[test]
fn compose_is_associative_and_multiplies_sizes() {
    let mut rng = Rng::new(3);
    let mut done = 0;
    while done < CASES {
        let (a, b, c) = (
            random_chain(&mut rng).1,
            random_chain(&mut rng).1,
            random_general(&mut rng),
        );
        let ab = a.compose(&b);
        if pairs(&ab) * pairs(&c) > MAX_PAIRS {
            continue;
        }
        done += 1;
        let left = ab.compose(&c);
        let right = a.compose(&b.compose(&c));
        assert!(
            left.same_mapping(&right),
            "({a}) * ({b}) * ({c}): {left} vs {right}"
        );
        assert_eq!(ab.num_threads(), a.num_threads() * b.num_threads());
        assert_eq!(ab.local_size(), a.local_size() * b.local_size());
        // The defining equation: x = x_outer · shape_inner + x_inner, thread and register
        // indices outer-major.
        let rank = a.rank().max(b.rank());
        let pad = |v: Vec<i64>| {
            let mut p = vec![0; rank - v.len()];
            p.extend(v);
            p
        };
        let mut b_shape = vec![1; rank - b.rank()];
        b_shape.extend(&b.shape);
        for ta in 0..a.num_threads() {
            for la in 0..a.local_size() {
                let xa = pad(a.coords(ta, la));
                for tb in 0..b.num_threads() {
                    for lb in 0..b.local_size() {
                        let xb = pad(b.coords(tb, lb));
                        let want: Vec<i64> =
                            (0..rank).map(|k| xa[k] * b_shape[k] + xb[k]).collect();
                        let got = ab.coords(ta * b.num_threads() + tb, la * b.local_size() + lb);
                        assert_eq!(got, want, "({a}) * ({b})");
                    }
                }
            }
        }
    }
}

#[test]
fn display_parses_back_to_the_same_mapping() {
    let mut rng = Rng::new(4);
    let (mut chains, mut general) = (0, 0);
    for case in 0..CASES {
        // Written text parses to what the constructors build.
        let (text, built) = random_chain(&mut rng);
        let parsed = RegisterLayout::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(parsed, built, "case {case}: {text}");
        // A chain prints as a chain and reads back to the identical structure.
        let printed = built.to_string();
        assert!(
            !printed.contains("modes("),
            "case {case}: {text} printed {printed}"
        );
        assert_eq!(
            RegisterLayout::parse(&printed).unwrap(),
            built,
            "{text} -> {printed}"
        );
        // Any layout prints as something that reads back to the same mapping.
        let l = random_layout(&mut rng);
        let printed = l.to_string();
        if printed.starts_with("modes(") {
            general += 1;
        } else {
            chains += 1;
        }
        let back = RegisterLayout::parse(&printed).unwrap_or_else(|e| panic!("{printed}: {e}"));
        assert!(
            back.same_mapping(&l),
            "case {case}: {l:?} printed {printed}"
        );
        assert_eq!(back.to_string(), printed, "printing is stable");
    }
    assert!(
        chains > 30 && general > 30,
        "chains {chains}, general {general}"
    );
    // Hand-built layouts may carry size-1 modes and split replication; printing drops them.
    let odd = RegisterLayout {
        shape: vec![4, 1],
        mode_shape: vec![1, 4, 1],
        dim_modes: vec![2, 1],
        spatial: vec![-2, -1, 1, -3],
        local: vec![2, 0],
    };
    odd.validate().unwrap();
    assert_eq!(
        odd.to_string(),
        "replicate(2) * spatial(4, 1) * replicate(3)"
    );
    assert!(RegisterLayout::parse(&odd.to_string())
        .unwrap()
        .same_mapping(&odd));
}

#[test]
fn same_mapping_tells_layouts_apart() {
    let mut rng = Rng::new(5);
    for _ in 0..CASES {
        let l = random_general(&mut rng);
        if l.spatial.len() + l.local.len() < 2 {
            continue;
        }
        // Swapping two thread digits of different sizes, or moving a mode between thread and
        // register digits, changes the mapping.
        let mut m = l.clone();
        if let Some(q) = m.local.pop() {
            m.spatial.push(q as i64);
            assert!(!m.same_mapping(&l), "{l} vs {m}");
        }
    }
    let a = RegisterLayout::parse("local(2) * local(4)").unwrap();
    assert_ne!(a, RegisterLayout::local(&[8]));
    assert!(a.same_mapping(&RegisterLayout::local(&[8])));
    let r1 = RegisterLayout::parse("replicate(2) * spatial(4)").unwrap();
    let r2 = RegisterLayout::parse("spatial(4) * replicate(2)").unwrap();
    assert!(!r1.same_mapping(&r2), "replication position matters");
}

#[test]
fn permute_reorders_indices_only() {
    let mut rng = Rng::new(6);
    for _ in 0..CASES {
        let l = random_layout(&mut rng);
        let mut perm: Vec<usize> = (0..l.rank()).collect();
        rng.shuffle(&mut perm);
        let p = l.permute(&perm);
        p.validate().unwrap();
        for t in 0..l.num_threads() {
            for j in 0..l.local_size() {
                let x = l.coords(t, j);
                let want: Vec<i64> = perm.iter().map(|&d| x[d]).collect();
                assert_eq!(p.coords(t, j), want, "{l} permuted by {perm:?}");
            }
        }
        let mut inv = vec![0; perm.len()];
        for (i, &d) in perm.iter().enumerate() {
            inv[d] = i;
        }
        assert_eq!(p.permute(&inv), l);
    }
    for (a, b) in [(4, 8), (3, 2), (16, 16)] {
        assert!(RegisterLayout::column_spatial(&[a, b])
            .same_mapping(&RegisterLayout::spatial(&[b, a]).permute(&[1, 0])));
        assert!(RegisterLayout::column_local(&[a, b])
            .same_mapping(&RegisterLayout::local(&[b, a]).permute(&[1, 0])));
    }
}

#[test]
fn reduce_turns_reduced_threads_into_replication() {
    let mut rng = Rng::new(7);
    for case in 0..CASES {
        let l = random_layout(&mut rng);
        if l.rank() == 0 {
            continue;
        }
        let d = rng.below(l.rank() as u64) as usize;
        let keep = rng.below(2) == 0;
        let r = l.reduce(&[d], keep);
        r.validate().unwrap();
        assert_eq!(
            r.num_threads(),
            l.num_threads(),
            "case {case}: threads stay"
        );
        let mut want_shape = l.shape.clone();
        if keep {
            want_shape[d] = 1;
        } else {
            want_shape.remove(d);
        }
        assert_eq!(r.shape, want_shape, "case {case}");
        assert_eq!(
            pairs(&r),
            r.num_elements() * r.replication(),
            "case {case}: {r}"
        );
        // Every thread holds exactly the projections of what it held.
        let project = |x: Vec<i64>| -> Vec<i64> {
            let mut y = x;
            if keep {
                y[d] = 0;
            } else {
                y.remove(d);
            }
            y
        };
        for t in 0..l.num_threads() {
            let mut before: Vec<Vec<i64>> = (0..l.local_size())
                .map(|j| project(l.coords(t, j)))
                .collect();
            let mut after: Vec<Vec<i64>> = (0..r.local_size()).map(|j| r.coords(t, j)).collect();
            before.sort();
            before.dedup();
            after.sort();
            assert_eq!(
                before, after,
                "case {case}: {l} reduce({d}, {keep}) = {r}, thread {t}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Worked examples
// ---------------------------------------------------------------------------------------------

#[test]
fn row_sum_of_spatial_4x32_is_held_by_the_whole_row() {
    let l = RegisterLayout::spatial(&[4, 32]);
    let r = l.reduce(&[1], false);
    assert_eq!(r.shape, vec![4]);
    assert_eq!(r.to_string(), "spatial(4) * replicate(32)");
    for row in 0..4 {
        let (threads, local) = r.holders(&[row]);
        assert_eq!(threads, (32 * row..32 * row + 32).collect::<Vec<_>>());
        assert_eq!(local, 0);
    }
    let k = l.reduce(&[1], true);
    assert_eq!(k.shape, vec![4, 1]);
    assert_eq!(k.holders(&[2, 0]).0, (64..96).collect::<Vec<_>>());
}

#[test]
fn wgmma_m64n16_accumulator_matches_the_spec() {
    let l = RegisterLayout::parse(
        "local(1, 1) * column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)",
    )
    .unwrap();
    assert_eq!(l, wgmma_accumulator(64, 16, 16));
    assert_eq!(l, WgmmaAccumulator::layout(64, 16, 16));
    assert_eq!(l.shape, vec![64, 16]);
    assert_eq!(l.mode_shape, vec![4, 2, 8, 2, 4, 2]);
    assert_eq!(l.dim_modes, vec![3, 3]);
    assert_eq!(l.spatial, vec![0, 2, 4]);
    assert_eq!(l.local, vec![3, 1, 5]);
    assert_eq!(l.num_threads(), 128);
    assert_eq!(l.local_size(), 8);
    assert_eq!(l.coords(33, 5), vec![16, 11]);
    let held: Vec<Vec<i64>> = (0..8).map(|j| l.coords(0, j)).collect();
    let want = [
        [0, 0],
        [0, 1],
        [8, 0],
        [8, 1],
        [0, 8],
        [0, 9],
        [8, 8],
        [8, 9],
    ];
    assert_eq!(held, want.map(|p| p.to_vec()).to_vec());
    for r in 0..64 {
        for c in 0..16 {
            let thread = 32 * (r / 16) + 4 * (r % 8) + (c / 2) % 4;
            let local = 4 * (c / 8) + 2 * ((r / 8) % 2) + c % 2;
            assert_eq!(l.holders(&[r, c]), (vec![thread], local), "({r}, {c})");
        }
    }
    // The general form of the spec spells the same layout.
    let g = RegisterLayout::parse(
        "modes(shape = [64, 16], modes = [4, 2, 8, 2, 4, 2], spatial = [0, 2, 4], local = [3, 1, 5])",
    )
    .unwrap();
    assert_eq!(g, l);
    // A 128 × 64 tile of m64n32 instructions: instruction (i, j) owns register block i·rn + j.
    let big = wgmma_accumulator(128, 64, 32);
    assert_eq!((big.num_threads(), big.local_size()), (128, 64));
    let one = wgmma_accumulator(64, 32, 32);
    for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        for t in [0, 33, 127] {
            for jj in 0..one.local_size() {
                let x = one.coords(t, jj);
                let got = big.coords(t, (i * 2 + j) * one.local_size() + jj);
                assert_eq!(got, vec![64 * i + x[0], 32 * j + x[1]]);
            }
        }
    }
}

#[test]
fn ck_tile_rmsnorm_distribution() {
    // Repeat (4,4) × warps (2,2) × lanes (8,8) × vector (4,4).
    let text = "local(4, 4) * spatial(2, 2) * spatial(8, 8) * local(4, 4)";
    let l = RegisterLayout::parse(text).unwrap();
    assert_eq!(l.to_string(), text);
    assert_eq!(l.shape, vec![256, 256]);
    assert_eq!(l.num_threads(), 256);
    assert_eq!(l.local_size(), 256);
    assert_eq!(l.replication(), 1);
    for t in 0..256 {
        let (warp, lane) = (t / 64, t % 64);
        let (wm, wn, lm, ln) = (warp / 2, warp % 2, lane / 8, lane % 8);
        for j in 0..256 {
            let (i, jj, a, b) = (j / 64, (j / 16) % 4, (j / 4) % 4, j % 4);
            let want = vec![
                i * 64 + wm * 32 + lm * 4 + a,
                jj * 64 + wn * 32 + ln * 4 + b,
            ];
            assert_eq!(l.coords(t, j), want, "thread {t} local {j}");
            assert_eq!(l.holders(&want), (vec![t], j));
        }
    }
    // The seed's example: in the first repeat, warp [0,0] thread [0,0] owns M [0:4), N [0:4);
    // thread [0,1] owns M [0:4), N [4:8).
    for (lane, cols) in [(0, 0..4), (1, 4..8)] {
        for j in 0..16 {
            let x = l.coords(lane, j);
            assert!(
                (0..4).contains(&x[0]) && cols.contains(&x[1]),
                "{lane}: {x:?}"
            );
        }
    }
    // Each thread's block is a 4 × 4 vector: adjacent threads, adjacent memory.
    assert_eq!(l.coords(1, 0)[1] - l.coords(0, 0)[1], 4);
}

#[test]
fn metal_two_stage_reduction() {
    // 128 threads = 4 SIMD groups × 32 lanes; each thread first sums its 32 strided
    // elements of a row viewed as [iteration, simd, lane].
    let row = RegisterLayout::parse("local(32, 1, 1) * spatial(1, 4, 32)").unwrap();
    assert_eq!(row.shape, vec![32, 4, 32]);
    assert_eq!(row.num_threads(), 128);
    for col in 0..4096i64 {
        let (it, simd, lane) = (col / 128, (col / 32) % 4, col % 32);
        assert_eq!(row.holders(&[it, simd, lane]), (vec![col % 128], it));
    }
    // Thread-local sum: the per-SIMD partials, one per thread.
    let partials = row.reduce(&[0], false);
    assert!(partials.same_mapping(&RegisterLayout::spatial(&[4, 32])));
    assert_eq!(partials.to_string(), "spatial(4, 32)");
    // Stage 1: simd_sum leaves each SIMD group's total in all of its 32 lanes.
    let stage1 = partials.reduce(&[1], false);
    assert_eq!(stage1.to_string(), "spatial(4) * replicate(32)");
    for s in 0..4 {
        assert_eq!(
            stage1.holders(&[s]).0,
            (32 * s..32 * s + 32).collect::<Vec<_>>()
        );
    }
    // Stage 2: the threadgroup total, broadcast to every thread.
    let stage2 = stage1.reduce(&[0], false);
    assert_eq!(stage2.to_string(), "replicate(128)");
    assert_eq!(stage2.holders(&[]), ((0..128).collect::<Vec<_>>(), 0));
    assert!(stage2.same_mapping(&RegisterLayout::parse("replicate(128)").unwrap()));
    for t in 0..128 {
        let x = partials.coords(t, 0);
        let (threads, local) = partials.holders(&x);
        assert_eq!((threads, local), (vec![t], 0));
    }
    // Pattern C (one threadgroup per row, stride loop): thread lid reads lid + 256·i.
    let strided = RegisterLayout::parse("local(16) * spatial(256)").unwrap();
    for col in 0..4096 {
        assert_eq!(strided.holders(&[col]), (vec![col % 256], col / 256));
    }
    // A 2-D threadgroup with x fastest: tile[y][x] is spatial, tile[x][y] column_spatial.
    let yx = RegisterLayout::spatial(&[16, 16]);
    assert_eq!(yx.holders(&[3, 5]).0, vec![3 * 16 + 5]);
    let xy = RegisterLayout::column_spatial(&[16, 16]);
    assert_eq!(xy.holders(&[5, 3]).0, vec![3 * 16 + 5]);
    // GEMM: a 32 × 64 threadgroup tile, 2 × 2 SIMD groups of 4 × 8 lanes, 4 × 4 per lane.
    let gemm = RegisterLayout::parse("spatial(2, 2) * spatial(4, 8) * local(4, 4)").unwrap();
    assert_eq!(gemm.shape, vec![32, 64]);
    for t in 0..128 {
        let simd = t / 32;
        for j in 0..16 {
            let x = gemm.coords(t, j);
            assert_eq!((x[0] / 16, x[1] / 32), (simd / 2, simd % 2), "thread {t}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Textual form errors
// ---------------------------------------------------------------------------------------------

fn parse_err(text: &str) -> (usize, String) {
    let e = RegisterLayout::parse(text).expect_err(text);
    (e.offset, e.message)
}

#[test]
fn parse_errors_point_at_the_problem() {
    let prims = "spatial, column_spatial, local, column_local, replicate, modes";
    assert_eq!(
        parse_err("spatial(2) * foo(3)"),
        (
            13,
            format!("expected a layout primitive ({prims}), found 'foo'")
        )
    );
    assert_eq!(
        parse_err("spatial(8 4)"),
        (10, "expected ',' or ')', found '4'".into())
    );
    assert_eq!(
        parse_err("local(2, 0)"),
        (9, "expected a positive size, found '0'".into())
    );
    assert_eq!(
        parse_err("local(2) *"),
        (
            10,
            format!("expected a layout primitive ({prims}), found the end of the text")
        )
    );
    assert_eq!(
        parse_err("local(2) local(2)"),
        (
            9,
            "expected '*' or the end of the layout, found 'local'".into()
        )
    );
    assert_eq!(
        parse_err("spatial 4"),
        (8, "expected '(' after 'spatial', found '4'".into())
    );
    assert!(parse_err("replicate(2, 2)")
        .1
        .contains("'replicate' takes one size"));
    assert_eq!(
        parse_err("modes(shape = [4], modes = [2, 2], spatial = [0, 0], local = [1])"),
        (49, "'modes' lists mode 0 twice".into())
    );
    assert_eq!(
        parse_err("modes(shape = [64], modes = [4, 8], spatial = [0, 1], local = [])"),
        (
            15,
            "mode sizes of dim 0 multiply to 32, expected the dim size 64".into()
        )
    );
    assert_eq!(
        parse_err("modes(shape = [4], modes = [4], spatial = [], local = [])"),
        (
            0,
            "mode 0 (size 4 of dim 0) is neither spatial nor local".into()
        )
    );
    assert_eq!(
        parse_err("modes(shape = [4], modes = [4], spatial = [3], local = [])"),
        (
            43,
            "mode index 3 is out of range: 'modes' lists 1 mode(s)".into()
        )
    );
    assert_eq!(
        parse_err("modes(shape = [4], mode = [4], spatial = [0], local = [])"),
        (19, "expected 'modes', found 'mode'".into())
    );
    assert!(parse_err("local(99999999999999999999)")
        .1
        .contains("does not fit in 64 bits"));
    assert!(parse_err("local(4294967296) * local(4294967296)")
        .1
        .contains("overflow"));
    // parse_prefix stops where the layout ends, e.g. at the '>' of a type.
    let (l, used) = RegisterLayout::parse_prefix("spatial(8, 4) * local(1, 2)>").unwrap();
    assert_eq!(used, 27);
    assert_eq!(l.shape, vec![8, 8]);
    // Whitespace is free.
    let spaced = RegisterLayout::parse("  spatial ( 8 ,4 )*local(1,2 )  ").unwrap();
    assert_eq!(spaced, l);
}

// ---------------------------------------------------------------------------------------------
// Shared layouts and swizzles
// ---------------------------------------------------------------------------------------------

#[test]
fn spec_swizzle_examples() {
    /// The spec's closed form of `offset(r, c)` for each mode.
    type Formula = fn(i64, i64) -> i64;
    let cases: [(SwizzleMode, i64, Formula); 3] = [
        (SwizzleMode::B128, 64, |r, c| {
            64 * r + 8 * ((c >> 3) ^ (r & 7)) + (c & 7)
        }),
        (SwizzleMode::B64, 32, |r, c| {
            32 * r + 8 * ((c >> 3) ^ ((r >> 1) & 3)) + (c & 7)
        }),
        (SwizzleMode::B32, 16, |r, c| {
            16 * r + 8 * ((c >> 3) ^ ((r >> 2) & 1)) + (c & 7)
        }),
    ];
    for (mode, cols, want) in cases {
        let s = SharedLayout::row_major(&[128, cols])
            .with_swizzle_mode(mode, 16)
            .unwrap();
        for r in 0..128 {
            for c in 0..cols {
                assert_eq!(s.offset(&[r, c]), want(r, c), "{mode:?} ({r}, {c})");
            }
        }
        assert_eq!(s.footprint(), 128 * cols);
        assert_eq!(swizzle_mode_matches(&s, 16), Some(mode));
        // One swizzle is not another.
        for other in SwizzleMode::ALL {
            if other != mode {
                let o = SharedLayout::row_major(&[128, cols])
                    .with_swizzle_mode(other, 16)
                    .unwrap();
                assert!(!o.same_offsets(&s), "{mode:?} vs {other:?}");
            }
        }
    }
    assert_eq!(
        Swizzle::from_mode(SwizzleMode::B128, 16).unwrap(),
        Some(Swizzle::new(3, 3, 3))
    );
    assert_eq!(
        Swizzle::from_mode(SwizzleMode::B64, 32).unwrap(),
        Some(Swizzle::new(2, 2, 3))
    );
    assert_eq!(
        Swizzle::from_mode(SwizzleMode::B32, 8).unwrap(),
        Some(Swizzle::new(1, 4, 3))
    );
    assert!(SharedLayout::row_major(&[8, 8])
        .with_swizzle_mode(SwizzleMode::B128, 12)
        .is_err());
    // Unswizzled row-major is TMA's plain box; column-major is no TMA box at all.
    assert_eq!(
        swizzle_mode_matches(&SharedLayout::row_major(&[64, 64]), 16),
        Some(SwizzleMode::None)
    );
    assert_eq!(
        swizzle_mode_matches(&SharedLayout::column_major(&[64, 64]), 16),
        None
    );
    // Rows wider than the swizzle span are not a TMA box for that swizzle.
    let wide = SharedLayout::row_major(&[64, 64])
        .with_swizzle_mode(SwizzleMode::B32, 16)
        .unwrap();
    assert_eq!(swizzle_mode_matches(&wide, 16), None);
}

#[test]
fn swizzle_mode_is_recovered_for_random_tma_boxes() {
    let mut rng = Rng::new(8);
    for _ in 0..CASES {
        let bits = rng.pick(&[8u32, 16, 32, 64]);
        let mode = rng.pick(&SwizzleMode::ALL);
        // Inner extent: 16 bytes up to the span (any multiple of 16 bytes for no swizzle).
        let max_chunks = if mode == SwizzleMode::None {
            16
        } else {
            mode.span_bytes() / 16
        };
        let inner_bytes = 16 * rng.range(1, max_chunks);
        let inner = inner_bytes * 8 / bits as i64;
        let mut shape = vec![inner];
        for _ in 0..rng.below(3) {
            shape.insert(0, rng.range(1, 40));
        }
        let s = SharedLayout::row_major(&shape)
            .with_swizzle_mode(mode, bits)
            .unwrap();
        let got = swizzle_mode_matches(&s, bits).expect("a TMA box matches some mode");
        let back = SharedLayout::row_major(&shape)
            .with_swizzle_mode(got, bits)
            .unwrap();
        assert!(back.same_offsets(&s), "{shape:?} {mode:?} -> {got:?}");
        let total_bytes = s.num_elements() * bits as i64 / 8;
        if total_bytes >= mode.repeat_bytes() {
            assert_eq!(got, mode, "{shape:?} {bits}-bit");
        }
        // The swizzle permutes offsets within the footprint.
        let mut offs: Vec<i64> = all_indices(&shape).iter().map(|i| s.offset(i)).collect();
        offs.sort_unstable();
        offs.dedup();
        assert_eq!(offs.len() as i64, s.num_elements());
        if total_bytes % mode.repeat_bytes() == 0 {
            assert_eq!(offs, (0..s.num_elements()).collect::<Vec<_>>());
        }
        // A transposed view is not a box TMA writes (unless it is degenerate).
        if shape.len() >= 2 && shape.iter().all(|&d| d > 1) {
            let n = shape.len();
            let mut perm: Vec<usize> = (0..n).collect();
            perm.swap(n - 1, n - 2);
            assert_eq!(
                swizzle_mode_matches(&s.permute(&perm), bits),
                None,
                "{shape:?}"
            );
        }
    }
}

#[test]
fn shared_views_slice_and_permute() {
    let mut rng = Rng::new(9);
    for _ in 0..CASES {
        let rank = rng.range(1, 3) as usize;
        let shape: Vec<i64> = (0..rank).map(|_| rng.range(1, 12)).collect();
        let mut s = if rng.below(2) == 0 {
            SharedLayout::row_major(&shape)
        } else {
            SharedLayout::column_major(&shape)
        };
        if rng.below(2) == 0 {
            s = s
                .with_swizzle_mode(rng.pick(&SwizzleMode::ALL), rng.pick(&[8, 16, 32]))
                .unwrap();
        }
        let footprint: i64 = shape.iter().product();
        assert_eq!(s.footprint(), footprint);
        let offsets: Vec<i64> = shape.iter().map(|&d| rng.range(0, d - 1)).collect();
        let sub: Vec<i64> = shape
            .iter()
            .zip(&offsets)
            .map(|(&d, &o)| rng.range(1, d - o))
            .collect();
        let v = s.slice(&offsets, &sub);
        for i in all_indices(&sub) {
            let outer: Vec<i64> = i.iter().zip(&offsets).map(|(a, b)| a + b).collect();
            assert_eq!(v.offset(&i), s.offset(&outer));
        }
        // A slice of the slice is the slice of the composed box.
        let inner: Vec<i64> = sub.iter().map(|&d| rng.range(0, d - 1)).collect();
        let ones = vec![1; rank];
        let vv = v.slice(&inner, &ones);
        let both: Vec<i64> = inner.iter().zip(&offsets).map(|(a, b)| a + b).collect();
        assert_eq!(vv.offset(&vec![0; rank]), s.offset(&both));
        assert!(vv.same_offsets(&s.slice(&both, &ones)));
        let mut perm: Vec<usize> = (0..rank).collect();
        rng.shuffle(&mut perm);
        let p = s.permute(&perm);
        for i in all_indices(&shape) {
            let pi: Vec<i64> = perm.iter().map(|&d| i[d]).collect();
            assert_eq!(p.offset(&pi), s.offset(&i));
        }
        assert!(s.same_offsets(&s.clone()));
    }
    // A stage slice of a [S, M, K] buffer starts at stage · footprint(M, K).
    let stages = SharedLayout::row_major(&[3, 128, 64])
        .with_swizzle_mode(SwizzleMode::B128, 16)
        .unwrap();
    let stage2 = stages.slice(&[2, 0, 0], &[1, 128, 64]);
    assert_eq!(stage2.base, 2 * 128 * 64);
    assert_eq!(stage2.offset(&[0, 0, 0]), 2 * 128 * 64);
    assert_eq!(swizzle_mode_matches(&stage2, 16), Some(SwizzleMode::B128));
    // The transpose of a row-major tile is the column-major tile.
    assert!(SharedLayout::row_major(&[4, 6])
        .permute(&[1, 0])
        .same_offsets(&SharedLayout::column_major(&[6, 4])));
}

#[test]
fn tmem_layouts() {
    let t = TmemLayout::row_major(&[128, 256]).unwrap();
    assert_eq!(t.column_strides, vec![0, 1]);
    assert_eq!(t.num_columns(32), 256);
    assert_eq!(t.num_columns(16), 128);
    assert_eq!(t.cell(&[5, 7], 16), (5, 3, 16));
    assert_eq!(t.address(&[5, 7], 32), (5 << 16) | 7);
    let (v, col) = t.slice(&[32, 64], &[32, 64], 32);
    assert_eq!(col, 64);
    assert_eq!(v.lane_offset, 32);
    assert_eq!(v.address(&[0, 0], 32), 32 << 16);
    assert!(TmemLayout::row_major(&[48, 16]).is_err());
    assert!(TmemLayout::row_major(&[128]).is_err());
}

/// `slice` (tilus.slice_register): where it succeeds, every register of the box's layout is a
/// register the same thread holds in the source, at the element shifted by the offsets, each
/// source register at most once; boxes of `local(r) * L` at multiples of L's shape are L.
#[test]
fn slice_keeps_each_threads_registers() {
    let mut rng = Rng::new(21);
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..CASES {
        let l = random_layout(&mut rng);
        if l.rank() == 0 {
            continue;
        }
        let shape: Vec<i64> = l.shape.iter().map(|&s| rng.range(1, s)).collect();
        let offsets: Vec<i64> = l
            .shape
            .iter()
            .zip(&shape)
            .map(|(&s, &e)| rng.range(0, s - e))
            .collect();
        let Ok(b) = l.slice(&offsets, &shape) else {
            refused += 1;
            continue;
        };
        ok += 1;
        b.validate().unwrap();
        assert_eq!(b.shape, shape);
        assert_eq!(
            b.num_threads(),
            l.num_threads(),
            "{l} box {offsets:?} {shape:?}"
        );
        for t in 0..b.num_threads() {
            let mut used = std::collections::HashSet::new();
            for j in 0..b.local_size() {
                let x: Vec<i64> = b
                    .coords(t, j)
                    .iter()
                    .zip(&offsets)
                    .map(|(a, o)| a + o)
                    .collect();
                let (threads, src) = l.holders(&x);
                assert!(threads.contains(&t), "{l} box {offsets:?} {shape:?} -> {b}");
                assert!(
                    used.insert(src),
                    "{l} box {offsets:?} {shape:?}: register {src} twice"
                );
            }
        }
    }
    assert!(ok > 30 && refused > 30, "{ok} sliced, {refused} refused");
    for _ in 0..CASES {
        let inner = random_layout(&mut rng);
        let ratio: Vec<i64> = inner.shape.iter().map(|_| rng.range(1, 3)).collect();
        let outer = RegisterLayout::local(&ratio).compose(&inner);
        let offsets: Vec<i64> = ratio
            .iter()
            .zip(&inner.shape)
            .map(|(&r, &e)| rng.range(0, r - 1) * e)
            .collect();
        let b = outer.slice(&offsets, &inner.shape).unwrap();
        assert!(
            b.same_mapping(&inner),
            "{outer} at {offsets:?}: {b}, not {inner}"
        );
    }
    // The wgmma accumulator's 64-column boxes are 16 of its registers; a box of 32 columns
    // inside the 8-column groups is too (4 of the 32 column groups), one of 4 columns is not
    // (it cuts the lanes' columns).
    let acc =
        RegisterLayout::parse("spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)")
            .unwrap();
    let b = acc.slice(&[0, 64], &[64, 64]).unwrap();
    assert_eq!(
        b.to_string(),
        "spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)"
    );
    assert!(acc.slice(&[0, 32], &[64, 32]).is_ok());
    assert!(acc.slice(&[0, 0], &[64, 4]).is_err());
    assert!(acc.slice(&[0, 60], &[64, 8]).is_err());
}
