//! This crate's AEGIS against libaegis, the C library the `aegis` crate
//! bundles and uses by default (the bench member builds it that way; the
//! library's own tests use the crate's pure-Rust back-end instead): the
//! twelve key types on every tier this CPU has, byte-identical both ways
//! for every message length 0–1,100 and around every block boundary to
//! 64 KiB, and associated data of 0–300 bytes. The sweep is
//! `tests/common/aegis_peer.rs`, shared with `tests/aegis.rs`.
//!
//! ```text
//! cargo test --release -p hardware-aead-bench --test aegis_libaegis
//! ```
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

#[macro_use]
#[path = "../../tests/common/aegis_peer.rs"]
mod aegis_peer;

use aegis_peer::matches_peer_of;
use hardware_aead::aegis::{Aegis128L, Aegis128X2, Aegis128X4, Aegis256, Aegis256X2, Aegis256X4};

#[test]
fn matches_libaegis() {
    for_each_type!(matches_peer_of);
}
