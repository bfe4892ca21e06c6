//! After `fork()`, a child must neither repeat its parent's generated nonces
//! nor its random generator's output. One test in its own binary: forking a
//! process with several test threads running is asking for trouble, so this
//! file has a single test and the child only calls the library (no allocation)
//! and `write`/`_exit`.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#![cfg(unix)]

use hardware_aead::aes_gcm::Aes256Gcm;
use hardware_aead::random::Generator;

/// What a child reports: its next 4 generated nonces and 64 generator bytes.
const REPORT: usize = 4 * 12 + 64;

/// Runs `child` in a forked child and returns the bytes it wrote.
fn in_child(child: impl FnOnce() -> [u8; REPORT]) -> [u8; REPORT] {
    let mut fds = [0i32; 2];
    // SAFETY: `fds` has room for the two descriptors.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: the child only runs `child` (library calls that do not allocate),
    // `write` and `_exit`.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let report = child();
        // SAFETY: writing a local buffer to the pipe, then leaving at once.
        unsafe {
            libc::write(fds[1], report.as_ptr().cast(), REPORT);
            libc::_exit(0);
        }
    }
    let mut report = [0u8; REPORT];
    let mut read = 0;
    while read < REPORT {
        // SAFETY: reading into the unread part of `report`.
        let n = unsafe { libc::read(fds[0], report[read..].as_mut_ptr().cast(), REPORT - read) };
        assert!(n > 0, "the child wrote {read} of {REPORT} bytes");
        read += n as usize;
    }
    let mut status = 0;
    // SAFETY: waiting for our own child.
    unsafe {
        libc::waitpid(pid, &mut status, 0);
        libc::close(fds[0]);
        libc::close(fds[1]);
    }
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "child status {status}"
    );
    report
}

fn next_nonces(key: &Aes256Gcm, out: &mut [u8]) {
    for chunk in out.chunks_exact_mut(12) {
        let (nonce, _): ([u8; 12], _) = key.seal_with_generated_nonce(b"", b"").unwrap();
        chunk.copy_from_slice(&nonce);
    }
}

#[test]
fn a_child_repeats_neither_nonces_nor_random_output() {
    let key = Aes256Gcm::new(&[0x42; 32]).unwrap();
    let mut rng = Generator::new().unwrap();
    // The parent has drawn its salt and used its generator before forking, so
    // the generator holds buffered keystream the child must not serve.
    let (first, _) = key.seal_with_generated_nonce(b"", b"").unwrap();
    let mut warm = [0u8; 5];
    rng.fill(&mut warm).unwrap();

    let child = in_child(|| {
        let mut report = [0u8; REPORT];
        let (nonces, bytes) = report.split_at_mut(4 * 12);
        next_nonces(&key, nonces);
        rng.fill(bytes).unwrap();
        report
    });

    // What the parent produces next: the continuation the child must not repeat.
    let mut parent = [0u8; REPORT];
    let (nonces, bytes) = parent.split_at_mut(4 * 12);
    next_nonces(&key, nonces);
    rng.fill(bytes).unwrap();

    let child_nonces: Vec<&[u8]> = child[..48].chunks(12).collect();
    let parent_nonces: Vec<&[u8]> = parent[..48].chunks(12).collect();
    for n in &child_nonces {
        assert!(
            !parent_nonces.contains(n),
            "the child repeated a parent nonce"
        );
        assert_ne!(
            *n,
            &first[..],
            "the child repeated the parent's first nonce"
        );
    }
    // The child's nonces come from a new salt: not the parent's salt with a
    // counter (the first 4 bytes, untouched by the counter, differ).
    assert_ne!(
        child_nonces[0][..4],
        first[..4],
        "the child kept its parent's salt"
    );
    assert_ne!(
        child[48..],
        parent[48..],
        "the child repeated the parent's random output"
    );
}
