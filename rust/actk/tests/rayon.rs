//! The rayon adapter: the same bits as a serial call, large calls really go
//! through rayon, and calls from inside rayon tasks (nested) finish.
#![cfg(feature = "rayon")]
mod common;

use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use actk::{bf16, f16, Call, Pool, Tier};
use common::*;
use rayon::prelude::*;

/// Runs f on a thread of its own and fails the test if it takes over a
/// minute: a deadlock fails instead of hanging CI.
fn within_a_minute(f: impl FnOnce() + Send + 'static) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        f();
        let _ = tx.send(());
    });
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(()) => {}
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("deadlock: no result after 60 s"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the test thread panicked"),
    }
}

fn large<T: Bits>(n: usize) -> Vec<T> {
    T::inputs().into_iter().cycle().take(n).collect()
}

fn same_as_serial<T: Bits>(pool: &Pool) {
    // 1 Mi elements of gelu: far over any split threshold on several threads
    let x = large::<T>(1 << 20);
    for tier in [Tier::Accurate, Tier::Fast] {
        let mut want = vec![sentinel::<T>(); x.len()];
        Call::new().tier(tier).gelu(&x, &mut want).unwrap();
        let before = actk::rayon_parallel_fors();
        let mut y = vec![sentinel::<T>(); x.len()];
        Call::new().tier(tier).pool(pool).gelu(&x, &mut y).unwrap();
        assert!(actk::rayon_parallel_fors() > before, "the call did not reach rayon");
        same_bits(&format!("gelu {tier:?} {}", std::any::type_name::<T>()), &want, &y);
        let bias: Vec<T> = (0..4096).map(|i| T::from_f32(i as f32 / 1024.0 - 2.0)).collect();
        Call::new().tier(tier).bias_gelu_tanh(&x, &bias, &mut want).unwrap();
        Call::new().tier(tier).pool(pool).bias_gelu_tanh(&x, &bias, &mut y).unwrap();
        same_bits("bias_gelu_tanh", &want, &y);
    }
}

fn four_threads() -> Arc<rayon::ThreadPool> {
    Arc::new(rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap())
}

#[test]
fn same_bits_as_serial_on_a_given_pool() {
    let pool = Pool::rayon(four_threads()).unwrap();
    assert_eq!(pool.threads(), 4);
    same_as_serial::<f32>(&pool);
    same_as_serial::<f16>(&pool);
    same_as_serial::<bf16>(&pool);
}

#[test]
fn same_bits_as_serial_on_the_global_pool() {
    let pool = Pool::rayon_global().unwrap();
    if pool.threads() < 2 {
        return; // a one-thread rayon never splits (checked on the given pool above)
    }
    same_as_serial::<f32>(&pool);
}

/// Calls from inside tasks of the same rayon pool: each task's call runs
/// parallel-for from inside rayon, which must nest rather than wait.
#[test]
fn nested_calls_from_rayon_tasks_finish() {
    within_a_minute(|| {
        let rp = four_threads();
        let pool = Pool::rayon(rp.clone()).unwrap();
        let x = large::<f32>(1 << 18);
        let mut want = vec![0.0f32; x.len()];
        actk::gelu(&x, &mut want).unwrap();
        let outs: Vec<Vec<f32>> = rp.install(|| {
            (0..16)
                .into_par_iter()
                .map(|_| {
                    let mut y = vec![0.0f32; x.len()];
                    Call::new().pool(&pool).gelu(&x, &mut y).unwrap();
                    y
                })
                .collect()
        });
        for y in &outs {
            same_bits("nested gelu", &want, y);
        }
    });
}

/// The global adapter called from tasks of the global pool, and from
/// several plain threads at once.
#[test]
fn global_adapter_nested_and_concurrent() {
    within_a_minute(|| {
        let pool = Pool::rayon_global().unwrap();
        let x = large::<bf16>(1 << 18);
        let mut want = vec![sentinel::<bf16>(); x.len()];
        actk::silu(&x, &mut want).unwrap();
        let mut rows = vec![x.clone(); 8];
        rows.par_iter_mut().for_each(|r| Call::new().pool(&pool).silu_inplace(r).unwrap());
        for r in &rows {
            same_bits("nested silu", &want, r);
        }
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    let mut y = vec![sentinel::<bf16>(); x.len()];
                    Call::new().pool(&pool).silu(&x, &mut y).unwrap();
                    same_bits("concurrent silu", &want, &y);
                });
            }
        });
    });
}

/// A host pool is Send and Sync, and dropping it while rayon lives is fine.
#[test]
fn pools_are_send_and_sync() {
    fn is<T: Send + Sync>() {}
    is::<Pool>();
    is::<Call<'static>>();
    for _ in 0..100 {
        drop(Pool::rayon(four_threads()).unwrap());
    }
    let own = Pool::new(2).unwrap();
    assert!(own.threads() >= 1);
    let g = Pool::global().unwrap();
    drop(g);
    assert!(Pool::global().unwrap().threads() >= 1); // the default pool survives its handles
}
