//! A slow, by-the-book model of AES, GHASH, AES-GCM, POLYVAL and AES-GCM-SIV:
//! the differential oracle for the hardware kernels. Test-only.
//!
//! Everything here is written straight from the specifications, for clarity and
//! not for speed or constant time:
//! - AES: FIPS-197 §5.1 (Cipher) and §5.2 (KeyExpansion), with the S-box computed
//!   from its definition in §5.1.1 (multiplicative inverse, then the affine map);
//! - GHASH and GCM: NIST SP 800-38D §6.3 (Algorithm 1, the multiplication),
//!   §6.4 (Algorithm 2, GHASH), §6.5 (Algorithm 3, GCTR), §7.1 and §7.2;
//! - POLYVAL and AES-GCM-SIV: RFC 8452 §3, §4 and §5.
//!
//! The file is self-contained (only `std`), so that integration tests can include
//! it with `#[path = "../src/model.rs"] mod model;` as well as the library's own
//! unit tests.

#![allow(dead_code)]
// The model indexes state and blocks as the specifications do (s[r][c], X_i).
#![allow(clippy::needless_range_loop)]

/// One 128-bit block.
pub type Block = [u8; 16];

// ---------------------------------------------------------------------------
// AES (FIPS-197)
// ---------------------------------------------------------------------------

/// Multiplication in GF(2^8) modulo m(x) = x^8 + x^4 + x^3 + x + 1 (FIPS-197 §4.2).
fn gf256_mul(mut a: u8, mut b: u8) -> u8 {
    let mut product = 0u8;
    while b != 0 {
        if b & 1 != 0 {
            product ^= a;
        }
        // xtime (§4.2.1): multiply by x, reducing by m(x) when x^8 appears.
        let carry = a & 0x80 != 0;
        a <<= 1;
        if carry {
            a ^= 0x1b;
        }
        b >>= 1;
    }
    product
}

/// The multiplicative inverse in GF(2^8), with 0 mapped to 0 (FIPS-197 §5.1.1):
/// b^254 = b^-1 for b != 0.
fn gf256_inv(b: u8) -> u8 {
    let mut result = 1u8;
    for _ in 0..254 {
        result = gf256_mul(result, b);
    }
    if b == 0 { 0 } else { result }
}

/// The S-box from its definition (FIPS-197 §5.1.1): the inverse, then the affine
/// transformation b'_i = b_i ^ b_(i+4) ^ b_(i+5) ^ b_(i+6) ^ b_(i+7) ^ c_i with
/// c = 0x63.
fn sub_byte(x: u8) -> u8 {
    let b = gf256_inv(x);
    b ^ b.rotate_left(1) ^ b.rotate_left(2) ^ b.rotate_left(3) ^ b.rotate_left(4) ^ 0x63
}

/// The S-box as a table, computed from [`sub_byte`] once per process.
fn sbox_table() -> &'static [u8; 256] {
    static TABLE: std::sync::OnceLock<[u8; 256]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [0u8; 256];
        for (x, entry) in table.iter_mut().enumerate() {
            *entry = sub_byte(x as u8);
        }
        table
    })
}

/// KeyExpansion (FIPS-197 §5.2): `Nk` = key length in words, `Nr` = Nk + 6 rounds,
/// returns the 4·(Nr+1) words of the key schedule, each as 4 bytes.
fn key_expansion(key: &[u8], sbox: &[u8; 256]) -> Vec<[u8; 4]> {
    assert!(
        key.len() == 16 || key.len() == 24 || key.len() == 32,
        "AES keys are 16, 24 or 32 bytes, not {}",
        key.len()
    );
    let nk = key.len() / 4;
    let nr = nk + 6;
    let sub_word = |w: [u8; 4]| w.map(|b| sbox[b as usize]);
    let rot_word = |w: [u8; 4]| [w[1], w[2], w[3], w[0]];

    let mut w: Vec<[u8; 4]> = key.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
    // Rcon[i] = [x^(i-1), 0, 0, 0], x^(i-1) computed in GF(2^8).
    let mut rcon = 1u8;
    for i in nk..4 * (nr + 1) {
        let mut temp = w[i - 1];
        if i % nk == 0 {
            temp = sub_word(rot_word(temp));
            temp[0] ^= rcon;
            rcon = gf256_mul(rcon, 2);
        } else if nk > 6 && i % nk == 4 {
            temp = sub_word(temp);
        }
        let prev = w[i - nk];
        w.push([
            prev[0] ^ temp[0],
            prev[1] ^ temp[1],
            prev[2] ^ temp[2],
            prev[3] ^ temp[3],
        ]);
    }
    w
}

/// The AES state: `s[r][c]` with `in[r + 4c]` loaded into `s[r][c]` (FIPS-197 §3.4).
type State = [[u8; 4]; 4];

fn add_round_key(s: &mut State, round_key: &[[u8; 4]]) {
    for c in 0..4 {
        for r in 0..4 {
            s[r][c] ^= round_key[c][r];
        }
    }
}

fn sub_bytes(s: &mut State, sbox: &[u8; 256]) {
    for row in s.iter_mut() {
        for b in row.iter_mut() {
            *b = sbox[*b as usize];
        }
    }
}

/// ShiftRows (§5.1.2): s'[r][c] = s[r][(c + shift(r, 4)) mod 4], shift(r, 4) = r.
fn shift_rows(s: &mut State) {
    for r in 1..4 {
        let row = s[r];
        for c in 0..4 {
            s[r][c] = row[(c + r) % 4];
        }
    }
}

/// MixColumns (§5.1.3): each column times a(x) = {03}x^3 + {01}x^2 + {01}x + {02}.
fn mix_columns(s: &mut State) {
    for c in 0..4 {
        let col = [s[0][c], s[1][c], s[2][c], s[3][c]];
        let m = |x: u8, k: u8| gf256_mul(x, k);
        s[0][c] = m(col[0], 2) ^ m(col[1], 3) ^ col[2] ^ col[3];
        s[1][c] = col[0] ^ m(col[1], 2) ^ m(col[2], 3) ^ col[3];
        s[2][c] = col[0] ^ col[1] ^ m(col[2], 2) ^ m(col[3], 3);
        s[3][c] = m(col[0], 3) ^ col[1] ^ col[2] ^ m(col[3], 2);
    }
}

/// An expanded AES key: the key schedule of FIPS-197 §5.2.
pub struct AesKey {
    w: Vec<[u8; 4]>,
    nr: usize,
}

impl AesKey {
    /// KeyExpansion of a 128-, 192- or 256-bit key.
    pub fn new(key: &[u8]) -> Self {
        Self {
            w: key_expansion(key, sbox_table()),
            nr: key.len() / 4 + 6,
        }
    }

    /// The round keys, 16 bytes each, in order (FIPS-197's byte order).
    pub fn round_keys(&self) -> Vec<Block> {
        self.w
            .chunks_exact(4)
            .map(|words| core::array::from_fn(|i| words[i / 4][i % 4]))
            .collect()
    }

    /// Cipher (FIPS-197 §5.1).
    pub fn encrypt_block(&self, block: &Block) -> Block {
        let sbox = sbox_table();
        let (w, nr) = (&self.w, self.nr);

        let mut s: State = [[0; 4]; 4];
        for (i, &b) in block.iter().enumerate() {
            s[i % 4][i / 4] = b;
        }
        add_round_key(&mut s, &w[0..4]);
        for round in 1..nr {
            sub_bytes(&mut s, sbox);
            shift_rows(&mut s);
            mix_columns(&mut s);
            add_round_key(&mut s, &w[4 * round..4 * round + 4]);
        }
        sub_bytes(&mut s, sbox);
        shift_rows(&mut s);
        add_round_key(&mut s, &w[4 * nr..4 * nr + 4]);

        let mut out = [0u8; 16];
        for (i, b) in out.iter_mut().enumerate() {
            *b = s[i % 4][i / 4];
        }
        out
    }
}

/// Cipher (FIPS-197 §5.1) of one block with a 128-, 192- or 256-bit key.
pub fn aes_encrypt_block(key: &[u8], block: &Block) -> Block {
    AesKey::new(key).encrypt_block(block)
}

// ---------------------------------------------------------------------------
// GHASH and GCM (NIST SP 800-38D)
// ---------------------------------------------------------------------------

fn xor_block(a: &Block, b: &Block) -> Block {
    let mut out = [0u8; 16];
    for i in 0..16 {
        out[i] = a[i] ^ b[i];
    }
    out
}

/// X • Y, SP 800-38D §6.3, Algorithm 1. Bit 0 of a block is the leftmost bit
/// (the most significant bit of byte 0), so a block read as a big-endian `u128`
/// has bit i at position 127 − i, and "rightshift" is `>> 1`.
pub fn gf128_mul(x: &Block, y: &Block) -> Block {
    // R = 11100001 || 0^120.
    const R: u128 = 0xe1 << 120;
    let x = u128::from_be_bytes(*x);
    // Step 2: Z_0 = 0^128, V_0 = Y.
    let mut z = 0u128;
    let mut v = u128::from_be_bytes(*y);
    for i in 0..128 {
        // Step 3: Z_(i+1) = Z_i if x_i = 0, Z_i ⊕ V_i if x_i = 1.
        if (x >> (127 - i)) & 1 == 1 {
            z ^= v;
        }
        // V_(i+1) = V_i >> 1 if LSB_1(V_i) = 0, (V_i >> 1) ⊕ R if LSB_1(V_i) = 1.
        v = if v & 1 == 0 { v >> 1 } else { (v >> 1) ^ R };
    }
    z.to_be_bytes()
}

/// GHASH_H(X) over a whole number of blocks, SP 800-38D §6.4, Algorithm 2:
/// Y_0 = 0^128, Y_i = (Y_(i−1) ⊕ X_i) • H.
pub fn ghash_blocks(h: &Block, x: &[u8]) -> Block {
    assert_eq!(
        x.len() % 16,
        0,
        "GHASH input must be a whole number of blocks"
    );
    let mut y = [0u8; 16];
    for chunk in x.chunks(16) {
        let mut xi = [0u8; 16];
        xi.copy_from_slice(chunk);
        y = gf128_mul(&xor_block(&y, &xi), h);
    }
    y
}

/// GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64), the S of
/// SP 800-38D §7.1 step 5 (lengths in bits).
pub fn ghash(h: &Block, aad: &[u8], ct: &[u8]) -> Block {
    let mut input = Vec::with_capacity(aad.len() + ct.len() + 48);
    input.extend_from_slice(aad);
    input.resize(aad.len().div_ceil(16) * 16, 0);
    let ct_start = input.len();
    input.extend_from_slice(ct);
    input.resize(ct_start + ct.len().div_ceil(16) * 16, 0);
    input.extend_from_slice(&(aad.len() as u64 * 8).to_be_bytes());
    input.extend_from_slice(&(ct.len() as u64 * 8).to_be_bytes());
    ghash_blocks(h, &input)
}

/// inc_32 (SP 800-38D §6.2): increments the rightmost 32 bits modulo 2^32.
pub fn inc32(block: &Block) -> Block {
    let mut out = *block;
    let ctr = u32::from_be_bytes([block[12], block[13], block[14], block[15]]).wrapping_add(1);
    out[12..].copy_from_slice(&ctr.to_be_bytes());
    out
}

/// GCTR_K(ICB, X), SP 800-38D §6.5, Algorithm 3. The last block may be partial:
/// Y*_n = X*_n ⊕ MSB_len(X*_n)(CIPH_K(CB_n)).
pub fn gctr(key: &[u8], icb: &Block, x: &[u8]) -> Vec<u8> {
    let aes = AesKey::new(key);
    let mut y = Vec::with_capacity(x.len());
    let mut cb = *icb;
    for chunk in x.chunks(16) {
        let keystream = aes.encrypt_block(&cb);
        y.extend(chunk.iter().zip(keystream.iter()).map(|(a, b)| a ^ b));
        cb = inc32(&cb);
    }
    y
}

/// The hash subkey H = CIPH_K(0^128) (SP 800-38D §7.1 step 1).
pub fn gcm_hash_subkey(key: &[u8]) -> Block {
    aes_encrypt_block(key, &[0u8; 16])
}

/// J0 = IV || 0^31 || 1 for a 96-bit IV (SP 800-38D §7.1 step 2).
pub fn gcm_j0(nonce: &[u8; 12]) -> Block {
    let mut j0 = [0u8; 16];
    j0[..12].copy_from_slice(nonce);
    j0[15] = 1;
    j0
}

/// The 128-bit GCM tag of `ct` (SP 800-38D §7.1 steps 5–6): T = GCTR_K(J0, S).
pub fn gcm_tag(key: &[u8], nonce: &[u8; 12], aad: &[u8], ct: &[u8]) -> Block {
    let h = gcm_hash_subkey(key);
    let s = ghash(&h, aad, ct);
    let t = gctr(key, &gcm_j0(nonce), &s);
    let mut tag = [0u8; 16];
    tag.copy_from_slice(&t);
    tag
}

/// GCM-AE_K(IV, P, A) with a 96-bit IV and 128-bit tag (SP 800-38D §7.1);
/// returns C || T.
pub fn gcm_seal(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let j0 = gcm_j0(nonce);
    // Step 3: C = GCTR_K(inc_32(J0), P).
    let mut out = gctr(key, &inc32(&j0), pt);
    let tag = gcm_tag(key, nonce, aad, &out);
    out.extend_from_slice(&tag);
    out
}

/// GCM-AD_K(IV, C, A, T) with a 96-bit IV and 128-bit tag (SP 800-38D §7.2);
/// `ct_and_tag` is C || T. Returns `None` (FAIL) if the tag does not verify or
/// the input is shorter than a tag.
pub fn gcm_open(key: &[u8], nonce: &[u8; 12], aad: &[u8], ct_and_tag: &[u8]) -> Option<Vec<u8>> {
    let ct_len = ct_and_tag.len().checked_sub(16)?;
    let (ct, tag) = ct_and_tag.split_at(ct_len);
    let expected = gcm_tag(key, nonce, aad, ct);
    if expected[..] != tag[..] {
        return None;
    }
    Some(gctr(key, &inc32(&gcm_j0(nonce)), ct))
}

// ---------------------------------------------------------------------------
// POLYVAL and AES-GCM-SIV (RFC 8452)
// ---------------------------------------------------------------------------

/// dot(a, b) = a · b · x^−128 in GF(2^128) modulo
/// x^128 + x^127 + x^126 + x^121 + 1 (RFC 8452 §3). Blocks are little-endian
/// polynomials: bit j of byte i is the coefficient of x^(8i + j), so a block
/// read as a little-endian `u128` has the coefficient of x^k at bit k.
///
/// Computed by Horner's rule over the bits of b: for i = 0..128, add b_i·a, then
/// multiply the accumulator by x^−1; the term b_i·a is multiplied by x^−1 exactly
/// 128 − i times, giving Σ b_i·a·x^(i−128) = a·b·x^−128.
pub fn polyval_dot(a: &Block, b: &Block) -> Block {
    let a = u128::from_le_bytes(*a);
    let b = u128::from_le_bytes(*b);
    // x^−1 · acc: if the x^0 coefficient is 0, shift right; otherwise add the
    // modulus first (clearing x^0) and then divide by x. (P − x^128) / x has
    // x^126, x^125, x^120, and x^128 / x = x^127.
    const P_OVER_X: u128 = (1 << 127) | (1 << 126) | (1 << 125) | (1 << 120);
    let mut acc = 0u128;
    for i in 0..128 {
        if (b >> i) & 1 == 1 {
            acc ^= a;
        }
        acc = if acc & 1 == 0 {
            acc >> 1
        } else {
            (acc >> 1) ^ P_OVER_X
        };
    }
    acc.to_le_bytes()
}

/// mulX_POLYVAL(v) = v · x in the POLYVAL field (RFC 8452 Appendix A): shift the
/// little-endian integer left by one; if x^128 appeared, replace it by
/// x^127 + x^126 + x^121 + 1.
pub fn mul_x_polyval(v: &Block) -> Block {
    let v = u128::from_le_bytes(*v);
    let carry = v >> 127;
    let reduced = (v << 1) ^ (carry * ((1 << 127) | (1 << 126) | (1 << 121) | 1));
    reduced.to_le_bytes()
}

/// POLYVAL(H, X_1, ..., X_s) (RFC 8452 §3): S_0 = 0, S_j = dot(S_(j−1) + X_j, H).
/// `data` must be a whole number of blocks.
pub fn polyval(h: &Block, data: &[u8]) -> Block {
    assert_eq!(
        data.len() % 16,
        0,
        "POLYVAL input must be a whole number of blocks"
    );
    let mut s = [0u8; 16];
    for chunk in data.chunks(16) {
        let mut xj = [0u8; 16];
        xj.copy_from_slice(chunk);
        s = polyval_dot(&xor_block(&s, &xj), h);
    }
    s
}

/// POLYVAL through GHASH, RFC 8452 Appendix A:
/// POLYVAL(H, X_1, ..., X_n) = ByteReverse(GHASH(mulX_GHASH(ByteReverse(H)),
/// ByteReverse(X_1), ..., ByteReverse(X_n))). Used to cross-check [`polyval`].
pub fn polyval_via_ghash(h: &Block, data: &[u8]) -> Block {
    assert_eq!(data.len() % 16, 0);
    let reverse = |b: &[u8]| {
        let mut r = [0u8; 16];
        for i in 0..16 {
            r[i] = b[15 - i];
        }
        r
    };
    let mut reversed = Vec::with_capacity(data.len());
    for chunk in data.chunks(16) {
        reversed.extend_from_slice(&reverse(chunk));
    }
    let h_ghash = mul_x_ghash(&reverse(h));
    reverse(&ghash_blocks(&h_ghash, &reversed))
}

/// mulX_GHASH (RFC 8452 Appendix A): multiplies a GHASH field element by x,
/// which in GHASH's bit order is a right shift with conditional reduction by R.
pub fn mul_x_ghash(v: &Block) -> Block {
    let v = u128::from_be_bytes(*v);
    let r = if v & 1 == 0 {
        v >> 1
    } else {
        (v >> 1) ^ (0xe1 << 120)
    };
    r.to_be_bytes()
}

/// The RFC 8452 §4 per-nonce keys: (message-authentication key,
/// message-encryption key), the latter 16 or 32 bytes like the key-generating key.
pub fn gcm_siv_derive_keys(key_generating_key: &[u8], nonce: &[u8; 12]) -> (Block, Vec<u8>) {
    assert!(key_generating_key.len() == 16 || key_generating_key.len() == 32);
    // Block i: AES(key_generating_key, little_endian_uint32(i) ++ nonce); the
    // first 8 bytes of each are kept.
    let half = |i: u32| {
        let mut input = [0u8; 16];
        input[..4].copy_from_slice(&i.to_le_bytes());
        input[4..].copy_from_slice(nonce);
        let out = aes_encrypt_block(key_generating_key, &input);
        let mut h = [0u8; 8];
        h.copy_from_slice(&out[..8]);
        h
    };
    let mut auth_key = [0u8; 16];
    auth_key[..8].copy_from_slice(&half(0));
    auth_key[8..].copy_from_slice(&half(1));
    let mut enc_key = Vec::with_capacity(key_generating_key.len());
    enc_key.extend_from_slice(&half(2));
    enc_key.extend_from_slice(&half(3));
    if key_generating_key.len() == 32 {
        enc_key.extend_from_slice(&half(4));
        enc_key.extend_from_slice(&half(5));
    }
    (auth_key, enc_key)
}

/// The RFC 8452 §4 tag over `aad` and the plaintext `pt`.
fn gcm_siv_tag(auth_key: &Block, enc_key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Block {
    // POLYVAL(message_authentication_key, padded_ad ++ padded_plaintext ++ length_block),
    // length_block = little_endian_uint64(len(ad)·8) ++ little_endian_uint64(len(pt)·8).
    let mut input = Vec::with_capacity(aad.len() + pt.len() + 48);
    input.extend_from_slice(aad);
    input.resize(aad.len().div_ceil(16) * 16, 0);
    let pt_start = input.len();
    input.extend_from_slice(pt);
    input.resize(pt_start + pt.len().div_ceil(16) * 16, 0);
    input.extend_from_slice(&(aad.len() as u64 * 8).to_le_bytes());
    input.extend_from_slice(&(pt.len() as u64 * 8).to_le_bytes());
    let mut s = polyval(auth_key, &input);
    // XOR the nonce into the first twelve bytes, clear the top bit of the last byte,
    // and encrypt with the message-encryption key.
    for i in 0..12 {
        s[i] ^= nonce[i];
    }
    s[15] &= 0x7f;
    aes_encrypt_block(enc_key, &s)
}

/// AES-CTR of RFC 8452 §4: the counter block starts as the tag with the top bit
/// of its last byte set, and its first 32 bits are a little-endian counter that
/// wraps modulo 2^32.
fn gcm_siv_ctr(enc_key: &[u8], tag: &Block, input: &[u8]) -> Vec<u8> {
    let aes = AesKey::new(enc_key);
    let mut counter_block = *tag;
    counter_block[15] |= 0x80;
    let mut out = Vec::with_capacity(input.len());
    for chunk in input.chunks(16) {
        let keystream = aes.encrypt_block(&counter_block);
        out.extend(chunk.iter().zip(keystream.iter()).map(|(a, b)| a ^ b));
        let ctr = u32::from_le_bytes([
            counter_block[0],
            counter_block[1],
            counter_block[2],
            counter_block[3],
        ]);
        counter_block[..4].copy_from_slice(&ctr.wrapping_add(1).to_le_bytes());
    }
    out
}

/// AES-GCM-SIV encryption (RFC 8452 §4): returns ciphertext || tag.
pub fn gcm_siv_seal(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let (auth_key, enc_key) = gcm_siv_derive_keys(key, nonce);
    let tag = gcm_siv_tag(&auth_key, &enc_key, nonce, aad, pt);
    let mut out = gcm_siv_ctr(&enc_key, &tag, pt);
    out.extend_from_slice(&tag);
    out
}

/// AES-GCM-SIV decryption (RFC 8452 §5): `ct_and_tag` is ciphertext || tag.
/// Returns `None` if the tag does not verify or the input is shorter than a tag.
pub fn gcm_siv_open(
    key: &[u8],
    nonce: &[u8; 12],
    aad: &[u8],
    ct_and_tag: &[u8],
) -> Option<Vec<u8>> {
    let ct_len = ct_and_tag.len().checked_sub(16)?;
    let (ct, received) = ct_and_tag.split_at(ct_len);
    let mut tag = [0u8; 16];
    tag.copy_from_slice(received);
    let (auth_key, enc_key) = gcm_siv_derive_keys(key, nonce);
    let pt = gcm_siv_ctr(&enc_key, &tag, ct);
    let expected = gcm_siv_tag(&auth_key, &enc_key, nonce, aad, &pt);
    if expected == tag { Some(pt) } else { None }
}

// ---------------------------------------------------------------------------
// The model checked against published vectors
// ---------------------------------------------------------------------------

#[cfg(test)]
#[path = "model/tests.rs"]
mod tests;
