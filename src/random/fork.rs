//! Fork detection: a process-wide *fork generation* that changes in a child
//! process after `fork()`, read in a few nanoseconds.
//!
//! Three mechanisms, each behind the other:
//!
//! 1. A `MADV_WIPEONFORK` page (Linux ≥ 4.14). The kernel hands the child a
//!    zero-filled copy of the page, so a marker written there reads as zero
//!    after a fork — including a raw `clone(2)` that bypasses libc. Some
//!    environments accept the `madvise` call but ignore it (qemu-user does),
//!    and older kernels refuse it, so it is never the only mechanism.
//! 2. A `pthread_atfork` child handler, which bumps the generation in every
//!    child created through libc's `fork()`, whatever the kernel or emulator.
//! 3. A process-id check, made where a syscall is affordable: whenever a
//!    salt or a generator seed is drawn from the operating system
//!    ([`checked_generation`]).
//!
//! The fast path ([`generation`]) is two loads: the page marker and the
//! atfork counter.

use core::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use std::sync::Once;

/// The generation bumped by the atfork handler and by detected forks.
static GENERATION: AtomicU32 = AtomicU32::new(1);

/// The `MADV_WIPEONFORK` page's marker byte (null before set-up or if the
/// page could not be made).
static MARKER: AtomicPtr<u8> = AtomicPtr::new(core::ptr::null_mut());

/// The process id at the last check.
static PID: AtomicU32 = AtomicU32::new(0);

static SETUP: Once = Once::new();

/// The atfork child handler: a new generation for the child.
extern "C" fn in_child() {
    GENERATION.fetch_add(1, Ordering::SeqCst);
}

/// Installs the handler and the page, once per process.
fn setup() {
    SETUP.call_once(|| {
        PID.store(std::process::id(), Ordering::SeqCst);
        #[cfg(unix)]
        // SAFETY: `in_child` is an `extern "C" fn()` that only touches an atomic,
        // which is async-signal-safe and allowed in an atfork child handler.
        unsafe {
            libc::pthread_atfork(None, None, Some(in_child));
        }
        #[cfg(target_os = "linux")]
        MARKER.store(wipe_on_fork_page(), Ordering::SeqCst);
    });
}

/// Maps one page, asks the kernel to wipe it in children, and writes the
/// marker. Returns null if the kernel refused.
#[cfg(target_os = "linux")]
fn wipe_on_fork_page() -> *mut u8 {
    // SAFETY: an anonymous private mapping of one page, not tied to any Rust
    // object; checked for failure before use; never unmapped (it lives as long
    // as the process, like the statics that point to it).
    unsafe {
        let len = 4096;
        let page = libc::mmap(
            core::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if page == libc::MAP_FAILED {
            return core::ptr::null_mut();
        }
        if libc::madvise(page, len, libc::MADV_WIPEONFORK) != 0 {
            libc::munmap(page, len);
            return core::ptr::null_mut();
        }
        let marker = page.cast::<u8>();
        marker.write_volatile(1);
        marker
    }
}

/// The current fork generation: it differs in a child from its parent's.
#[inline]
pub(crate) fn generation() -> u32 {
    setup();
    let marker = MARKER.load(Ordering::Acquire);
    // SAFETY: a non-null marker points into the page mapped in
    // `wipe_on_fork_page`, which is never unmapped.
    if !marker.is_null() && unsafe { marker.read_volatile() } == 0 {
        // The kernel wiped the page: this is a child. Re-arm and move on.
        forked();
        // SAFETY: as above.
        unsafe { marker.write_volatile(1) };
    }
    GENERATION.load(Ordering::Acquire)
}

/// [`generation`], also checking the process id (one syscall): used where
/// the operating system is asked for randomness anyway.
pub(crate) fn checked_generation() -> u32 {
    setup();
    let pid = std::process::id();
    if PID.swap(pid, Ordering::SeqCst) != pid {
        forked();
    }
    generation()
}

fn forked() {
    GENERATION.fetch_add(1, Ordering::SeqCst);
}

/// Whether the kernel accepted `MADV_WIPEONFORK` for the marker page (it may
/// still ignore it under an emulator; tests check the effect by forking).
#[cfg(test)]
pub(crate) fn wipe_on_fork_accepted() -> bool {
    setup();
    !MARKER.load(Ordering::Acquire).is_null()
}
