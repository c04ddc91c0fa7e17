//! The binding's two costs, measured (rust/README.md has the numbers):
//!
//!   /usr/bin/cargo run --offline --release --example bench [repeats]
//!
//! 1. Call overhead at n = 16: actk::gelu against the raw actk_gelu_f32,
//!    interleaved (a block of calls of one, then of the other), medians of
//!    the repeats' ns per call and of their differences.
//! 2. gelu on 4 Mi f32 on 2 threads: the rayon adapter (a 2-thread
//!    rayon::ThreadPool) against actk's own pool of 2 threads, interleaved,
//!    each call after an idle gap longer than the own pool's spin (so one
//!    pool's spinning workers never steal the other's cores), medians.
use std::sync::Arc;
use std::time::{Duration, Instant};

use actk::{Call, Pool};

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn ns_per_call(calls: usize, f: &mut dyn FnMut()) -> f64 {
    let t = Instant::now();
    for _ in 0..calls {
        f();
    }
    t.elapsed().as_nanos() as f64 / calls as f64
}

fn overhead(repeats: usize) {
    let x: Vec<f32> = (0..16).map(|i| i as f32 / 4.0 - 2.0).collect();
    let mut y = vec![0.0f32; 16];
    let calls = 100_000;
    let (mut raw, mut safe, mut diff) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..repeats {
        let r = ns_per_call(calls, &mut || {
            let st = unsafe { actk::sys::actk_gelu_f32(std::ptr::null_mut(), x.as_ptr(), y.as_mut_ptr(), 16) };
            assert_eq!(st, 0);
        });
        let s = ns_per_call(calls, &mut || actk::gelu(&x, &mut y).unwrap());
        raw.push(r);
        safe.push(s);
        diff.push(s - r);
    }
    println!(
        "overhead n=16 gelu f32: raw C {:.1} ns/call, actk::gelu {:.1} ns/call, difference {:.1} ns (medians of {repeats})",
        median(&mut raw),
        median(&mut safe),
        median(&mut diff)
    );
}

fn rayon_vs_own(repeats: usize) {
    let n = 4 << 20;
    let x: Vec<f32> = (0..n).map(|i| (i % 4096) as f32 / 512.0 - 4.0).collect();
    let mut y = vec![0.0f32; n];
    let own = Pool::new(2).expect("own pool");
    let rp = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("rayon pool"));
    let adapter = Pool::rayon(rp).expect("rayon adapter");
    let gap = Duration::from_millis(3); // the own pool spins 1 ms after a job
    let time = |pool: Option<&Pool>, y: &mut [f32]| {
        std::thread::sleep(gap);
        let c = match pool {
            Some(p) => Call::new().pool(p),
            None => Call::new(),
        };
        let t = Instant::now();
        c.gelu(&x, y).unwrap();
        t.elapsed().as_secs_f64() * 1e3
    };
    let before = actk::rayon_parallel_fors();
    let (mut t_own, mut t_rayon, mut t_serial, mut ratio) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..repeats {
        let o = time(Some(&own), &mut y);
        let r = time(Some(&adapter), &mut y);
        t_serial.push(time(None, &mut y));
        t_own.push(o);
        t_rayon.push(r);
        ratio.push(o / r);
    }
    assert!(actk::rayon_parallel_fors() > before, "the adapter's calls never reached rayon");
    println!(
        "gelu f32 4 Mi, 2 threads: own pool {:.2} ms, rayon adapter {:.2} ms, serial {:.2} ms; \
         rayon speed / own pool speed {:.3} (median of per-repeat ratios, {repeats} repeats; own pool threads {})",
        median(&mut t_own),
        median(&mut t_rayon),
        median(&mut t_serial),
        median(&mut ratio),
        own.threads()
    );
}

fn main() {
    let repeats = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(21);
    println!("actk {} on {} ({})", actk::version_string(), actk::isa_name(), actk::isa_reason());
    overhead(repeats);
    rayon_vs_own(repeats);
}
