//! Key lifecycle: caller-placed key state and its wiping, owned keys' wiping,
//! and generated nonces; AEGIS's, XAES-256-GCM's and KC-XAES-256-GCM's in
//! the last sections.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

use std::collections::HashSet;
use std::mem::{ManuallyDrop, MaybeUninit, size_of};

use hardware_aead::aegis::{Aegis128L, Aegis128X2, Aegis128X4, Aegis256, Aegis256X2, Aegis256X4};
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::placement::{KeySlot, key_state_layout};
use hardware_aead::xaes_gcm::{KC_TAG_LEN, KcXaes256Gcm, Xaes256Gcm};
use hardware_aead::{AeadKey, Error, TAG_LEN};

mod common;
use common::{array, to_hex};

/// The bytes of `value`'s storage.
fn bytes_of<T>(value: &T) -> Vec<u8> {
    // SAFETY: reading `size_of::<T>()` bytes of a live object's storage; every
    // byte read here has been written (the slots were zeroed or built).
    unsafe { std::slice::from_raw_parts((value as *const T).cast::<u8>(), size_of::<T>()).to_vec() }
}

fn nonzero(bytes: &[u8]) -> usize {
    bytes.iter().filter(|b| **b != 0).count()
}

/// Builds a key in a slot, uses it, drops it: the slot is all zero after.
fn placed_key_is_wiped<K: AeadKey>(key: &K::Key) {
    let mut slot = KeySlot::<K>::new();
    {
        let placed = K::new_in(&mut slot, key).unwrap();
        let (nonce, sealed) = placed
            .seal_with_generated_nonce(b"aad", b"placed message")
            .unwrap();
        assert_eq!(
            placed.open(&nonce, b"aad", &sealed).unwrap(),
            b"placed message"
        );
        // While it lives, the slot holds the (non-zero) key state.
        assert!(nonzero(&bytes_of(&*placed)) > 100);
    }
    assert_eq!(
        nonzero(&bytes_of(&slot)),
        0,
        "{} bytes survive in the slot",
        nonzero(&bytes_of(&slot))
    );
}

#[test]
fn placed_keys_are_wiped_on_drop() {
    placed_key_is_wiped::<Aes128Gcm>(&[0x11; 16]);
    placed_key_is_wiped::<Aes256Gcm>(&[0x22; 32]);
    placed_key_is_wiped::<Aes128GcmSiv>(&[0x33; 16]);
    placed_key_is_wiped::<Aes256GcmSiv>(&[0x44; 32]);
}

/// An owned key dropped in place: its key-equivalent state (round keys and
/// powers) is zero afterwards; at most the tier byte and the nonce state
/// (counter and salt, not secret) remain.
fn owned_key_is_wiped<K: AeadKey>(key: &K::Key) {
    let mut owned = ManuallyDrop::new(K::new(key).unwrap());
    let _ = owned.seal_with_generated_nonce(b"", b"x").unwrap();
    assert!(nonzero(&bytes_of(&*owned)) > 100);
    // SAFETY: dropped once, never used again except to read its bytes.
    unsafe { ManuallyDrop::drop(&mut owned) };
    let left = nonzero(&bytes_of(&*owned));
    assert!(
        left <= 1 + 24,
        "{left} non-zero bytes survive (tier + nonce state is 25 at most)"
    );
}

#[test]
fn owned_keys_are_wiped_on_drop() {
    owned_key_is_wiped::<Aes128Gcm>(&[0x11; 16]);
    owned_key_is_wiped::<Aes256Gcm>(&[0x22; 32]);
    owned_key_is_wiped::<Aes128GcmSiv>(&[0x33; 16]);
    owned_key_is_wiped::<Aes256GcmSiv>(&[0x44; 32]);
}

#[test]
fn keys_built_at_a_raw_pointer_work_and_layouts_are_compact() {
    let layout = key_state_layout::<Aes256Gcm>();
    assert_eq!(layout.size(), size_of::<Aes256Gcm>());
    assert!(layout.size() <= 400, "{}", layout.size());
    let mut storage = MaybeUninit::<Aes256Gcm>::uninit();
    // SAFETY: `storage` is valid for writes and aligned for the key.
    unsafe { Aes256Gcm::new_at(storage.as_mut_ptr(), &[5; 32]).unwrap() };
    // SAFETY: initialised by `new_at`.
    let key = unsafe { storage.assume_init_ref() };
    let reference = Aes256Gcm::new(&[5; 32]).unwrap();
    assert_eq!(
        key.seal(&[1; 12], b"", b"abc").unwrap(),
        reference.seal(&[1; 12], b"", b"abc").unwrap()
    );
    // SAFETY: dropped once.
    unsafe { storage.assume_init_drop() };
}

#[test]
fn generated_nonces_never_repeat_across_threads() {
    const THREADS: usize = 8;
    const EACH: usize = 100_000;
    let key = Aes128Gcm::new(&[9; 16]).unwrap();
    let all: Vec<Vec<[u8; 12]>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::with_capacity(EACH);
                    for _ in 0..EACH {
                        let mut out = [0u8; 28];
                        key.seal_with_generated_nonce_appended_to(b"", b"", &mut out)
                            .unwrap();
                        let mut nonce = [0u8; 12];
                        nonce.copy_from_slice(&out[16..]);
                        mine.push(nonce);
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut seen = HashSet::with_capacity(THREADS * EACH);
    for nonce in all.iter().flatten() {
        assert!(seen.insert(*nonce), "nonce {nonce:02x?} repeated");
    }
    assert_eq!(seen.len(), THREADS * EACH);
}

fn nonce_appended_round_trip_and_tamper<K: AeadKey>(key: &K::Key) {
    let key = K::new(key).unwrap();
    for len in [0usize, 1, 16, 17, 300] {
        let msg: Vec<u8> = (0..len).map(|i| i as u8).collect();
        let sealed = key
            .seal_with_generated_nonce_appended(b"hdr", &msg)
            .unwrap();
        assert_eq!(sealed.len(), len + 16 + 12);
        assert_eq!(key.open_with_nonce_appended(b"hdr", &sealed).unwrap(), msg);
        let mut out = vec![0u8; len];
        assert_eq!(
            key.open_with_nonce_appended_to(b"hdr", &sealed, &mut out)
                .unwrap(),
            len
        );
        assert_eq!(out, msg);
        // Every byte of ciphertext, tag and nonce is covered.
        for i in 0..sealed.len() {
            let mut bad = sealed.clone();
            bad[i] ^= 0x01;
            let mut out = vec![0xAAu8; len];
            assert_eq!(
                key.open_with_nonce_appended_to(b"hdr", &bad, &mut out),
                Err(Error::Authentication)
            );
            assert!(out.iter().all(|b| *b == 0), "forged plaintext released");
        }
        assert_eq!(
            key.open_with_nonce_appended(b"HDR", &sealed),
            Err(Error::Authentication)
        );
        // Two seals of the same message use different nonces.
        let again = key
            .seal_with_generated_nonce_appended(b"hdr", &msg)
            .unwrap();
        assert_ne!(again[len + 16..], sealed[len + 16..]);
    }
    for short in 0..28 {
        assert_eq!(
            key.open_with_nonce_appended(b"", &vec![0; short]),
            Err(Error::Truncated)
        );
    }
    // Too small an output buffer: an error, nothing written, no nonce used.
    let mut out = [0xAAu8; 30];
    assert_eq!(
        key.seal_with_generated_nonce_appended_to(b"", b"abc", &mut out[..30]),
        Err(Error::BufferTooSmall { needed: 31 })
    );
    assert!(out.iter().all(|b| *b == 0xAA));
}

#[test]
fn nonce_appended_sealing_round_trips_and_rejects_tampering() {
    nonce_appended_round_trip_and_tamper::<Aes128Gcm>(&[1; 16]);
    nonce_appended_round_trip_and_tamper::<Aes256Gcm>(&[2; 32]);
    nonce_appended_round_trip_and_tamper::<Aes128GcmSiv>(&[3; 16]);
    nonce_appended_round_trip_and_tamper::<Aes256GcmSiv>(&[4; 32]);
}

#[test]
fn generated_nonce_sealing_matches_explicit_nonce_sealing() {
    let key = Aes256GcmSiv::new(&[7; 32]).unwrap();
    let (nonce, sealed) = key.seal_with_generated_nonce(b"a", b"payload").unwrap();
    assert_eq!(sealed, key.seal(&nonce, b"a", b"payload").unwrap());
}

#[path = "../src/model.rs"]
mod model;

/// The stack depth the scan covers.
const SCAN_DEPTH: usize = 64 * 1024;

/// How many of `needles` occur, 16-byte aligned, in the [`SCAN_DEPTH`] bytes
/// of this thread's stack below this function's own frame: where the frames
/// of deeper calls made before it were.
#[inline(never)]
fn stack_copies_below(needles: &[[u8; 16]]) -> usize {
    let here = 0u8;
    let top = (std::hint::black_box(&here as *const u8 as usize) & !15) - 256;
    let mut found = 0;
    let mut addr = top - SCAN_DEPTH;
    while addr < top {
        let mut block = [0u8; 16];
        for (i, b) in block.iter_mut().enumerate() {
            // SAFETY: test threads run on a fully mapped stack of 2 MiB; the
            // bytes read lie within 64 KiB below this frame, inside it. They
            // belong to no live object: read as bytes, volatile.
            *b = unsafe { std::ptr::read_volatile((addr + i) as *const u8) };
        }
        found += usize::from(needles.contains(&block));
        addr += 16;
    }
    found
}

/// Overwrites the [`SCAN_DEPTH`] bytes below the caller's frame with zeros.
#[inline(never)]
fn scrub_stack() {
    let mut pad = [0u8; SCAN_DEPTH + 4096];
    for b in pad.iter_mut() {
        // SAFETY: a byte of a local array.
        unsafe { std::ptr::write_volatile(b, 0) };
    }
    std::hint::black_box(&pad);
}

/// Leaves `block` in a frame a kilobyte below the caller's (the scan's
/// self-test).
#[inline(never)]
fn leave_on_stack_deep(block: [u8; 16]) {
    #[inline(never)]
    fn leave(block: [u8; 16]) {
        let copies = [block; 4];
        std::hint::black_box(&copies);
    }
    let pad = [1u8; 1024];
    std::hint::black_box(&pad);
    leave(block);
}

/// Building a key in a slot leaves no copy of its round keys on the stack:
/// the kernels write them into the slot, not into a temporary that is moved.
fn placement_leaves_no_round_key_on_the_stack<K: AeadKey>(key: &K::Key) {
    // Round keys 2.. (0 and 1 are the key itself, which the caller holds).
    let needles: Vec<[u8; 16]> = model::AesKey::new(key.as_ref()).round_keys()[2..].to_vec();
    placement_leaves_none_on_the_stack::<K>(key, &needles);
}

/// Building a key in a slot leaves none of `needles` (16-byte blocks of its
/// secret state) in the stack below the caller's frame.
fn placement_leaves_none_on_the_stack<K: AeadKey>(key: &K::Key, needles: &[[u8; 16]]) {
    // The scan finds what a returned call left behind (its self-test), and
    // the scrub removes it.
    leave_on_stack_deep(needles[0]);
    assert!(stack_copies_below(needles) > 0, "the scan sees nothing");
    scrub_stack();
    assert_eq!(stack_copies_below(needles), 0, "a copy survived the scrub");
    let mut slot = KeySlot::<K>::new();
    let placed = K::new_in(&mut slot, key).unwrap();
    let copies = stack_copies_below(needles);
    drop(placed);
    assert_eq!(copies, 0, "key state found on the stack after new_in");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "in a debug build the scan's own helper calls overwrite the frames it looks at; \
              .ci/run runs it in its release test runs"
)]
fn placement_leaves_no_key_copies_on_the_stack() {
    placement_leaves_no_round_key_on_the_stack::<Aes128Gcm>(&[0x5a; 16]);
    placement_leaves_no_round_key_on_the_stack::<Aes256Gcm>(&[0x5b; 32]);
    placement_leaves_no_round_key_on_the_stack::<Aes128GcmSiv>(&[0x5c; 16]);
    placement_leaves_no_round_key_on_the_stack::<Aes256GcmSiv>(&[0x5d; 32]);
    // AEGIS: the key state is the key itself, copied into the slot.
    let key128: [u8; 16] = core::array::from_fn(|i| 0x80 ^ i as u8);
    let key256: [u8; 32] = core::array::from_fn(|i| 0xc0 ^ i as u8);
    let halves = [array::<16>(&key256[..16]), array::<16>(&key256[16..])];
    placement_leaves_none_on_the_stack::<Aegis128L<16>>(&key128, &[key128]);
    placement_leaves_none_on_the_stack::<Aegis256X4<32>>(&key256, &halves);
}

/// A forgotten `Placed` guard never drops its key, but the slot still wipes
/// its bytes when it goes.
#[test]
fn a_slot_is_wiped_even_if_its_guard_was_forgotten() {
    let mut slot = ManuallyDrop::new(KeySlot::<Aes256Gcm>::new());
    std::mem::forget(Aes256Gcm::new_in(&mut slot, &[0x77; 32]).unwrap());
    assert!(nonzero(&bytes_of(&*slot)) > 100);
    // SAFETY: dropped once; afterwards the storage is only read as bytes.
    unsafe { ManuallyDrop::drop(&mut slot) };
    assert_eq!(
        nonzero(&bytes_of(&*slot)),
        0,
        "the forgotten key survives its slot"
    );
}

/// A zero nonce of `K`'s nonce type.
fn zero_nonce<K: AeadKey>() -> K::Nonce {
    let Ok(nonce) = K::Nonce::try_from(&vec![0u8; K::NONCE_LEN][..]) else {
        panic!("a nonce of {} bytes", K::NONCE_LEN);
    };
    nonce
}

/// Key state that the system zeroes under a placed key (what a wipe-on-fork
/// page becomes in a child) is refused: no seal, no open, no generated
/// nonce, `Error::KeyStateLost` each time.
fn zeroed_key_state_is_refused<K: AeadKey>(key: &K::Key) {
    let layout = key_state_layout::<K>();
    // SAFETY: the layout has a non-zero size.
    let at = unsafe { std::alloc::alloc(layout) }.cast::<K>();
    assert!(!at.is_null());
    // SAFETY: a fresh allocation of the key's layout.
    unsafe { K::new_at(at, key).unwrap() };
    let nonce = zero_nonce::<K>();
    // SAFETY: built just above; the reference ends before the bytes change.
    let sealed = unsafe { &*at }.seal(&nonce, b"", b"secret").unwrap();
    // What the kernel does to a wiped page: every byte zero. No reference to
    // the key is alive while this writes.
    // SAFETY: `at` is valid for `layout.size()` bytes of writes.
    unsafe { at.cast::<u8>().write_bytes(0, layout.size()) };
    // SAFETY: an all-zero key state is a valid value of every key type
    // (`Tier` is `repr(u8)`, so zero is its first variant; zero round keys,
    // no salt, no mark); it is what a child would see.
    let wiped = unsafe { &*at };
    let mut buffer = *b"secret";
    assert_eq!(wiped.seal(&nonce, b"", b"secret"), Err(Error::KeyStateLost));
    assert_eq!(
        wiped.seal_in_place_detached(&nonce, b"", &mut buffer),
        Err(Error::KeyStateLost)
    );
    assert_eq!(buffer, *b"secret", "the buffer was touched");
    assert_eq!(wiped.open(&nonce, b"", &sealed), Err(Error::KeyStateLost));
    assert_eq!(
        wiped.seal_with_generated_nonce_appended(b"", b"secret"),
        Err(Error::KeyStateLost)
    );
    // SAFETY: dropped once (the zero state drops like any other), then freed.
    unsafe {
        std::ptr::drop_in_place(at);
        std::alloc::dealloc(at.cast(), layout);
    }
}

#[test]
fn zeroed_key_state_is_refused_by_every_key_type() {
    zeroed_key_state_is_refused::<Aes128Gcm>(&[0x61; 16]);
    zeroed_key_state_is_refused::<Aes256Gcm>(&[0x62; 32]);
    zeroed_key_state_is_refused::<Aes128GcmSiv>(&[0x63; 16]);
    zeroed_key_state_is_refused::<Aes256GcmSiv>(&[0x64; 32]);
    zeroed_key_state_is_refused::<hardware_aead::xaes_gcm::Xaes256Gcm>(&[0x65; 32]);
    zeroed_key_state_is_refused::<hardware_aead::xaes_gcm::KcXaes256Gcm>(&[0x66; 32]);
}

// ---------------------------------------------------------------------------
// AEGIS (no key schedule: the key state is the key, the tier and the mark)
// ---------------------------------------------------------------------------

/// Whether `needle` occurs in `haystack`.
fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// An AEGIS key type: the state is the key and at most 16 bytes more; a
/// placed key leaves its slot all zero, an owned one leaves no eight bytes
/// of the key in a row (the tier and the mark stay), and a zeroed state is
/// refused.
fn aegis_key_lifecycle<K: AeadKey>(key: &K::Key) {
    assert!(
        size_of::<K>() <= K::KEY_LEN + 16,
        "{} bytes of key state",
        size_of::<K>()
    );
    let nonce = zero_nonce::<K>();
    let mut slot = KeySlot::<K>::new();
    {
        let placed = K::new_in(&mut slot, key).unwrap();
        let sealed = placed.seal(&nonce, b"aad", b"placed message").unwrap();
        assert_eq!(
            placed.open(&nonce, b"aad", &sealed).unwrap(),
            b"placed message"
        );
        assert!(contains(&bytes_of(&*placed), key.as_ref()));
    }
    assert_eq!(nonzero(&bytes_of(&slot)), 0, "bytes survive in the slot");

    let mut owned = ManuallyDrop::new(K::new(key).unwrap());
    assert!(contains(&bytes_of(&*owned), key.as_ref()));
    // SAFETY: dropped once, never used again except to read its bytes.
    unsafe { ManuallyDrop::drop(&mut owned) };
    // Nothing of the key is left (the padding beside the tier and the mark
    // may hold anything the stack held, in an unoptimised build).
    let left = bytes_of(&*owned);
    for piece in key.as_ref().chunks(8) {
        assert!(!contains(&left, piece), "key bytes survive: {left:02x?}");
    }
    zeroed_key_state_is_refused::<K>(key);
}

#[test]
fn aegis_key_state_is_the_key_and_is_wiped() {
    let key128: [u8; 16] = core::array::from_fn(|i| 0x21 + i as u8);
    let key256: [u8; 32] = core::array::from_fn(|i| 0x41 + i as u8);
    aegis_key_lifecycle::<Aegis128L<16>>(&key128);
    aegis_key_lifecycle::<Aegis128L<32>>(&key128);
    aegis_key_lifecycle::<Aegis128X2<16>>(&key128);
    aegis_key_lifecycle::<Aegis128X4<32>>(&key128);
    aegis_key_lifecycle::<Aegis256<16>>(&key256);
    aegis_key_lifecycle::<Aegis256<32>>(&key256);
    aegis_key_lifecycle::<Aegis256X2<32>>(&key256);
    aegis_key_lifecycle::<Aegis256X4<16>>(&key256);
}

// ---------------------------------------------------------------------------
// XAES-256-GCM and KC-XAES-256-GCM (192-bit nonces; their model in
// tests/common/xaes_model.rs)
// ---------------------------------------------------------------------------

#[test]
fn xaes_generated_nonces_are_random_and_appended_after_the_tag() {
    let key = Xaes256Gcm::new(&[9; 32]).unwrap();
    let mut seen = std::collections::HashSet::new();
    for i in 0..2000usize {
        let pt = vec![i as u8; i % 50];
        let sealed = key.seal_with_generated_nonce_appended(b"ad", &pt).unwrap();
        assert_eq!(sealed.len(), pt.len() + TAG_LEN + Xaes256Gcm::NONCE_LEN);
        let nonce: [u8; 24] = array(&sealed[sealed.len() - Xaes256Gcm::NONCE_LEN..]);
        assert!(seen.insert(nonce), "a generated nonce repeated");
        assert_eq!(
            key.seal(&nonce, b"ad", &pt).unwrap(),
            sealed[..sealed.len() - Xaes256Gcm::NONCE_LEN]
        );
        assert_eq!(key.open_with_nonce_appended(b"ad", &sealed).unwrap(), pt);
        let mut out = vec![0u8; pt.len()];
        assert_eq!(
            key.open_with_nonce_appended_to(b"ad", &sealed, &mut out),
            Ok(pt.len())
        );
        assert_eq!(out, pt);
    }
    let (nonce, sealed) = key.seal_with_generated_nonce(b"", b"x").unwrap();
    assert!(!seen.contains(&nonce));
    assert_eq!(key.open(&nonce, b"", &sealed).unwrap(), b"x");
    // No byte position of the nonces is constant (a counter or a fixed salt
    // would leave some): each takes many values over 2000 nonces.
    for i in 0..Xaes256Gcm::NONCE_LEN {
        let values: std::collections::HashSet<u8> = seen.iter().map(|n| n[i]).collect();
        assert!(
            values.len() > 100,
            "nonce byte {i} takes only {} values",
            values.len()
        );
    }
    let mut out = [0u8; 64];
    let n = key
        .seal_with_generated_nonce_appended_to(b"", b"abc", &mut out)
        .unwrap();
    assert_eq!(n, 3 + TAG_LEN + Xaes256Gcm::NONCE_LEN);
    assert_eq!(
        key.open_with_nonce_appended(b"", &out[..n]).unwrap(),
        b"abc"
    );
}

#[test]
fn xaes_generated_nonces_from_many_threads() {
    let key = std::sync::Arc::new(Xaes256Gcm::new(&[3; 32]).unwrap());
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let key = std::sync::Arc::clone(&key);
            std::thread::spawn(move || {
                (0..200)
                    .map(|_| {
                        let (nonce, sealed) = key.seal_with_generated_nonce(b"", b"m").unwrap();
                        assert_eq!(key.open(&nonce, b"", &sealed).unwrap(), b"m");
                        nonce
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut all = std::collections::HashSet::new();
    for h in handles {
        for n in h.join().unwrap() {
            assert!(all.insert(n), "a nonce repeated across threads");
        }
    }
}

#[test]
fn xaes_key_state_is_small_and_wiped() {
    assert!(
        size_of::<Xaes256Gcm>() <= 300,
        "{} bytes",
        size_of::<Xaes256Gcm>()
    );
    assert_eq!(
        key_state_layout::<Xaes256Gcm>().size(),
        size_of::<Xaes256Gcm>()
    );
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Xaes256Gcm>();

    let mut slot = KeySlot::<Xaes256Gcm>::new();
    {
        let key = Xaes256Gcm::new_in(&mut slot, &[0x5c; 32]).unwrap();
        let sealed = key.seal(&[2; 24], b"", b"placed").unwrap();
        assert_eq!(
            Xaes256Gcm::new(&[0x5c; 32])
                .unwrap()
                .open(&[2; 24], b"", &sealed)
                .unwrap(),
            b"placed"
        );
        let debug = format!("{:?}", *key);
        assert!(debug.starts_with("Xaes256Gcm"), "{debug}");
        assert!(!debug.contains("5c") && !debug.contains("92"), "{debug}");
    }
    // SAFETY: the slot's storage is `size_of::<Xaes256Gcm>()` bytes; after the
    // guard's drop it holds no live value and is read as bytes.
    let bytes = unsafe {
        core::slice::from_raw_parts((&raw const slot).cast::<u8>(), size_of::<Xaes256Gcm>())
    };
    assert!(bytes.iter().all(|&b| b == 0), "the slot was not wiped");
}

#[test]
fn xaes_new_at_builds_the_same_key() {
    use std::alloc::{alloc, dealloc};
    let layout = key_state_layout::<Xaes256Gcm>();
    // SAFETY: the layout has a non-zero size.
    let at = unsafe { alloc(layout) }.cast::<Xaes256Gcm>();
    assert!(!at.is_null());
    // SAFETY: `at` is a fresh allocation of the key's layout.
    unsafe { Xaes256Gcm::new_at(at, &[0x01; 32]).unwrap() };
    // SAFETY: initialised just above.
    let key = unsafe { &*at };
    let sealed = key
        .seal(b"ABCDEFGHIJKLMNOPQRSTUVWX", b"", b"XAES-256-GCM")
        .unwrap();
    assert_eq!(
        to_hex(&sealed),
        "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271"
    );
    // SAFETY: dropped once, then freed.
    unsafe {
        core::ptr::drop_in_place(at);
        dealloc(at.cast(), layout);
    }
}

/// The whole `AeadKey` surface on KC-XAES-256-GCM: lengths, too-short inputs,
/// generated nonces (24 random bytes, appended after the 48-byte tag),
/// placement, the key state's size (XAES-256-GCM's) and wiping.
#[test]
fn kc_api_lengths_generated_nonces_and_key_state() {
    assert_eq!(KcXaes256Gcm::TAG_LEN, 48);
    assert_eq!(KcXaes256Gcm::NONCE_LEN, 24);
    assert_eq!(size_of::<KcXaes256Gcm>(), size_of::<Xaes256Gcm>());
    let key = KcXaes256Gcm::new(&[0x5c; 32]).unwrap();
    let nonce = [1u8; 24];
    for len in 0..KC_TAG_LEN {
        assert_eq!(
            key.open(&nonce, b"", &vec![0; len]),
            Err(Error::Truncated),
            "{len}"
        );
        assert_eq!(
            key.open_to(&nonce, b"", &vec![0; len], &mut [0; 64]),
            Err(Error::Truncated),
            "{len}"
        );
    }
    for len in 0..KC_TAG_LEN + Xaes256Gcm::NONCE_LEN {
        assert_eq!(
            key.open_with_nonce_appended(b"", &vec![0; len]),
            Err(Error::Truncated),
            "{len}"
        );
    }
    let mut out = vec![0xAAu8; 5 + KC_TAG_LEN - 1];
    assert_eq!(
        key.seal_to(&nonce, b"", b"hello", &mut out),
        Err(Error::BufferTooSmall {
            needed: 5 + KC_TAG_LEN
        })
    );
    assert!(out.iter().all(|&b| b == 0xAA));

    let mut seen = std::collections::HashSet::new();
    for i in 0..200usize {
        let pt = vec![i as u8; i % 40];
        let sealed = key.seal_with_generated_nonce_appended(b"ad", &pt).unwrap();
        assert_eq!(sealed.len(), pt.len() + KC_TAG_LEN + Xaes256Gcm::NONCE_LEN);
        let n: [u8; 24] = array(&sealed[sealed.len() - Xaes256Gcm::NONCE_LEN..]);
        assert!(seen.insert(n), "a generated nonce repeated");
        assert_eq!(
            key.seal(&n, b"ad", &pt).unwrap(),
            sealed[..sealed.len() - Xaes256Gcm::NONCE_LEN]
        );
        assert_eq!(key.open_with_nonce_appended(b"ad", &sealed).unwrap(), pt);
    }
    let (n, sealed) = key.seal_with_generated_nonce(b"", b"x").unwrap();
    assert_eq!(key.open(&n, b"", &sealed).unwrap(), b"x");

    let mut slot = KeySlot::<KcXaes256Gcm>::new();
    {
        let placed = KcXaes256Gcm::new_in(&mut slot, &[0x5c; 32]).unwrap();
        let sealed = placed.seal(&[2; 24], b"", b"placed").unwrap();
        assert_eq!(key.open(&[2; 24], b"", &sealed).unwrap(), b"placed");
        let debug = format!("{:?}", *placed);
        assert!(debug.starts_with("KcXaes256Gcm"), "{debug}");
        assert!(!debug.contains("5c") && !debug.contains("92"), "{debug}");
    }
    // SAFETY: the slot's storage is `size_of::<KcXaes256Gcm>()` bytes; after
    // the guard's drop it holds no live value and is read as bytes.
    let bytes = unsafe {
        core::slice::from_raw_parts((&raw const slot).cast::<u8>(), size_of::<KcXaes256Gcm>())
    };
    assert!(bytes.iter().all(|&b| b == 0), "the slot was not wiped");
}
