//! The AES-NI + PCLMULQDQ tier: eight 128-bit blocks per iteration.
//!
//! `ctr` holds the tier's pieces for the stitched engine and the passes
//! around it; `gcm`, `siv` and `xaes` the algorithms' entry points. Each file
//! has an aarch64 counterpart of the same name, functions and contracts
//! (`backend/aarch64/`). Every VAES CPU has these instructions, so the VAES
//! tiers call this tier's code for short messages, for what their wide
//! groups leave, and for XAES-256-GCM's key derivation.

pub(crate) mod ctr;
pub(crate) mod gcm;
pub(crate) mod siv;
pub(crate) mod xaes;
