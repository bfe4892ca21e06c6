#!/usr/bin/env python3
"""The ARMv8 tier's steady-state loops in llvm-mca's Neoverse models.

No aarch64 machine is reachable, so the aarch64 loops are timed by static
simulation: LLVM 19's `llvm-mca` has scheduling models of Neoverse N1, N2, V1
and V2. For each loop this prints the modelled cycles per 16-byte block
twice: as emitted, and with every `aesmc` dropped (the cores fuse an `aese`
with the `aesmc` that follows it; the model fuses nothing, so the two figures
bracket the hardware). Trust ratios between loops, not the absolute numbers.

Usage:
  aarch64_model.py ASM                      print this crate's loops
  aarch64_model.py ASM --check FIGURES      ... and fail if a loop got more
                                            than 3 % slower than FIGURES says
  aarch64_model.py ASM --write FIGURES      ... and write FIGURES
  aarch64_model.py --reference S LABEL N    model another kernel's loop: the
                                            lines from LABEL to the branch
                                            back to it in the assembly file
                                            S, N blocks per iteration

AEGIS's message loops are found by `aegis_loops` (one row per variant, in
cycles per 16 bytes of message).

ASM is the `--emit asm` output of the crate for aarch64 (scripts/
aarch64-model.sh builds it). The loops are found by themselves, with no line
numbers: in each function below, the loops that are one basic block (a label
and a branch back to it, no label between), and of those the one with the
most `aese` (the CTR loops) or `pmull` (the hash-only loop), with `eor3`
(the loops a CPU with FEAT_SHA3 runs) or without (the others). Two instances
of one function are AES-128 (fewer `aese`) and AES-256. Blocks per
iteration: `aese` / 10 or / 14, or for the hash-only loop the bytes of a
group (`GROUP` in src/backend/aarch64/ctr.rs) / 16.
"""

import re
import subprocess
import sys

CPUS = ["neoverse-n1", "neoverse-n2", "neoverse-v1", "neoverse-v2"]
ITERATIONS = 200
# A loop may get this much slower in the model than the committed figure.
TOLERANCE = 1.03

# (name, function-name fragment, what selects the loop, which instance, which
# path: "plain" for the loops without FEAT_SHA3's EOR3, "eor3" for the loops
# a CPU with it runs; the CTR-only and hash-only loops have one path)
LOOPS = [
    ("gcm_seal_aes128", "7aarch643gcm4seal", "aese", 0, "plain"),
    ("gcm_seal_aes256", "7aarch643gcm4seal", "aese", 1, "plain"),
    ("gcm_open_aes128", "7aarch643gcm4open", "aese", 0, "plain"),
    ("gcm_open_aes256", "7aarch643gcm4open", "aese", 1, "plain"),
    ("siv_open_aes128", "7aarch643siv4open", "aese", 0, "plain"),
    ("siv_open_aes256", "7aarch643siv4open", "aese", 1, "plain"),
    ("gcm_seal_aes128_eor3", "7aarch643gcm4seal", "aese", 0, "eor3"),
    ("gcm_seal_aes256_eor3", "7aarch643gcm4seal", "aese", 1, "eor3"),
    ("gcm_open_aes128_eor3", "7aarch643gcm4open", "aese", 0, "eor3"),
    ("gcm_open_aes256_eor3", "7aarch643gcm4open", "aese", 1, "eor3"),
    ("siv_open_aes128_eor3", "7aarch643siv4open", "aese", 0, "eor3"),
    ("siv_open_aes256_eor3", "7aarch643siv4open", "aese", 1, "eor3"),
    ("siv_seal_ctr_aes128", "7aarch643siv4seal", "aese", 0, "plain"),
    ("siv_seal_ctr_aes256", "7aarch643siv4seal", "aese", 1, "plain"),
    ("siv_seal_polyval", "7aarch643ctr10hash_input", "pmull", 0, "plain"),
]


def mnemonic(line):
    return line.split()[0]


def instructions(lines):
    """The instruction lines of `lines` (no labels, directives or comments)."""
    return [
        x.split("//")[0].rstrip()
        for x in lines
        if re.match(r"^\s+[a-z]", x) and not x.strip().startswith(".")
    ]


def functions(text):
    """Function name -> its lines, for every mangled function in the file."""
    out, cur = {}, None
    for line in text.split("\n"):
        m = re.match(r"^(_ZN[^:]+):\s*$", line)
        if m:
            cur = m.group(1)
            out[cur] = []
            continue
        if cur is not None:
            out[cur].append(line)
            if line.strip().startswith(".cfi_endproc"):
                cur = None
    return out


def single_block_loops(lines):
    """Bodies of the loops that are one basic block: a label, no other label,
    a branch back to the first."""
    labels = {}
    for i, line in enumerate(lines):
        m = re.match(r"^(\.LBB\w+):", line)
        if m:
            labels[m.group(1)] = i
    loops = []
    for i, line in enumerate(lines):
        m = re.match(r"^\s+(b\.\w+|cbnz|cbz|b|tbnz|tbz)\s+.*?(\.LBB\w+)\s*$", line)
        if m and m.group(2) in labels and labels[m.group(2)] < i:
            body = lines[labels[m.group(2)] + 1 : i + 1]
            if not any(re.match(r"^\.LBB\w+:", x) for x in body):
                loops.append(instructions(body))
    return loops


def count(body, prefix):
    return sum(1 for x in body if mnemonic(x).startswith(prefix))


def mca_cycles(body, cpu, fused):
    """llvm-mca-19's cycles per iteration of `body` on `cpu`."""
    if fused:
        body = [x for x in body if mnemonic(x) != "aesmc"]
    result = subprocess.run(
        [
            "llvm-mca-19",
            "-mtriple=aarch64",
            f"-mcpu={cpu}",
            "-mattr=+aes,+sha3",
            f"-iterations={ITERATIONS}",
        ],
        input="\n".join(body) + "\n",
        capture_output=True,
        text=True,
    )
    m = re.search(r"Total Cycles:\s+(\d+)", result.stdout)
    if not m:
        sys.exit(f"aarch64-model: llvm-mca-19 failed:\n{result.stderr[:2000]}")
    return int(m.group(1)) / ITERATIONS


def figures(body, blocks):
    """{cpu: (as emitted, fused)} in cycles per block."""
    return {
        cpu: (mca_cycles(body, cpu, False) / blocks, mca_cycles(body, cpu, True) / blocks)
        for cpu in CPUS
    }


def our_loops(asm_path):
    funcs = functions(open(asm_path).read())
    rows = []
    for name, fragment, key, instance, path in LOOPS:
        candidates = []
        for fname, lines in funcs.items():
            if fragment not in fname:
                continue
            # The EOR3 and plain loops of a function: told apart by `eor3`.
            loops = [b for b in single_block_loops(lines) if (count(b, "eor3") > 0) == (path == "eor3")]
            if not loops:
                continue
            best = max(loops, key=lambda b: count(b, key))
            if count(best, key) > 0:
                candidates.append(best)
        candidates.sort(key=lambda b: count(b, "aese"))
        if len(candidates) <= instance:
            sys.exit(f"aarch64-model: no loop found for {name} ({fragment})")
        body = candidates[instance]
        aese, pmull = count(body, "aese"), count(body, "pmull")
        if key == "aese":
            rounds = 10 if instance == 0 else 14
            if aese % rounds:
                sys.exit(f"aarch64-model: {name}: {aese} aese is not a whole number of AES-{128 if rounds == 10 else 256} blocks")
            blocks = aese // rounds
        else:
            blocks = group_bytes() // 16
        rows.append((name, blocks, aese, pmull, count(body, "eor"), len(body), figures(body, blocks)))
    return rows + aegis_loops(funcs)


# AEGIS: the AES rounds of one update (one per state word and lane) name
# the variant; an update takes 32·D bytes (128 family) or 16·D (256).
AEGIS_UPDATES = {
    8: ("aegis128l", 2), 16: ("aegis128x2", 4), 32: ("aegis128x4", 8),
    6: ("aegis256", 1), 12: ("aegis256x2", 2), 24: ("aegis256x4", 4),
}


def aegis_loops(funcs):
    """AEGIS's message loops (`backend::aegis::seal_or_open` in the ARMv8
    kernel `aarch64::aegis::aegis`, every instance: seal and open, both tag
    lengths, each with its plain and its EOR3 loops): per variant and path
    the slowest instance, in cycles per 16 bytes; the EOR3 rows are named
    `…_eor3` (none for the X4 variants, which have one path:
    src/backend/aarch64/aegis.rs says why). In each instance and path the
    message loop is the one-block loop, of those whose `aese` count is one
    update's, with the most stores (the associated-data loop stores
    nothing; the X4 loops also spill)."""
    found = {}
    for fname, lines in funcs.items():
        if "7aarch645aegis5aegis" not in fname:
            continue
        for suffix in ("", "_eor3"):
            loops = [
                b for b in single_block_loops(lines)
                if count(b, "aese") in AEGIS_UPDATES
                and (count(b, "eor3") > 0) == (suffix == "_eor3")
            ]
            if not loops:
                continue
            updates = min(count(b, "aese") for b in loops)
            body = max((b for b in loops if count(b, "aese") == updates), key=lambda b: count(b, "st"))
            variant, blocks = AEGIS_UPDATES[updates]
            name = variant + suffix
            f = figures(body, blocks)
            row = (name, blocks, count(body, "aese"), 0, count(body, "eor"), len(body), f)
            if name not in found or f["neoverse-n1"][0] > found[name][6]["neoverse-n1"][0]:
                found[name] = row
    names = [n for n, _ in AEGIS_UPDATES.values()]
    names += [n + "_eor3" for n, _ in AEGIS_UPDATES.values() if "x4" not in n]
    missing = [n for n in names if n not in found]
    if missing:
        sys.exit(f"aarch64-model: no AEGIS message loop found for {', '.join(missing)}")
    return [found[n] for n in names]


def group_bytes():
    """`GROUP`, the bytes the aarch64 hash loops take per iteration."""
    m = re.search(r"const GROUP: usize = (\d+);", open("src/backend/aarch64/ctr.rs").read())
    if not m:
        sys.exit("aarch64-model: GROUP not found in src/backend/aarch64/ctr.rs")
    return int(m.group(1))


def decode_inst(word):
    """The instruction a `.inst 0x...` directive encodes, disassembled by
    llvm-mc-19: the reference kernels spell EOR3 that way (for assemblers
    without FEAT_SHA3), and llvm-mca skips directives, so without this their
    EOR3s would cost nothing in the model."""
    data = " ".join(f"0x{b:02x}" for b in int(word, 16).to_bytes(4, "little"))
    out = subprocess.run(
        ["llvm-mc-19", "--disassemble", "-triple=aarch64", "-mattr=+aes,+sha3"],
        input=data, capture_output=True, text=True,
    ).stdout
    lines = [x.strip() for x in out.split("\n") if x.strip() and not x.strip().startswith(".")]
    if not lines:
        sys.exit(f"aarch64-model: llvm-mc-19 could not decode .inst {word}")
    return "\t" + lines[0]


def reference_loop(path, label, blocks):
    lines = open(path).read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith(label + ":"))
    end = next(
        i for i in range(start + 1, len(lines))
        if re.match(rf"^\s+b\.\w+\s+{re.escape(label)}\b", lines[i])
    )
    body = []
    for line in lines[start + 1 : end + 1]:
        m = re.match(r"^\s*\.inst\s+(0x[0-9a-fA-F]+)", line)
        body += [decode_inst(m.group(1))] if m else instructions([line])
    return figures(body, blocks)


def print_table(rows):
    head = "loop                  blocks aese pmull  eor  insns" + "".join(
        f"  {cpu[9:].upper():>11}" for cpu in CPUS
    )
    print(head)
    print("(cycles per block, as emitted / aese+aesmc fused)")
    for name, blocks, aese, pmull, eor, n, f in rows:
        cells = "".join(f"  {f[c][0]:5.2f}/{f[c][1]:5.2f}" for c in CPUS)
        print(f"{name:22} {blocks:5} {aese:4} {pmull:5} {eor:4} {n:6}{cells}")


def read_figures(path):
    out = {}
    for line in open(path):
        line = line.split("#")[0].strip()
        if not line:
            continue
        name, *values = line.split()
        out[name] = [float(v) for v in values]
    return out


def main():
    args = sys.argv[1:]
    if args and args[0] == "--reference":
        path, label, blocks = args[1], args[2], int(args[3])
        f = reference_loop(path, label, blocks)
        print(f"{label}: " + "  ".join(f"{c[9:].upper()} {f[c][0]:.2f}/{f[c][1]:.2f}" for c in CPUS))
        return
    rows = our_loops(args[0])
    print_table(rows)
    if len(args) == 3 and args[1] == "--write":
        with open(args[2], "w") as out:
            out.write("# scripts/aarch64-model.sh --write: modelled cycles per block of the ARMv8\n")
            out.write("# tier's loops, as emitted and fused, per core: " + " ".join(CPUS) + "\n")
            for name, _, _, _, _, _, f in rows:
                out.write(name + "".join(f" {f[c][0]:.2f} {f[c][1]:.2f}" for c in CPUS) + "\n")
        print(f"wrote {args[2]}")
    elif len(args) == 3 and args[1] == "--check":
        committed = read_figures(args[2])
        failures = []
        for name, _, _, _, _, _, f in rows:
            if name not in committed:
                failures.append(f"{name}: not in {args[2]}")
                continue
            now = [v for c in CPUS for v in f[c]]
            for (cpu_i, was), is_ in zip(enumerate(committed[name]), now):
                if is_ > was * TOLERANCE:
                    cpu = CPUS[cpu_i // 2][9:].upper()
                    kind = "fused" if cpu_i % 2 else "as emitted"
                    failures.append(f"{name} on {cpu} ({kind}): {is_:.2f} cycles per block, committed {was:.2f}")
        if failures:
            print("aarch64-model: slower than the committed figures (more than 3 %):")
            for f in failures:
                print("  " + f)
            sys.exit(1)
        print(f"aarch64-model: every loop within 3 % of {args[2]} or faster")


if __name__ == "__main__":
    main()
