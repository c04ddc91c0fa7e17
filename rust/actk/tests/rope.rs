//! RoPE: every type, layout, style, position source and a partial rotary
//! dim give the C function's bits, out of place and in place, on a pool too.
mod common;

use std::os::raw::c_int;

use actk::sys::{self, actk_pool, actk_rope_desc};
use actk::{bf16, f16, Call, Layout, Pool, Positions, Rope, Style};
use common::*;

type RopeFn<R> =
    unsafe extern "C" fn(*mut actk_pool, *const actk_rope_desc, *const R, *const i64, *const f32, *const f32, *mut R) -> c_int;

fn check<T: Bits>(c_fn: RopeFn<T::Raw>) {
    let pool = Pool::new(2).unwrap();
    let (max_pos, head) = (64usize, 64usize);
    for rotary in [head, 32] {
        let mut cos = vec![0.0f32; max_pos * rotary / 2];
        let mut sin = cos.clone();
        actk::rope_cache(&mut cos, &mut sin, max_pos, rotary, 10000.0).unwrap();
        for layout in [Layout::Bshd, Layout::Bhsd] {
            for style in [Style::SplitHalf, Style::Interleaved] {
                let shape = Rope { batch: 2, seq_len: 40, heads: 4, head_size: head, rotary_dim: rotary, layout, style, max_position: max_pos };
                let n = 2 * 40 * 4 * head;
                let x: Vec<T> = T::inputs().into_iter().cycle().skip(1000).take(n).collect();
                let ids: Vec<i64> = (0..80).map(|i| (i * 7 % 64) as i64).collect();
                for positions in [Positions::Start(3), Positions::Ids(&ids)] {
                    let d = actk_rope_desc {
                        batch: 2, seq_len: 40, heads: 4, head_size: head, rotary_dim: rotary,
                        layout: if layout == Layout::Bshd { sys::ACTK_ROPE_BSHD } else { sys::ACTK_ROPE_BHSD },
                        style: if style == Style::SplitHalf { sys::ACTK_ROPE_SPLIT_HALF } else { sys::ACTK_ROPE_INTERLEAVED },
                        max_position: max_pos,
                        position_start: if let Positions::Start(s) = positions { s } else { 0 },
                        ..actk_rope_desc::default()
                    };
                    let ids_p = if let Positions::Ids(v) = positions { v.as_ptr() } else { std::ptr::null() };
                    let mut want = vec![sentinel::<T>(); n];
                    let st = unsafe { c_fn(std::ptr::null_mut(), &d, raw(x.as_ptr()), ids_p, cos.as_ptr(), sin.as_ptr(), raw_mut(want.as_mut_ptr())) };
                    assert_eq!(st, 0);
                    let what = format!("rope {} {shape:?} {positions:?}", std::any::type_name::<T>());
                    let mut y = vec![sentinel::<T>(); n];
                    actk::rope(&shape, &x, positions, &cos, &sin, &mut y).unwrap();
                    same_bits(&what, &want, &y);
                    let mut y = vec![sentinel::<T>(); n];
                    Call::new().pool(&pool).rope(&shape, &x, positions, &cos, &sin, &mut y).unwrap();
                    same_bits(&(what.clone() + " pool"), &want, &y);
                    let mut xy = x.clone();
                    actk::rope_inplace(&shape, &mut xy, positions, &cos, &sin).unwrap();
                    same_bits(&(what + " in place"), &want, &xy);
                }
            }
        }
    }
}

#[test]
fn rope_f32() {
    check::<f32>(sys::actk_rope_f32);
}

#[test]
fn rope_f16() {
    check::<f16>(sys::actk_rope_f16);
}

#[test]
fn rope_bf16() {
    check::<bf16>(sys::actk_rope_bf16);
}

#[test]
fn rope_cache_is_the_c_one() {
    let (mut c1, mut s1) = (vec![0.0f32; 100 * 8], vec![0.0f32; 100 * 8]);
    let (mut c2, mut s2) = (c1.clone(), s1.clone());
    actk::rope_cache(&mut c1, &mut s1, 100, 16, 500000.0).unwrap();
    assert_eq!(unsafe { sys::actk_rope_cache_f32(c2.as_mut_ptr(), s2.as_mut_ptr(), 100, 16, 500000.0) }, 0);
    same_bits("cos", &c2, &c1);
    same_bits("sin", &s2, &s1);
}
