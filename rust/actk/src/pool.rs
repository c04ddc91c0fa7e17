//! Thread pools: an own pool (actk's threads), the process-wide default one,
//! and (rayon_pool.rs) one that runs actk's chunks on rayon's threads.
use std::ptr::NonNull;

use crate::error::status;
use crate::{sys, Error};

/// actk_pool_config: threads (the caller included; 0: the physical cores
/// this process may run on), spin time after a job, backoff, pinning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolConfig {
    pub threads: u32,
    pub spin_us: u32,
    pub spin_backoff_max: u32,
    pub pin: bool,
}

impl Default for PoolConfig {
    fn default() -> Self {
        let c = sys::actk_pool_config::default();
        PoolConfig { threads: c.threads, spin_us: c.spin_us, spin_backoff_max: c.spin_backoff_max, pin: c.pin != 0 }
    }
}

pub(crate) enum Kind {
    /// actk_pool_create / actk_pool_create_host: destroyed on drop
    Owned,
    /// actk_pool_default: lives as long as the process
    Default,
}

/// A thread pool for [`Call::pool`](crate::Call::pool). Any number of
/// threads may call into one pool at once (include/actk.h), so it is Send
/// and Sync; dropping it joins its threads, and the borrow checker keeps
/// every call that uses it from outliving it.
///
/// ```
/// let pool = actk::Pool::new(2)?;
/// assert!(pool.threads() >= 1);
/// let x = vec![1.0f32; 1 << 20];
/// let mut y = vec![0.0f32; x.len()];
/// actk::Call::new().pool(&pool).gelu(&x, &mut y)?;
/// actk::Call::new().pool(&actk::Pool::global()?).gelu(&x, &mut y)?;
/// # Ok::<(), actk::Error>(())
/// ```
pub struct Pool {
    raw: NonNull<sys::actk_pool>,
    kind: Kind,
    // what a host pool's callback reads (rayon_pool.rs); dropped after the pool
    _host: Option<Box<dyn std::any::Any + Send + Sync>>,
}

// actk.h: "Any number of threads may call into one pool at once"; creation
// and destruction are the owner's (Drop takes &mut self, so no call is running).
unsafe impl Send for Pool {}
unsafe impl Sync for Pool {}

impl Pool {
    /// An own pool of `threads` threads (the caller included), other settings default.
    pub fn new(threads: u32) -> Result<Pool, Error> {
        Pool::with_config(&PoolConfig { threads, ..PoolConfig::default() })
    }

    pub fn with_config(config: &PoolConfig) -> Result<Pool, Error> {
        let c = sys::actk_pool_config {
            threads: config.threads,
            spin_us: config.spin_us,
            spin_backoff_max: config.spin_backoff_max,
            pin: config.pin as i32,
            ..sys::actk_pool_config::default()
        };
        let mut raw = std::ptr::null_mut();
        status(unsafe { sys::actk_pool_create(&c, &mut raw) })?;
        // on success the pointer is set (actk.h); NULL would be a library bug
        let raw = NonNull::new(raw).ok_or(Error::OutOfMemory)?;
        Ok(Pool { raw, kind: Kind::Owned, _host: None })
    }

    /// The process-wide pool with default settings, created on first use and
    /// never freed (this handle's drop leaves it alone).
    pub fn global() -> Result<Pool, Error> {
        let raw = NonNull::new(unsafe { sys::actk_pool_default() }).ok_or(Error::NoThreads)?;
        Ok(Pool { raw, kind: Kind::Default, _host: None })
    }

    /// A pool over an already created raw pool (host pools); `host` stays
    /// alive until the raw pool is destroyed.
    pub(crate) fn from_raw_owned(raw: NonNull<sys::actk_pool>, host: Box<dyn std::any::Any + Send + Sync>) -> Pool {
        Pool { raw, kind: Kind::Owned, _host: Some(host) }
    }

    /// Threads a call may use, the caller included.
    pub fn threads(&self) -> u32 {
        unsafe { sys::actk_pool_threads(self.raw.as_ptr()) }
    }

    /// The raw pool, for actk-sys calls; valid while `self` lives.
    pub fn as_ptr(&self) -> *mut sys::actk_pool {
        self.raw.as_ptr()
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        if let Kind::Owned = self.kind {
            unsafe { sys::actk_pool_destroy(self.raw.as_ptr()) }
        }
    }
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool").field("threads", &self.threads()).finish()
    }
}
