//! The timing loop of the comparison examples (`examples/compare.rs`,
//! `examples/records.rs`): one process, the entries interleaved in rounds
//! (A B C A B C …), each sample a batch of about 2 ms, the median of the
//! rounds reported with this crate's entries' ratio to the fastest peer's.

use std::time::{Duration, Instant};

/// One measured entry: a name, whether it is a peer, and one call.
pub struct Entry<'a> {
    pub name: String,
    pub peer: bool,
    pub call: Box<dyn FnMut() + 'a>,
}

/// Times every entry in `rounds` interleaved rounds and prints the medians.
pub fn run(title: &str, bytes: usize, rounds: usize, entries: &mut [Entry<'_>]) {
    // Calibrate: calls per sample so that one sample takes about 2 ms.
    let mut per_sample = Vec::new();
    for e in entries.iter_mut() {
        let mut n = 1u64;
        loop {
            let t = Instant::now();
            for _ in 0..n {
                (e.call)();
            }
            if t.elapsed() > Duration::from_millis(2) || n > 1 << 24 {
                break;
            }
            n *= 2;
        }
        per_sample.push(n);
    }
    let mut samples = vec![Vec::with_capacity(rounds); entries.len()];
    for _ in 0..rounds {
        for (i, e) in entries.iter_mut().enumerate() {
            let n = per_sample[i];
            let t = Instant::now();
            for _ in 0..n {
                (e.call)();
            }
            samples[i].push(t.elapsed().as_secs_f64() * 1e9 / n as f64);
        }
    }
    let medians: Vec<f64> = samples
        .iter_mut()
        .map(|s| {
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        })
        .collect();
    let best_peer = entries
        .iter()
        .zip(&medians)
        .filter(|(e, _)| e.peer)
        .map(|(_, &m)| m)
        .fold(f64::INFINITY, f64::min);
    println!("{title}");
    for (e, m) in entries.iter().zip(&medians) {
        let rate = if bytes >= 1024 {
            format!("{:7.2} GB/s", bytes as f64 / m)
        } else {
            String::new()
        };
        let ratio = if e.peer {
            String::new()
        } else {
            format!("  {:.2}x best peer's time", m / best_peer)
        };
        println!("  {:<14} {:10.1} ns {rate}{ratio}", e.name, m);
    }
}

/// The CPU's vendor, family, model and name from `/proc/cpuinfo` (empty
/// fields elsewhere), for the first line of every run.
pub fn cpu_line() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        cpu.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split(':').nth(1))
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    };
    format!(
        "CPU: {} family {} model {} ({})",
        field("vendor_id"),
        field("cpu family"),
        field("model\t"),
        field("model name")
    )
}
