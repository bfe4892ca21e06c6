//! Opening arbitrary bytes, for all four algorithms, every tier and every
//! opening API: never a panic, never forged plaintext released, and nothing
//! opens but a genuine sealing (checks in `open_checked`).
//!
//! Input: `control, aad_len, key[32], nonce[12], aad[aad_len], body`, where
//! control = alg (bits 0-1) | tier (2-3) | api (4-5) | mutate (6).
//! - mutate = 0: `body` is the message to open, as it is.
//! - mutate = 1: `body` = `kind, pos[2], value, plaintext`: the plaintext is
//!   sealed, then changed by `kind` (0: XOR `value` into byte `pos`; 1:
//!   truncate to `pos`; 2: append `value`; 3: XOR `value` into byte `pos` of
//!   the AAD) and opened. It must open exactly when nothing changed.
//!
//! Every input is also offered, as it is, as a forgery of the fixed message
//! (`check_fixed_message`).
#![no_main]

use hardware_aead::{AeadKey, TAG_LEN};
use hardware_aead_fuzz::{
    Alg, TIERS, Input, NONCE_LEN, OpenApi, check_fixed_message, dispatch, make_key, open_checked,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let control = input.byte();
    let alg = Alg::from_byte(control);
    dispatch!(alg, check_fixed_message(data));
    let tier = TIERS[usize::from(control >> 2 & 3)];
    let api = OpenApi::from_byte(control >> 4);
    let mutate = control & 0x40 != 0;
    let aad_len = usize::from(input.byte());
    let key = input.array::<32>();
    let nonce = input.array::<NONCE_LEN>();
    let aad = input.bytes(aad_len);
    dispatch!(alg, run(tier, api, mutate, &key, &nonce, aad, input));
});

fn run<K: AeadKey<Nonce = [u8; 12]>>(
    tier: hardware_aead::Tier,
    api: OpenApi,
    mutate: bool,
    key: &[u8; 32],
    nonce: &[u8; 12],
    aad: &[u8],
    mut input: Input<'_>,
) {
    // A tier this CPU lacks falls back to the default tier.
    let Some(key) = make_key::<K>(key, Some(tier)).or_else(|| make_key::<K>(key, None)) else {
        return;
    };
    if !mutate {
        open_checked(&key, api, nonce, aad, input.rest());
        return;
    }
    let kind = input.byte() & 3;
    let pos = usize::from(input.u16());
    let value = input.byte();
    let plaintext = input.rest();
    let mut sealed = key.seal(nonce, aad, plaintext).expect("seal");
    if let OpenApi::NonceAppended = api {
        sealed.extend_from_slice(nonce);
    }
    let mut aad = aad.to_vec();
    let changed = match kind {
        0 if !sealed.is_empty() => {
            let i = pos % sealed.len();
            sealed[i] ^= value;
            value != 0
        }
        1 => {
            let n = pos % (sealed.len() + 1);
            let changed = n != sealed.len();
            sealed.truncate(n);
            changed
        }
        2 => {
            sealed.push(value);
            true
        }
        3 if !aad.is_empty() => {
            let i = pos % aad.len();
            aad[i] ^= value;
            value != 0
        }
        _ => false,
    };
    let opened = open_checked(&key, api, nonce, &aad, &sealed);
    let too_short = matches!(api, OpenApi::InPlace) && sealed.len() < TAG_LEN;
    if changed {
        assert!(
            opened.is_none(),
            "a changed message opened ({kind}, {pos}, {value})"
        );
    } else if !too_short {
        assert_eq!(
            opened.as_deref(),
            Some(plaintext),
            "an unchanged message did not open"
        );
    }
}
