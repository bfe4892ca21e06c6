//! A hardware AES-CTR random generator for keys and nonces, fork-safe.
//!
//! [`Generator`] is AES-256 in counter mode with *fast key erasure*
//! (Bernstein, 2017): each refill runs one keystream under the current key; its
//! first 32 bytes replace the key at once and the next 256 bytes are
//! served to requests, each byte overwritten with zero as it is served.
//! Requests larger than half the buffer get a keystream of their own, whose
//! first 32 bytes likewise replace the key; one key serves at most
//! 1 MiB, so a longer request is served in pieces, each under a new key,
//! with a reseed between pieces when the budget runs out. Once a request
//! returns, the state
//! holds nothing from which its output, or any earlier one, can be recomputed:
//! the key that produced it is gone, and so are the served bytes.
//!
//! It is seeded from the operating system (`getrandom`) and reseeded
//! - after 64 MiB of output or 2^20 requests, whichever comes first,
//! - in a child process after `fork()` (see `fork.rs`: a `MADV_WIPEONFORK`
//!   page, a `pthread_atfork` handler and a process-id check), so a child never
//!   repeats its parent's output.
//!
//! With the default cargo feature `cpu-rng-reseed`, every seed also mixes in
//! the CPU's own entropy source (RDSEED on x86_64, RNDRRS on aarch64) when the
//! CPU has one: the
//! seed is the XOR of the keystream, the OS bytes and the CPU bytes, so it is
//! unpredictable if any one of them is. Without the feature, the OS alone.
//!
//! Every AES block runs on the same hardware tiers as the AEADs; on a CPU
//! without them, [`Generator::new`] returns [`Error::UnsupportedCpu`].
//!
//! ```
//! use hardware_aead::random::{self, Generator};
//!
//! # fn main() -> Result<(), hardware_aead::Error> {
//! let mut rng = Generator::new()?;
//! let key = rng.key_32()?;          // zeroized when dropped
//! let nonce = rng.nonce_12()?;
//! let mut buf = [0u8; 64];
//! random::fill(&mut buf)?;          // a thread-local generator
//! # let _ = (key, nonce);
//! # Ok(()) }
//! ```

pub(crate) mod fork;

#[cfg(feature = "std")]
use core::cell::RefCell;

use zeroize::Zeroize;
pub use zeroize::Zeroizing;

use crate::backend::{TierToken, keystream};
use crate::error::Error;

/// Output bytes after which the generator reseeds from the operating system.
pub(crate) const RESEED_BYTES: u64 = 1 << 26;

/// Requests after which the generator reseeds from the operating system,
/// whatever their sizes.
pub(crate) const RESEED_REQUESTS: u64 = 1 << 20;

/// Bytes of keystream produced per refill and served to small requests.
pub(crate) const BUFFER: usize = 256;

/// The most output one key produces before it is replaced: a longer request
/// is served in pieces of this size, each under the key the piece before it
/// left (fast key erasure within the request), with a reseed between pieces
/// once [`RESEED_BYTES`] is reached. A keystream uses the 32-bit block
/// counter from 0, two blocks for the next key, so one key's counter never
/// comes near 2^32: one keystream of 2^36 bytes or more would wrap it and
/// repeat its output.
pub(crate) const KEYSTREAM_MAX: usize = 1 << 20;

// Counter blocks per keystream: the next key (2) and the output, far below 2^32.
const _: () = assert!(2 + (KEYSTREAM_MAX as u64) / 16 < 1 << 32);

/// Fills `out` from the operating system's generator.
pub(crate) fn os_fill(out: &mut [u8]) -> Result<(), Error> {
    #[cfg(test)]
    if tests::os_fails() {
        return Err(Error::Entropy);
    }
    getrandom::fill(out).map_err(|_| Error::Entropy)
}

/// AES-256-CTR with fast key erasure; see the [module documentation](self).
///
/// ```
/// use hardware_aead::random::Generator;
///
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let mut rng = Generator::new()?;
/// let a = rng.nonce_12()?;
/// let b = rng.nonce_12()?;
/// assert_ne!(a, b);
/// # Ok(()) }
/// ```
pub struct Generator {
    /// The current AES-256 key.
    key: [u8; 32],
    /// Keystream not served yet; bytes before `pos` are served (and zero).
    buffer: [u8; BUFFER],
    pos: usize,
    tier: TierToken,
    /// Bytes and requests since the last seed.
    bytes: u64,
    requests: u64,
    /// The fork generation the last seed belongs to (0: not seeded yet).
    generation: u64,
}

impl Generator {
    /// A generator for this CPU, not seeded yet: the first request seeds it
    /// from the operating system (and the CPU, see the module documentation)
    /// where the generator is by then. So a new generator holds no secret,
    /// and returning it, or moving it into a `Box`, a struct or a static,
    /// leaves no copy of a key behind; move it before its first use, not
    /// after (a move copies the current key, which no call can wipe).
    ///
    /// Errors: [`Error::UnsupportedCpu`] without hardware AES. The first
    /// request returns [`Error::Entropy`] if the operating system gives no
    /// randomness.
    ///
    /// ```
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let mut rng = Box::new(hardware_aead::random::Generator::new()?);
    /// let key = rng.key_16()?; // seeded here, inside the box
    /// # let _ = key;
    /// # Ok(()) }
    /// ```
    pub fn new() -> Result<Self, Error> {
        Ok(Self {
            key: [0; 32],
            buffer: [0; BUFFER],
            pos: BUFFER,
            tier: TierToken::best()?,
            bytes: 0,
            requests: 0,
            // Never current: the first request reseeds.
            generation: 0,
        })
    }

    /// Fills `out` with random bytes.
    ///
    /// ```
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let mut rng = hardware_aead::random::Generator::new()?;
    /// let mut salt = [0u8; 16];
    /// rng.fill(&mut salt)?;
    /// # Ok(()) }
    /// ```
    pub fn fill(&mut self, out: &mut [u8]) -> Result<(), Error> {
        if fork::generation() != self.generation
            || self.bytes >= RESEED_BYTES
            || self.requests >= RESEED_REQUESTS
        {
            self.reseed()?;
        }
        self.requests += 1;
        if out.len() > BUFFER / 2 {
            // A keystream of its own per piece of at most KEYSTREAM_MAX bytes.
            for piece in out.chunks_mut(KEYSTREAM_MAX) {
                if self.bytes >= RESEED_BYTES {
                    self.reseed()?;
                }
                rekey(self.tier, &mut self.key, piece);
                self.bytes += piece.len() as u64;
            }
        } else {
            let mut done = 0;
            while done < out.len() {
                if self.pos == BUFFER {
                    rekey(self.tier, &mut self.key, &mut self.buffer);
                    self.pos = 0;
                }
                let take = (out.len() - done).min(BUFFER - self.pos);
                let served = &mut self.buffer[self.pos..self.pos + take];
                out[done..done + take].copy_from_slice(served);
                served.zeroize();
                self.pos += take;
                done += take;
            }
            self.bytes += out.len() as u64;
        }
        Ok(())
    }

    /// A fresh 256-bit key, zeroized when dropped. It is returned by value;
    /// to write a key straight into memory of your choosing (a locked page, a
    /// key slot), [`fill`](Self::fill) that memory instead.
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes256Gcm, random::Generator};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&*Generator::new()?.key_32()?)?;
    /// # let _ = key;
    /// # Ok(()) }
    /// ```
    pub fn key_32(&mut self) -> Result<Zeroizing<[u8; 32]>, Error> {
        let mut key = Zeroizing::new([0u8; 32]);
        self.fill(&mut *key)?;
        Ok(key)
    }

    /// A fresh 128-bit key, zeroized when dropped.
    ///
    /// ```
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = hardware_aead::random::Generator::new()?.key_16()?;
    /// assert_eq!(key.len(), 16);
    /// # Ok(()) }
    /// ```
    pub fn key_16(&mut self) -> Result<Zeroizing<[u8; 16]>, Error> {
        let mut key = Zeroizing::new([0u8; 16]);
        self.fill(&mut *key)?;
        Ok(key)
    }

    /// A random 96-bit nonce. (A key's own generated nonces, which cannot
    /// repeat, come from [`AeadKey::seal_with_generated_nonce`](crate::AeadKey::seal_with_generated_nonce).)
    ///
    /// ```
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let nonce = hardware_aead::random::Generator::new()?.nonce_12()?;
    /// # let _ = nonce;
    /// # Ok(()) }
    /// ```
    pub fn nonce_12(&mut self) -> Result<[u8; 12], Error> {
        let mut nonce = [0u8; 12];
        self.fill(&mut nonce)?;
        Ok(nonce)
    }

    /// New key = keystream ⊕ OS bytes ⊕ CPU bytes; drops the buffered
    /// keystream (in a child after `fork()` it is the parent's); resets the
    /// budgets.
    fn reseed(&mut self) -> Result<(), Error> {
        let generation = fork::checked_generation();
        let mut seed = [0u8; 32];
        os_fill(&mut seed)?;
        mix_cpu_entropy(&mut seed);
        let mut next = [0u8; 32];
        keystream(self.tier, &self.key, &mut next, &mut []);
        for (k, (n, s)) in self.key.iter_mut().zip(next.iter().zip(seed.iter())) {
            *k = n ^ s;
        }
        next.zeroize();
        seed.zeroize();
        self.buffer.zeroize();
        self.pos = BUFFER;
        self.bytes = 0;
        self.requests = 0;
        self.generation = generation;
        Ok(())
    }
}

impl Drop for Generator {
    fn drop(&mut self) {
        self.key.zeroize();
        self.buffer.zeroize();
    }
}

impl core::fmt::Debug for Generator {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Generator")
            .field("tier", &self.tier.tier())
            .finish_non_exhaustive()
    }
}

/// Tells the library that this process is a copy that its own process could
/// also be running: a VM or process snapshot being restored (Firecracker, VM
/// templates, CRIU), or a child created in a way that bypasses libc on a
/// system the library cannot watch. Every key then draws a new nonce salt
/// from the operating system before its next generated nonce, and every
/// generator reseeds before its next output, so two restored copies never
/// share a nonce sequence or random output from this point on.
///
/// A `fork()` through libc needs no call (see the module documentation);
/// a snapshot restore does, as early as possible after it, before any key
/// seals with a generated nonce. Where copies of a process are routine,
/// prefer explicit random nonces with AES-GCM-SIV (misuse-resistant) over
/// generated nonces.
///
/// ```
/// use hardware_aead::{aes_gcm::Aes256Gcm, random};
///
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let key = Aes256Gcm::new(&[7; 32])?;
/// let (before, _) = key.seal_with_generated_nonce(b"", b"a")?;
/// random::process_restored(); // e.g. in the VM's restore hook
/// let (after, _) = key.seal_with_generated_nonce(b"", b"b")?;
/// assert_ne!(before[..4], after[..4]); // a new salt
/// # Ok(()) }
/// ```
pub fn process_restored() {
    fork::forked();
}

#[cfg(feature = "std")]
std::thread_local! {
    /// This thread's generator for [`fill`], created on first use.
    static GENERATOR: RefCell<Option<Generator>> = const { RefCell::new(None) };
}

/// Fills `out` from this thread's generator (created on first use). Needs
/// the `std` feature (thread-local storage); without it, keep a
/// [`Generator`] where the caller can reach it.
///
/// A call made while the same thread is already inside `fill` (from a signal
/// handler that interrupted it) does not touch the interrupted generator: it
/// seeds a generator of its own from the OS for that one call.
///
/// ```
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let mut key = [0u8; 32];
/// hardware_aead::random::fill(&mut key)?;
/// # Ok(()) }
/// ```
#[cfg(feature = "std")]
pub fn fill(out: &mut [u8]) -> Result<(), Error> {
    GENERATOR.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            let rng = match &mut *slot {
                Some(rng) => rng,
                None => slot.insert(Generator::new()?),
            };
            rng.fill(out)
        }
        // Re-entered on this thread while the generator is in use: a signal
        // handler that interrupted a `fill`. The interrupted call's state may
        // be half updated, so it is left alone, and this call gets a
        // generator of its own, seeded from the OS, dropped (and wiped) when
        // it returns.
        Err(_) => Generator::new()?.fill(out),
    })
}

/// One keystream under `key`: its first 32 bytes replace the key, the rest
/// fills `out`.
fn rekey(tier: TierToken, key: &mut [u8; 32], out: &mut [u8]) {
    let mut next = [0u8; 32];
    keystream(tier, key, &mut next, out);
    *key = next;
    next.zeroize();
}

/// XORs the CPU's entropy source into `seed`, where there is one and the
/// `cpu-rng-reseed` feature is on; otherwise leaves it alone.
fn mix_cpu_entropy(seed: &mut [u8; 32]) {
    #[cfg(all(feature = "cpu-rng-reseed", target_arch = "x86_64"))]
    if crate::cpu::x86_64::feature_detected!("rdseed") {
        // SAFETY: RDSEED was just detected.
        unsafe { rdseed_into(seed) };
    }
    #[cfg(all(feature = "cpu-rng-reseed", target_arch = "aarch64"))]
    if crate::cpu::aarch64::feature_detected!("rand") {
        rndrrs_into(seed);
    }
    let _ = seed;
}

/// XORs up to 32 bytes of RNDRRS output (FEAT_RNG, "reseeded" random number)
/// into `seed`; gives up on a word after a bounded number of failures.
#[cfg(all(feature = "cpu-rng-reseed", target_arch = "aarch64"))]
fn rndrrs_into(seed: &mut [u8; 32]) {
    for chunk in seed.chunks_exact_mut(8) {
        for _ in 0..64 {
            let (mut word, ok): (u64, u64);
            // SAFETY: reads the RNDRRS system register (s3_3_c2_c4_1, written by
            // its encoding so no assembler feature is needed) into a register
            // and the success flag (Z clear) into another; FEAT_RNG was
            // detected by the caller. No memory or stack is touched.
            unsafe {
                core::arch::asm!(
                    "mrs {word}, s3_3_c2_c4_1",
                    "cset {ok}, ne",
                    word = out(reg) word,
                    ok = out(reg) ok,
                    options(nomem, nostack),
                );
            }
            if ok == 1 {
                for (b, w) in chunk.iter_mut().zip(word.to_le_bytes()) {
                    *b ^= w;
                }
                word.zeroize();
                break;
            }
            core::hint::spin_loop();
        }
    }
}

/// XORs up to 32 bytes of RDSEED output into `seed`; gives up on a word after
/// a bounded number of retries (RDSEED may be exhausted momentarily).
#[cfg(all(feature = "cpu-rng-reseed", target_arch = "x86_64"))]
#[target_feature(enable = "rdseed")]
fn rdseed_into(seed: &mut [u8; 32]) {
    for chunk in seed.chunks_exact_mut(8) {
        for _ in 0..64 {
            let mut word = 0u64;
            // SAFETY: RDSEED is enabled on this function and detected by its
            // caller; it writes only `word`. (The intrinsic is `unsafe` in the
            // oldest Rust this crate supports, 1.89, and safe in later ones.)
            #[allow(unused_unsafe, reason = "a safe intrinsic in later Rust versions")]
            let status = unsafe { core::arch::x86_64::_rdseed64_step(&mut word) };
            if status == 1 {
                for (b, w) in chunk.iter_mut().zip(word.to_le_bytes()) {
                    *b ^= w;
                }
                word.zeroize();
                break;
            }
            core::hint::spin_loop();
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
