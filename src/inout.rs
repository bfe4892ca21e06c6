//! The bounds-checked input and output views of a kernel, and the short
//! copies of tails. A leaf below `backend`.

use core::marker::PhantomData;

use crate::block::Block;

/// The input and output of a kernel: one buffer transformed in place, or two
/// disjoint buffers of the same length. Reads and writes are bounds-checked
/// against that length, so a kernel cannot touch a byte outside the caller's
/// slices.
///
/// In place, a kernel must read a range before it writes it; every kernel reads a
/// group of blocks into registers, then writes the group.
pub struct InOut<'a> {
    src: *const u8,
    dst: *mut u8,
    len: usize,
    _buffers: PhantomData<&'a mut [u8]>,
}

impl<'a> InOut<'a> {
    /// Transforms `buffer` in place.
    pub(crate) fn in_place(buffer: &'a mut [u8]) -> Self {
        let dst = buffer.as_mut_ptr();
        Self {
            src: dst,
            dst,
            len: buffer.len(),
            _buffers: PhantomData,
        }
    }

    /// Reads `input`, writes the first `input.len()` bytes of `output`.
    /// The caller has checked `output.len() >= input.len()`; the length is the
    /// smaller of the two all the same.
    pub(crate) fn copy(input: &'a [u8], output: &'a mut [u8]) -> Self {
        let len = input.len().min(output.len());
        Self {
            src: input.as_ptr(),
            dst: output.as_mut_ptr(),
            len,
            _buffers: PhantomData,
        }
    }

    /// The buffers of an `aead` [`InOutBuf`](::aead::inout::InOutBuf): one
    /// buffer in place or two disjoint ones of the same length, as here. The
    /// view borrows `buffer` mutably for its whole life, so nothing else
    /// touches either buffer meanwhile.
    #[cfg(feature = "aead")]
    pub(crate) fn from_inout_buf(buffer: &'a mut ::aead::inout::InOutBuf<'_, '_, u8>) -> Self {
        let len = buffer.len();
        let (src, dst) = buffer.reborrow().into_raw();
        Self {
            src,
            dst,
            len,
            _buffers: PhantomData,
        }
    }

    /// The whole output, to be wiped: the `len` bytes at `dst`.
    pub(crate) fn output_all(&mut self) -> &mut [u8] {
        // SAFETY: `dst` is valid for writes of `len` bytes for 'a (the
        // constructors take it from a mutable borrow of at least `len`
        // bytes), and `&mut self` is the only access to it meanwhile.
        unsafe { core::slice::from_raw_parts_mut(self.dst, self.len) }
    }

    /// The number of bytes to transform.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The `N` input bytes at `offset`, borrowed: kernels load them straight
    /// into registers.
    ///
    /// In place, the same bytes are the output; the shared borrow of `self`
    /// ends before [`output`](Self::output) can be called, so a kernel reads a
    /// range before it writes it and never holds both.
    #[inline(always)]
    pub(crate) fn input<const N: usize>(&self, offset: usize) -> &[u8; N] {
        let [bytes] = self.input_regs::<N, 1>(offset);
        bytes
    }

    /// The `N` output bytes at `offset`, borrowed mutably.
    #[cfg_attr(
        not(target_arch = "aarch64"),
        allow(dead_code, reason = "the x86_64 loops write through `output_regs`")
    )]
    #[inline(always)]
    pub(crate) fn output<const N: usize>(&mut self, offset: usize) -> &mut [u8; N] {
        let [bytes] = self.output_regs::<N, 1>(offset);
        bytes
    }

    /// The input bytes at `offset` as `N` registers of `R` bytes (see
    /// [`input`](Self::input)).
    #[inline(always)]
    pub(crate) fn input_regs<const R: usize, const N: usize>(
        &self,
        offset: usize,
    ) -> &[[u8; R]; N] {
        assert!(offset <= self.len && R * N <= self.len - offset);
        // SAFETY: `offset + R·N <= len` was just checked and `src` is valid for
        // `len` bytes of reads for `'a`; `[[u8; R]; N]` is `R·N` bytes with
        // alignment 1. Nothing writes these bytes while the borrow lives.
        unsafe { &*self.src.add(offset).cast::<[[u8; R]; N]>() }
    }

    /// The output bytes at `offset` as already written, as `N` registers of
    /// `R` bytes: the stitched loops hash what they wrote a group earlier
    /// from here.
    #[cfg_attr(
        not(target_arch = "x86_64"),
        allow(dead_code, reason = "only the x86_64 loops read their output back")
    )]
    #[inline(always)]
    pub(crate) fn written_regs<const R: usize, const N: usize>(
        &self,
        offset: usize,
    ) -> &[[u8; R]; N] {
        assert!(offset <= self.len && R * N <= self.len - offset);
        // SAFETY: `offset + R·N <= len` was just checked and `dst` comes from a
        // `&mut` slice of `len` bytes, so it is valid for reads for `'a`.
        // Nothing writes these bytes while the returned borrow (of `self`) lives.
        unsafe { &*self.dst.add(offset).cast::<[[u8; R]; N]>() }
    }

    /// The output bytes at `offset` as `N` registers of `R` bytes, borrowed
    /// mutably.
    #[inline(always)]
    pub(crate) fn output_regs<const R: usize, const N: usize>(
        &mut self,
        offset: usize,
    ) -> &mut [[u8; R]; N] {
        assert!(offset <= self.len && R * N <= self.len - offset);
        // SAFETY: `offset + R·N <= len` was just checked and `dst` is valid for
        // `len` bytes of writes for `'a` (it comes from a `&mut` slice); the
        // mutable borrow of `self` excludes any other access while it lives.
        unsafe { &mut *self.dst.add(offset).cast::<[[u8; R]; N]>() }
    }

    /// The input and the output as raw pointers, for byte-masked loads and
    /// stores (the AVX-512 tier's short-message batch), which touch only the
    /// bytes their masks select: a caller's masks may select only bytes
    /// below `len()`. The pointers are not dereferenced here.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn raw_ptrs(&mut self) -> (*const u8, *mut u8) {
        (self.src, self.dst)
    }

    /// The same view, borrowed from this one for a shorter life: a value
    /// of its own, so that a loop holds the pointers and the length in
    /// registers rather than reading them back from `*self` after each of
    /// its stores (which, behind a reference the compiler cannot prove
    /// unaliased, it must assume may have changed them).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn reborrow(&mut self) -> InOut<'_> {
        InOut {
            src: self.src,
            dst: self.dst,
            len: self.len,
            _buffers: PhantomData,
        }
    }

    /// Copies the input bytes `offset..` (at most `B`) into the front of
    /// `buf` and returns how many were copied.
    #[inline(always)]
    pub(crate) fn read_tail<const B: usize>(&self, offset: usize, buf: &mut [u8; B]) -> usize {
        let n = self.len.saturating_sub(offset).min(B);
        // SAFETY: `offset + n <= len`, so the source range is inside the input
        // slice; `buf` is a distinct local buffer of `B >= n` bytes.
        unsafe { copy_short::<B>(self.src.wrapping_add(offset), buf.as_mut_ptr(), n) };
        n
    }

    /// Writes the first `n` bytes of `bytes` to the output at `offset`
    /// (clipped to the output length).
    #[inline(always)]
    pub(crate) fn write_tail<const B: usize>(&mut self, offset: usize, bytes: &[u8; B], n: usize) {
        let n = self.len.saturating_sub(offset).min(n).min(B);
        // SAFETY: `offset + n <= len`, so the range is inside the output slice;
        // `bytes` is a distinct local buffer of `B >= n` bytes.
        unsafe { copy_short::<B>(bytes.as_ptr(), self.dst.wrapping_add(offset), n) };
    }
}

/// Copies `n <= MAX` bytes (a tail) without a call to `memcpy`: whole 16-byte
/// blocks (a loop of fixed trip count `MAX / 16` with a test inside, which the
/// compiler unrolls instead of turning it into a `memcpy` call), then the rest
/// with two overlapping loads and stores of the widest size that fits, all
/// inside `src[..n]` and `dst[..n]`.
///
/// # Safety
/// `src` must be valid for `n` bytes of reads and `dst` for `n` bytes of
/// writes, and the two ranges must not overlap.
#[inline(always)]
unsafe fn copy_short<const MAX: usize>(src: *const u8, dst: *mut u8, n: usize) {
    /// Copies `src[..n]` to `dst[..n]` for `W <= n <= 2W` with two windows.
    ///
    /// # Safety
    /// As for `copy_short`, and `W <= n`.
    #[inline(always)]
    unsafe fn pair<const W: usize>(src: *const u8, dst: *mut u8, n: usize) {
        // SAFETY: W <= n, so both W-byte windows, at 0 and at n - W, lie inside
        // `src[..n]` and `dst[..n]`, which the caller guarantees are valid.
        unsafe {
            let head = src.cast::<[u8; W]>().read_unaligned();
            let tail = src.add(n - W).cast::<[u8; W]>().read_unaligned();
            dst.cast::<[u8; W]>().write_unaligned(head);
            dst.add(n - W).cast::<[u8; W]>().write_unaligned(tail);
        }
    }
    let whole = n / 16 * 16;
    for i in 0..MAX / 16 {
        if 16 * i < whole {
            // SAFETY: `16i + 16 <= whole <= n`, inside both ranges.
            unsafe { pair::<16>(src.add(16 * i), dst.add(16 * i), 16) };
        }
    }
    let rest = n - whole;
    // SAFETY: `whole + rest == n`; each call's window stays within the last `rest` bytes.
    unsafe {
        let (s, d) = (src.add(whole), dst.add(whole));
        match rest {
            0 => {}
            1 => *d = *s,
            2..=3 => pair::<2>(s, d, rest),
            4..=7 => pair::<4>(s, d, rest),
            _ => pair::<8>(s, d, rest),
        }
    }
}

/// The first `n` bytes of `bytes` (at most `B`), zero-padded to `B` bytes,
/// without a branch on the bytes or a call to `memcpy` (`copy_short`).
#[inline(always)]
pub(crate) fn padded_prefix<const B: usize>(bytes: &[u8; B], n: usize) -> [u8; B] {
    let mut out = [0u8; B];
    let n = n.min(B);
    // SAFETY: `n <= B`; `out` is a distinct local of `B` bytes.
    unsafe { copy_short::<B>(bytes.as_ptr(), out.as_mut_ptr(), n) };
    out
}

/// The first `min(16, bytes.len())` bytes of `bytes`, zero-padded to a block.
#[inline(always)]
pub(crate) fn padded_block(bytes: &[u8]) -> Block {
    padded_block_value(bytes).to_le_bytes()
}

/// [`padded_block`] as `u128::from_le_bytes` of the block, put together in
/// general registers from two overlapping loads inside `bytes` (one to
/// three byte loads under four bytes), branching on the length only. A
/// copy into a zeroed buffer would leave narrow stores that the block's
/// 16-byte load cannot take from the store buffer: it would wait for them
/// to reach the cache (docs/benchmarks.md, "Short AAD").
#[inline(always)]
pub(crate) fn padded_block_value(bytes: &[u8]) -> u128 {
    let n = bytes.len().min(16);
    let at = |i: usize| u128::from(bytes[i]);
    /// The `W`-byte little-endian word at `bytes[i..i + W]`.
    fn word<const W: usize>(bytes: &[u8], i: usize) -> u64 {
        let mut b = [0u8; 8];
        b[..W].copy_from_slice(&bytes[i..i + W]);
        u64::from_le_bytes(b)
    }
    match n {
        0 => 0,
        // Bytes 0, n / 2 and n − 1: every byte of a 1- to 3-byte input.
        1..=3 => at(0) | at(n / 2) << (8 * (n / 2)) | at(n - 1) << (8 * (n - 1)),
        // Bytes 0..4 and n − 4..n, overlapping where n < 8.
        4..=7 => u128::from(word::<4>(bytes, 0) | word::<4>(bytes, n - 4) << (8 * (n - 4))),
        // Bytes 0..8, and n − 8..n shifted down to bytes 8..n.
        _ => {
            let high = if n > 8 {
                word::<8>(bytes, n - 8) >> (8 * (16 - n))
            } else {
                0
            };
            u128::from(word::<8>(bytes, 0)) | u128::from(high) << 64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `padded_block` and `padded_block_value` against a plain zero-padded
    /// copy, for every length to 20 and at every offset into a buffer of
    /// distinct bytes (so a byte taken from the wrong place shows).
    #[test]
    fn padded_block_is_the_zero_padded_prefix() {
        let buffer: Vec<u8> = (1..=64).collect();
        for start in 0..16 {
            for len in 0..=20 {
                let bytes = &buffer[start..start + len];
                let mut expected = [0u8; 16];
                let n = len.min(16);
                expected[..n].copy_from_slice(&bytes[..n]);
                assert_eq!(padded_block(bytes), expected, "len {len}, start {start}");
                assert_eq!(
                    padded_block_value(bytes),
                    u128::from_le_bytes(expected),
                    "len {len}, start {start}"
                );
            }
        }
    }
}
