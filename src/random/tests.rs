//! Unit tests of `random` (a child module: it reaches private items).

use core::cell::Cell;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use super::*;

thread_local! {
    static OS_FAILS: Cell<bool> = const { Cell::new(false) };
}

/// The injectable failure of the OS source (this thread only).
pub(crate) fn os_fails() -> bool {
    OS_FAILS.with(Cell::get)
}

#[test]
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn aes256_ctr_core_matches_the_model_and_the_model_matches_the_standards() {
    // Our keystream, block by block, is AES-256 of the counter blocks 0, 1,
    // 2, … as the by-the-book model computes it.
    let key: [u8; 32] = core::array::from_fn(|i| i as u8);
    let mut next = [0u8; 32];
    let mut out = [0u8; 200];
    keystream(TierToken::best().unwrap(), &key, &mut next, &mut out);
    for i in 0..15u32 {
        let mut counter = [0u8; 16];
        counter[..4].copy_from_slice(&i.to_le_bytes());
        let block = crate::model::aes_encrypt_block(&key, &counter);
        let got: &[u8] = if i < 2 {
            &next[16 * i as usize..][..16]
        } else {
            let start = 16 * (i as usize - 2);
            &out[start..(start + 16).min(out.len())]
        };
        assert_eq!(got, &block[..got.len()], "block {i}");
    }
    // FIPS-197 Appendix C.3: AES-256 of 00112233…ff under 000102…1f.
    let block: [u8; 16] = core::array::from_fn(|i| (i as u8) * 0x11);
    assert_eq!(
        crate::model::aes_encrypt_block(&key, &block),
        [
            0x8e, 0xa2, 0xb7, 0xca, 0x51, 0x67, 0x45, 0xbf, 0xea, 0xfc, 0x49, 0x90, 0x4b, 0x49,
            0x60, 0x89
        ]
    );
    // SP 800-38A F.5.5 (CTR-AES256), block #1: the output block for the
    // counter block f0f1…ff.
    let key = [
        0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77,
        0x81, 0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61, 0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14,
        0xdf, 0xf4,
    ];
    let counter: [u8; 16] = core::array::from_fn(|i| 0xf0 + i as u8);
    assert_eq!(
        crate::model::aes_encrypt_block(&key, &counter),
        [
            0x0b, 0xdf, 0x7d, 0xf1, 0x59, 0x17, 0x16, 0x33, 0x5e, 0x9a, 0x8b, 0x15, 0xc8, 0x60,
            0xc5, 0x02
        ]
    );
}

/// A generator seeded where it is.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn seeded() -> Generator {
    let mut rng = Generator::new().unwrap();
    rng.reseed().unwrap();
    rng
}

/// `Generator::new` draws no seed: the generator it returns holds no
/// secret, so moving it (out of `new`, into a box) copies none. The first
/// request seeds it where it then is.
#[test]
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn a_new_generator_holds_no_secret_until_its_first_request() {
    let mut rng = Box::new(Generator::new().unwrap());
    assert_eq!(rng.key, [0; 32]);
    assert!(rng.buffer.iter().all(|b| *b == 0));
    assert_eq!(rng.generation, 0);
    let mut out = [0u8; 16];
    rng.fill(&mut out).unwrap();
    assert_ne!(rng.key, [0; 32], "seeded in place by the first request");
    assert_ne!(rng.generation, 0);
    assert_ne!(out, [0; 16]);
}

#[test]
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn refills_and_large_requests_erase_the_key_and_served_bytes() {
    let mut rng = seeded();
    // A large request: its own keystream; the key becomes its first 32 bytes.
    let before = rng.key;
    let mut out = [0u8; 200];
    rng.fill(&mut out).unwrap();
    let mut next = [0u8; 32];
    let mut rest = [0u8; 200];
    keystream(rng.tier, &before, &mut next, &mut rest);
    assert_eq!((rng.key, out), (next, rest));
    // A small request refills the buffer (the key moves on again) and
    // serves its first bytes, which are zero in the buffer afterwards.
    let before = rng.key;
    let mut small = [0u8; 5];
    rng.fill(&mut small).unwrap();
    let mut buffer = [0u8; BUFFER];
    keystream(rng.tier, &before, &mut next, &mut buffer);
    assert_eq!(rng.key, next);
    assert_eq!(small, buffer[..5]);
    assert_eq!(rng.pos, 5);
    assert!(rng.buffer[..5].iter().all(|b| *b == 0));
    assert_eq!(rng.buffer[5..], buffer[5..]);
    // Requests that span a refill are served across it without a gap.
    let mut span = [0u8; 120];
    let mut total = 5;
    while total + span.len() <= BUFFER {
        rng.fill(&mut span).unwrap();
        total += span.len();
    }
    assert!(rng.pos > BUFFER - span.len());
    let before = rng.key;
    let tail_len = BUFFER - rng.pos;
    let tail: Vec<u8> = rng.buffer[rng.pos..].to_vec();
    rng.fill(&mut span).unwrap();
    keystream(rng.tier, &before, &mut next, &mut buffer);
    assert_eq!(span[..tail_len], tail[..]);
    assert_eq!(span[tail_len..], buffer[..span.len() - tail_len]);
}

/// A request longer than [`KEYSTREAM_MAX`] is served by successive keys,
/// each the first 32 bytes of the keystream before it, so no key's block
/// counter runs far; no 16-byte block of the output repeats.
#[test]
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn long_requests_change_key_every_keystream_max_bytes() {
    let mut rng = seeded();
    let mut key = rng.key;
    let mut out = vec![0u8; 2 * KEYSTREAM_MAX + 100];
    rng.fill(&mut out).unwrap();
    let mut expected = vec![0u8; out.len()];
    let mut next = [0u8; 32];
    for piece in expected.chunks_mut(KEYSTREAM_MAX) {
        keystream(rng.tier, &key, &mut next, piece);
        key = next;
    }
    assert!(
        out == expected,
        "pieces of KEYSTREAM_MAX bytes under successive keys"
    );
    assert_eq!(rng.key, key, "the key the last piece left");
    let blocks: std::collections::HashSet<&[u8]> = out.chunks(16).collect();
    assert_eq!(blocks.len(), out.len().div_ceil(16), "a repeated block");
}

/// The reseed budget holds inside one request: a request that crosses
/// [`RESEED_BYTES`] reseeds between its pieces.
#[test]
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn reseeds_inside_a_long_request() {
    let mut rng = seeded();
    rng.bytes = RESEED_BYTES - 1;
    let key = rng.key;
    let mut out = vec![0u8; 2 * KEYSTREAM_MAX];
    rng.fill(&mut out).unwrap();
    // The first piece came from the key before; then the budget was
    // spent, so the second came after a reseed, not from the key the
    // first piece left.
    let (mut first, mut next) = (vec![0u8; KEYSTREAM_MAX], [0u8; 32]);
    keystream(rng.tier, &key, &mut next, &mut first);
    assert!(out[..KEYSTREAM_MAX] == first[..]);
    let mut unreseeded = vec![0u8; KEYSTREAM_MAX];
    keystream(rng.tier, &next, &mut [0u8; 32], &mut unreseeded);
    assert!(
        out[KEYSTREAM_MAX..] != unreseeded[..],
        "no reseed between the pieces"
    );
    assert_eq!(
        rng.bytes, KEYSTREAM_MAX as u64,
        "the budget restarted at the reseed"
    );
}

/// `fill` re-entered on a thread whose generator is in use (as from a
/// signal handler) returns fresh bytes instead of panicking on the
/// `RefCell`, and leaves the interrupted generator alone.
#[test]
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[cfg(feature = "std")]
fn fill_reentered_while_the_thread_generator_is_borrowed() {
    let mut first = [0u8; 32];
    fill(&mut first).unwrap();
    GENERATOR.with(|cell| {
        let held = cell.borrow_mut();
        let key = held.as_ref().expect("created by the first fill").key;
        let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
        fill(&mut a).unwrap();
        fill(&mut b).unwrap();
        assert_ne!(a, b);
        assert_ne!(a, first);
        assert_eq!(
            held.as_ref().unwrap().key,
            key,
            "the held generator was used"
        );
    });
    fill(&mut first).unwrap();
}

#[test]
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn entropy_error_when_the_os_source_fails() {
    OS_FAILS.with(|f| f.set(true));
    assert_eq!(
        Generator::new().unwrap().fill(&mut [0; 1]),
        Err(Error::Entropy)
    );
    #[cfg(feature = "std")]
    let seq = crate::nonce::NonceSequence::new(());
    #[cfg(feature = "std")]
    assert_eq!(seq.next(), Err(Error::Entropy));
    OS_FAILS.with(|f| f.set(false));
    assert!(Generator::new().unwrap().fill(&mut [0; 1]).is_ok());
    #[cfg(feature = "std")]
    assert!(seq.next().is_ok());
}

#[test]
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn reseeds_after_the_request_budget() {
    let mut rng = seeded();
    rng.requests = RESEED_REQUESTS;
    let before = rng.key;
    let mut out = [0u8; 1];
    rng.fill(&mut out).unwrap();
    assert_eq!(rng.requests, 1);
    let mut next = [0u8; 32];
    keystream(rng.tier, &before, &mut next, &mut []);
    assert_ne!(rng.key, next, "a reseed mixes fresh entropy in");
}

/// Where the CPU has an entropy source and the feature is on, it changes
/// the seed (two draws also differ from each other).
#[cfg(feature = "cpu-rng-reseed")]
#[test]
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn cpu_entropy_is_mixed_in_where_the_cpu_has_it() {
    #[cfg(target_arch = "x86_64")]
    let has = std::arch::is_x86_feature_detected!("rdseed");
    #[cfg(target_arch = "aarch64")]
    let has = std::arch::is_aarch64_feature_detected!("rand");
    let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
    mix_cpu_entropy(&mut a);
    mix_cpu_entropy(&mut b);
    if has {
        assert_ne!(a, [0u8; 32]);
        assert_ne!(a, b);
    } else {
        assert_eq!((a, b), ([0u8; 32], [0u8; 32]));
    }
}

/// Linux ≥ 4.14 accepts the advice (whether it is honoured is checked by
/// forking, in tests/random.rs).
#[cfg(all(target_os = "linux", feature = "std"))]
#[test]
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn wipe_on_fork_is_accepted_by_this_kernel() {
    assert!(fork::wipe_on_fork_accepted());
}
