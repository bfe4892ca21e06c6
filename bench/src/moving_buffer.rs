//! A message buffer that each call takes at the next of four placements,
//! 0, 16, 32 and 48 bytes past a 64-byte boundary, in one allocation (as
//! warm in cache as a single buffer). Where a buffer starts within a cache
//! line moves a call's time by a few per cent, and not the same way for
//! every implementation; a `Vec<u8>` may start at any multiple of 16. So the
//! timing tools give every entry, or both builds, the same placements:
//! `bench/examples/compare.rs` uses it from this package's library, and
//! `tools/ab-probe` includes the file (`#[path]`). The bytes at a
//! placement are whatever the last call there left.

/// `len` bytes at four placements in one allocation.
pub struct Moving {
    bytes: Vec<u8>,
    /// The index of the first 64-byte-aligned byte of `bytes`.
    aligned: usize,
    len: usize,
    next: usize,
}

impl Moving {
    pub fn new(len: usize) -> Self {
        let bytes = vec![0x5a_u8; len + 64 + 48];
        let aligned = bytes.as_ptr().align_offset(64);
        Moving {
            bytes,
            aligned,
            len,
            next: 0,
        }
    }

    /// The buffer at the next placement.
    pub fn next_placement(&mut self) -> &mut [u8] {
        let at = self.aligned + 16 * self.next;
        self.next = (self.next + 1) % 4;
        &mut self.bytes[at..at + self.len]
    }

    /// The buffer at the first placement (on the 64-byte boundary).
    #[allow(dead_code, reason = "bench/examples/compare.rs reads every placement")]
    pub fn first(&self) -> &[u8] {
        &self.bytes[self.aligned..self.aligned + self.len]
    }
}
