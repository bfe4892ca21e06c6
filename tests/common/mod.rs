//! Helpers shared by the integration tests: hex, a deterministic byte source,
//! every-tier key construction, the peers (ring for AES-GCM, RustCrypto
//! `aes-gcm-siv` for AES-GCM-SIV), and parsers for the vector files under
//! `tests/data/` (formats and provenance in its README).
//!
//! Each test binary uses a subset, hence the `dead_code` allowance.

#![allow(dead_code)]

pub mod api_check;

use std::path::PathBuf;

use hardware_aead::{AeadKey, Error, Tier};

// ---------------------------------------------------------------------------
// Lengths
// ---------------------------------------------------------------------------

/// (plaintext, AAD) lengths on both sides of every group boundary of the
/// wide loops, up to past their switch to big groups: 128-byte steps (a small
/// AVX2 group) to 3 KiB plus a few bytes either way, so each tier meets whole
/// small groups, whole big groups, big groups followed by small ones, and every
/// kind of remainder (`BIG_FROM` in the tier files: big groups from 1 KiB on AVX2, 2 KiB on
/// AVX-512).
pub fn group_boundaries() -> impl Iterator<Item = (usize, usize)> {
    (1..=24usize).flat_map(|step| {
        [-17isize, -1, 0, 1, 16, 33].map(move |delta| {
            (
                (128 * step).checked_add_signed(delta).unwrap_or(0),
                step % 3 * 7,
            )
        })
    })
}

// ---------------------------------------------------------------------------
// Bytes
// ---------------------------------------------------------------------------

/// Decodes hex (whitespace ignored); panics on anything else.
pub fn hex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert!(
        digits.len().is_multiple_of(2),
        "odd number of hex digits in {s:?}"
    );
    digits
        .chunks(2)
        .map(|pair| {
            let text = std::str::from_utf8(pair).expect("ASCII");
            u8::from_str_radix(text, 16)
                .unwrap_or_else(|_| panic!("bad hex digits {text:?} in {s:?}"))
        })
        .collect()
}

/// Lowercase hex, for failure messages.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `bytes` as a 12-byte nonce; panics on another length.
pub fn nonce(bytes: &[u8]) -> [u8; 12] {
    bytes
        .try_into()
        .unwrap_or_else(|_| panic!("nonce of {} bytes, expected 12", bytes.len()))
}

/// `bytes` as a 16-byte tag; panics on another length.
pub fn tag<T: for<'a> TryFrom<&'a [u8]>>(bytes: &[u8]) -> T {
    T::try_from(bytes).unwrap_or_else(|_| {
        panic!(
            "tag of {} bytes: not the key type's tag length",
            bytes.len()
        )
    })
}

/// `a || b`.
pub fn concat(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    out.extend_from_slice(a);
    out.extend_from_slice(b);
    out
}

/// A small deterministic generator (SplitMix64) for test inputs. Not for keys
/// outside tests.
pub struct TestRng(u64);

impl TestRng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let word = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }

    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        self.fill(&mut out);
        out
    }

    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        self.fill(&mut out);
        out
    }
}

// ---------------------------------------------------------------------------
// Keys on every tier
// ---------------------------------------------------------------------------

/// Every tier the crate names. Tests run on each one this CPU and build have.
pub const ALL_BACKENDS: [Tier; 4] = [
    Tier::AesNiClmul,
    Tier::VaesAvx2,
    Tier::VaesAvx512,
    Tier::Armv8,
];

/// The key on every tier for which `with_tier` succeeds. Any error other
/// than `UnsupportedCpu` fails the test, and so does having no tier at all.
pub fn each_tier<K: AeadKey>(key: &K::Key) -> Vec<K> {
    let mut keys = Vec::new();
    for tier in ALL_BACKENDS {
        match K::with_tier(key, tier) {
            Ok(k) => {
                assert_eq!(
                    k.tier(),
                    tier,
                    "with_tier({tier:?}) built a key for another tier"
                );
                keys.push(k);
            }
            Err(Error::UnsupportedCpu { missing }) => {
                assert!(
                    !missing.is_empty(),
                    "UnsupportedCpu for {tier:?} names no feature"
                );
            }
            Err(e) => panic!("with_tier({tier:?}) failed with {e:?}"),
        }
    }
    assert!(!keys.is_empty(), "no tier of this build runs on this CPU");
    keys
}

/// [`each_tier`] from a key slice of the right length.
pub fn each_tier_from_slice<K: AeadKey>(key: &[u8]) -> Vec<K> {
    let key_bytes = match K::Key::try_from(key) {
        Ok(k) => k,
        Err(_) => panic!("key of {} bytes, expected {}", key.len(), K::KEY_LEN),
    };
    each_tier::<K>(&key_bytes)
}

/// Checks, through every API of `k`, that `sealed` (= ct || tag) is the sealing of
/// `pt` and opens to it: `seal`, `seal_to`, `seal_in_place_detached`,
/// `open`, `open_to`, `open_in_place_detached`. `what` names the case.
pub fn assert_seals_and_opens<K: AeadKey>(
    k: &K,
    nonce: &K::Nonce,
    aad: &[u8],
    pt: &[u8],
    sealed: &[u8],
    what: &str,
) {
    let tier = k.tier();
    assert_eq!(sealed.len(), pt.len() + K::TAG_LEN);
    let (ct, expected_tag) = sealed.split_at(pt.len());

    let got = k
        .seal(nonce, aad, pt)
        .unwrap_or_else(|e| panic!("{what} [{tier:?}]: encrypt: {e:?}"));
    assert!(
        got == sealed,
        "{what} [{tier:?}]: encrypt\n  got      {}\n  expected {}",
        to_hex(&got),
        to_hex(sealed)
    );

    let mut out = vec![0xAAu8; sealed.len()];
    let n = k
        .seal_to(nonce, aad, pt, &mut out)
        .unwrap_or_else(|e| panic!("{what} [{tier:?}]: seal_to: {e:?}"));
    assert_eq!(n, sealed.len(), "{what} [{tier:?}]: seal_to length");
    assert!(out == sealed, "{what} [{tier:?}]: seal_to output differs");

    let mut buffer = pt.to_vec();
    let t = k
        .seal_in_place_detached(nonce, aad, &mut buffer)
        .unwrap_or_else(|e| panic!("{what} [{tier:?}]: seal_in_place_detached: {e:?}"));
    assert!(
        buffer == ct,
        "{what} [{tier:?}]: seal_in_place_detached ciphertext differs"
    );
    assert!(
        t.as_ref() == expected_tag,
        "{what} [{tier:?}]: seal_in_place_detached tag differs"
    );

    assert_opens(k, nonce, aad, sealed, pt, what);
}

/// Checks that `sealed` opens to `pt` through `open`, `open_to` and
/// `open_in_place_detached`.
pub fn assert_opens<K: AeadKey>(
    k: &K,
    nonce: &K::Nonce,
    aad: &[u8],
    sealed: &[u8],
    pt: &[u8],
    what: &str,
) {
    let tier = k.tier();
    let got = k
        .open(nonce, aad, sealed)
        .unwrap_or_else(|e| panic!("{what} [{tier:?}]: decrypt: {e:?}"));
    assert!(got == pt, "{what} [{tier:?}]: decrypt plaintext differs");

    let mut out = vec![0xAAu8; pt.len()];
    let n = k
        .open_to(nonce, aad, sealed, &mut out)
        .unwrap_or_else(|e| panic!("{what} [{tier:?}]: open_to: {e:?}"));
    assert_eq!(n, pt.len(), "{what} [{tier:?}]: open_to length");
    assert!(out == pt, "{what} [{tier:?}]: open_to plaintext differs");

    let (ct, t) = sealed.split_at(pt.len());
    let mut buffer = ct.to_vec();
    k.open_in_place_detached(nonce, aad, &mut buffer, &tag(t))
        .unwrap_or_else(|e| panic!("{what} [{tier:?}]: open_in_place_detached: {e:?}"));
    assert!(
        buffer == pt,
        "{what} [{tier:?}]: open_in_place_detached plaintext differs"
    );
}

/// Checks that `sealed` (ct || tag, at least `K::TAG_LEN` bytes) is rejected with
/// `Error::Authentication` by `open`, `open_to` and
/// `open_in_place_detached`, and that both outputs are left all zero.
pub fn assert_rejected<K: AeadKey>(k: &K, nonce: &K::Nonce, aad: &[u8], sealed: &[u8], what: &str) {
    let tier = k.tier();
    let ct_len = sealed.len() - K::TAG_LEN;
    assert_eq!(
        k.open(nonce, aad, sealed),
        Err(Error::Authentication),
        "{what} [{tier:?}]: decrypt accepted a forgery"
    );

    let mut out = vec![0xAAu8; ct_len];
    assert_eq!(
        k.open_to(nonce, aad, sealed, &mut out),
        Err(Error::Authentication),
        "{what} [{tier:?}]: open_to accepted a forgery"
    );
    assert!(
        out.iter().all(|&b| b == 0),
        "{what} [{tier:?}]: open_to left output bytes after a failure"
    );

    let (ct, t) = sealed.split_at(ct_len);
    let mut buffer = ct.to_vec();
    assert_eq!(
        k.open_in_place_detached(nonce, aad, &mut buffer, &tag(t)),
        Err(Error::Authentication),
        "{what} [{tier:?}]: open_in_place_detached accepted a forgery"
    );
    assert!(
        buffer.iter().all(|&b| b == 0),
        "{what} [{tier:?}]: open_in_place_detached left bytes after a failure"
    );
}

// ---------------------------------------------------------------------------
// Peers
// ---------------------------------------------------------------------------

fn ring_key(key: &[u8]) -> ring::aead::LessSafeKey {
    let algorithm = match key.len() {
        16 => &ring::aead::AES_128_GCM,
        32 => &ring::aead::AES_256_GCM,
        n => panic!("no AES-GCM with a {n}-byte key"),
    };
    ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(algorithm, key).expect("ring key"))
}

/// ring's AES-GCM seal: ct || tag.
pub fn ring_seal(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let key = ring_key(key);
    let mut buffer = pt.to_vec();
    let t = key
        .seal_in_place_separate_tag(
            ring::aead::Nonce::assume_unique_for_key(*nonce),
            ring::aead::Aad::from(aad),
            &mut buffer,
        )
        .expect("ring seal");
    buffer.extend_from_slice(t.as_ref());
    buffer
}

/// ring's AES-GCM open of ct || tag.
pub fn ring_open(key: &[u8], nonce: &[u8; 12], aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
    let key = ring_key(key);
    let mut buffer = sealed.to_vec();
    let len = key
        .open_in_place(
            ring::aead::Nonce::assume_unique_for_key(*nonce),
            ring::aead::Aad::from(aad),
            &mut buffer,
        )
        .ok()?
        .len();
    buffer.truncate(len);
    Some(buffer)
}

/// RustCrypto `aes-gcm-siv` 0.12 seal: ct || tag.
pub fn rustcrypto_siv_seal(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    use aes_gcm_siv::aead::{Aead as _, KeyInit, Payload};
    let payload = Payload { msg: pt, aad };
    let nonce = &aes_gcm_siv::Nonce::try_from(&nonce[..]).expect("a [u8; 12] of the right length");
    match key.len() {
        16 => aes_gcm_siv::Aes128GcmSiv::new_from_slice(key)
            .expect("key")
            .encrypt(nonce, payload),
        32 => aes_gcm_siv::Aes256GcmSiv::new_from_slice(key)
            .expect("key")
            .encrypt(nonce, payload),
        n => panic!("no AES-GCM-SIV with a {n}-byte key"),
    }
    .expect("RustCrypto AES-GCM-SIV seal")
}

/// RustCrypto `aes-gcm-siv` 0.12 open of ct || tag.
pub fn rustcrypto_siv_open(
    key: &[u8],
    nonce: &[u8; 12],
    aad: &[u8],
    sealed: &[u8],
) -> Option<Vec<u8>> {
    use aes_gcm_siv::aead::{Aead as _, KeyInit, Payload};
    let payload = Payload { msg: sealed, aad };
    let nonce = &aes_gcm_siv::Nonce::try_from(&nonce[..]).expect("a [u8; 12] of the right length");
    match key.len() {
        16 => aes_gcm_siv::Aes128GcmSiv::new_from_slice(key)
            .expect("key")
            .decrypt(nonce, payload),
        32 => aes_gcm_siv::Aes256GcmSiv::new_from_slice(key)
            .expect("key")
            .decrypt(nonce, payload),
        n => panic!("no AES-GCM-SIV with a {n}-byte key"),
    }
    .ok()
}

// ---------------------------------------------------------------------------
// Vector files
// ---------------------------------------------------------------------------

/// The variable that, if set, names a directory to read the vector files from
/// instead of the compressed copies committed under `tests/data/`.
pub const VECTORS_ENV: &str = "HARDWARE_AEAD_VECTORS";

/// The text of the vector file `relative` (e.g. `nist_cavp/gcmDecrypt128_iv96.rsp`):
/// from `$HARDWARE_AEAD_VECTORS/relative` when the variable is set, else from
/// `tests/data/relative.gz`, the repository's gzip copy of the same file
/// (`tests/data/README.md`). A missing or unreadable file fails the test.
/// Always `Some` (the callers' `?` predates the committed copies).
pub fn read_vector_file(test: &str, relative: &str) -> Option<String> {
    read_vectors(test, relative, true)
}

/// [`read_vector_file`] for a file this repository added to `tests/data/`
/// and the shared directory does not hold (listed in `tests/data/README.md`):
/// always the committed copy, whatever `HARDWARE_AEAD_VECTORS` says.
pub fn read_committed_vector_file(test: &str, relative: &str) -> Option<String> {
    read_vectors(test, relative, false)
}

fn read_vectors(test: &str, relative: &str, shared: bool) -> Option<String> {
    if let Some(dir) = std::env::var_os(VECTORS_ENV).filter(|d| shared && !d.is_empty()) {
        let path = PathBuf::from(dir).join(relative);
        return match std::fs::read_to_string(&path) {
            Ok(text) => Some(text),
            Err(e) => panic!(
                "{test}: {VECTORS_ENV} is set but {} cannot be read: {e}",
                path.display()
            ),
        };
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(format!("{relative}.gz"));
    let file = std::fs::File::open(&path)
        .unwrap_or_else(|e| panic!("{test}: {} cannot be read: {e}", path.display()));
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(file), &mut text)
        .unwrap_or_else(|e| panic!("{test}: {} does not decompress: {e}", path.display()));
    Some(text)
}

/// One record of a NIST CAVP GCMVS `.rsp` file.
#[derive(Clone, Debug, Default)]
pub struct CavpRecord {
    /// Line number of the `Count = ` line.
    pub line: usize,
    pub count: u32,
    /// From the section headers `[IVlen = ]` and `[Taglen = ]`, in bits.
    pub iv_bits: usize,
    pub tag_bits: usize,
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
    pub aad: Vec<u8>,
    /// `Some` in encrypt files, and in decrypt records that pass.
    pub pt: Option<Vec<u8>>,
    pub ct: Vec<u8>,
    pub tag: Vec<u8>,
    /// A decrypt record marked `FAIL`: the tag must not verify.
    pub fail: bool,
}

/// Parses a CAVP GCMVS `.rsp` file (encrypt or decrypt): `[Name = value]` section
/// headers, then records of `Count`, `Key`, `IV`, `PT`, `AAD`, `CT`, `Tag` lines in
/// either order, with a bare `FAIL` line instead of `PT` in failing decrypt
/// records. Checks each record's byte lengths against its section header.
pub fn parse_cavp(text: &str) -> Vec<CavpRecord> {
    let mut records = Vec::new();
    let mut headers: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut current: Option<CavpRecord> = None;

    fn finish(records: &mut Vec<CavpRecord>, record: Option<CavpRecord>) {
        if let Some(r) = record {
            assert_eq!(
                r.iv.len() * 8,
                r.iv_bits,
                "line {}: IV length against [IVlen]",
                r.line
            );
            assert_eq!(
                r.tag.len() * 8,
                r.tag_bits,
                "line {}: tag length against [Taglen]",
                r.line
            );
            assert!(!r.key.is_empty(), "line {}: record without Key", r.line);
            assert!(
                r.fail != r.pt.is_some(),
                "line {}: a record needs exactly one of PT and FAIL",
                r.line
            );
            if let Some(pt) = &r.pt {
                assert_eq!(
                    pt.len(),
                    r.ct.len(),
                    "line {}: PT and CT lengths differ",
                    r.line
                );
            }
            records.push(r);
        }
    }

    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            finish(&mut records, current.take());
            let (name, value) = inner
                .split_once('=')
                .unwrap_or_else(|| panic!("line {line_no}: bad header {line:?}"));
            let value: usize = value
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("line {line_no}: bad header value"));
            headers.insert(name.trim().to_string(), value);
            continue;
        }
        if line == "FAIL" {
            let r = current
                .as_mut()
                .unwrap_or_else(|| panic!("line {line_no}: FAIL outside a record"));
            r.fail = true;
            continue;
        }
        let (name, value) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("line {line_no}: cannot parse {line:?}"));
        let (name, value) = (name.trim(), value.trim());
        if name == "Count" {
            finish(&mut records, current.take());
            let header = |h: &str| {
                *headers
                    .get(h)
                    .unwrap_or_else(|| panic!("line {line_no}: no [{h}] header"))
            };
            current = Some(CavpRecord {
                line: line_no,
                count: value
                    .parse()
                    .unwrap_or_else(|_| panic!("line {line_no}: bad Count")),
                iv_bits: header("IVlen"),
                tag_bits: header("Taglen"),
                ..CavpRecord::default()
            });
            continue;
        }
        let r = current
            .as_mut()
            .unwrap_or_else(|| panic!("line {line_no}: {name} outside a record"));
        let bytes = hex(value);
        match name {
            "Key" => r.key = bytes,
            "IV" => r.iv = bytes,
            "AAD" => r.aad = bytes,
            "PT" => r.pt = Some(bytes),
            "CT" => r.ct = bytes,
            "Tag" => r.tag = bytes,
            other => panic!("line {line_no}: unknown CAVP field {other:?}"),
        }
    }
    finish(&mut records, current.take());
    records
}

/// One record of a BoringSSL/AWS-LC (`NAME: value`) or ring (`NAME = value`)
/// AEAD test file.
#[derive(Clone, Debug, Default)]
pub struct AeadRecord {
    /// Line number of the record's first line.
    pub line: usize,
    pub key: Vec<u8>,
    pub nonce: Vec<u8>,
    /// `IN`.
    pub pt: Vec<u8>,
    /// `AD`.
    pub aad: Vec<u8>,
    /// `CT`, without the tag.
    pub ct: Vec<u8>,
    pub tag: Vec<u8>,
    /// ring's `FAILS = ...` marker, e.g. `WRONG_NONCE_LENGTH`.
    pub fails: Option<String>,
}

/// The two spellings of the same AEAD file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AeadFormat {
    /// BoringSSL / AWS-LC `file_test`: `KEY: value`.
    BoringSsl,
    /// ring: `KEY = value`, with optional `FAILS = WRONG_NONCE_LENGTH`.
    Ring,
}

/// A value: hex, or an ASCII string in double quotes (`""` is empty).
fn parse_value(value: &str, line_no: usize) -> Vec<u8> {
    let value = value.trim();
    if let Some(inner) = value.strip_prefix('"') {
        let inner = inner
            .strip_suffix('"')
            .unwrap_or_else(|| panic!("line {line_no}: unterminated string"));
        inner.as_bytes().to_vec()
    } else {
        hex(value)
    }
}

/// Parses a BoringSSL/AWS-LC or ring AEAD test file. Records are separated by
/// blank lines; `#` lines are comments. Every record must have KEY, NONCE, IN, AD,
/// CT and TAG; an unknown field fails the parse.
pub fn parse_aead_file(text: &str, format: AeadFormat) -> Vec<AeadRecord> {
    let mut records = Vec::new();
    let mut current: Option<(AeadRecord, Vec<&'static str>)> = None;

    fn finish(records: &mut Vec<AeadRecord>, current: Option<(AeadRecord, Vec<&'static str>)>) {
        if let Some((r, seen)) = current {
            for field in ["KEY", "NONCE", "IN", "AD", "CT", "TAG"] {
                assert!(
                    seen.contains(&field),
                    "record at line {}: no {field}",
                    r.line
                );
            }
            assert_eq!(
                r.pt.len(),
                r.ct.len(),
                "record at line {}: IN and CT lengths differ",
                r.line
            );
            records.push(r);
        }
    }

    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        if line.is_empty() {
            finish(&mut records, current.take());
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let split = match format {
            AeadFormat::BoringSsl => line.split_once(':'),
            AeadFormat::Ring => line.split_once('='),
        };
        let (name, value) =
            split.unwrap_or_else(|| panic!("line {line_no}: cannot parse {line:?}"));
        let name = name.trim();
        let (record, seen) = current.get_or_insert_with(|| {
            (
                AeadRecord {
                    line: line_no,
                    ..AeadRecord::default()
                },
                Vec::new(),
            )
        });
        let field: &'static str = match name {
            "KEY" => "KEY",
            "NONCE" => "NONCE",
            "IN" => "IN",
            "AD" => "AD",
            "CT" => "CT",
            "TAG" => "TAG",
            "FAILS" if format == AeadFormat::Ring => "FAILS",
            other => panic!("line {line_no}: unknown field {other:?}"),
        };
        assert!(
            !seen.contains(&field),
            "line {line_no}: {field} twice in one record"
        );
        seen.push(field);
        match field {
            "KEY" => record.key = parse_value(value, line_no),
            "NONCE" => record.nonce = parse_value(value, line_no),
            "IN" => record.pt = parse_value(value, line_no),
            "AD" => record.aad = parse_value(value, line_no),
            "CT" => record.ct = parse_value(value, line_no),
            "TAG" => record.tag = parse_value(value, line_no),
            _ => record.fails = Some(value.trim().to_string()),
        }
    }
    finish(&mut records, current.take());
    records
}

/// `bytes` as an array of `N` bytes; panics, naming both lengths, if it is not.
pub fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    bytes
        .try_into()
        .unwrap_or_else(|_| panic!("{} bytes, expected {N}", bytes.len()))
}
