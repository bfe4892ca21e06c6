//! Blocks and the key material kernels work on: the 16-byte block, the
//! round keys and GHASH powers (wiped on drop), and the wipes of stack
//! and heap buffers. A leaf: the kernels (`backend`), the key state (`key`)
//! and the streaming buffers all use it.

use core::mem::MaybeUninit;

/// One 16-byte block.
pub(crate) type Block = [u8; 16];

/// Overwrites a stack buffer of message bytes before it goes out of scope
/// (tails and partial blocks copied through the stack): one volatile store of
/// the whole array, which the compiler may not drop. LLVM builds the zeros
/// in a stack temporary and copies it out 16 bytes a store (rustc 1.95,
/// `-O`); for the short buffers this is for that is a few stores, and
/// [`wipe_memory`] covers long ones.
#[inline(always)]
pub(crate) fn wipe<const N: usize>(buf: &mut [u8; N]) {
    // SAFETY: `buf` is a valid, aligned, exclusive reference to `N` bytes.
    unsafe { core::ptr::write_volatile(buf, [0u8; N]) };
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// Overwrites memory of any length with zeros: one volatile 8-byte store per
/// aligned word, one a byte at the unaligned ends; the compiler may not drop
/// them. The memory may be uninitialised (a vector's spare capacity); it
/// holds zeros after. (`Zeroize` on bytes stores one byte at a time: 64 Ki
/// stores for 64 KiB. Volatile stores of 16-byte arrays went through a
/// stack temporary each, slower than these: docs/measurements/2026-11-23-zen4/tables.md,
/// "Streaming on Zen 4 (`stream`, `ece`)".) Used by the `std`
/// buffers of `stream` and `ece`, and (through [`wipe_bytes`]) on the output
/// of every open that fails.
pub(crate) fn wipe_memory(bytes: &mut [MaybeUninit<u8>]) {
    // SAFETY: every bit pattern is a valid `MaybeUninit<u64>`, and
    // `align_to_mut` gives a middle part aligned for it.
    let (head, words, tail) = unsafe { bytes.align_to_mut::<MaybeUninit<u64>>() };
    for word in words {
        // SAFETY: `word` is a valid, aligned, exclusive reference to 8 bytes.
        unsafe { core::ptr::write_volatile(word, MaybeUninit::new(0)) };
    }
    for byte in head.iter_mut().chain(tail) {
        // SAFETY: `byte` is a valid, exclusive reference to one byte.
        unsafe { core::ptr::write_volatile(byte, MaybeUninit::new(0)) };
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// [`wipe_memory`] over initialised bytes (heap buffers that held
/// plaintext, the output of a failed open).
pub(crate) fn wipe_bytes(bytes: &mut [u8]) {
    // SAFETY: `[u8]` and `[MaybeUninit<u8>]` have the same layout, and only
    // zeros (initialised bytes) are written through the view.
    wipe_memory(unsafe { &mut *(core::ptr::from_mut(bytes) as *mut [MaybeUninit<u8>]) });
}

/// Overwrites blocks of key state with zeros when they drop: one volatile
/// 16-byte store a block (`movaps` on x86_64, `str q` on aarch64; 8-byte
/// words elsewhere), unrolled. Key setup and drop run back to back in
/// callers that make keys per connection or per message, and the drop's
/// stores are most of its instructions: byte stores (`Zeroize` on
/// `[[u8; 16]; N]`) were 304 a 128-bit GCM key, 8-byte words 38, these
/// 19 (docs/design.md, "Key lifecycle").
///
/// # Safety
/// `blocks` must be 16-byte aligned (the key-state types are
/// `#[repr(align(16))]` with the blocks first).
#[inline(always)]
unsafe fn wipe_aligned_blocks<const N: usize>(blocks: &mut [Block; N]) {
    for block in blocks.iter_mut() {
        let at: *mut Block = block;
        // SAFETY: `at` is valid for a 16-byte write and 16-byte aligned
        // (caller), which the vector types require.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use core::arch::x86_64::{__m128i, _mm_setzero_si128};
            core::ptr::write_volatile(at.cast::<__m128i>(), _mm_setzero_si128());
        }
        // SAFETY: as above.
        #[cfg(target_arch = "aarch64")]
        unsafe {
            use core::arch::aarch64::{uint8x16_t, vdupq_n_u8};
            core::ptr::write_volatile(at.cast::<uint8x16_t>(), vdupq_n_u8(0));
        }
        // SAFETY: as above; 16-byte alignment is 8-byte alignment.
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        unsafe {
            core::ptr::write_volatile(at.cast::<[u64; 2]>(), [0; 2]);
        }
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// AES round keys in the FIPS-197 byte order: `ROUND_KEYS` = 11 for AES-128, 15
/// for AES-256 (Nr + 1 blocks; not FIPS-197's Nk, the key length in words).
#[repr(C, align(16))]
pub(crate) struct RoundKeys<const ROUND_KEYS: usize>(pub(crate) [Block; ROUND_KEYS]);

/// The GHASH key powers H^1..H^8 in the POLYVAL representation (see
/// `backend/x86_64/clmul.rs` for the maths): `0[i]` holds H^(i+1).
#[repr(C, align(16))]
pub(crate) struct HPowers(pub(crate) [Block; 8]);

/// A key used as it is, without a schedule (AEGIS's: one block for the
/// 128 family, two for the 256 family), wiped on drop as round keys are.
#[repr(C, align(16))]
pub(crate) struct KeyBlocks<const N: usize>(pub(crate) [Block; N]);

impl<const N: usize> Drop for KeyBlocks<N> {
    fn drop(&mut self) {
        // SAFETY: `KeyBlocks` is 16-byte aligned with the blocks at offset 0.
        unsafe { wipe_aligned_blocks(&mut self.0) };
    }
}

/// `bytes` (`16·N` of them) as `N` blocks, borrowed.
pub(crate) fn as_blocks<const N: usize, const B: usize>(bytes: &[u8; B]) -> &[Block; N] {
    const { assert!(B == 16 * N) };
    // SAFETY: `[u8; B]` and `[Block; N]` have the same size (checked above)
    // and alignment 1.
    unsafe { &*core::ptr::from_ref(bytes).cast::<[Block; N]>() }
}

impl<const ROUND_KEYS: usize> Drop for RoundKeys<ROUND_KEYS> {
    fn drop(&mut self) {
        // SAFETY: `RoundKeys` is 16-byte aligned with the blocks at offset 0.
        unsafe { wipe_aligned_blocks(&mut self.0) };
    }
}

impl Drop for HPowers {
    fn drop(&mut self) {
        // SAFETY: `HPowers` is 16-byte aligned with the blocks at offset 0.
        unsafe { wipe_aligned_blocks(&mut self.0) };
    }
}

#[cfg(all(
    test,
    feature = "std",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod tests {
    use super::wipe_bytes;

    /// Every start offset within a word and lengths around it, so the
    /// unaligned head, the aligned words and the tail each run alone and
    /// together.
    #[test]
    fn wipe_bytes_zeroes_every_byte_and_no_other() {
        for start in 1..=9 {
            for len in [0, 1, 7, 8, 9, 15, 16, 17, 33, 100] {
                let mut buf = [0x5au8; 120];
                wipe_bytes(&mut buf[start..start + len]);
                let at = format!("start {start} len {len}");
                assert!(
                    buf[..start].iter().all(|&b| b == 0x5a),
                    "{at}: a byte before was touched"
                );
                assert!(buf[start..start + len].iter().all(|&b| b == 0), "{at}");
                assert!(
                    buf[start + len..].iter().all(|&b| b == 0x5a),
                    "{at}: a byte after was touched"
                );
            }
        }
    }
}
