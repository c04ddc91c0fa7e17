//! actk for Rust: elementwise activation kernels (erf, tanh, sigmoid, SiLU,
//! GELU, bias+GELU, RoPE ...) on `f32`, [`half::f16`] and [`half::bf16`]
//! slices, in two accuracy tiers, serial or on a [`Pool`].
//!
//! ```
//! let x = vec![-1.0f32, 0.0, 0.5, 2.0];
//! let mut y = vec![0.0f32; 4];
//! actk::gelu(&x, &mut y)?;                          // accurate, this thread
//! actk::Call::new().tier(actk::Tier::Fast).gelu(&x, &mut y)?;
//! let mut z = x.clone();
//! actk::tanh_inplace(&mut z)?;                      // in place
//! assert_eq!(actk::gelu(&x, &mut y[..3]), Err(actk::Error::Length { expected: 4, got: 3 }));
//! # Ok::<(), actk::Error>(())
//! ```
//!
//! Every op's functions are generated from the C library's op table
//! (src/ops.toml, by tools/gen_ops.py into `ops.gen.rs`). Results are the C
//! library's bits: the wrappers only check lengths and pass the slices on.
#![deny(unsafe_op_in_unsafe_fn)]

// README.md's ```rust blocks run as doctests of this crate (.ci/run rust), so
// the README cannot drift from the API (.ci/readme_snippets.py checks this
// line is here).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

use std::marker::PhantomData;
use std::os::raw::c_int;

pub use actk_sys as sys;
pub use half::{bf16, f16};

mod check;
mod error;
mod info;
mod pool;
#[cfg(feature = "rayon")]
mod rayon_pool;
mod rope;

pub use error::Error;
pub use info::{isa_name, isa_reason, version, version_string};
pub use pool::{Pool, PoolConfig};
#[cfg(feature = "rayon")]
#[doc(hidden)]
pub use rayon_pool::rayon_parallel_fors;
pub use rope::{rope, rope_cache, rope_inplace, Layout, Positions, Rope, Style};

use error::status;

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for half::f16 {}
    impl Sealed for half::bf16 {}
}

// half's types are repr(transparent) over u16, the C API's bit patterns:
// the generated code casts slice pointers between them.
const _: () = assert!(std::mem::size_of::<half::f16>() == 2 && std::mem::align_of::<half::f16>() == 2);
const _: () = assert!(std::mem::size_of::<half::bf16>() == 2 && std::mem::align_of::<half::bf16>() == 2);

/// Accuracy tier (include/actk.h): `Accurate` (<= 2 ULP in f32, faithful
/// in 16 bits) or `Fast` (relative error <= 2^-18 in f32, faithful in 16 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Tier {
    #[default]
    Accurate,
    Fast,
}

/// How to run a call: its tier and its pool (none: the calling thread).
///
/// ```
/// use actk::{Call, Pool, Tier};
/// let pool = Pool::new(2)?;
/// let x = vec![0.25f32; 1 << 16];
/// let mut y = vec![0.0f32; x.len()];
/// Call::new().tier(Tier::Fast).pool(&pool).silu(&x, &mut y)?;
/// # Ok::<(), actk::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Call<'p> {
    pool: *mut sys::actk_pool,
    tier: Tier,
    _pool: PhantomData<&'p Pool>,
}

// A Call only holds a pool pointer, and pools take calls from any thread.
unsafe impl Send for Call<'_> {}
unsafe impl Sync for Call<'_> {}

impl Default for Call<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'p> Call<'p> {
    /// Accurate tier, the calling thread.
    pub fn new() -> Self {
        Call { pool: std::ptr::null_mut(), tier: Tier::Accurate, _pool: PhantomData }
    }
    pub fn tier(self, tier: Tier) -> Self {
        Call { tier, ..self }
    }
    /// Run on `pool` (large calls split over its threads; same bits).
    pub fn pool<'q>(self, pool: &'q Pool) -> Call<'q> {
        Call { pool: pool.as_ptr(), tier: self.tier, _pool: PhantomData }
    }
}

include!("ops.gen.rs");
