//! Generated nonces: a 96-bit salt drawn from the operating system on first use,
//! combined with a 64-bit per-key counter.
//!
//! Nonce i of a key is `salt XOR (0^32 || i as big-endian 64 bits)`: distinct
//! counters give distinct nonces under one salt, so a key never repeats a nonce
//! until 2^64 nonces have been drawn, when [`Error::NonceExhausted`] is
//! returned instead of wrapping. This avoids the birthday bound of random
//! 96-bit nonces (after 2^32 random nonces the chance of a repeat already
//! reaches about 2^-33, the limit SP 800-38D §8.3 sets).
//!
//! After `fork()` the child would continue its parent's sequence, repeating
//! nonces the parent also uses; so the salt is tagged with the fork generation
//! (`random::fork`) and re-drawn in a new process. Key setup never pays for the
//! salt: it is drawn on the first generated nonce.
//!
//! Thread safety (`&self`): the counter is one atomic. The salt and its
//! generation form a sequence lock: a writer (first use, or first use after a
//! fork) marks the state locked, writes the salt and publishes the new
//! generation; readers check that the generation they saw before and after
//! reading the salt is the same, unlocked one.

use core::sync::atomic::{AtomicU32, AtomicU64, Ordering, fence};

use crate::aead::Nonce;
use crate::error::Error;
use crate::random::fork;

/// The lock bit of [`NonceSequence::state`]; the other bits are the fork
/// generation the salt belongs to (0: no salt yet).
const LOCKED: u32 = 1;

/// A key's generated-nonce state: 24 bytes. (`pub` only to appear in the
/// sealed trait; the module is private.)
pub struct NonceSequence {
    /// The next counter value.
    counter: AtomicU64,
    /// The salt, as three words.
    salt: [AtomicU32; 3],
    /// `generation << 1 | locked`.
    state: AtomicU32,
}

impl NonceSequence {
    /// No salt yet; the counter at zero.
    pub(crate) const fn new() -> Self {
        Self {
            counter: AtomicU64::new(0),
            salt: [const { AtomicU32::new(0) }; 3],
            state: AtomicU32::new(0),
        }
    }

    /// The next nonce of this key.
    pub(crate) fn next(&self) -> Result<Nonce, Error> {
        let counter = self
            .counter
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| c.checked_add(1))
            .map_err(|_| Error::NonceExhausted)?;
        loop {
            let generation = fork::generation();
            let expected = generation << 1;
            let seen = self.state.load(Ordering::Acquire);
            if seen != expected {
                self.resalt(seen, generation)?;
                continue;
            }
            let salt = [
                self.salt[0].load(Ordering::Relaxed),
                self.salt[1].load(Ordering::Relaxed),
                self.salt[2].load(Ordering::Relaxed),
            ];
            fence(Ordering::Acquire);
            if self.state.load(Ordering::Relaxed) != expected {
                continue;
            }
            let mut nonce = [0u8; 12];
            for (chunk, word) in nonce.chunks_exact_mut(4).zip(salt) {
                chunk.copy_from_slice(&word.to_le_bytes());
            }
            for (n, c) in nonce[4..].iter_mut().zip(counter.to_be_bytes()) {
                *n ^= c;
            }
            return Ok(nonce);
        }
    }

    /// Draws a new salt for `generation`, unless another thread is doing so.
    /// `seen` is the state this thread read.
    #[cold]
    fn resalt(&self, seen: u32, generation: u32) -> Result<(), Error> {
        // A lock left by a thread of another process generation (a fork in the
        // middle of a re-salt) is stale: take it over.
        let stale = seen & LOCKED == 0 || seen >> 1 != generation;
        if !stale {
            core::hint::spin_loop();
            return Ok(());
        }
        let locked = generation << 1 | LOCKED;
        if self
            .state
            .compare_exchange(seen, locked, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return Ok(());
        }
        // The process id check too: the salt is drawn once per process anyway.
        let generation = fork::checked_generation();
        let mut salt = [0u8; 12];
        if crate::random::os_fill(&mut salt).is_err() {
            self.state.store(seen & !LOCKED, Ordering::Release);
            return Err(Error::Entropy);
        }
        fence(Ordering::Release);
        for (word, chunk) in self.salt.iter().zip(salt.chunks_exact(4)) {
            let mut bytes = [0u8; 4];
            bytes.copy_from_slice(chunk);
            word.store(u32::from_le_bytes(bytes), Ordering::Relaxed);
        }
        self.state.store(generation << 1, Ordering::Release);
        Ok(())
    }

    /// Sets the counter (tests of exhaustion).
    #[cfg(test)]
    pub(crate) fn set_counter(&self, value: u64) {
        self.counter.store(value, Ordering::Relaxed);
    }
}

impl core::fmt::Debug for NonceSequence {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("NonceSequence").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::NonceSequence;
    use crate::error::Error;

    #[test]
    fn counter_exhaustion_is_an_error_not_a_wrap() {
        let seq = NonceSequence::new();
        seq.set_counter(u64::MAX - 2);
        let a = seq.next().unwrap();
        let b = seq.next().unwrap();
        assert_ne!(a, b);
        assert_eq!(seq.next(), Err(Error::NonceExhausted));
        assert_eq!(seq.next(), Err(Error::NonceExhausted));
    }

    #[test]
    fn nonces_are_the_salt_xor_the_counter() {
        let seq = NonceSequence::new();
        let n0 = seq.next().unwrap();
        let n1 = seq.next().unwrap();
        let n5 = {
            seq.set_counter(5);
            seq.next().unwrap()
        };
        assert_eq!(n0[..4], n1[..4]);
        let x: Vec<u8> = n0.iter().zip(n1).map(|(a, b)| a ^ b).collect();
        assert_eq!(x, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
        let x: Vec<u8> = n0.iter().zip(n5).map(|(a, b)| a ^ b).collect();
        assert_eq!(x, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]);
        // Two keys draw independent salts.
        let other = NonceSequence::new();
        assert_ne!(other.next().unwrap(), n0);
    }
}
