#!/usr/bin/env python3
"""Writes the committed seed corpus, fuzz/seeds/<target>/<name>.

Seeds are structured inputs in the layout each target reads (see the comment
at the top of each file in fuzz/fuzz_targets/): every algorithm, every API,
lengths around the block (16), group (128) and wide-group (256) boundaries.
They hold no third-party content: keys, nonces and bytes are counters and
fixed patterns. Run from anywhere; rewrites the seed directories.
"""

import os
import shutil
import struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds")

KEY = bytes(range(1, 33))
NONCE = bytes(range(0xA0, 0xAC))


def write(target, name, data):
    d = os.path.join(ROOT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def main():
    for target in ("open_arbitrary", "round_trip", "differential", "xaes_differential",
                   "aegis_differential", "ece_decode"):
        shutil.rmtree(os.path.join(ROOT, target), ignore_errors=True)

    # open_arbitrary: control, aad_len, key[32], nonce[12], aad, body.
    aad = b"header"
    for alg in range(4):
        for api in range(4):
            backend = (alg + api) % 3
            control = alg | backend << 2 | api << 4
            for body_len in (0, 15, 16, 40):
                body = bytes((i * 7 + alg) & 0xFF for i in range(body_len))
                data = bytes([control, len(aad)]) + KEY + NONCE + aad + body
                write("open_arbitrary", f"raw-a{alg}-api{api}-{body_len}", data)
            for kind in range(4):
                plaintext = bytes(range(33))
                body = bytes([kind]) + struct.pack("<H", 5 + kind) + bytes([0x01 if kind != 1 else 0x00]) + plaintext
                data = bytes([control | 0x40, len(aad)]) + KEY + NONCE + aad + body
                write("open_arbitrary", f"mutate-a{alg}-api{api}-k{kind}", data)
        # mutate with nothing changed: must open
        data = bytes([alg | 0x40, 0]) + KEY + NONCE + bytes([0, 0, 0, 0]) + b"unchanged"
        write("open_arbitrary", f"mutate-a{alg}-none", data)

    # round_trip: control, aad_len, len[2], offsets, flip[2], key, nonce, aad, pattern.
    lengths = (0, 1, 15, 16, 17, 127, 128, 129, 255, 256, 257, 511, 600, 4103)
    for i, length in enumerate(lengths):
        alg = i % 4
        aad = bytes(range(i * 3 % 40))
        data = (bytes([alg, len(aad)]) + struct.pack("<H", length) + bytes([(i * 37) & 0xFF])
                + struct.pack("<H", i * 101) + KEY + NONCE + aad + b"pattern" + bytes([i]))
        write("round_trip", f"len{length}-a{alg}", data)

    # differential: control, aad_len, len[2], key, nonce, aad, pattern.
    for i, length in enumerate((0, 1, 16, 31, 128, 255, 256, 300, 1024, 4099)):
        for alg in range(4):
            aad = bytes(range((i * 5 + alg) % 33))
            data = (bytes([alg, len(aad)]) + struct.pack("<H", length) + KEY + NONCE + aad
                    + bytes([i, alg, 0x55]))
            write("differential", f"len{length}-a{alg}", data)

    # xaes_differential: control, aad_len, len[2], flip[2], key, nonce[24], aad, pattern.
    xnonce = bytes(range(0xB0, 0xC8))
    for i, length in enumerate((0, 1, 15, 16, 17, 32, 33, 48, 127, 128, 255, 256, 300, 1024, 4099)):
        aad = bytes(range((i * 7) % 40))
        data = (bytes([0, len(aad)]) + struct.pack("<H", length) + struct.pack("<H", i * 211)
                + KEY + xnonce + aad + bytes([i, 0x58, 0xAA]))
        write("xaes_differential", f"len{length}", data)

    # aegis_differential: control, aad_len, len[2], flip[2], offset, key[32],
    # nonce[32], aad, pattern. Every variant (control % 6) with both tags
    # (bit 3), lengths around the rates (16, 32, 64, 128 bytes a block).
    anonce = bytes(range(0xC0, 0xE0))
    for i, length in enumerate((0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256,
                                257, 300, 1024, 4099)):
        for variant in range(6):
            control = variant | (8 if (i + variant) % 2 else 0)
            aad = bytes(range((i * 7 + variant) % 70))
            data = (bytes([control, len(aad)]) + struct.pack("<H", length)
                    + struct.pack("<H", i * 211 + variant * 17) + bytes([i + variant])
                    + KEY + anonce + aad + bytes([i, variant, 0xAE]))
            write("aegis_differential", f"len{length}-v{variant}", data)

    # ece_decode: control, rs[2], padding, len[2], at[2], change, step, ikm[16],
    # salt[16], keyid_len, keyid[keyid_len % 8], rest. Mode = control & 3.
    ikm, salt = KEY[:16], KEY[16:]

    def ece(mode, rs, padding, length, at, change, step, keyid, rest):
        return (bytes([mode]) + struct.pack("<H", rs) + bytes([padding]) + struct.pack("<H", length)
                + struct.pack("<H", at) + bytes([change, step]) + ikm + salt
                + bytes([len(keyid)]) + keyid + rest)

    # mode 0: raw bodies: cut headers, record sizes below 18, a plausible
    # header followed by bytes that are not records.
    for i, body in enumerate((b"", salt[:10], salt + b"\x00\x00\x00\x11\x00",
                              salt + b"\x00\x00\x10\x00\x02ab" + bytes(40),
                              salt + b"\x00\x00\x00\x19\x00" + bytes(range(80)),
                              salt + b"\xff\xff\xff\xff\x07" + b"keyid")):
        write("ece_decode", f"raw{i}", ece(0, 0, 0, 0, 0, 0, i * 41, b"", body))
    # mode 1: sealed bodies with one change of each kind.
    for rs in (0, 7, 238, 494):
        for change in range(4):
            for at in (0, 20, 23, 60, 300):
                name = f"change{change}-rs{18 + rs}-at{at}"
                data = ece(1, rs, (rs + at) % 5, 100 + rs, at, change | 0x10, at % 200, b"k1", b"walrus")
                write("ece_decode", name, data)
    # modes 2 and 3: round trips around record boundaries, with padding.
    for rs, length, padding in ((0, 0, 0), (0, 1, 0), (0, 2, 3), (7, 8, 0), (7, 16, 1), (7, 17, 9),
                                (238, 255, 0), (238, 256, 0), (238, 511, 30), (494, 1024, 0),
                                (494, 2047, 255)):
        write("ece_decode", f"trip-rs{18 + rs}-len{length}-pad{padding}",
              ece(2, rs, padding, length, 0, 0, length % 256, b"key-id", b"I am the walrus"))


if __name__ == "__main__":
    main()
