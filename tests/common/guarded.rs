//! Two usable pages between two inaccessible ones: where a message, AAD
//! or output ends flush against a page that cannot be read or written.
//! Used by `tests/guard_pages.rs` (a stray access is a crash there) and by
//! `bench/examples/page_end.rs` (what such a placement costs), each
//! including this file by path.

/// Two usable pages between two inaccessible ones.
pub struct Guarded {
    base: *mut u8,
    page: usize,
}

impl Guarded {
    pub fn new() -> Self {
        // SAFETY: sysconf has no preconditions.
        let page =
            usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).expect("page size");
        // SAFETY: an anonymous private mapping of four pages, checked below;
        // then the first and the last are made inaccessible.
        unsafe {
            let base = libc::mmap(
                core::ptr::null_mut(),
                4 * page,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            assert_ne!(base, libc::MAP_FAILED, "mmap");
            let base = base.cast::<u8>();
            assert_eq!(libc::mprotect(base.cast(), page, libc::PROT_NONE), 0);
            assert_eq!(
                libc::mprotect(base.add(3 * page).cast(), page, libc::PROT_NONE),
                0
            );
            Self { base, page }
        }
    }

    /// `len` bytes (at most two pages) ending where the last guard page
    /// starts (`at_end`), or starting where the first one ends.
    pub fn slice(&mut self, len: usize, at_end: bool) -> &mut [u8] {
        assert!(len <= 2 * self.page);
        let start = if at_end {
            3 * self.page - len
        } else {
            self.page
        };
        // SAFETY: bytes `start..start + len` lie in pages 1 and 2 of the
        // mapping, which are readable and writable; `&mut self` makes the
        // slice the only access while it lives.
        unsafe { core::slice::from_raw_parts_mut(self.base.add(start), len) }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping made in `new`.
        unsafe { libc::munmap(self.base.cast(), 4 * self.page) };
    }
}
