// Shared by the integration tests: inputs and bit patterns of each type.
#![allow(dead_code)]
use actk::{bf16, f16, Element};

/// An element type with its raw C type and its bits.
pub trait Bits: Element + std::fmt::Debug {
    type Raw: Copy;
    fn bits(self) -> u32;
    fn from_f32(v: f32) -> Self;
    /// Inputs covering the type: all 65536 patterns of a 16-bit type; for
    /// f32 the specials, then patterns spread over the whole range.
    fn inputs() -> Vec<Self>;
}

fn spread_f32(n: usize) -> Vec<f32> {
    let mut v = vec![0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::MIN_POSITIVE, 1e-45, -1e-45, 0.5, -3.0];
    let mut s: u32 = 0x9e37_79b9;
    while v.len() < n {
        // xorshift: every exponent and sign, NaNs included
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        v.push(f32::from_bits(s));
        // and plain values where the kernels switch path
        v.push((s % 4000) as f32 / 100.0 - 20.0);
    }
    v.truncate(n);
    v
}

impl Bits for f32 {
    type Raw = f32;
    fn bits(self) -> u32 {
        self.to_bits()
    }
    fn from_f32(v: f32) -> Self {
        v
    }
    fn inputs() -> Vec<Self> {
        spread_f32(1 << 16)
    }
}

impl Bits for f16 {
    type Raw = u16;
    fn bits(self) -> u32 {
        self.to_bits() as u32
    }
    fn from_f32(v: f32) -> Self {
        f16::from_f32(v)
    }
    fn inputs() -> Vec<Self> {
        (0..=u16::MAX).map(f16::from_bits).collect()
    }
}

impl Bits for bf16 {
    type Raw = u16;
    fn bits(self) -> u32 {
        self.to_bits() as u32
    }
    fn from_f32(v: f32) -> Self {
        bf16::from_f32(v)
    }
    fn inputs() -> Vec<Self> {
        (0..=u16::MAX).map(bf16::from_bits).collect()
    }
}

pub fn bits<T: Bits>(v: &[T]) -> Vec<u32> {
    v.iter().map(|&e| e.bits()).collect()
}

/// The first index where two results differ, for a readable failure.
pub fn same_bits<T: Bits>(what: &str, want: &[T], got: &[T]) {
    assert_eq!(want.len(), got.len(), "{what}: lengths");
    if let Some(i) = (0..want.len()).find(|&i| want[i].bits() != got[i].bits()) {
        panic!("{what}: element {i}: C gave {:#x}, the Rust call {:#x}", want[i].bits(), got[i].bits());
    }
}

/// A filler no kernel writes for these inputs by chance: the tests check
/// that failed calls leave it.
pub fn sentinel<T: Bits>() -> T {
    T::from_f32(-12345.0)
}

pub fn raw<T: Bits>(p: *const T) -> *const T::Raw {
    p as *const T::Raw
}

pub fn raw_mut<T: Bits>(p: *mut T) -> *mut T::Raw {
    p as *mut T::Raw
}
