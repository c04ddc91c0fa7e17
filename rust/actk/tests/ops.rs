//! Every element-wise op, type and tier: the safe call gives the C call's
//! bits (the raw actk-sys function called directly), out of place and in
//! place, serial and on an own pool.
mod common;

use std::os::raw::c_int;

use actk::sys::{self, actk_pool};
use actk::{bf16, f16, Call, Error, Pool, Tier};
use common::*;

type Unary<R> = unsafe extern "C" fn(*mut actk_pool, *const R, *mut R, usize) -> c_int;
type Param<R> = unsafe extern "C" fn(*mut actk_pool, *const R, *mut R, usize, f32) -> c_int;
type Bias<R> = unsafe extern "C" fn(*mut actk_pool, *const R, *const R, usize, *mut R, usize) -> c_int;
type Gated<R> = unsafe extern "C" fn(*mut actk_pool, *const R, *const R, *mut R, usize) -> c_int;
type Packed<R> = unsafe extern "C" fn(*mut actk_pool, *const R, *mut R, usize, usize) -> c_int;

const TIERS: [Tier; 2] = [Tier::Accurate, Tier::Fast];

fn pools() -> Vec<Option<Pool>> {
    vec![None, Some(Pool::new(2).unwrap())]
}

fn call(p: &Option<Pool>, tier: Tier) -> Call<'_> {
    match p {
        Some(p) => Call::new().tier(tier).pool(p),
        None => Call::new().tier(tier),
    }
}

fn check_unary<T: Bits>(
    op: &str,
    c_fns: [Unary<T::Raw>; 2],
    safe: impl Fn(Call<'_>, &[T], &mut [T]) -> Result<(), Error>,
    inplace: impl Fn(Call<'_>, &mut [T]) -> Result<(), Error>,
) -> bool {
    let x = T::inputs();
    let n = x.len();
    let mut tiers = Vec::new();
    for (k, &tier) in TIERS.iter().enumerate() {
        let mut want = vec![sentinel::<T>(); n];
        assert_eq!(unsafe { c_fns[k](std::ptr::null_mut(), raw(x.as_ptr()), raw_mut(want.as_mut_ptr()), n) }, 0);
        for p in &pools() {
            let what = format!("{op} {} {tier:?} pool {}", std::any::type_name::<T>(), p.is_some());
            let mut y = vec![sentinel::<T>(); n];
            safe(call(p, tier), &x, &mut y).unwrap();
            same_bits(&what, &want, &y);
            let mut xy = x.clone();
            inplace(call(p, tier), &mut xy).unwrap();
            same_bits(&(what + " in place"), &want, &xy);
        }
        tiers.push(bits(&want));
    }
    // both tiers' results are checked: a wrapper that called one tier's C
    // function for the other would fail above where they differ (the caller
    // asserts they do in some type; where they agree a swap changes nothing)
    tiers[0] != tiers[1]
}

fn check_param<T: Bits>(
    op: &str,
    c_fns: [Param<T::Raw>; 2],
    safe: impl Fn(Call<'_>, &[T], &mut [T], f32) -> Result<(), Error>,
    inplace: impl Fn(Call<'_>, &mut [T], f32) -> Result<(), Error>,
) {
    let x = T::inputs();
    let n = x.len();
    for alpha in [1.0f32, 1.702, 0.5, -2.0, 0.0, f32::NAN] {
        for (k, &tier) in TIERS.iter().enumerate() {
            let mut want = vec![sentinel::<T>(); n];
            let st = unsafe { c_fns[k](std::ptr::null_mut(), raw(x.as_ptr()), raw_mut(want.as_mut_ptr()), n, alpha) };
            assert_eq!(st, 0);
            for p in &pools() {
                let what = format!("{op}({alpha}) {} {tier:?} pool {}", std::any::type_name::<T>(), p.is_some());
                let mut y = vec![sentinel::<T>(); n];
                safe(call(p, tier), &x, &mut y, alpha).unwrap();
                same_bits(&what, &want, &y);
                let mut xy = x.clone();
                inplace(call(p, tier), &mut xy, alpha).unwrap();
                same_bits(&(what + " in place"), &want, &xy);
            }
        }
    }
}

fn check_bias<T: Bits>(
    op: &str,
    c_fns: [Bias<T::Raw>; 2],
    safe: impl Fn(Call<'_>, &[T], &[T], &mut [T]) -> Result<(), Error>,
    inplace: impl Fn(Call<'_>, &mut [T], &[T]) -> Result<(), Error>,
) {
    let x = T::inputs();
    let n = x.len();
    for width in [1usize, 16, 1024] {
        let bias: Vec<T> = (0..width).map(|i| T::from_f32(i as f32 / 64.0 - 3.0)).collect();
        for (k, &tier) in TIERS.iter().enumerate() {
            let mut want = vec![sentinel::<T>(); n];
            let st = unsafe {
                c_fns[k](std::ptr::null_mut(), raw(x.as_ptr()), raw(bias.as_ptr()), width, raw_mut(want.as_mut_ptr()), n)
            };
            assert_eq!(st, 0);
            for p in &pools() {
                let what = format!("{op} width {width} {} {tier:?} pool {}", std::any::type_name::<T>(), p.is_some());
                let mut y = vec![sentinel::<T>(); n];
                safe(call(p, tier), &x, &bias, &mut y).unwrap();
                same_bits(&what, &want, &y);
                let mut xy = x.clone();
                inplace(call(p, tier), &mut xy, &bias).unwrap();
                same_bits(&(what + " in place"), &want, &xy);
            }
        }
    }
}

// One test per op, every type. The C functions are named in the list
// (gen/ops_tests.gen.rs) by their own spelling, not by the code that writes
// the wrappers, so the test does not share a mistake with them.
macro_rules! ops_test {
    ($check:ident, $test:ident, $op:ident, $inplace:ident, [$($a:ident),*]) => {
        ops_test!(@ $check, $test, $op, $inplace, [$($a),*],);
    };
    (@ $check:ident, $test:ident, $op:ident, $inplace:ident, [$f32:ident, $f32f:ident, $f16:ident, $f16f:ident, $bf16:ident, $bf16f:ident], $($rest:tt)*) => {
        #[test]
        fn $test() {
            let a = $check::<f32>(stringify!($op), [sys::$f32, sys::$f32f], |c, x, y| c.$op(x, y), |c, xy| c.$inplace(xy));
            let b = $check::<f16>(stringify!($op), [sys::$f16, sys::$f16f], |c, x, y| c.$op(x, y), |c, xy| c.$inplace(xy));
            let d = $check::<bf16>(stringify!($op), [sys::$bf16, sys::$bf16f], |c, x, y| c.$op(x, y), |c, xy| c.$inplace(xy));
            assert!(a || b || d, "{}: the tiers give the same bits in every type: the test cannot tell them apart", stringify!($op));
        }
    };
}

macro_rules! unary {
    ($op:ident, $inplace:ident, $($f:ident),*) => {
        ops_test!(check_unary, $op, $op, $inplace, [$($f),*]);
    };
}


macro_rules! param {
    ($op:ident, $inplace:ident, $f32:ident, $f32f:ident, $f16:ident, $f16f:ident, $bf16:ident, $bf16f:ident) => {
        #[test]
        fn $op() {
            check_param::<f32>(stringify!($op), [sys::$f32, sys::$f32f], |c, x, y, a| c.$op(x, y, a), |c, xy, a| c.$inplace(xy, a));
            check_param::<f16>(stringify!($op), [sys::$f16, sys::$f16f], |c, x, y, a| c.$op(x, y, a), |c, xy, a| c.$inplace(xy, a));
            check_param::<bf16>(stringify!($op), [sys::$bf16, sys::$bf16f], |c, x, y, a| c.$op(x, y, a), |c, xy, a| c.$inplace(xy, a));
        }
    };
}

macro_rules! bias {
    ($op:ident, $inplace:ident, $f32:ident, $f32f:ident, $f16:ident, $f16f:ident, $bf16:ident, $bf16f:ident) => {
        #[test]
        fn $op() {
            check_bias::<f32>(stringify!($op), [sys::$f32, sys::$f32f], |c, x, b, y| c.$op(x, b, y), |c, xy, b| c.$inplace(xy, b));
            check_bias::<f16>(stringify!($op), [sys::$f16, sys::$f16f], |c, x, b, y| c.$op(x, b, y), |c, xy, b| c.$inplace(xy, b));
            check_bias::<bf16>(stringify!($op), [sys::$bf16, sys::$bf16f], |c, x, b, y| c.$op(x, b, y), |c, xy, b| c.$inplace(xy, b));
        }
    };
}


// Gated ops: gate = the inputs, up = the inputs reversed; the packed form over
// rows of (gate | up) with d = 37 (rows start anywhere in a vector).
fn check_gated<T: Bits>(
    op: &str,
    c_fns: [Gated<T::Raw>; 2],
    c_packed: [Packed<T::Raw>; 2],
    safe: impl Fn(Call<'_>, &[T], &[T], &mut [T]) -> Result<(), Error>,
    safe_packed: impl Fn(Call<'_>, &[T], &mut [T], usize) -> Result<(), Error>,
) {
    let gate = T::inputs();
    let up: Vec<T> = gate.iter().rev().copied().collect();
    let n = gate.len();
    let d = 37;
    let rows = n / d;
    let mut x = Vec::with_capacity(2 * rows * d);
    for r in 0..rows {
        x.extend_from_slice(&gate[r * d..(r + 1) * d]);
        x.extend_from_slice(&up[r * d..(r + 1) * d]);
    }
    let mut tiers = Vec::new();
    for (k, &tier) in TIERS.iter().enumerate() {
        let mut want = vec![sentinel::<T>(); n];
        let (g, u, w) = (raw(gate.as_ptr()), raw(up.as_ptr()), raw_mut(want.as_mut_ptr()));
        assert_eq!(unsafe { c_fns[k](std::ptr::null_mut(), g, u, w, n) }, 0);
        let mut want_p = vec![sentinel::<T>(); rows * d];
        let (xp, wp) = (raw(x.as_ptr()), raw_mut(want_p.as_mut_ptr()));
        assert_eq!(unsafe { c_packed[k](std::ptr::null_mut(), xp, wp, rows, d) }, 0);
        for p in &pools() {
            let what = format!("{op} {} {tier:?} pool {}", std::any::type_name::<T>(), p.is_some());
            let mut y = vec![sentinel::<T>(); n];
            safe(call(p, tier), &gate, &up, &mut y).unwrap();
            same_bits(&what, &want, &y);
            let mut yp = vec![sentinel::<T>(); rows * d];
            safe_packed(call(p, tier), &x, &mut yp, d).unwrap();
            same_bits(&(what + " packed"), &want_p, &yp);
        }
        tiers.push(bits(&want));
    }
    assert_ne!(tiers[0], tiers[1], "{op}: the tiers give the same bits: the test cannot tell them apart");
}

macro_rules! gated {
    ($op:ident, $packed:ident, [$($f:ident),*], [$($p:ident),*]) => {
        gated!(@ $op, $packed, [$($f),*], [$($p),*],);
    };
    (@ $op:ident, $packed:ident, [$f32:ident, $f32f:ident, $f16:ident, $f16f:ident, $bf16:ident, $bf16f:ident],
       [$p32:ident, $p32f:ident, $p16:ident, $p16f:ident, $pb16:ident, $pb16f:ident], $($rest:tt)*) => {
        #[test]
        fn $op() {
            check_gated::<f32>(stringify!($op), [sys::$f32, sys::$f32f], [sys::$p32, sys::$p32f],
                |c, g, u, y| c.$op(g, u, y), |c, x, y, d| c.$packed(x, y, d));
            check_gated::<f16>(stringify!($op), [sys::$f16, sys::$f16f], [sys::$p16, sys::$p16f],
                |c, g, u, y| c.$op(g, u, y), |c, x, y, d| c.$packed(x, y, d));
            check_gated::<bf16>(stringify!($op), [sys::$bf16, sys::$bf16f], [sys::$pb16, sys::$pb16f],
                |c, g, u, y| c.$op(g, u, y), |c, x, y, d| c.$packed(x, y, d));
        }
    };
}


// One test per op of src/ops.toml, in its order: tools/gen_ops.py writes the
// list (the macros above take it).
include!("gen/ops_tests.gen.rs");

/// The crate's op list (actk::OPS) and the tests above name the same ops in
/// the same order: a test list left stale by a hand edit fails here (and
/// gen_ops_fresh fails on any stale generated file).
#[test]
fn every_op_is_tested() {
    let ops: Vec<&str> = actk::OPS.iter().map(|&(name, _)| name).collect();
    assert_eq!(ops, TESTED);
}

/// The plain functions are the accurate tier, serial.
#[test]
fn plain_functions_are_accurate() {
    let x = f32::inputs();
    let mut want = vec![0.0f32; x.len()];
    let mut y = want.clone();
    Call::new().tier(Tier::Accurate).gelu(&x, &mut want).unwrap();
    actk::gelu(&x, &mut y).unwrap();
    same_bits("gelu", &want, &y);
    let mut xy = x.clone();
    actk::swish_inplace(&mut xy, 1.5).unwrap();
    Call::new().swish(&x, &mut want, 1.5).unwrap();
    same_bits("swish", &want, &xy);
}
