//! Side-by-side timing of this crate against ring and aws-lc-rs: one process,
//! the implementations interleaved in rounds (A B C A B C …), each sample a
//! batch of about 2 ms, the median of the rounds reported. This is the
//! method of docs/benchmarks.md ("Method"), whose tables it takes; the
//! criterion benches (`cargo bench -p hardware-aead-bench`) time each tier's
//! entries one after the other.
//!
//! ```text
//! cargo run --release -p hardware-aead-bench --example compare -- [gcm128|gcm256|siv128|siv256|xaes|kc|setup|stream|forged|aegis|all] [rounds] [sizes]
//! cargo run --release -p hardware-aead-bench --features ece --example compare -- ece [rounds] [record sizes]
//! ```
//!
//! `aegis` times the six AEGIS variants (16-byte tags) against the `aegis`
//! crate (its C back-end, libaegis), with this crate's AES-128-GCM or
//! AES-256-GCM beside them (not a peer: the ratio printed is to the `aegis`
//! crate), default sizes 16,64,256,1024,16384,1048576.
//!
//! Without an argument it runs all of them but `aegis`, `stream` (the stream adapters
//! against one-shot sealing, sizes = the write and read call sizes, default
//! 64,1024,8192,1048576; then whole streams of 16 B and 1 KiB), `forged`
//! (opening a forged message beside a genuine one, default sizes 1024,65536),
//! and `ece` (RFC 8188 against one-shot AES-128-GCM,
//! `bench/benches/ece.rs`'s entries, record sizes default 4096,65536); `sizes` is a comma-separated list
//! (default 16,256,1024,1500,4096,16384,65536). Every line gives the median time of
//! one call (seal is `seal_in_place_detached` or the peer's equivalent, empty
//! AAD; setup is `new` + drop) and, for this crate's entries, the ratio to the
//! fastest peer's median (below 1 = faster than every peer). Each size runs
//! seal, then open (`open_to` here; ring copies the ciphertext back and
//! opens in place, having no out-of-place open; aws-lc-rs
//! `open_separate_gather`).
//!
//! Where a buffer starts within a cache line moves the times, and not the
//! same way for every implementation (the same code, with the buffer 0, 16,
//! 32 or 48 bytes past a 64-byte boundary: docs/benchmarks.md, "Method"). A
//! `Vec<u8>` may start at any multiple of 16, so the AES-GCM and AES-GCM-SIV
//! cases move their message buffer (seal: the in-place buffer; open: the
//! output) through those four placements, the next one at every call
//! ([`Moving`]): each sample, for every entry alike, averages over them.

use std::hint::black_box;

use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::{AeadKey, Tier};

use hardware_aead_bench::moving_buffer::Moving;
use hardware_aead_bench::timing::{self, Entry, run};

/// The sizes of the seal cases, in bytes, unless the command line names others.
const SIZES: [usize; 7] = [16, 256, 1024, 1500, 4096, 16384, 65536];

/// This crate's tiers, with the entry name of each.
const TIERS: [(&str, Tier); 3] = [
    ("hw/avx512", Tier::VaesAvx512),
    ("hw/avx2", Tier::VaesAvx2),
    ("hw/aesni", Tier::AesNiClmul),
];

const NONCE: [u8; 12] = [9; 12];

/// A [`Moving`] buffer shared by a case's entries: each borrow takes the
/// next placement.
struct Shared(std::cell::RefCell<Moving>);

impl Shared {
    fn new(len: usize) -> Self {
        Shared(std::cell::RefCell::new(Moving::new(len)))
    }

    /// The buffer at the next placement.
    fn borrow_mut(&self) -> std::cell::RefMut<'_, [u8]> {
        std::cell::RefMut::map(self.0.borrow_mut(), Moving::next_placement)
    }
}

/// The seal entries of this crate for key type `K`: every tier the CPU has,
/// and `new()`'s choice.
fn hw_seal_entries<'a, K: AeadKey<Nonce = [u8; 12]> + 'a>(
    key: &K::Key,
    buf: &'a Shared,
) -> Vec<Entry<'a>> {
    let mut entries = Vec::new();
    let default = K::new(key).expect("a supported CPU");
    let label = format!("hw/new={}", short(default.tier()));
    entries.push(Entry {
        name: label,
        peer: false,
        call: Box::new(move || {
            black_box(
                default
                    .seal_in_place_detached(&NONCE, b"", &mut buf.borrow_mut())
                    .unwrap(),
            );
        }),
    });
    for (name, tier) in TIERS {
        if let Ok(k) = K::with_tier(key, tier) {
            entries.push(Entry {
                name: name.into(),
                peer: false,
                call: Box::new(move || {
                    black_box(
                        k.seal_in_place_detached(&NONCE, b"", &mut buf.borrow_mut())
                            .unwrap(),
                    );
                }),
            });
        }
    }
    entries
}

fn short(b: Tier) -> &'static str {
    match b {
        Tier::VaesAvx512 => "avx512",
        Tier::VaesAvx2 => "avx2",
        Tier::AesNiClmul => "aesni",
        _ => "other",
    }
}

/// A ring-style peer seal entry (ring and aws-lc-rs share the API shape).
macro_rules! ring_like_seal {
    ($krate:ident, $name:expr, $alg:expr, $key:expr, $buf:expr) => {{
        let k = $krate::aead::LessSafeKey::new(
            $krate::aead::UnboundKey::new($alg, $key).expect("peer accepts the key"),
        );
        let buf = $buf;
        Entry {
            name: $name.into(),
            peer: true,
            call: Box::new(move || {
                let _ = black_box(
                    k.seal_in_place_separate_tag(
                        $krate::aead::Nonce::assume_unique_for_key(NONCE),
                        $krate::aead::Aad::empty(),
                        &mut buf.borrow_mut()[..],
                    )
                    .unwrap(),
                );
            }),
        }
    }};
}

fn seal_cases<K: AeadKey<Nonce = [u8; 12]>>(
    title: &str,
    key: &[u8],
    ring_alg: Option<&'static ring::aead::Algorithm>,
    aws_alg: &'static aws_lc_rs::aead::Algorithm,
    rounds: usize,
    sizes: &[usize],
) {
    let key_bytes = K::Key::try_from(key).ok().expect("key length");
    for &size in sizes {
        let buf = Shared::new(size);
        let mut entries = hw_seal_entries::<K>(&key_bytes, &buf);
        if let Some(alg) = ring_alg {
            entries.push(ring_like_seal!(ring, "ring", alg, key, &buf));
        }
        entries.push(ring_like_seal!(aws_lc_rs, "aws-lc-rs", aws_alg, key, &buf));
        run(
            &format!("{title} seal {size} B"),
            size,
            rounds,
            &mut entries,
        );
        drop(entries);
        open_case::<K>(title, key, ring_alg, aws_alg, rounds, size);
    }
}

/// The open entries of `size` bytes: this crate's `open_to` on every tier
/// (out of place), ring's in-place open after copying the ciphertext back (it
/// has no out-of-place open), aws-lc-rs's `open_separate_gather` (out of
/// place). The output moves through the four placements ([`Moving`]; ring's
/// copy lands there too), the ciphertext stays where the allocator put it.
/// Every entry of this crate checks once that it recovers the plaintext.
fn open_case<K: AeadKey<Nonce = [u8; 12]>>(
    title: &str,
    key: &[u8],
    ring_alg: Option<&'static ring::aead::Algorithm>,
    aws_alg: &'static aws_lc_rs::aead::Algorithm,
    rounds: usize,
    size: usize,
) {
    let key_bytes = K::Key::try_from(key).ok().expect("key length");
    let plaintext = vec![0x5a_u8; size];
    let default = K::new(&key_bytes).expect("a supported CPU");
    let sealed = default.seal(&NONCE, b"", &plaintext).expect("seal");
    let (ciphertext, tag) = sealed.split_at(size);
    let out = Shared::new(size);
    let mut keys: Vec<(String, K)> = vec![(format!("hw/new={}", short(default.tier())), default)];
    for (name, tier) in TIERS {
        if let Ok(k) = K::with_tier(&key_bytes, tier) {
            keys.push((name.into(), k));
        }
    }
    let mut entries = Vec::new();
    for (name, k) in keys {
        let mut opened = out.borrow_mut();
        k.open_to(&NONCE, b"", &sealed, &mut opened).expect("open");
        assert!(*opened == plaintext[..], "{name}: open is wrong");
        drop(opened);
        let (sealed, out) = (&sealed, &out);
        entries.push(Entry {
            name,
            peer: false,
            call: Box::new(move || {
                black_box(
                    k.open_to(&NONCE, b"", sealed, &mut out.borrow_mut())
                        .unwrap(),
                );
            }),
        });
    }
    if let Some(alg) = ring_alg {
        let k = ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(alg, key).unwrap());
        let tag = ring::aead::Tag::try_from(tag).unwrap();
        let out = &out;
        entries.push(Entry {
            name: "ring+copy".into(),
            peer: true,
            call: Box::new(move || {
                let mut buf = out.borrow_mut();
                buf.copy_from_slice(ciphertext);
                let nonce = ring::aead::Nonce::assume_unique_for_key(NONCE);
                let aad = ring::aead::Aad::empty();
                black_box(
                    k.open_in_place_separate_tag(nonce, aad, tag, &mut buf, 0..)
                        .unwrap(),
                );
            }),
        });
    }
    let k =
        aws_lc_rs::aead::LessSafeKey::new(aws_lc_rs::aead::UnboundKey::new(aws_alg, key).unwrap());
    let out = &out;
    entries.push(Entry {
        name: "aws-lc-rs".into(),
        peer: true,
        call: Box::new(move || {
            let nonce = aws_lc_rs::aead::Nonce::assume_unique_for_key(NONCE);
            let aad = aws_lc_rs::aead::Aad::empty();
            k.open_separate_gather(nonce, aad, ciphertext, tag, &mut out.borrow_mut())
                .unwrap();
        }),
    });
    run(
        &format!("{title} open {size} B"),
        size,
        rounds,
        &mut entries,
    );
}

/// Rejecting a forgery: this crate's `open_to` of a genuine message
/// (entry `genuine`, counted as the "peer", so each ratio is a time over the
/// genuine open's) and of the same message with one tag bit flipped
/// (`forged`: the open fails and wipes what it wrote), and the forged open of
/// ring (after copying the ciphertext back) and aws-lc-rs, for AES-256-GCM
/// and AES-256-GCM-SIV.
fn forged_cases(rounds: usize, sizes: &[usize]) {
    use aws_lc_rs::aead as aws;
    for &size in sizes {
        forged_case::<Aes256Gcm>(
            "AES-256-GCM",
            Some(&ring::aead::AES_256_GCM),
            &aws::AES_256_GCM,
            rounds,
            size,
        );
        forged_case::<Aes256GcmSiv>("AES-256-GCM-SIV", None, &aws::AES_256_GCM_SIV, rounds, size);
    }
}

fn forged_case<K: AeadKey<Nonce = [u8; 12], Key = [u8; 32]>>(
    title: &str,
    ring_alg: Option<&'static ring::aead::Algorithm>,
    aws_alg: &'static aws_lc_rs::aead::Algorithm,
    rounds: usize,
    size: usize,
) {
    let key = [1u8; 32];
    let k = K::new(&key).expect("a supported CPU");
    let sealed = k.seal(&NONCE, b"", &vec![0x5a_u8; size]).expect("seal");
    let mut forged = sealed.clone();
    forged[size] ^= 1;
    let out = std::cell::RefCell::new(vec![0u8; size]);
    let (k, sealed, forged, out) = (&k, &sealed, &forged, &out);
    let mut entries = vec![
        Entry {
            name: "genuine".into(),
            peer: true,
            call: Box::new(move || {
                black_box(
                    k.open_to(&NONCE, b"", sealed, &mut out.borrow_mut())
                        .unwrap(),
                );
            }),
        },
        Entry {
            name: "forged".into(),
            peer: false,
            call: Box::new(move || {
                let result = k.open_to(&NONCE, b"", forged, &mut out.borrow_mut());
                assert!(black_box(result).is_err());
            }),
        },
    ];
    let (ciphertext, tag) = forged.split_at(size);
    if let Some(alg) = ring_alg {
        let rk = ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(alg, &key).unwrap());
        let tag = ring::aead::Tag::try_from(tag).unwrap();
        entries.push(Entry {
            name: "ring+copy forged".into(),
            peer: false,
            call: Box::new(move || {
                let mut buf = out.borrow_mut();
                buf.copy_from_slice(ciphertext);
                let nonce = ring::aead::Nonce::assume_unique_for_key(NONCE);
                let aad = ring::aead::Aad::empty();
                let result = rk.open_in_place_separate_tag(nonce, aad, tag, &mut buf, 0..);
                assert!(black_box(result).is_err());
            }),
        });
    }
    let ak =
        aws_lc_rs::aead::LessSafeKey::new(aws_lc_rs::aead::UnboundKey::new(aws_alg, &key).unwrap());
    entries.push(Entry {
        name: "aws-lc-rs forged".into(),
        peer: false,
        call: Box::new(move || {
            let nonce = aws_lc_rs::aead::Nonce::assume_unique_for_key(NONCE);
            let aad = aws_lc_rs::aead::Aad::empty();
            let result =
                ak.open_separate_gather(nonce, aad, ciphertext, tag, &mut out.borrow_mut());
            assert!(black_box(result).is_err());
        }),
    });
    run(
        &format!("{title} open {size} B, genuine and forged"),
        size,
        rounds,
        &mut entries,
    );
}

/// XAES-256-GCM seal: this crate on every tier, beside this crate's
/// AES-256-GCM (entry `aes-256-gcm`, counted as the "peer", so the ratio
/// printed is XAES's time over AES-256-GCM's) and RustCrypto `xaes-256-gcm`
/// (`rc-xaes`).
fn xaes_cases(rounds: usize, sizes: &[usize]) {
    use aes_gcm::aead::{AeadInOut, KeyInit};
    use hardware_aead::xaes_gcm::Xaes256Gcm;
    let key = [3u8; 32];
    let xnonce = [5u8; 24];
    for &size in sizes {
        let buf = std::cell::RefCell::new(vec![0x5a_u8; size]);
        let buf = &buf;
        let mut entries = Vec::new();
        let mut keys = vec![(
            "hw-xaes/new".to_string(),
            // The inherent `new`: it wins over `KeyInit::new` (feature `aead`).
            Xaes256Gcm::new(&key).expect("a supported CPU"),
        )];
        for (name, tier) in TIERS {
            if let Ok(k) = Xaes256Gcm::with_tier(&key, tier) {
                keys.push((format!("xaes/{}", &name[3..]), k));
            }
        }
        for (name, k) in keys {
            entries.push(Entry {
                name,
                peer: false,
                call: Box::new(move || {
                    black_box(
                        k.seal_in_place_detached(&xnonce, b"", &mut buf.borrow_mut())
                            .unwrap(),
                    );
                }),
            });
        }
        let gcm = Aes256Gcm::new(&key).expect("a supported CPU");
        entries.push(Entry {
            name: "aes-256-gcm".into(),
            peer: true,
            call: Box::new(move || {
                black_box(
                    gcm.seal_in_place_detached(&NONCE, b"", &mut buf.borrow_mut())
                        .unwrap(),
                );
            }),
        });
        let rc = xaes_256_gcm::Xaes256Gcm::new_from_slice(&key).unwrap();
        let rc_nonce = xaes_256_gcm::Nonce::try_from(&xnonce[..]).unwrap();
        entries.push(Entry {
            name: "rc-xaes".into(),
            peer: false,
            call: Box::new(move || {
                black_box(
                    rc.encrypt_inout_detached(&rc_nonce, b"", (&mut buf.borrow_mut()[..]).into())
                        .unwrap(),
                );
            }),
        });
        run(
            &format!("XAES-256-GCM seal {size} B"),
            size,
            rounds,
            &mut entries,
        );
    }
}

/// KC-XAES-256-GCM seal and open (`seal_in_place_detached`,
/// `open_in_place_detached` on a copy of the ciphertext) on every tier
/// and `new`'s, beside this crate's XAES-256-GCM (entry `xaes`, counted as
/// the "peer", so the ratio printed is the commitment's cost: KC's time over
/// XAES's for the same message, same tier `new` picks).
fn kc_cases(rounds: usize, sizes: &[usize]) {
    use hardware_aead::xaes_gcm::{KcXaes256Gcm, Xaes256Gcm};
    let key = [3u8; 32];
    let xnonce = [5u8; 24];
    for &size in sizes {
        for seal in [true, false] {
            let buf = std::cell::RefCell::new(vec![0x5a_u8; size]);
            let buf = &buf;
            let mut keys = vec![(
                "kc/new".to_string(),
                KcXaes256Gcm::new(&key).expect("a supported CPU"),
            )];
            for (name, tier) in TIERS {
                if let Ok(k) = KcXaes256Gcm::with_tier(&key, tier) {
                    keys.push((format!("kc/{}", &name[3..]), k));
                }
            }
            let mut entries = Vec::new();
            for (name, k) in keys {
                let mut ct = vec![0x5a_u8; size];
                let tag = k.seal_in_place_detached(&xnonce, b"", &mut ct).unwrap();
                entries.push(Entry {
                    name,
                    peer: false,
                    call: Box::new(move || {
                        let mut b = buf.borrow_mut();
                        if seal {
                            black_box(k.seal_in_place_detached(&xnonce, b"", &mut b).unwrap());
                        } else {
                            b.copy_from_slice(&ct);
                            k.open_in_place_detached(&xnonce, b"", &mut b, &tag)
                                .unwrap();
                        }
                    }),
                });
            }
            let xaes = Xaes256Gcm::new(&key).expect("a supported CPU");
            let mut ct = vec![0x5a_u8; size];
            let tag = xaes.seal_in_place_detached(&xnonce, b"", &mut ct).unwrap();
            entries.push(Entry {
                name: "xaes".into(),
                peer: true,
                call: Box::new(move || {
                    let mut b = buf.borrow_mut();
                    if seal {
                        black_box(xaes.seal_in_place_detached(&xnonce, b"", &mut b).unwrap());
                    } else {
                        b.copy_from_slice(&ct);
                        xaes.open_in_place_detached(&xnonce, b"", &mut b, &tag)
                            .unwrap();
                    }
                }),
            });
            let what = if seal { "seal" } else { "open" };
            run(
                &format!("KC-XAES-256-GCM {what} {size} B"),
                size,
                rounds,
                &mut entries,
            );
        }
    }
}

/// `stream::Writer` and `stream::Reader` (XAES-256-GCM, 64 KiB segments)
/// moving 1 MiB through an in-memory sink or source in calls of each size,
/// against the one-shot baseline: sixteen 64 KiB AES-256-GCM seals (entry
/// `aes-256-gcm`, the "peer", so the ratio is the stream's time over the
/// one-shot time for the same bytes) and opens (`aes-256-gcm/open`, the
/// reader's baseline: its ratio over the seal's is printed too), and the
/// same opens each after copying its message out of an `io::Read` source
/// (`aes-256-gcm/read+open`: the least a reader can do).
fn stream_cases(rounds: usize, sizes: &[usize]) {
    use hardware_aead::stream::{Reader, Writer};
    use hardware_aead::xaes_gcm::Xaes256Gcm;
    use std::io::{Read, Write};
    const TOTAL: usize = 1 << 20;
    let xaes = Xaes256Gcm::new(&[3; 32]).expect("a supported CPU");
    let gcm = Aes256Gcm::new(&[3; 32]).expect("a supported CPU");
    let plain = vec![0x5a_u8; TOTAL];
    let mut writer = Writer::new(&xaes, Vec::new()).unwrap();
    writer.write_all(&plain).unwrap();
    let sealed = writer.finish().unwrap();
    let one_shot: Vec<Vec<u8>> = plain
        .chunks(64 * 1024)
        .map(|m| gcm.seal(&NONCE, b"", m).unwrap())
        .collect();
    let one_shot_joined = one_shot.concat();
    let segment = std::cell::RefCell::new(vec![0u8; 64 * 1024 + 16]);
    for &size in sizes {
        let buf = std::cell::RefCell::new(vec![0x5a_u8; TOTAL]);
        let (buf, plain, sealed, xaes, gcm, one_shot) =
            (&buf, &plain, &sealed, &xaes, &gcm, &one_shot);
        let (one_shot_joined, segment) = (&one_shot_joined, &segment);
        let mut entries = vec![
            Entry {
                name: "aes-256-gcm".into(),
                peer: true,
                call: Box::new(move || {
                    for message in buf.borrow_mut().chunks_mut(64 * 1024) {
                        black_box(gcm.seal_in_place_detached(&NONCE, b"", message).unwrap());
                    }
                }),
            },
            Entry {
                name: "aes-256-gcm/open".into(),
                peer: false,
                call: Box::new(move || {
                    let mut out = buf.borrow_mut();
                    for (sealed, out) in one_shot.iter().zip(out.chunks_mut(64 * 1024)) {
                        black_box(gcm.open_to(&NONCE, b"", sealed, out).unwrap());
                    }
                }),
            },
            Entry {
                name: "aes-256-gcm/read+open".into(),
                peer: false,
                call: Box::new(move || {
                    // What any `io::Read`-based reader must do at least: copy
                    // each sealed segment out of the source, then open it.
                    let mut out = buf.borrow_mut();
                    let mut seg = segment.borrow_mut();
                    let mut source = &one_shot_joined[..];
                    for out in out.chunks_mut(64 * 1024) {
                        let sealed = &mut seg[..out.len() + 16];
                        source.read_exact(sealed).unwrap();
                        black_box(gcm.open_to(&NONCE, b"", sealed, out).unwrap());
                    }
                }),
            },
            Entry {
                name: "writer".into(),
                peer: false,
                call: Box::new(move || {
                    let mut writer = Writer::new(xaes, std::io::sink()).unwrap();
                    for piece in plain.chunks(size) {
                        writer.write_all(piece).unwrap();
                    }
                    writer.finish().unwrap();
                }),
            },
            Entry {
                name: "reader".into(),
                peer: false,
                call: Box::new(move || {
                    let mut reader = Reader::new(xaes, &sealed[..]);
                    let mut out = buf.borrow_mut();
                    let mut at = 0;
                    while at < TOTAL {
                        let end = (at + size).min(TOTAL);
                        at += reader.read(&mut out[at..end]).unwrap();
                    }
                    black_box(reader.read(&mut [0u8; 1]).unwrap());
                }),
            },
        ];
        run(
            &format!("stream, 1 MiB in calls of {size} B (64 KiB segments)"),
            TOTAL,
            rounds,
            &mut entries,
        );
    }
}

/// A whole stream of 16 B and 1 KiB (its `Writer` or `Reader` made, used
/// and dropped) against one XAES-256-GCM seal of the same bytes into a
/// buffer (the "peer"): what a stream costs above the message it carries.
fn small_stream_cases(rounds: usize) {
    use hardware_aead::stream::{Reader, Writer};
    use hardware_aead::xaes_gcm::Xaes256Gcm;
    use std::io::{Read, Write};
    let xaes = Xaes256Gcm::new(&[3; 32]).expect("a supported CPU");
    for size in [16, 1024] {
        let plain = vec![0x5a_u8; size];
        let mut writer = Writer::new(&xaes, Vec::new()).unwrap();
        writer.write_all(&plain).unwrap();
        let sealed = writer.finish().unwrap();
        let buf = std::cell::RefCell::new(vec![0u8; size + 64]);
        let (buf, plain, sealed, xaes) = (&buf, &plain, &sealed, &xaes);
        let mut entries = vec![
            Entry {
                name: "xaes-256-gcm".into(),
                peer: true,
                call: Box::new(move || {
                    let mut out = buf.borrow_mut();
                    black_box(xaes.seal_to(&[9; 24], b"", plain, &mut out).unwrap());
                }),
            },
            Entry {
                name: "writer".into(),
                peer: false,
                call: Box::new(move || {
                    let mut out = buf.borrow_mut();
                    let mut writer = Writer::new(xaes, &mut out[..]).unwrap();
                    writer.write_all(plain).unwrap();
                    black_box(writer.finish().unwrap());
                }),
            },
            Entry {
                name: "reader".into(),
                peer: false,
                call: Box::new(move || {
                    let mut out = buf.borrow_mut();
                    let mut reader = Reader::new(xaes, &sealed[..]);
                    reader.read_exact(&mut out[..size]).unwrap();
                    black_box(reader.read(&mut out[..1]).unwrap());
                }),
            },
        ];
        run(
            &format!("a whole stream of {size} B"),
            size,
            rounds,
            &mut entries,
        );
    }
}

/// RFC 8188 (`ece`, feature `ece`) over 1 MiB at record size `rs`, beside
/// this crate's one-shot AES-128-GCM of the same megabyte allocating its
/// output (the reference, the "peer" of the ratios) and without
/// allocating (in place; `open_to` a buffer): the same entries as
/// `bench/benches/ece.rs`, interleaved.
#[cfg(feature = "ece")]
fn ece_cases(rounds: usize, record_sizes: &[usize]) {
    use hardware_aead::aes_gcm::Aes128Gcm;
    use hardware_aead::ece;
    use std::io::{Read, Write};
    const TOTAL: usize = 1 << 20;
    const IKM: [u8; 16] = [0x2b; 16];
    const SALT: [u8; 16] = [0x5d; 16];
    let key = Aes128Gcm::new(&IKM).expect("a supported CPU");
    let plain = vec![0x5a_u8; TOTAL];
    let sealed = key.seal(&NONCE, b"", &plain).unwrap();
    let in_place = std::cell::RefCell::new(plain.clone());
    let in_place = &in_place;
    for &rs in record_sizes {
        let rs = u32::try_from(rs).expect("a record size");
        let body = ece::encrypt(&IKM, &SALT, b"", rs, &plain).unwrap();
        let body_len = body.len();
        let out = std::cell::RefCell::new(vec![0u8; TOTAL]);
        let (plain, sealed, body, key, out) = (&plain, &sealed, &body, &key, &out);
        let mut entries = vec![
            Entry {
                name: "Aes128Gcm::seal".into(),
                peer: true,
                call: Box::new(move || {
                    black_box(key.seal(&NONCE, b"", plain).unwrap());
                }),
            },
            Entry {
                name: "Aes128Gcm::in_place".into(),
                peer: false,
                call: Box::new(move || {
                    let mut buffer = in_place.borrow_mut();
                    black_box(
                        key.seal_in_place_detached(&NONCE, b"", &mut buffer)
                            .unwrap(),
                    );
                }),
            },
            Entry {
                name: "ece::encrypt".into(),
                peer: false,
                call: Box::new(move || {
                    black_box(ece::encrypt(&IKM, &SALT, b"", rs, plain).unwrap());
                }),
            },
            Entry {
                name: "Writer".into(),
                peer: false,
                call: Box::new(move || {
                    let sink = Vec::with_capacity(body_len);
                    let mut encoder = ece::Writer::new(&IKM, &SALT, b"", rs, sink).unwrap();
                    encoder.write_all(plain).unwrap();
                    black_box(encoder.finish().unwrap());
                }),
            },
        ];
        run(
            &format!("ece encrypt, 1 MiB, rs {rs}"),
            TOTAL,
            rounds,
            &mut entries,
        );
        // Record sizes above the decoders' default limit, when asked for,
        // are decoded with that record size as the limit (the same calls).
        let limit = rs.max(ece::DEFAULT_MAX_RECORD_SIZE);
        let mut entries = vec![
            Entry {
                name: "Aes128Gcm::open".into(),
                peer: true,
                call: Box::new(move || {
                    black_box(key.open(&NONCE, b"", sealed).unwrap());
                }),
            },
            Entry {
                name: "Aes128Gcm::open_to".into(),
                peer: false,
                call: Box::new(move || {
                    black_box(
                        key.open_to(&NONCE, b"", sealed, &mut out.borrow_mut())
                            .unwrap(),
                    );
                }),
            },
            Entry {
                name: "ece::decrypt".into(),
                peer: false,
                call: Box::new(move || {
                    black_box(ece::decrypt_with_max_record_size(&IKM, body, limit).unwrap());
                }),
            },
            Entry {
                name: "Reader".into(),
                peer: false,
                call: Box::new(move || {
                    let mut decoder = ece::Reader::with_max_record_size(&IKM, limit, &body[..]);
                    decoder.read_exact(&mut out.borrow_mut()).unwrap();
                }),
            },
        ];
        run(
            &format!("ece decrypt, 1 MiB, rs {rs}"),
            TOTAL,
            rounds,
            &mut entries,
        );
    }
}

fn setup_case<K: AeadKey + 'static>(
    title: &str,
    key: &[u8],
    ring_alg: Option<&'static ring::aead::Algorithm>,
    aws_alg: &'static aws_lc_rs::aead::Algorithm,
    rounds: usize,
) {
    let bytes = || K::Key::try_from(key).ok().expect("key length");
    let key_bytes = bytes();
    let mut entries = Vec::new();
    entries.push(Entry {
        name: "hw/new".into(),
        peer: false,
        call: Box::new(move || drop(black_box(K::new(black_box(&key_bytes)).unwrap()))),
    });
    for (name, tier) in TIERS {
        let key_bytes = bytes();
        if K::with_tier(&key_bytes, tier).is_ok() {
            entries.push(Entry {
                name: name.into(),
                peer: false,
                call: Box::new(move || {
                    drop(black_box(
                        K::with_tier(black_box(&key_bytes), tier).unwrap(),
                    ))
                }),
            });
        }
    }
    let key = key.to_vec();
    if let Some(alg) = ring_alg {
        let key = key.clone();
        entries.push(Entry {
            name: "ring".into(),
            peer: true,
            call: Box::new(move || {
                // ring's key has no `Drop`: nothing to wipe.
                black_box(ring::aead::LessSafeKey::new(
                    ring::aead::UnboundKey::new(alg, black_box(&key)).unwrap(),
                ));
            }),
        });
    }
    entries.push(Entry {
        name: "aws-lc-rs".into(),
        peer: true,
        call: Box::new(move || {
            drop(black_box(aws_lc_rs::aead::LessSafeKey::new(
                aws_lc_rs::aead::UnboundKey::new(aws_alg, black_box(&key)).unwrap(),
            )))
        }),
    });
    run(
        &format!("{title} key setup (new + drop)"),
        0,
        rounds,
        &mut entries,
    );
}

/// One AEGIS variant's seal (`seal_in_place_detached`, empty AAD) on every
/// tier and `new`'s, beside the `aegis` crate's `encrypt_in_place` (the
/// peer) and this crate's AES-GCM with a key of the same length.
macro_rules! aegis_case {
    ($title:literal, $ours:ty, $theirs:ty, $gcm:ty, $kl:literal, $rounds:expr, $sizes:expr) => {{
        let key = [3u8; $kl];
        let nonce = [5u8; $kl];
        for &size in $sizes {
            let buf = std::cell::RefCell::new(vec![0x5a_u8; size]);
            let buf = &buf;
            let mut entries = Vec::new();
            let mut keys = vec![(
                "hw/new".to_string(),
                <$ours>::new(&key).expect("a supported CPU"),
            )];
            for (name, tier) in TIERS {
                if let Ok(k) = <$ours>::with_tier(&key, tier) {
                    keys.push((name.to_string(), k));
                }
            }
            for (name, k) in keys {
                entries.push(Entry {
                    name,
                    peer: false,
                    call: Box::new(move || {
                        black_box(
                            k.seal_in_place_detached(&nonce, b"", &mut buf.borrow_mut())
                                .unwrap(),
                        );
                    }),
                });
            }
            entries.push(Entry {
                name: "aegis-crate".into(),
                peer: true,
                call: Box::new(move || {
                    let cipher = <$theirs>::new(&key, &nonce);
                    black_box(cipher.encrypt_in_place(&mut buf.borrow_mut(), b""));
                }),
            });
            let gcm = <$gcm>::new(&key).expect("a supported CPU");
            entries.push(Entry {
                name: "hw-gcm".into(),
                peer: false,
                call: Box::new(move || {
                    black_box(
                        gcm.seal_in_place_detached(&NONCE, b"", &mut buf.borrow_mut())
                            .unwrap(),
                    );
                }),
            });
            run(
                &format!("{} seal {size} B", $title),
                size,
                $rounds,
                &mut entries,
            );
        }
    }};
}

/// The six AEGIS variants (`aegis_case!`).
fn aegis_cases(rounds: usize, sizes: &[usize]) {
    use hardware_aead::aegis::{
        Aegis128L, Aegis128X2, Aegis128X4, Aegis256, Aegis256X2, Aegis256X4,
    };
    aegis_case!(
        "AEGIS-128L",
        Aegis128L<16>,
        aegis::aegis128l::Aegis128L<16>,
        Aes128Gcm,
        16,
        rounds,
        sizes
    );
    aegis_case!(
        "AEGIS-128X2",
        Aegis128X2<16>,
        aegis::aegis128x2::Aegis128X2<16>,
        Aes128Gcm,
        16,
        rounds,
        sizes
    );
    aegis_case!(
        "AEGIS-128X4",
        Aegis128X4<16>,
        aegis::aegis128x4::Aegis128X4<16>,
        Aes128Gcm,
        16,
        rounds,
        sizes
    );
    aegis_case!(
        "AEGIS-256",
        Aegis256<16>,
        aegis::aegis256::Aegis256<16>,
        Aes256Gcm,
        32,
        rounds,
        sizes
    );
    aegis_case!(
        "AEGIS-256X2",
        Aegis256X2<16>,
        aegis::aegis256x2::Aegis256X2<16>,
        Aes256Gcm,
        32,
        rounds,
        sizes
    );
    aegis_case!(
        "AEGIS-256X4",
        Aegis256X4<16>,
        aegis::aegis256x4::Aegis256X4<16>,
        Aes256Gcm,
        32,
        rounds,
        sizes
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map(String::as_str).unwrap_or("all");
    let rounds = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(21);
    let sizes: Vec<usize> = match args.get(2) {
        Some(list) => list
            .split(',')
            .map(|s| s.parse().expect("a size in bytes"))
            .collect(),
        None => SIZES.to_vec(),
    };
    println!("{}; {rounds} rounds", timing::cpu_line());
    let all = which == "all";
    if all || which == "setup" {
        use aws_lc_rs::aead as aws;
        setup_case::<Aes128Gcm>(
            "AES-128-GCM",
            &[1; 16],
            Some(&ring::aead::AES_128_GCM),
            &aws::AES_128_GCM,
            rounds,
        );
        setup_case::<Aes256Gcm>(
            "AES-256-GCM",
            &[1; 32],
            Some(&ring::aead::AES_256_GCM),
            &aws::AES_256_GCM,
            rounds,
        );
        setup_case::<Aes128GcmSiv>(
            "AES-128-GCM-SIV",
            &[1; 16],
            None,
            &aws::AES_128_GCM_SIV,
            rounds,
        );
        setup_case::<Aes256GcmSiv>(
            "AES-256-GCM-SIV",
            &[1; 32],
            None,
            &aws::AES_256_GCM_SIV,
            rounds,
        );
    }
    if all || which == "gcm128" {
        seal_cases::<Aes128Gcm>(
            "AES-128-GCM",
            &[1; 16],
            Some(&ring::aead::AES_128_GCM),
            &aws_lc_rs::aead::AES_128_GCM,
            rounds,
            &sizes,
        );
    }
    if all || which == "gcm256" {
        seal_cases::<Aes256Gcm>(
            "AES-256-GCM",
            &[1; 32],
            Some(&ring::aead::AES_256_GCM),
            &aws_lc_rs::aead::AES_256_GCM,
            rounds,
            &sizes,
        );
    }
    if all || which == "siv128" {
        seal_cases::<Aes128GcmSiv>(
            "AES-128-GCM-SIV",
            &[1; 16],
            None,
            &aws_lc_rs::aead::AES_128_GCM_SIV,
            rounds,
            &sizes,
        );
    }
    if all || which == "kc" {
        kc_cases(rounds, &sizes);
    }
    if all || which == "xaes" {
        xaes_cases(rounds, &sizes);
    }
    #[cfg(feature = "ece")]
    if which == "ece" {
        let record_sizes = match args.get(2) {
            Some(_) => sizes.clone(),
            None => vec![4096, 65536],
        };
        ece_cases(rounds, &record_sizes);
    }
    if which == "aegis" {
        let sizes = match args.get(2) {
            Some(_) => sizes.clone(),
            None => vec![16, 64, 256, 1024, 16384, 1 << 20],
        };
        aegis_cases(rounds, &sizes);
    }
    if which == "forged" {
        let sizes = match args.get(2) {
            Some(_) => sizes.clone(),
            None => vec![1024, 65536],
        };
        forged_cases(rounds, &sizes);
    }
    if which == "stream" {
        let sizes = match args.get(2) {
            Some(_) => sizes.clone(),
            None => vec![64, 1024, 8192, 1 << 20],
        };
        stream_cases(rounds, &sizes);
        small_stream_cases(rounds);
    }
    if all || which == "siv256" {
        seal_cases::<Aes256GcmSiv>(
            "AES-256-GCM-SIV",
            &[1; 32],
            None,
            &aws_lc_rs::aead::AES_256_GCM_SIV,
            rounds,
            &sizes,
        );
    }
}
