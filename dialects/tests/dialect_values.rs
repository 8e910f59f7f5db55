//! Registered dialect types and attributes are typed values uniqued in the context: every
//! spelling of one value is one id, constructors give the same id as the parser, and the printed
//! form is the canonical one (MLIR 22's for MLIR's own attributes).

use tilus_dialects::arith_attrs::{FastMathFlags, OverflowFlags};
use tilus_dialects::layout_algebra::SwizzleMode;
use tilus_dialects::ptx::TensorMapType;
use tilus_dialects::tilus_types::{BarriersType, DType, PtrType, Space, TensorType};
use tilus_ir::syntax::printer::type_to_string;
use tilus_ir::{Attr, Context, Parser, Type};

fn ctx() -> Context {
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    ctx
}

fn ty(ctx: &mut Context, text: &str) -> Type {
    let mut p = Parser::new(ctx, text, "<test>");
    p.parse_type()
        .unwrap_or_else(|d| panic!("{text}: {}", d.message))
}

fn attr(ctx: &mut Context, text: &str) -> Attr {
    let mut p = Parser::new(ctx, text, "<test>");
    p.parse_attribute()
        .unwrap_or_else(|d| panic!("{text}: {}", d.message))
}

fn attr_text(ctx: &Context, a: Attr) -> String {
    tilus_ir::syntax::printer::attr_to_string(ctx, a)
}

#[test]
fn two_spellings_of_a_tensor_type_are_one_type() {
    let mut ctx = ctx();
    let a = ty(&mut ctx, "!tilus.shared<128x64xf16,swizzle=128B>");
    let b = ty(&mut ctx, "!tilus.shared<128x64xf16, swizzle = 128B>");
    let c = ty(&mut ctx, "!tilus.shared< 128 x 64 x f16 , swizzle = 128B >");
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert_eq!(
        type_to_string(&ctx, a),
        "!tilus.shared<128x64xf16, swizzle = 128B>"
    );
    // `swizzle = none` is the default: it is not part of the canonical spelling.
    let d = ty(&mut ctx, "!tilus.shared<128x64xf16, swizzle = none>");
    let e = ty(&mut ctx, "!tilus.shared<128x64xf16>");
    assert_eq!(d, e);
    assert_ne!(a, e);
}

#[test]
fn constructor_and_parser_agree() {
    let mut ctx = ctx();
    let parsed = ty(
        &mut ctx,
        "!tilus.shared<64x64xf16,strides=[1,64],swizzle=64B>",
    );
    let built = TensorType {
        space: Space::Shared,
        shape: vec![64, 64],
        dtype: DType::F16,
        strides: Some(vec![1, 64]),
        swizzle: SwizzleMode::B64,
        layout: None,
    }
    .get(&mut ctx);
    assert_eq!(parsed, built);
    let value = TensorType::of_ref(&ctx, parsed).expect("a tensor type");
    assert_eq!(value.shape, [64, 64]);
    assert_eq!(value.strides.as_deref(), Some(&[1, 64][..]));

    assert_eq!(
        BarriersType::get(&mut ctx, 4),
        ty(&mut ctx, "!mbarrier.barriers< 4 >")
    );
    let four = BarriersType::get(&mut ctx, 4);
    assert_eq!(BarriersType::of(&ctx, four).map(|b| b.count), Some(4));
    assert_eq!(
        PtrType::get(&mut ctx, DType::BF16),
        ty(&mut ctx, "!tilus.ptr< bf16 >")
    );
    assert_eq!(TensorMapType::get(&mut ctx), ty(&mut ctx, "!ptx.tensormap"));
    // Other kinds of value are not mistaken for each other.
    assert!(TensorType::of(&ctx, four).is_none());
}

#[test]
fn register_layouts_with_one_mapping_are_one_type() {
    let mut ctx = ctx();
    let a = ty(
        &mut ctx,
        "!tilus.reg<64x16xf32, layout = column_spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>",
    );
    let b = ty(
        &mut ctx,
        "!tilus.reg<64x16xf32,layout=spatial(4,1)*column_local(2,2)*spatial(8,4)*local(1,2)>",
    );
    assert_eq!(a, b);
    assert_eq!(
        type_to_string(&ctx, a),
        "!tilus.reg<64x16xf32, layout = spatial(4, 1) * column_local(2, 2) * spatial(8, 4) * local(1, 2)>"
    );
}

#[test]
fn arith_flags_are_flag_sets_in_mlir_spelling() {
    let mut ctx = ctx();
    let a = attr(&mut ctx, "#arith.overflow<nuw,nsw>");
    let b = attr(&mut ctx, "#arith.overflow<nsw, nuw>");
    assert_eq!(a, b);
    assert_eq!(attr_text(&ctx, a), "#arith.overflow<nsw, nuw>");
    assert_eq!(
        OverflowFlags {
            nsw: true,
            nuw: true
        }
        .get(&mut ctx),
        a
    );
    assert_eq!(OverflowFlags::of(&ctx, a).map(OverflowFlags::bits), Some(3));

    // MLIR prints fastmath flags in bit order, joined by ',' without spaces, and all seven
    // as `fast`.
    let f = attr(&mut ctx, "#arith.fastmath<contract, nnan>");
    assert_eq!(attr_text(&ctx, f), "#arith.fastmath<nnan,contract>");
    let all = attr(
        &mut ctx,
        "#arith.fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn>",
    );
    assert_eq!(all, FastMathFlags::FAST.get(&mut ctx));
    assert_eq!(attr_text(&ctx, all), "#arith.fastmath<fast>");
    assert_eq!(
        {
            let none = attr(&mut ctx, "#arith.fastmath<none>");
            attr_text(&ctx, none)
        },
        "#arith.fastmath<none>"
    );
}

#[test]
fn bad_bodies_are_errors_at_the_symbol() {
    let mut ctx = ctx();
    for (text, message) in [
        (
            "!tilus.shared<128x64xf16, swizzle = 16B>",
            "expected a swizzle mode",
        ),
        (
            "#arith.overflow<nsw, wrap>",
            "expected 'none', 'nsw' or 'nuw', found 'wrap'",
        ),
        ("#arith.fastmath<quick>", "expected a fastmath flag"),
        ("!mbarrier.barriers<0>", "expected a positive barrier count"),
    ] {
        let mut p = Parser::new(&mut ctx, text, "<test>");
        let err = if text.starts_with('!') {
            p.parse_type().err()
        } else {
            p.parse_attribute().err()
        }
        .unwrap_or_else(|| panic!("{text} parsed"));
        assert!(err.message.contains(message), "{text}: {}", err.message);
        match err.loc {
            tilus_ir::DiagLoc::Span(sp) => assert_eq!(sp.start, 0, "{text}"),
            other => panic!("{text}: reported at {other:?}, not at the symbol"),
        }
    }
}

#[test]
fn unregistered_dialects_keep_their_text() {
    let mut ctx = ctx();
    let a = ty(&mut ctx, "!foo.bar<1,2>");
    let b = ty(&mut ctx, "!foo.bar<1, 2>");
    assert_ne!(a, b);
    assert_eq!(type_to_string(&ctx, a), "!foo.bar<1,2>");
}

#[test]
fn dense_arrays_hold_typed_elements() {
    let mut ctx = ctx();
    let a = attr(&mut ctx, "array<i8: 0x10, -1, 255>");
    let b = attr(&mut ctx, "array<i8: 16, -1, -1>");
    assert_eq!(a, b);
    assert_eq!(attr_text(&ctx, a), "array<i8: 16, -1, -1>");
    assert_eq!(ctx.int_array_values(a), Some(vec![16, -1, -1]));
    assert_eq!(ctx.int_array_attr(8, &[16, -1, -1]), a);
    let f = attr(&mut ctx, "array<f32: 1.5, 2.0, 0x7FC00000>");
    assert_eq!(
        attr_text(&ctx, f),
        "array<f32: 1.500000e+00, 2.000000e+00, 0x7FC00000>"
    );
    assert_eq!(
        {
            let bools = attr(&mut ctx, "array<i1: true, false>");
            attr_text(&ctx, bools)
        },
        "array<i1: true, false>"
    );
}
