//! Raw FFI bindings to actk (include/actk.h): no safety, no checks; the
//! `actk` crate is the safe API. Types mirror the header one to one. The
//! element-wise entry points and RoPE's are in `ops.gen.rs`, written by
//! tools/gen_ops.py from src/ops.toml (regenerate, never edit).
//!
//! ```
//! let x = [0.5f32, -1.0, 2.0];
//! let mut y = [0f32; 3];
//! let st = unsafe { actk_sys::actk_gelu_f32(std::ptr::null_mut(), x.as_ptr(), y.as_mut_ptr(), 3) };
//! assert_eq!(st, actk_sys::ACTK_OK);
//! ```
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_uint, c_void};

/// actk_status: a C enum, so an int here (a Rust enum would be undefined
/// behaviour for a value a newer library appends).
pub type actk_status = c_int;
pub const ACTK_OK: actk_status = 0;
pub const ACTK_ERR_NULL_POINTER: actk_status = 1;
pub const ACTK_ERR_OVERLAP: actk_status = 2;
pub const ACTK_ERR_TOO_LARGE: actk_status = 3;
pub const ACTK_ERR_ZERO_WIDTH: actk_status = 4;
pub const ACTK_ERR_WIDTH_MISMATCH: actk_status = 5;
pub const ACTK_ERR_UNSUPPORTED_ISA: actk_status = 6;
pub const ACTK_ERR_INVALID_ARGUMENT: actk_status = 7;
pub const ACTK_ERR_OUT_OF_MEMORY: actk_status = 8;
pub const ACTK_ERR_NO_THREADS: actk_status = 9;
pub const ACTK_ERR_OUT_OF_RANGE: actk_status = 10;
pub const ACTK_ERR_BAD_SHAPE: actk_status = 11;

pub type actk_isa = c_int;
pub const ACTK_ISA_SCALAR: actk_isa = 0;
pub const ACTK_ISA_AVX2: actk_isa = 1;
pub const ACTK_ISA_AVX512: actk_isa = 2;
pub const ACTK_ISA_NEON: actk_isa = 3;

/// IEEE binary16 bits.
pub type actk_f16 = u16;
/// bfloat16 bits.
pub type actk_bf16 = u16;

/// Opaque thread pool.
#[repr(C)]
pub struct actk_pool {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct actk_pool_config {
    pub struct_size: usize,
    pub threads: c_uint,
    pub spin_us: c_uint,
    pub spin_backoff_max: c_uint,
    pub pin: c_int,
}

impl Default for actk_pool_config {
    /// actk_pool_config_init's defaults (an inline function in the header).
    fn default() -> Self {
        actk_pool_config {
            struct_size: std::mem::size_of::<actk_pool_config>(),
            threads: 0,
            spin_us: 1000,
            spin_backoff_max: 1,
            pin: 0,
        }
    }
}

pub type actk_parallel_for_fn = unsafe extern "C" fn(
    host: *mut c_void,
    f: Option<unsafe extern "C" fn(data: *mut c_void, i: usize)>,
    total: usize,
    num_batch: usize,
    data: *mut c_void,
);

pub type actk_rope_layout = c_int;
pub const ACTK_ROPE_BSHD: actk_rope_layout = 0;
pub const ACTK_ROPE_BHSD: actk_rope_layout = 1;
pub type actk_rope_style = c_int;
pub const ACTK_ROPE_SPLIT_HALF: actk_rope_style = 0;
pub const ACTK_ROPE_INTERLEAVED: actk_rope_style = 1;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct actk_rope_desc {
    pub struct_size: usize,
    pub batch: usize,
    pub seq_len: usize,
    pub heads: usize,
    pub head_size: usize,
    pub rotary_dim: usize,
    pub layout: actk_rope_layout,
    pub style: actk_rope_style,
    pub max_position: usize,
    pub position_start: i64,
}

impl Default for actk_rope_desc {
    /// actk_rope_desc_init's: sizes 0, split-half, BSHD, start 0.
    fn default() -> Self {
        actk_rope_desc {
            struct_size: std::mem::size_of::<actk_rope_desc>(),
            batch: 0,
            seq_len: 0,
            heads: 0,
            head_size: 0,
            rotary_dim: 0,
            layout: ACTK_ROPE_BSHD,
            style: ACTK_ROPE_SPLIT_HALF,
            max_position: 0,
            position_start: 0,
        }
    }
}

extern "C" {
    pub fn actk_version() -> c_uint;
    pub fn actk_version_string() -> *const c_char;
    pub fn actk_status_string(status: actk_status) -> *const c_char;
    pub fn actk_isa_active() -> actk_isa;
    pub fn actk_isa_best() -> actk_isa;
    pub fn actk_isa_name(isa: actk_isa) -> *const c_char;
    pub fn actk_isa_supported(isa: actk_isa) -> c_int;
    pub fn actk_isa_reason() -> *const c_char;
    pub fn actk_isa_force(isa: actk_isa) -> actk_status;
    pub fn actk_cpu_summary() -> *const c_char;

    pub fn actk_pool_create(config: *const actk_pool_config, pool: *mut *mut actk_pool) -> actk_status;
    pub fn actk_pool_destroy(pool: *mut actk_pool);
    pub fn actk_pool_default() -> *mut actk_pool;
    pub fn actk_pool_threads(pool: *const actk_pool) -> c_uint;
    pub fn actk_pool_create_host(
        parallel_for: actk_parallel_for_fn,
        host: *mut c_void,
        threads: c_uint,
        pool: *mut *mut actk_pool,
    ) -> actk_status;

    pub fn actk_rope_cache_f32(
        cos_cache: *mut f32,
        sin_cache: *mut f32,
        max_position: usize,
        rotary_dim: usize,
        theta: f64,
    ) -> actk_status;
}

include!("ops.gen.rs");
