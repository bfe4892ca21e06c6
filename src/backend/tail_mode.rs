//! What a kernel's `tail` (the last bytes of a message, less than one group)
//! does besides CTR, as a type named at the call site: `tail::<15, Gcm<SEAL>,
//! M, B>` rather than three booleans. Both architectures' `ctr.rs` take it.

/// The conventions of one use of `tail`.
pub(crate) trait TailMode {
    /// GCM's counter (last 4 bytes, big-endian) and byte-reversed hash
    /// input; else GCM-SIV's (first 4 bytes, little-endian; blocks as they
    /// are).
    const GCM: bool;
    /// Whether the tail's blocks and the length block are folded into the
    /// hash.
    const HASH: bool;
    /// Whether the hash takes the tail's output (else its input).
    const OUTPUT: bool;
}

/// AES-GCM: hashes the ciphertext, which is the output when sealing
/// (`SEAL`) and the input when opening.
pub(crate) struct Gcm<const SEAL: bool>;
/// AES-GCM-SIV sealing's CTR pass: no hash (the tag came from a first pass
/// over the plaintext).
pub(crate) struct SivSeal;
/// AES-GCM-SIV opening: hashes the plaintext, which is the output.
pub(crate) struct SivOpen;

impl<const SEAL: bool> TailMode for Gcm<SEAL> {
    const GCM: bool = true;
    const HASH: bool = true;
    const OUTPUT: bool = SEAL;
}

impl TailMode for SivSeal {
    const GCM: bool = false;
    const HASH: bool = false;
    const OUTPUT: bool = true;
}

impl TailMode for SivOpen {
    const GCM: bool = false;
    const HASH: bool = true;
    const OUTPUT: bool = true;
}
