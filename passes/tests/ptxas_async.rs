//! The PTX spellings `lower-async-to-ptx` emits, assembled by `ptxas`, and its encoders against
//! the spec's worked examples.
//!
//! The lowered kernels are still tile-level (thread groups, shared tensors and register tiles are
//! lowered by other passes), so each test runs the pass on the `test/lower/async-*.mlir` inputs
//! and then wraps every `ptx.inst` / `ptx.asm` it produced, in order, into a minimal hand-made
//! `.entry` with one register per SSA value (declared by class) and tile operands expanded into
//! their register block. ptxas must accept it for `sm_90a` (`sm_100a` for tcgen05).
//!
//! ptxas is found like `tests/ptxas.rs` does: `$PTXAS`, `PATH`, or the `scripts/test.sh` cache;
//! without one the assembly is skipped (a failure with `TILUS_REQUIRE_PTXAS=1`).

use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;
use tilus_dialects::layout_algebra::SwizzleMode;
use tilus_dialects::ptx::{inst_args_and_guard, inst_form, split_form, str_prop, FormPiece};
use tilus_dialects::tilus_types::{DType, TensorType};
use tilus_ir::{Context, OpId, TypeKind, Value};
use tilus_passes::lower::async_to_ptx::{
    tcgen05_descriptor, tcgen05_instr_descriptor, wgmma_descriptor, wgmma_plan, AsyncToPtx,
};
use tilus_passes::{Pass, Statistics};

mod ptxas_common;
use ptxas_common::assemble_for;

/// Registers of a hand-made entry, by class.
#[derive(Default)]
struct Regs {
    names: HashMap<Value, String>,
    counts: HashMap<&'static str, usize>,
}

impl Regs {
    fn fresh(&mut self, class: &'static str) -> String {
        let n = self.counts.entry(class).or_insert(0);
        *n += 1;
        format!("%{}{}", class, *n)
    }
    fn of(&mut self, ctx: &Context, v: Value) -> String {
        if let Some(n) = self.names.get(&v) {
            return n.clone();
        }
        let t = ctx.value_type(v);
        let class = match ctx.type_kind(t) {
            TypeKind::Integer { width: 1, .. } => "p",
            TypeKind::Integer { width: 16, .. } => "rs",
            TypeKind::Integer { width: 32, .. } => "r",
            _ => "rd", // i64, index, !ptx.tensormap
        };
        let n = self.fresh(class);
        self.names.insert(v, n.clone());
        n
    }
    /// A register list for block `b` of `n` of a tile (32-bit registers; `f` for float tiles).
    fn block(&mut self, ctx: &Context, tile: Value, _b: i64, n: i64, threads: i64) -> String {
        let tt = TensorType::of(ctx, ctx.value_type(tile)).expect("a tile");
        let local = tt.num_elements() * i64::from(tt.dtype.bits()) / 32 / threads;
        let class = if tt.dtype == DType::F32 { "f" } else { "r" };
        let regs: Vec<String> = (0..local / n).map(|_| self.fresh(class)).collect();
        format!("{{{}}}", regs.join(", "))
    }
    fn decls(&self) -> String {
        let mut s = String::new();
        for (class, ty) in [
            ("p", ".pred"),
            ("rs", ".b16"),
            ("r", ".b32"),
            ("rd", ".b64"),
            ("f", ".f32"),
        ] {
            if let Some(n) = self.counts.get(class) {
                let _ = writeln!(s, "\t.reg {ty} \t%{class}<{}>;", n + 1);
            }
        }
        s
    }
}

/// The tile operand's thread count: wgmma tiles span a warpgroup, TMEM tiles one thread per lane.
fn tile_threads(ctx: &Context, op: OpId) -> i64 {
    let opcode = str_prop(ctx, op, "opcode").unwrap_or_default();
    if opcode.starts_with("wgmma") {
        128
    } else {
        let t = TensorType::of(ctx, ctx.value_type(ctx.operands(op)[0])).expect("tile");
        t.shape[0]
    }
}

/// Every `ptx.inst` / `ptx.asm` of the lowered module as PTX lines of one entry.
fn wrap(ctx: &Context, module: OpId, target: &str) -> String {
    let mut regs = Regs::default();
    let mut lines = Vec::new();
    let mut ops = Vec::new();
    ctx.walk(module, &mut |o| {
        if matches!(ctx.op_name_str(o), "ptx.inst" | "ptx.asm") {
            ops.push(o);
        }
    });
    // walk visits nested ops before their parents; order within a block is kept, which is all
    // a straight-line assembly check needs.
    for o in ops {
        if ctx.op_name_str(o) == "ptx.asm" {
            let s = str_prop(ctx, o, "asm_string").unwrap_or_default();
            let mut vals: Vec<Value> = ctx.results(o).to_vec();
            vals.extend(ctx.operands(o));
            let mut text = String::new();
            for p in split_form(&s).expect("form") {
                match p {
                    FormPiece::Text(t) => text.push_str(&t),
                    FormPiece::Operand(n) => text.push_str(&regs.of(ctx, vals[n])),
                }
            }
            lines.push(text);
            continue;
        }
        let opcode = str_prop(ctx, o, "opcode").unwrap_or_default();
        let (args, guard) = inst_args_and_guard(ctx, o);
        let form = inst_form(ctx, o, args.len());
        let block = ctx
            .get_attr(o, "tile_block")
            .and_then(|a| ctx.int_array_values(a))
            .map(|v| (v[0], v[1]));
        let mut text = String::new();
        if let Some(g) = guard {
            let neg = if ctx.get_prop(o, "guard_negated").is_some() {
                "!"
            } else {
                ""
            };
            let _ = write!(text, "@{neg}{} ", regs.of(ctx, g));
        }
        text.push_str(&opcode);
        let mut ops_text = String::new();
        if block.is_none() {
            let res: Vec<String> = ctx.results(o).iter().map(|v| regs.of(ctx, *v)).collect();
            ops_text.push_str(&res.join(", "));
        }
        if !form.is_empty() {
            if !ops_text.is_empty() {
                ops_text.push_str(", ");
            }
            // `{$0}` is the tile operand: its register block.
            let form = if block.is_some() {
                form.replace("{$0}", "\u{1}")
            } else {
                form
            };
            for p in split_form(&form).expect("form") {
                match p {
                    FormPiece::Text(t) => ops_text.push_str(&t),
                    FormPiece::Operand(n) => ops_text.push_str(&regs.of(ctx, args[n])),
                }
            }
            if let Some((b, nb)) = block {
                let list = regs.block(ctx, args[0], b, nb, tile_threads(ctx, o));
                ops_text = ops_text.replace('\u{1}', &list);
            }
        }
        if !ops_text.is_empty() {
            text.push(' ');
            text.push_str(&ops_text);
        }
        text.push(';');
        lines.push(text);
    }
    let mut out =
        format!(".version 8.7\n.target {target}\n.address_size 64\n\n.visible .entry k()\n{{\n");
    out.push_str(&regs.decls());
    for l in lines {
        for part in l.lines() {
            let _ = writeln!(out, "\t{part}");
        }
    }
    out.push_str("\tret;\n}\n");
    out
}

/// Runs the pass on `test/lower/<file>` (every split) and returns the wrapped PTX of each.
fn lowered(file: &str, target: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../test/lower")
        .join(file);
    let src = std::fs::read_to_string(&path).expect("read test input");
    let mut out = Vec::new();
    for chunk in src.split("\n// -----\n") {
        let mut ctx = Context::new();
        tilus_dialects::register_all(&mut ctx);
        let module = tilus_ir::parse(&mut ctx, chunk, file)
            .unwrap_or_else(|(d, _)| panic!("{file}: parse failed: {d:?}"))
            .module;
        let mut stats = Statistics::default();
        AsyncToPtx
            .run(&mut ctx, module, &mut stats)
            .unwrap_or_else(|d| panic!("{file}: lowering failed: {d:?}"));
        out.push(wrap(&ctx, module, target));
    }
    out
}

fn check(file: &str, target: &str) {
    for (i, ptx) in lowered(file, target).iter().enumerate() {
        assemble_for(
            &format!("{}-{i}", file.trim_end_matches(".mlir")),
            target,
            ptx,
        );
    }
}

#[test]
fn mbarrier_spellings_assemble_for() {
    let ptx = lowered("async-mbarrier.mlir", "sm_90a");
    assert!(ptx[0].contains("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64"));
    check("async-mbarrier.mlir", "sm_90a");
}

#[test]
fn tma_spellings_assemble_for() {
    check("async-tma.mlir", "sm_90a");
}

#[test]
fn wgmma_spellings_assemble_for() {
    let ptx = lowered("async-wgmma.mlir", "sm_90a");
    assert!(ptx[0].contains("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%f1, "));
    check("async-wgmma.mlir", "sm_90a");
}

#[test]
fn tcgen05_spellings_assemble_for() {
    check("async-tcgen05.mlir", "sm_100a");
}

// ----- encoders ---------------------------------------------------------------------------------

fn shared(body: &str) -> TensorType {
    TensorType::parse(tilus_dialects::tilus_types::Space::Shared, body).expect("type")
}

/// Spec §6.4: A f16 [128, 64] with 128B swizzle: SBO 1024 B (field 64), LBO 0,
/// descriptor = (addr >> 4) | 64 << 32 | 1 << 62; k16 steps +32 B, the second m64 block +8192 B.
#[test]
fn wgmma_descriptor_worked_example() {
    let addr = 0x2400u64;
    assert_eq!(
        wgmma_descriptor(addr, 0, 1024, SwizzleMode::B128),
        (addr >> 4) | (64 << 32) | (1 << 62)
    );
    assert_eq!(wgmma_descriptor(0, 0, 512, SwizzleMode::B64) >> 62, 2);
    assert_eq!(wgmma_descriptor(0, 0, 256, SwizzleMode::B32) >> 62, 3);
    let a = shared("128x64xf16, swizzle = 128B");
    let b = shared("64x256xf16, strides = [1, 64], swizzle = 128B");
    let plan = wgmma_plan(&a, &b, DType::F32).expect("plan");
    assert_eq!(
        plan.opcode,
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16"
    );
    assert_eq!(plan.a.sbo(), 1024);
    assert_eq!(plan.a.lbo(), 0);
    assert_eq!(plan.blocks, 2);
    let offs: Vec<(i64, i64, i64)> = plan
        .insts
        .iter()
        .map(|i| (i.a_offset, i.b_offset, i.block))
        .collect();
    assert_eq!(
        &offs[..4],
        &[(0, 0, 0), (8192, 0, 1), (32, 32, 0), (8192 + 32, 32, 1)]
    );
    assert_eq!(plan.insts.len(), 8);
    // 64B swizzle on [128, 32]: SBO 512 B.
    let a = shared("128x32xf16, swizzle = 64B");
    let b = shared("32x128xf16, strides = [1, 32], swizzle = 64B");
    let plan = wgmma_plan(&a, &b, DType::F32).expect("plan");
    assert_eq!((plan.a.sbo(), plan.b.sbo()), (512, 512));
    assert_eq!(
        plan.opcode,
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16"
    );
    // Unswizzled and MN-major operands are refused with a reason.
    assert!(wgmma_plan(&shared("64x16xf16"), &b, DType::F32).is_err());
    assert!(wgmma_plan(&a, &shared("32x128xf16, swizzle = 64B"), DType::F32).is_err());
}

/// Spec §7.2: f16 x f16 -> f32, K-major, M = 128, N = 256 is 0x08400010; M = 256 is 0x10400010.
#[test]
fn tcgen05_instr_descriptor_examples() {
    let f = |m| tcgen05_instr_descriptor(DType::F16, DType::F16, DType::F32, m, 256, false, false);
    assert_eq!(f(128), Some(0x0840_0010));
    assert_eq!(f(256), Some(0x1040_0010));
    // bf16 inputs set A and B type 1; f16 accumulator clears bit 4; transposes bits 15/16.
    assert_eq!(
        tcgen05_instr_descriptor(DType::BF16, DType::BF16, DType::F32, 128, 256, false, false),
        Some(0x0840_0010 | (1 << 7) | (1 << 10))
    );
    assert_eq!(
        tcgen05_instr_descriptor(DType::F16, DType::F16, DType::F16, 128, 64, true, true),
        Some((8 << 24) | (8 << 17) | (1 << 15) | (1 << 16))
    );
    assert_eq!(
        tcgen05_instr_descriptor(DType::F16, DType::BF16, DType::F32, 128, 256, false, false),
        None
    );
}

/// Spec §7.2 / §11.5: the tcgen05 descriptor has 0b001 at bit 46 and 128B = 2 at bit 61.
#[test]
fn tcgen05_descriptor_fields() {
    let d = tcgen05_descriptor(0x4000, 0, 1024, SwizzleMode::B128);
    assert_eq!(d & 0x3fff, 0x400);
    assert_eq!((d >> 32) & 0x3fff, 64);
    assert_eq!((d >> 46) & 0b111, 0b001);
    assert_eq!(d >> 61, 2);
    assert_eq!(tcgen05_descriptor(0, 0, 0, SwizzleMode::B64) >> 61, 4);
    assert_eq!(tcgen05_descriptor(0, 0, 0, SwizzleMode::B32) >> 61, 6);
}
