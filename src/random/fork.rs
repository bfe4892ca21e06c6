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
//! 3. A process-id check: whenever a salt or a generator seed is drawn from
//!    the operating system ([`checked_generation`]), and on every call of the
//!    fast path where there is no marker page (kernels before 4.14, other
//!    systems), since then nothing else would see a fork that bypasses libc
//!    (`syscall(SYS_fork)`, `clone`, `_Fork`).
//!
//! On FreeBSD and OpenBSD the marker page is made with `minherit(INHERIT_ZERO)`,
//! their equivalent of `MADV_WIPEONFORK`.
//!
//! A process copied by other means — a VM or process snapshot restored twice
//! (Firecracker, VM templates, CRIU) — keeps its process id and its memory;
//! no mechanism can see that from inside. The application says so with
//! [`crate::random::process_restored`], which starts a new generation.
//!
//! The fast path ([`generation`]) is two loads (the page marker and the
//! atfork counter) where the page exists.

use core::sync::atomic::{AtomicPtr, AtomicU8, AtomicU32, AtomicU64, Ordering};

/// The generation bumped by the atfork handler and by detected forks: 64
/// bits, so no number of forks and restores in one lineage brings an old
/// value back.
static GENERATION: AtomicU64 = AtomicU64::new(1);

/// The `MADV_WIPEONFORK` page's marker byte (null before set-up or if the
/// page could not be made).
static MARKER: AtomicPtr<u8> = AtomicPtr::new(core::ptr::null_mut());

/// The process id at the last check.
static PID: AtomicU32 = AtomicU32::new(0);

/// [`setup`]'s progress: not started, running, done (see [`run_once`]).
static SETUP: AtomicU8 = AtomicU8::new(SETUP_NOT_STARTED);
const SETUP_NOT_STARTED: u8 = 0;
const SETUP_RUNNING: u8 = 1;
const SETUP_DONE: u8 = 2;

/// This process's id: `getpid` where there is libc (with or without `std`),
/// `std::process::id` elsewhere with `std`. Without either there is no
/// `fork()` to see, and the id is a constant.
fn process_id() -> u32 {
    #[cfg(unix)]
    {
        // SAFETY: `getpid` has no preconditions and cannot fail.
        let pid = unsafe { libc::getpid() };
        pid as u32
    }
    #[cfg(all(not(unix), feature = "std"))]
    {
        std::process::id()
    }
    #[cfg(all(not(unix), not(feature = "std")))]
    {
        0
    }
}

/// The atfork child handler: a new generation for the child.
#[cfg(unix)]
extern "C" fn in_child() {
    GENERATION.fetch_add(1, Ordering::SeqCst);
}

/// Installs the handler and the page, once per process; whether they are
/// installed (see [`run_once`]).
fn setup() -> bool {
    run_once(&SETUP, install)
}

/// Runs `install` once, tracked by `state`: whether it has finished. A
/// `std::sync::Once` without `std` that never waits. A caller that finds
/// `install` running gets `false` at once, wherever that run is: in another
/// thread; in this thread, under a signal handler that interrupted it (the
/// generated-nonce calls that reach [`generation`] may run in a handler);
/// or in a child forked by another thread in the middle of it, where the
/// installing thread does not exist and the state stays "running" for
/// good. Waiting, as `Once` does, would spin forever in the last two.
/// [`generation`] falls back to the process-id check until setup is done.
fn run_once(state: &AtomicU8, install: fn()) -> bool {
    // A load first: after setup, this is all the fast path pays.
    let now = state.load(Ordering::Acquire);
    if now != SETUP_NOT_STARTED {
        return now == SETUP_DONE;
    }
    match state.compare_exchange(
        SETUP_NOT_STARTED,
        SETUP_RUNNING,
        Ordering::Acquire,
        Ordering::Acquire,
    ) {
        Ok(_) => {
            install();
            state.store(SETUP_DONE, Ordering::Release);
            true
        }
        Err(now) => now == SETUP_DONE,
    }
}

/// What [`setup`] does once: the process id, the atfork handler, the page.
fn install() {
    {
        PID.store(process_id(), Ordering::SeqCst);
        #[cfg(unix)]
        // SAFETY: `in_child` is an `extern "C" fn()` that only touches an atomic,
        // which is async-signal-safe and allowed in an atfork child handler.
        unsafe {
            libc::pthread_atfork(None, None, Some(in_child));
        }
        #[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
        MARKER.store(wipe_on_fork_page(), Ordering::SeqCst);
    }
}

/// The system's page size.
#[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
fn page_size() -> usize {
    // SAFETY: `sysconf` with a valid name has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size)
        .ok()
        .filter(|&s| s > 0)
        .unwrap_or(4096)
}

/// Asks the kernel to give children a zero-filled copy of `len` bytes at
/// `page`: `MADV_WIPEONFORK` on Linux, `minherit(INHERIT_ZERO)` on the BSDs.
///
/// # Safety
/// `page` must be a page-aligned mapping of `len` bytes owned by the caller.
#[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
unsafe fn zero_in_children(page: *mut libc::c_void, len: usize) -> bool {
    #[cfg(target_os = "linux")]
    // SAFETY: the caller's mapping (see above).
    let status = unsafe { libc::madvise(page, len, libc::MADV_WIPEONFORK) };
    #[cfg(target_os = "freebsd")]
    // SAFETY: the caller's mapping (see above).
    let status = unsafe { libc::minherit(page, len, libc::INHERIT_ZERO) };
    #[cfg(target_os = "openbsd")]
    // SAFETY: the caller's mapping (see above).
    let status = unsafe { libc::minherit(page, len, libc::MAP_INHERIT_ZERO) };
    status == 0
}

/// Maps one page, asks the kernel to wipe it in children, and writes the
/// marker. Returns null if the kernel refused.
#[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
fn wipe_on_fork_page() -> *mut u8 {
    // SAFETY: an anonymous private mapping of one page, not tied to any Rust
    // object; checked for failure before use; never unmapped (it lives as long
    // as the process, like the statics that point to it).
    unsafe {
        let len = page_size();
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
        if !zero_in_children(page, len) {
            libc::munmap(page, len);
            return core::ptr::null_mut();
        }
        let marker = page.cast::<u8>();
        // Before the pointer is published (by `install`), so plain.
        marker.write(1);
        marker
    }
}

/// The marker byte as an atomic, if there is a marker page: every thread
/// reads it, and the first to find it wiped re-arms it.
fn marker() -> Option<&'static AtomicU8> {
    let marker = MARKER.load(Ordering::Acquire);
    // SAFETY: a non-null marker points into the page mapped in
    // `wipe_on_fork_page`, which is never unmapped; after `setup` publishes
    // it, the byte is only ever accessed through this atomic view.
    (!marker.is_null()).then(|| unsafe { AtomicU8::from_ptr(marker) })
}

/// The current fork generation: it differs in a child from its parent's.
#[inline]
pub(crate) fn generation() -> u64 {
    if !setup() {
        // Setup is running (see `run_once`): neither the page nor the
        // handler can be counted on yet, so the process id decides.
        return pid_generation();
    }
    match marker() {
        // No marker page: only the process id can see a fork that bypassed
        // libc's handlers.
        None => check_pid(),
        // The kernel wiped the page: this is a child. New generation first,
        // then re-arm, so that a thread that finds the marker re-armed also
        // finds the new generation (two threads that both saw it wiped start
        // two generations, which costs a second salt and nothing else).
        Some(m) if m.load(Ordering::Acquire) == 0 => {
            forked();
            m.store(1, Ordering::Release);
        }
        Some(_) => {}
    }
    GENERATION.load(Ordering::Acquire)
}

/// The generation by the process-id check alone (one syscall).
#[cold]
fn pid_generation() -> u64 {
    check_pid();
    GENERATION.load(Ordering::Acquire)
}

/// Starts a new generation if the process id changed since the last check.
fn check_pid() {
    let pid = process_id();
    if PID.swap(pid, Ordering::SeqCst) != pid {
        forked();
    }
}

/// [`generation`], also checking the process id (one syscall): used where
/// the operating system is asked for randomness anyway.
pub(crate) fn checked_generation() -> u64 {
    setup();
    check_pid();
    generation()
}

/// Starts a new generation: every key re-draws its nonce salt and every
/// generator reseeds at its next use.
pub(crate) fn forked() {
    GENERATION.fetch_add(1, Ordering::SeqCst);
}

/// Moves the generation on by `n` (tests of what a key does after many
/// generations).
#[cfg(all(test, feature = "std"))]
pub(crate) fn advance_for_test(n: u64) {
    GENERATION.fetch_add(n, Ordering::SeqCst);
}

/// The marker byte as it is now (`None` without a marker page): zero in a
/// child only where the kernel honours the wipe advice (qemu-user accepts
/// and ignores it).
#[cfg(all(test, feature = "std"))]
pub(crate) fn marker_for_test() -> Option<u8> {
    marker().map(|m| m.load(Ordering::Acquire))
}

/// Takes the marker page away (or gives it back) for a test of the path
/// without it; returns what was there.
#[cfg(all(test, feature = "std"))]
pub(crate) fn set_marker_for_test(marker: *mut u8) -> *mut u8 {
    setup();
    MARKER.swap(marker, Ordering::SeqCst)
}

/// Whether the kernel accepted `MADV_WIPEONFORK` for the marker page (it may
/// still ignore it under an emulator; tests check the effect by forking).
/// Waits, up to ten seconds, for a setup that another test's thread is
/// running: [`setup`] returns at once then, before the page exists (seen on
/// a 16-core host, where the suite's threads race to the first setup).
#[cfg(all(test, feature = "std"))]
pub(crate) fn wipe_on_fork_accepted() -> bool {
    let start = std::time::Instant::now();
    while !setup() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "fork detection's setup did not finish"
        );
        std::thread::yield_now();
    }
    !MARKER.load(Ordering::Acquire).is_null()
}

#[cfg(all(test, unix, feature = "std"))]
mod tests {
    //! [`run_once`] never waits on itself. Each test has its own state (the
    //! process's own setup ran long before), and its own `install`.

    use super::*;
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    /// Runs `f` on a thread and returns its result, or panics if it has not
    /// returned within ten seconds (a setup that waits on itself spins).
    fn within_seconds<T: Send + 'static>(f: fn() -> T) -> T {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(Duration::from_secs(10))
            .expect("run_once did not return: it waited on a setup that cannot finish")
    }

    /// Waits up to ten seconds for the child `pid` to exit and returns its
    /// exit status: 124 if it had not exited by then (it is killed), 125 if
    /// a signal ended it.
    fn wait_for_child(pid: libc::pid_t) -> i32 {
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut status = 0;
        loop {
            // SAFETY: polling our own child.
            let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
            if r == pid {
                return if libc::WIFEXITED(status) {
                    libc::WEXITSTATUS(status)
                } else {
                    125
                };
            }
            assert!(r == 0, "waitpid failed");
            if Instant::now() > deadline {
                // SAFETY: killing and reaping our own child.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, &mut status, 0);
                }
                return 124;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Runs `f` in a forked child and returns the status it exits with
    /// ([`wait_for_child`]). `f` runs in a copy of a process of many threads,
    /// of which only this one goes on: it may only call what is
    /// async-signal-safe.
    fn in_child_process(f: impl FnOnce() -> i32) -> i32 {
        // SAFETY: the child runs `f`, bound as above, and leaves with `_exit`.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            let status = f();
            // SAFETY: leaving the child at once.
            unsafe { libc::_exit(status) };
        }
        wait_for_child(pid)
    }

    /// What the inner call of a test saw: 0 not called, 1 false, 2 true.
    fn seen(done: bool) -> u8 {
        if done { 2 } else { 1 }
    }

    fn noop() {}

    #[test]
    fn setup_entered_again_from_its_own_install_returns_at_once() {
        static STATE: AtomicU8 = AtomicU8::new(SETUP_NOT_STARTED);
        static INNER: AtomicU8 = AtomicU8::new(0);
        fn install() {
            INNER.store(seen(run_once(&STATE, noop)), Ordering::SeqCst);
        }
        assert!(within_seconds(|| run_once(&STATE, install)));
        assert_eq!(
            INNER.load(Ordering::SeqCst),
            1,
            "the inner call sees setup unfinished"
        );
        assert!(run_once(&STATE, || panic!("installed twice")));
    }

    /// Runs in a child process of one thread: the handler is process-wide, so
    /// no other test's thread can take the signal, and a child that spins is
    /// killed. It also keeps qemu-i386, where CI runs the 32-bit tests, from
    /// breaking the harness: there a handler's return reloads `%gs` from a
    /// descriptor table that all threads share, and in a process of many
    /// threads the interrupted thread went on with the newest thread's
    /// thread-local storage. The child touches none after the handler.
    #[test]
    fn a_signal_handler_that_interrupts_setup_returns_at_once() {
        static STATE: AtomicU8 = AtomicU8::new(SETUP_NOT_STARTED);
        static IN_HANDLER: AtomicU8 = AtomicU8::new(0);
        extern "C" fn handler(_: libc::c_int) {
            IN_HANDLER.store(seen(run_once(&STATE, noop)), Ordering::SeqCst);
        }
        fn install() {
            // SAFETY: `raise` delivers the signal to this thread before it
            // returns; the handler only touches atomics.
            unsafe { libc::raise(libc::SIGUSR2) };
        }
        /// 0: setup finished and the handler saw it unfinished; 1: setup did
        /// not report done; 2: the handler did not run or saw it done.
        fn child() -> i32 {
            // SAFETY: a handler that only touches atomics, installed with a
            // zeroed (empty) mask and flags in a process of one thread.
            unsafe {
                let mut action: libc::sigaction = core::mem::zeroed();
                action.sa_sigaction = handler as extern "C" fn(libc::c_int) as usize;
                if libc::sigaction(libc::SIGUSR2, &action, core::ptr::null_mut()) != 0 {
                    return 3;
                }
            }
            if !run_once(&STATE, install) {
                1
            } else if IN_HANDLER.load(Ordering::SeqCst) != 1 {
                2
            } else {
                0
            }
        }
        assert_eq!(
            in_child_process(child),
            0,
            "1: setup unfinished; 2: the handler did not see it running; 124: it spun"
        );
    }

    #[test]
    fn a_child_forked_during_setup_returns_at_once_and_checks_its_pid() {
        static STATE: AtomicU8 = AtomicU8::new(SETUP_NOT_STARTED);
        /// The child's exit status: 0 if `run_once` returned `false` and the
        /// process-id generation moved on; 124 if it did not exit in time.
        static CHILD: AtomicU32 = AtomicU32::new(u32::MAX);
        fn install() {
            let before = pid_generation();
            // The child only touches atomics and calls `getpid`.
            let status = in_child_process(|| {
                let returned = !run_once(&STATE, noop);
                let moved_on = pid_generation() != before;
                if returned && moved_on { 0 } else { 1 }
            });
            CHILD.store(status as u32, Ordering::SeqCst);
        }
        // The process's own setup first, so that the parent's pid check in
        // `install` finds its pid recorded and starts no generation that other
        // tests running beside this one would see.
        generation();
        assert!(within_seconds(|| run_once(&STATE, install)));
        assert_eq!(
            CHILD.load(Ordering::SeqCst),
            0,
            "the child must return at once (124: it spun) with a new generation"
        );
    }
}
