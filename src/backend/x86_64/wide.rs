//! The wide tiers' loops and entry points, written once.
//!
//! `wide_engine!(tier_macro, Token)` expands, inside the tier's feature macro,
//! to the group loops (`wide_hash_output`, `wide_hash_input`,
//! `wide_ctr_only`, `wide_hash`) and the four entry points (`seal`, `open`,
//! `siv_seal`, `siv_open`) of a wide tier. The invoking file supplies the
//! register-level pieces under fixed names, for its register width:
//!
//! | name | what |
//! |---|---|
//! | `Key`, `Group` | a round key in every lane; a group of blocks in registers |
//! | `WIDE` | the bytes of a group (256) |
//! | `splat_keys`, `group_powers` | round keys and H^16..H^1 laid out for the loops |
//! | `load_group`, `store_group_to`, `xor`, `for_hash_reg` | data in and out of registers |
//! | `counters_group`, `encrypt_group` | counter blocks and plain AES of a group |
//! | `aes_hash_group`, `hash_group` | AES with the multiplies of a group of bytes stitched in; hash of registers |
//!
//! Each loop covers the whole groups from the start of the data; the last
//! bytes (less than a group), and messages shorter than a group, are finished by the AES-NI
//! tier's pieces (`gcm_aesni`, `siv`), whose features every wide tier includes.
//! Contracts of the entry points: `gcm_aesni.rs` and `siv.rs`.

macro_rules! wide_engine {
    ($tier:ident, $token:ident) => {
        $tier! {
            /// Reads the group at `offset`, XORs the keystream, writes it.
            #[inline]
            fn xor_group(data: &mut InOut<'_>, offset: usize, ks: &Group) {
                let mut c = load_group(data.input::<WIDE>(offset));
                for (c, k) in c.iter_mut().zip(ks) {
                    *c = xor(*c, *k);
                }
                store_group_to(data.output::<WIDE>(offset), &c);
            }

            /// The hash of one group of bytes folded into `acc`.
            #[inline]
            fn hash_bytes<const GCM: bool>(acc: __m128i, bytes: &[u8; WIDE], p: &Group) -> __m128i {
                let mut x = load_group(bytes);
                for x in x.iter_mut() {
                    *x = for_hash_reg::<GCM>(*x);
                }
                hash_group(acc, &x, p)
            }

            /// CTR over the whole groups, hashing each group's output during the
            /// AES of the group two after it (reading it back from the output):
            /// the multiplies then never wait for AES rounds still in flight, and
            /// no registers hold hash inputs across iterations. Returns the
            /// accumulator and the bytes done.
            #[inline]
            fn wide_hash_output<const NK: usize, const GCM: bool>(
                rk: &[Key; NK],
                p: &Group,
                ctr: &mut __m128i,
                mut acc: __m128i,
                data: &mut InOut<'_>,
            ) -> (__m128i, usize) {
                let end = data.len() / WIDE * WIDE;
                let mut offset = 0;
                while offset < end {
                    let ctrs = counters_group::<GCM>(ctr);
                    let ks = if offset < 2 * WIDE {
                        let mut ks = ctrs;
                        encrypt_group(rk, &mut ks);
                        ks
                    } else {
                        let hashed = data.written::<WIDE>(offset - 2 * WIDE);
                        let (ks, sum) = aes_hash_group::<NK, GCM>(rk, ctrs, hashed, acc, p);
                        acc = sum;
                        ks
                    };
                    xor_group(data, offset, &ks);
                    offset += WIDE;
                }
                for behind in (1..=2).rev() {
                    if end >= behind * WIDE {
                        acc = hash_bytes::<GCM>(acc, data.written::<WIDE>(end - behind * WIDE), p);
                    }
                }
                (acc, end)
            }

            /// CTR over the whole groups, hashing each group's input during its
            /// own AES. Returns the accumulator and the bytes done.
            #[inline]
            fn wide_hash_input<const NK: usize, const GCM: bool>(
                rk: &[Key; NK],
                p: &Group,
                ctr: &mut __m128i,
                mut acc: __m128i,
                data: &mut InOut<'_>,
            ) -> (__m128i, usize) {
                let end = data.len() / WIDE * WIDE;
                let mut offset = 0;
                while offset < end {
                    let ctrs = counters_group::<GCM>(ctr);
                    let (ks, sum) = aes_hash_group::<NK, GCM>(rk, ctrs, data.input::<WIDE>(offset), acc, p);
                    acc = sum;
                    xor_group(data, offset, &ks);
                    offset += WIDE;
                }
                (acc, end)
            }

            /// CTR over the whole groups, no hash. Returns the bytes done.
            #[inline]
            fn wide_ctr_only<const NK: usize, const GCM: bool>(
                rk: &[Key; NK],
                ctr: &mut __m128i,
                data: &mut InOut<'_>,
            ) -> usize {
                let end = data.len() / WIDE * WIDE;
                let mut offset = 0;
                while offset < end {
                    let mut ks = counters_group::<GCM>(ctr);
                    encrypt_group(rk, &mut ks);
                    xor_group(data, offset, &ks);
                    offset += WIDE;
                }
                end
            }

            /// The hash of the input's whole groups. Returns the accumulator and
            /// the bytes done.
            #[inline]
            fn wide_hash<const GCM: bool>(mut acc: __m128i, data: &InOut<'_>, p: &Group) -> (__m128i, usize) {
                let end = data.len() / WIDE * WIDE;
                let mut offset = 0;
                while offset < end {
                    acc = hash_bytes::<GCM>(acc, data.input::<WIDE>(offset), p);
                    offset += WIDE;
                }
                (acc, end)
            }

            /// GCM encryption (contract: `gcm_aesni::seal`).
            pub(crate) fn seal<const NK: usize>(
                token: $token,
                keys: &RoundKeys<NK>,
                h_powers: &HPowers,
                j0: u128,
                aad: &[u8],
                data: &mut InOut<'_>,
                len_block: u128,
            ) -> Block {
                gcm::<NK, true>(token, keys, h_powers, j0, aad, data, len_block)
            }

            /// GCM decryption (contract: `gcm_aesni::open`).
            pub(crate) fn open<const NK: usize>(
                token: $token,
                keys: &RoundKeys<NK>,
                h_powers: &HPowers,
                j0: u128,
                aad: &[u8],
                data: &mut InOut<'_>,
                len_block: u128,
            ) -> Block {
                gcm::<NK, false>(token, keys, h_powers, j0, aad, data, len_block)
            }

            /// [`seal`] (`SEAL`) or [`open`]: the whole groups on this tier (seal
            /// hashes the output, open the input), the rest on the AES-NI pieces.
            #[inline]
            fn gcm<const NK: usize, const SEAL: bool>(
                token: $token,
                keys: &RoundKeys<NK>,
                h_powers: &HPowers,
                j0: u128,
                aad: &[u8],
                data: &mut InOut<'_>,
                len_block: u128,
            ) -> Block {
                if data.len() < WIDE {
                    let t = token.aesni();
                    return if SEAL {
                        gcm_aesni::seal(t, keys, h_powers, j0, aad, data, len_block)
                    } else {
                        gcm_aesni::open(t, keys, h_powers, j0, aad, data, len_block)
                    };
                }
                let mut s = gcm_aesni::state_new(keys, h_powers, j0, aad);
                let (mut rk, mut p) = (splat_keys(&load_round_keys(keys)), group_powers(&load_powers(h_powers)));
                let (acc, start) = if SEAL {
                    wide_hash_output::<NK, true>(&rk, &p, &mut s.ctr, s.acc, data)
                } else {
                    wide_hash_input::<NK, true>(&rk, &p, &mut s.ctr, s.acc, data)
                };
                s.acc = acc;
                // The broadcast round keys and the extended powers are copies of
                // key state this call made on its stack: wipe them.
                rk.zeroize();
                p.zeroize();
                if SEAL {
                    gcm_aesni::seal_from(&mut s, data, start, len_block)
                } else {
                    gcm_aesni::open_from(&mut s, data, start, len_block)
                }
            }

            /// GCM-SIV encryption (contract: `siv::seal`): the POLYVAL pass, then CTR.
            pub(crate) fn siv_seal<const NK: usize>(
                _token: $token,
                keys: &RoundKeys<NK>,
                nonce: u128,
                aad: &[u8],
                data: &mut InOut<'_>,
                len_block: u128,
            ) -> Block {
                let mut s = siv::state_new(keys, nonce, aad, data.len());
                if data.len() < WIDE {
                    let tag = siv::hash_from(&mut s, data, 0, len_block);
                    siv::seal_from(&mut s, data, 0);
                    return byte_store(tag);
                }
                let (mut rk, mut p) = (splat_keys(&s.enc), group_powers(&s.h));
                let (acc, start) = wide_hash::<false>(s.acc, data, &p);
                s.acc = acc;
                let tag = siv::hash_from(&mut s, data, start, len_block);
                let start = wide_ctr_only::<NK, false>(&rk, &mut s.ctr, data);
                siv::seal_from(&mut s, data, start);
                rk.zeroize();
                p.zeroize();
                byte_store(tag)
            }

            /// GCM-SIV decryption (contract: `siv::open`): one stitched pass.
            #[allow(clippy::too_many_arguments)]
            pub(crate) fn siv_open<const NK: usize>(
                _token: $token,
                keys: &RoundKeys<NK>,
                nonce: u128,
                aad: &[u8],
                data: &mut InOut<'_>,
                tag: u128,
                len_block: u128,
            ) -> Block {
                let mut s = siv::state_new(keys, nonce, aad, data.len());
                s.ctr = siv::initial_counter_from(tag);
                let mut start = 0;
                if data.len() >= WIDE {
                    let (mut rk, mut p) = (splat_keys(&s.enc), group_powers(&s.h));
                    (s.acc, start) = wide_hash_output::<NK, false>(&rk, &p, &mut s.ctr, s.acc, data);
                    rk.zeroize();
                    p.zeroize();
                }
                byte_store(siv::open_from(&mut s, data, start, len_block))
            }

            /// A register as a block.
            #[inline]
            fn byte_store(v: __m128i) -> Block {
                super::store(v)
            }
        }

        #[cfg(test)]
        mod engine_tests {
            use super::*;
            use crate::model;
            use core::arch::x86_64::_mm_setzero_si128;

            #[test]
            fn sixteen_powers_match_the_model() {
                let Ok(_t) = $token::detect() else {
                    // Straight to the process's stderr: the test harness would
                    // swallow `eprintln!` for a passing test, and a skip must show.
                    let _ = std::io::Write::write_all(
                        &mut std::io::stderr(),
                        concat!("skipped: this CPU has no ", stringify!($token), " tier\n").as_bytes(),
                    );
                    return;
                };
                let h1: Block = core::array::from_fn(|i| (i as u8).wrapping_mul(53).wrapping_add(9));
                let mut expected = [h1; WIDE / 16];
                for i in 1..WIDE / 16 {
                    expected[i] = model::polyval_dot(&expected[i - 1], &h1);
                }
                // SAFETY: `_t` proves the tier's features are present.
                let got: [u8; WIDE] = unsafe {
                    let mut h = [_mm_setzero_si128(); 8];
                    for (i, x) in h.iter_mut().enumerate() {
                        *x = super::super::load(&expected[i]);
                    }
                    let mut bytes = [0u8; WIDE];
                    store_group_to(&mut bytes, &group_powers(&h));
                    bytes
                };
                for i in 0..WIDE / 16 {
                    assert_eq!(
                        got[16 * i..16 * i + 16],
                        expected[WIDE / 16 - 1 - i],
                        "block {i} should be H^{}",
                        WIDE / 16 - i
                    );
                }
            }

            #[test]
            fn group_counters_match_the_128_bit_ones_across_carries() {
                let Ok(_t) = $token::detect() else {
                    // Straight to the process's stderr: the test harness would
                    // swallow `eprintln!` for a passing test, and a skip must show.
                    let _ = std::io::Write::write_all(
                        &mut std::io::stderr(),
                        concat!("skipped: this CPU has no ", stringify!($token), " tier\n").as_bytes(),
                    );
                    return;
                };
                for start in [
                    2u32,
                    0xef,
                    0xf0,
                    0xf1,
                    0xff,
                    0x1f0,
                    0xffff_fff0,
                    0xffff_fff8,
                    0xffff_ffff,
                ] {
                    for gcm in [true, false] {
                        let mut j = [0x5au8; 16];
                        if gcm {
                            j[12..].copy_from_slice(&start.to_be_bytes());
                        } else {
                            j[..4].copy_from_slice(&start.to_le_bytes());
                        }
                        // SAFETY: `_t` proves the tier's features, which include the AES-NI ones.
                        let (wide, narrow) = unsafe {
                            let x = super::super::load(&j);
                            let c = if gcm {
                                super::super::clmul::byte_reverse(x)
                            } else {
                                x
                            };
                            let (mut c1, mut c2) = (c, c);
                            let mut bytes = [0u8; WIDE];
                            if gcm {
                                store_group_to(&mut bytes, &counters_group::<true>(&mut c1));
                            } else {
                                store_group_to(&mut bytes, &counters_group::<false>(&mut c1));
                            }
                            let narrow: [u8; WIDE] = if gcm {
                                super::super::store_blocks(&super::super::ctr::counter_blocks::<true, { WIDE / 16 }>(
                                    &mut c2,
                                ))
                            } else {
                                super::super::store_blocks(&super::super::ctr::counter_blocks::<false, { WIDE / 16 }>(
                                    &mut c2,
                                ))
                            };
                            assert_eq!(
                                super::super::store(c1),
                                super::super::store(c2),
                                "next counter, start {start:#x}"
                            );
                            (bytes, narrow)
                        };
                        assert_eq!(wide, narrow, "start {start:#x}, gcm {gcm}");
                    }
                }
            }
        }
    };
}
