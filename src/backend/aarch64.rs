//! aarch64 kernels: the one tier, ARMv8 AES + PMULL. Each file has the
//! names, functions and contracts of its x86_64 counterpart: `aes` and
//! `clmul` those of `x86_64/aes.rs` and `x86_64/clmul.rs`; `ctr`, `gcm`,
//! `siv` and `xaes` those of the AES-NI tier's (`x86_64/aesni/`).
//!
//! A block lives in a `uint8x16_t` with byte i in lane i, as `vld1q_u8` loads it.
//! aarch64 runs little-endian here, so the same register read as two 64-bit
//! lanes has bytes 0..8 in lane 0 — the layout x86's `__m128i` has — and the
//! key state (`RoundKeys`, `HPowers`) is byte for byte the same on both.

pub(crate) mod aegis;
pub(crate) mod aes;
pub(crate) mod clmul;
pub(crate) mod ctr;
pub(crate) mod gcm;
pub(crate) mod siv;
pub(crate) mod xaes;

use core::arch::aarch64::*;

use crate::block::Block;

/// PSTATE.DIT (FEAT_DIT, Armv8.4) set for as long as the guard lives, where the
/// CPU has it, and put back as it was when the guard drops. With DIT set the
/// CPU guarantees that the timing of the data-processing instructions the
/// kernels use (AES, PMULL, the vector logic, loads and stores) does not depend
/// on the data; without it, Arm documents no such guarantee. Every entry into
/// an aarch64 kernel (the dispatch functions of `backend.rs` and
/// `backend/xaes.rs`) holds one.
pub(crate) struct DitGuard {
    /// Whether this guard set DIT (and so clears it again).
    set_here: bool,
}

/// Bit 24 of the DIT register: PSTATE.DIT.
const DIT_BIT: u64 = 1 << 24;

impl DitGuard {
    /// Sets DIT if the CPU has it and it is not set already.
    #[inline]
    pub(crate) fn new() -> Self {
        Self::where_cpu_has_dit(crate::cpu::aarch64::feature_detected!("dit"))
    }

    /// [`new`](Self::new) with the detection's answer given (the tests probe
    /// the register themselves: qemu-user runs it but does not report it).
    #[inline]
    fn where_cpu_has_dit(has_dit: bool) -> Self {
        if !has_dit || read_dit() {
            return Self { set_here: false };
        }
        // SAFETY: writing PSTATE.DIT (system register S3_3_C4_C2_5, named by
        // its encoding so no assembler feature is needed), which FEAT_DIT
        // provides and EL0 may write; it changes timing guarantees only.
        unsafe {
            core::arch::asm!("msr s3_3_c4_c2_5, {}", in(reg) DIT_BIT, options(nostack, preserves_flags))
        };
        Self { set_here: true }
    }
}

impl Drop for DitGuard {
    fn drop(&mut self) {
        if self.set_here {
            // SAFETY: as in `new`: clears the bit this guard set.
            unsafe { core::arch::asm!("msr s3_3_c4_c2_5, xzr", options(nostack, preserves_flags)) };
        }
    }
}

/// Whether PSTATE.DIT is set (the caller has checked that FEAT_DIT exists).
fn read_dit() -> bool {
    let value: u64;
    // SAFETY: reading the DIT register, which FEAT_DIT provides at EL0.
    unsafe {
        core::arch::asm!("mrs {}, s3_3_c4_c2_5", out(reg) value, options(nostack, preserves_flags))
    };
    value & DIT_BIT != 0
}

// Big-endian aarch64 would put the bytes of each 64-bit lane the other way round.
#[cfg(not(target_endian = "little"))]
compile_error!("the aarch64 backend assumes a little-endian target");

/// Loads a block into a register.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn load(block: &Block) -> uint8x16_t {
    // SAFETY: `block` is 16 readable bytes; `vld1q_u8` has no alignment requirement.
    unsafe { vld1q_u8(block.as_ptr()) }
}

/// Stores a register as a block.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn store(value: uint8x16_t) -> Block {
    let mut block = [0u8; 16];
    // SAFETY: `block` is 16 writable bytes; `vst1q_u8` has no alignment requirement.
    unsafe { vst1q_u8(block.as_mut_ptr(), value) };
    block
}

/// Stores each of `N` registers as a block.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn store_each<const N: usize>(values: &[uint8x16_t; N]) -> [Block; N] {
    let mut out = [[0u8; 16]; N];
    for (dst, src) in out.iter_mut().zip(values) {
        *dst = store(*src);
    }
    out
}

/// A block passed by value (`u128::from_le_bytes` of its bytes) into a register.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn from_u128(block: u128) -> uint8x16_t {
    vreinterpretq_u8_p128(block)
}

/// The all-zero block.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn zero() -> uint8x16_t {
    vdupq_n_u8(0)
}

/// Loads `N` consecutive blocks from a byte array of `16 * N` bytes.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn load_blocks<const N: usize, const B: usize>(bytes: &[u8; B]) -> [uint8x16_t; N] {
    const { assert!(B == 16 * N) };
    let mut out = [zero(); N];
    for (i, v) in out.iter_mut().enumerate() {
        // SAFETY: block `i < N` lies at bytes 16i..16i+16 of the `16 * N`-byte array.
        *v = unsafe { vld1q_u8(bytes.as_ptr().add(16 * i)) };
    }
    out
}

/// Stores `N` registers as `16 * N` consecutive bytes.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn store_blocks<const N: usize, const B: usize>(values: &[uint8x16_t; N]) -> [u8; B] {
    let mut out = [0u8; B];
    store_blocks_to(&mut out, values);
    out
}

/// Stores `N` registers into `16 * N` consecutive bytes.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn store_blocks_to<const N: usize, const B: usize>(
    out: &mut [u8; B],
    values: &[uint8x16_t; N],
) {
    const { assert!(B == 16 * N) };
    for (i, v) in values.iter().enumerate() {
        // SAFETY: block `i < N` lies at bytes 16i..16i+16 of the `16 * N`-byte array.
        unsafe { vst1q_u8(out.as_mut_ptr().add(16 * i), *v) };
    }
}

#[cfg(test)]
mod tests {
    use super::{DitGuard, read_dit};

    /// Whether this CPU (or emulator) runs the DIT register's `mrs`: tried in
    /// a child process, which dies of SIGILL where it does not.
    fn dit_register_works() -> bool {
        // SAFETY: the child only reads the register and exits.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            let _ = read_dit();
            // SAFETY: leaves the child at once.
            unsafe { libc::_exit(0) };
        }
        let mut status = 0;
        // SAFETY: waiting for our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
    }

    /// DIT is set inside a guard and as before after it; a guard inside a
    /// guard leaves it set. Where the register does not exist, a guard does
    /// nothing.
    #[test]
    fn dit_is_set_inside_a_guard_and_restored_after() {
        if std::arch::is_aarch64_feature_detected!("dit") {
            assert!(dit_register_works());
        }
        if !dit_register_works() {
            eprintln!("no DIT register here: only the guard's no-op is checked");
            drop(DitGuard::where_cpu_has_dit(false));
            return;
        }
        assert!(!read_dit(), "DIT set before the test");
        {
            let _outer = DitGuard::where_cpu_has_dit(true);
            assert!(read_dit());
            {
                let _inner = DitGuard::where_cpu_has_dit(true);
                assert!(read_dit());
            }
            assert!(read_dit(), "the inner guard cleared the outer's DIT");
        }
        assert!(!read_dit(), "DIT left set");
    }
}
