//! Bad input gives Err with the right variant and writes nothing.
mod common;

use actk::{bf16, f16, Call, Error, Positions, Rope, Tier};
use common::*;

fn untouched<T: Bits>(y: &[T]) {
    assert!(y.iter().all(|&e| e.bits() == sentinel::<T>().bits()), "a failed call wrote its output");
}

fn lengths<T: Bits>() {
    let x = vec![T::from_f32(0.5); 64];
    for tier in [Tier::Accurate, Tier::Fast] {
        let c = Call::new().tier(tier);
        let mut y = vec![sentinel::<T>(); 63];
        assert_eq!(c.gelu(&x, &mut y), Err(Error::Length { expected: 64, got: 63 }));
        assert_eq!(c.swish(&x, &mut y, 1.0), Err(Error::Length { expected: 64, got: 63 }));
        assert_eq!(c.bias_gelu(&x, &x[..8], &mut y), Err(Error::Length { expected: 64, got: 63 }));
        untouched(&y);
        let mut y = vec![sentinel::<T>(); 65];
        assert_eq!(c.erf(&x, &mut y), Err(Error::Length { expected: 64, got: 65 }));
        untouched(&y);
        // the C library's checks, through the same wrappers
        let mut y = vec![sentinel::<T>(); 64];
        assert_eq!(c.bias_gelu_tanh(&x, &[], &mut y), Err(Error::ZeroWidth));
        assert_eq!(c.bias_gelu(&x, &x[..5], &mut y), Err(Error::WidthMismatch));
        let mut xy = vec![sentinel::<T>(); 64];
        assert_eq!(c.bias_gelu_inplace(&mut xy, &x[..7]), Err(Error::WidthMismatch));
        untouched(&y);
        untouched(&xy);
        // empty is fine
        assert_eq!(c.tanh::<T>(&[], &mut []), Ok(()));
    }
}

#[test]
fn wrong_lengths_and_widths() {
    lengths::<f32>();
    lengths::<f16>();
    lengths::<bf16>();
}

#[test]
fn rope_errors() {
    let shape = Rope { batch: 2, seq_len: 3, heads: 2, head_size: 8, rotary_dim: 6, max_position: 10, ..Rope::default() };
    let (mut cos, mut sin) = (vec![0.0; 30], vec![0.0; 30]);
    actk::rope_cache(&mut cos, &mut sin, 10, 6, 0.0).unwrap();
    let x = vec![1.0f32; 2 * 3 * 2 * 8];
    let mut y = vec![sentinel::<f32>(); x.len()];
    let r = |s: &Rope, p: Positions<'_>, cos: &[f32], y: &mut [f32]| actk::rope(s, &x, p, cos, &sin, y);
    assert_eq!(r(&shape, Positions::Start(8), &cos, &mut y), Err(Error::OutOfRange));
    assert_eq!(r(&shape, Positions::Start(-1), &cos, &mut y), Err(Error::OutOfRange));
    assert_eq!(r(&shape, Positions::Ids(&[0, 1, 2, 3, 4, 10]), &cos, &mut y), Err(Error::OutOfRange));
    assert_eq!(r(&shape, Positions::Ids(&[0, 1, 2]), &cos, &mut y), Err(Error::Length { expected: 6, got: 3 }));
    assert_eq!(r(&shape, Positions::Start(0), &cos[..29], &mut y), Err(Error::Length { expected: 30, got: 29 }));
    assert_eq!(r(&shape, Positions::Start(0), &cos, &mut y[1..]), Err(Error::Length { expected: 96, got: 95 }));
    assert_eq!(r(&Rope { rotary_dim: 5, ..shape }, Positions::Start(0), &cos, &mut y), Err(Error::BadShape));
    assert_eq!(r(&Rope { rotary_dim: 10, ..shape }, Positions::Start(0), &cos, &mut y), Err(Error::BadShape));
    assert_eq!(r(&Rope { batch: usize::MAX, ..shape }, Positions::Start(0), &cos, &mut y), Err(Error::TooLarge));
    untouched(&y);
    assert_eq!(r(&shape, Positions::Start(7), &cos, &mut y), Ok(()));
}

#[test]
fn rope_cache_errors() {
    let (mut cos, mut sin) = (vec![sentinel::<f32>(); 8], vec![sentinel::<f32>(); 8]);
    assert_eq!(actk::rope_cache(&mut cos, &mut sin, 4, 4, f64::NAN), Err(Error::InvalidArgument));
    assert_eq!(actk::rope_cache(&mut cos, &mut sin, 4, 4, -1.0), Err(Error::InvalidArgument));
    assert_eq!(actk::rope_cache(&mut cos, &mut sin, 4, 3, 0.0), Err(Error::BadShape));
    assert_eq!(actk::rope_cache(&mut cos, &mut sin, 4, 6, 0.0), Err(Error::Length { expected: 12, got: 8 }));
    untouched(&cos);
    untouched(&sin);
}

#[test]
fn errors_display_the_library_text() {
    assert_eq!(Error::Overlap.status(), Some(2));
    assert_eq!(Error::Length { expected: 1, got: 2 }.status(), None);
    assert!(Error::OutOfRange.to_string().starts_with("actk: "));
    assert_ne!(Error::OutOfRange.to_string(), Error::BadShape.to_string());
}
