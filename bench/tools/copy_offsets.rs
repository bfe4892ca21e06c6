//! How fast the C library's `memcpy` copies 64 KiB out of memory that is not
//! in cache, by where the destination lies relative to the source modulo
//! 4 KiB: the copy every `io::Read` source makes into a reader's buffer
//! (`<&[u8] as Read>::read` is a `copy_from_slice`, a `read(2)` the kernel's
//! copy). Run by `bench/tools/copy-offsets.sh`; docs/benchmarks.md,
//! "Streaming on Zen 4 (`stream`, `ece`)", has what it shows on Zen 4 (the
//! table: docs/measurements/2026-11-23-zen4/tables.md).
//!
//! Each row: sixteen 64 KiB copies from a 4 MiB source (so each source byte
//! comes from L3 or memory, not L1 or L2) to one 64 KiB destination, the
//! destination `rel` bytes after the source modulo 4 KiB; the best of 30
//! runs, in nanoseconds per 64 KiB. The last row copies the same bytes in
//! 4 KiB pieces into one 4 KiB destination (it stays in L1): what an
//! L1-sized buffer would save. Then the same megabyte read from a file in
//! the page cache (`/dev/shm`, else the temporary directory) in calls of
//! 64, 8 and 4 KiB: what smaller reads cost a reader of a `File`.

use std::hint::black_box;
use std::io::{Read, Seek, SeekFrom};
use std::time::Instant;

const COPY: usize = 64 * 1024;
const SOURCE: usize = 4 << 20;
const PAGE: usize = 4096;

/// Offset of `ptr` past the previous 4 KiB boundary.
fn page_offset(ptr: *const u8) -> usize {
    ptr as usize % PAGE
}

/// Best time of 30 runs of `f`, in nanoseconds per 64 KiB copied (`f`
/// copies sixteen times that).
fn best_of(mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..30 {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / 16.0);
    }
    best
}

fn main() {
    let source = vec![0x5a_u8; SOURCE + 2 * PAGE];
    let mut dest = vec![0u8; COPY + 2 * PAGE];
    // Both bases on a 4 KiB boundary, so `rel` is the only offset.
    let s0 = (PAGE - page_offset(source.as_ptr())) % PAGE;
    let d0 = (PAGE - page_offset(dest.as_ptr())) % PAGE;
    println!("64 KiB copies from a 4 MiB source, by (destination - source) mod 4096:");
    println!("{:>6} {:>10}", "rel", "ns / 64 KiB");
    for rel in [0, 1, 2, 4, 8, 12, 15, 16, 17, 24, 31, 32, 48, 63, 64, 256, 2048, 4032, 4095] {
        let ns = best_of(|| {
            for k in 0..16 {
                let from = s0 + k * (SOURCE / 16);
                dest[d0 + rel..d0 + rel + COPY].copy_from_slice(&source[from..from + COPY]);
                black_box(&mut dest);
            }
        });
        println!("{rel:>6} {ns:>10.0}");
    }
    let mut piece = vec![0u8; PAGE];
    let ns = best_of(|| {
        for k in 0..16 {
            let from = s0 + k * (SOURCE / 16);
            for chunk in source[from..from + COPY].chunks(PAGE) {
                piece.copy_from_slice(chunk);
                black_box(&mut piece);
            }
        }
    });
    println!("{:>6} {ns:>10.0}  (4 KiB pieces into one 4 KiB buffer)", "L1");

    let dir = std::path::Path::new("/dev/shm");
    let dir = if dir.is_dir() { dir.to_path_buf() } else { std::env::temp_dir() };
    let path = dir.join(format!("copy_offsets.{}", std::process::id()));
    std::fs::write(&path, &source[..16 * COPY]).expect("a writable temporary directory");
    let mut file = std::fs::File::open(&path).expect("the file just written");
    println!("1 MiB read from {} by calls of:", path.display());
    for call in [COPY, 8192, 4096] {
        let ns = best_of(|| {
            file.seek(SeekFrom::Start(0)).unwrap();
            let mut done = 0;
            while done < 16 * COPY {
                let n = file.read(&mut dest[d0..d0 + call]).unwrap();
                assert!(n > 0, "the file is 1 MiB long");
                done += n;
            }
        });
        println!("{call:>6} {:>10.0} ns / MiB", 16.0 * ns);
    }
    std::fs::remove_file(&path).expect("the file just written");
}
