//! The rayon adapter: a Pool whose chunks run on rayon's threads through
//! actk_pool_create_host, so a rayon program has one set of threads, not two.
use std::os::raw::c_void;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use crate::error::status;
use crate::{sys, Error, Pool};

/// How many parallel-fors the adapter has run: lets the tests assert that
/// a large call reached rayon (a route that stayed serial would pass every
/// bit test).
static CALLS: AtomicUsize = AtomicUsize::new(0);

#[doc(hidden)]
pub fn rayon_parallel_fors() -> usize {
    CALLS.load(Ordering::Relaxed)
}

/// What the callback reads: the rayon pool to run on (None: the current one,
/// i.e. the global pool, or the pool of the rayon task that made the call).
struct Host(Option<Arc<rayon::ThreadPool>>);

/// The C side's `data` pointer, handed to the chunks on other threads.
#[derive(Clone, Copy)]
struct Data(*mut c_void);
// actk's contract: fn(data, i) may run on any thread, concurrently.
unsafe impl Send for Data {}
unsafe impl Sync for Data {}

/// actk_parallel_for_fn: fn(data, i) for every i in [0, total). rayon's
/// join gives the ordering actk needs (the caller's writes seen by every
/// chunk, every chunk's seen once this returns), and a call from inside a
/// rayon task nests by work stealing: that thread runs chunks too, nothing waits
/// on a thread that cannot come.
unsafe extern "C" fn parallel_for(
    host: *mut c_void,
    f: Option<unsafe extern "C" fn(*mut c_void, usize)>,
    total: usize,
    _num_batch: usize,
    data: *mut c_void,
) {
    let f = match f {
        Some(f) => f,
        None => return,
    };
    CALLS.fetch_add(1, Ordering::Relaxed);
    let data = Data(data);
    // one rayon task per chunk: actk already cut them to balance the threads
    let run = move || {
        (0..total).into_par_iter().with_max_len(1).for_each(move |i| {
            let d = data;
            unsafe { f(d.0, i) }
        })
    };
    // SAFETY: host is the Host that the Pool keeps alive while the raw pool lives
    let host = unsafe { &*(host as *const Host) };
    // a panic must not unwind into C: abort instead (none is expected: the
    // chunks are C code and rayon only panics on a chunk's panic)
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &host.0 {
        Some(p) => p.install(run),
        None => run(),
    }));
    if r.is_err() {
        std::process::abort();
    }
}

impl Pool {
    /// A pool whose chunks run on rayon's global pool (or the rayon pool
    /// of the task that makes the call), sized by its thread count.
    ///
    /// ```
    /// use rayon::prelude::*;
    /// let pool = actk::Pool::rayon_global()?;
    /// let mut rows = vec![vec![0.5f32; 1 << 16]; 4];
    /// // actk calls from inside rayon tasks nest: no deadlock, same bits
    /// rows.par_iter_mut().try_for_each(|r| actk::Call::new().pool(&pool).gelu_inplace(r))?;
    /// # Ok::<(), actk::Error>(())
    /// ```
    pub fn rayon_global() -> Result<Pool, Error> {
        Pool::host(Host(None), rayon::current_num_threads())
    }

    /// A pool whose chunks run on `pool` (rayon::ThreadPool::install).
    pub fn rayon(pool: Arc<rayon::ThreadPool>) -> Result<Pool, Error> {
        let threads = pool.current_num_threads();
        Pool::host(Host(Some(pool)), threads)
    }

    fn host(host: Host, threads: usize) -> Result<Pool, Error> {
        let host = Box::new(host);
        let ctx = &*host as *const Host as *mut c_void;
        let mut raw = std::ptr::null_mut();
        let threads = u32::try_from(threads).unwrap_or(u32::MAX);
        status(unsafe { sys::actk_pool_create_host(parallel_for, ctx, threads, &mut raw) })?;
        let raw = NonNull::new(raw).ok_or(Error::OutOfMemory)?;
        Ok(Pool::from_raw_owned(raw, host))
    }
}
