#!/usr/bin/env python3
"""Per-kernel instruction counts of two builds of scripts/ct-probe, side by side.

    kernel_counts.py BEFORE.s AFTER.s [--tolerance 0.03]

BEFORE.s and AFTER.s are `objdump -d --no-show-raw-insn -C` of the probe built
with v0 symbol names (scripts/kernel-counts.sh makes both), each beside its
`objdump -R` as BEFORE.relocs and AFTER.relocs, which name the targets of
calls through the GOT (`call *slot(%rip)`: LLVM's call to a function that
the crate's rlib exports with default visibility). For every kernel
entry point that scripts/ct_check.py requires (the key schedules, each tier's
GCM and GCM-SIV seal and open for both key sizes, XAES's pieces) it prints, in
each build, the instructions of the entry point and of every crate function it
reaches by calls (what a call runs, wherever LLVM drew the function
boundaries), and among them the AES rounds and carry-less multiplies.

After the table, the stitched group loops of the functions that run them
(`LOOP_FUNCS`: a backward jump whose body, under 700 instructions, holds at
least 40 AES rounds and 10 multiplies): each loop's instructions from its
target to the jump, and how many of them touch the stack (`rsp`), in each
build. A loop with two back edges (LLVM's copy for the counter's carry, or
a branch laid out after the loop that jumps back) shows twice, and a
backward jump over straight-line code (a path LLVM laid out after the code
it returns to) can pass for a loop: read the sizes beside the source. GCM-SIV
seal hashes and encrypts in separate passes, so it has no stitched loop. These are the
loop figures that docs/design.md's loop sections and the measurement tables
under docs/measurements/ quote (`objdump -d` of the probe).

A refactoring that should change no kernel keeps every entry point's AES
and multiply counts and its instruction count within the tolerance; the script exits 1 where one does not, or where an
entry point is missing from either build. It proves the machine code's size
and instruction mix, not its speed: `bench/examples/compare` alternated does that.
"""

import re
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from ct_check import AES_ANY, CLMUL, FUNC_RE, INSN_RE, REQUIRED  # noqa: E402

CRATE = "hardware_aead::"
CALL = re.compile(r"^call\s+[0-9a-f]+ <(.*)>$")
GOT_CALL = re.compile(r"^call\s+\*0x[0-9a-f]+\(%rip\)\s+#\s+([0-9a-f]+)")
RELATIVE = re.compile(r"^([0-9a-f]+)\s+R_X86_64_RELATIVE\s+\*ABS\*\+0x([0-9a-f]+)$")


def got_slots(path):
    """GOT slot address -> the address its RELATIVE relocation stores."""
    slots = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = RELATIVE.match(line.strip())
            if m:
                slots[int(m.group(1), 16)] = int(m.group(2), 16)
    return slots


def functions(path):
    """Function name -> (instruction count, aes, clmul, names it calls)."""
    out, cur, starts, got_calls = {}, None, {}, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = FUNC_RE.match(line.rstrip("\n"))
            if m:
                cur = [0, 0, 0, set()]
                out[m.group(2)] = cur
                starts[int(m.group(1), 16)] = m.group(2)
                continue
            m = INSN_RE.match(line.rstrip("\n")) if cur is not None else None
            if not m:
                continue
            body = m.group(2).strip()
            if not body or body.startswith("(bad)"):
                continue
            mnemonic = body.split()[0]
            cur[0] += 1
            cur[1] += bool(AES_ANY.match(mnemonic))
            cur[2] += bool(CLMUL.match(mnemonic))
            c = CALL.match(body)
            if c and c.group(1).startswith(CRATE):
                cur[3].add(c.group(1))
            g = GOT_CALL.match(body)
            if g:
                got_calls.append((cur, int(g.group(1), 16)))
    slots = got_slots(path[: -len(".s")] + ".relocs")
    for caller, slot in got_calls:
        name = starts.get(slots.get(slot, -1), "")
        if name.startswith(CRATE):
            caller[3].add(name)
    return out


JUMP = re.compile(r"^j\w+\s+([0-9a-f]+) <")
LOOP_FUNCS = re.compile(r"gcm_groups|siv_open::|aesni::gcm::(seal|open)::|siv::open::")


def stitched_loops(path):
    """Function name -> [(instructions, stack accesses)] of its group loops."""
    bodies, cur = {}, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = FUNC_RE.match(line.rstrip("\n"))
            if m:
                cur = bodies.setdefault(m.group(2), [])
                continue
            m = INSN_RE.match(line.rstrip("\n")) if cur is not None else None
            if m and m.group(2).strip():
                cur.append((int(m.group(1), 16), m.group(2).strip()))
    out = {}
    for name, insns in bodies.items():
        if not LOOP_FUNCS.search(name):
            continue
        index = {addr: i for i, (addr, _) in enumerate(insns)}
        for i, (addr, body) in enumerate(insns):
            j = JUMP.match(body)
            target = int(j.group(1), 16) if j else None
            if target is None or target >= addr or target not in index:
                continue
            loop = [b for _, b in insns[index[target] : i + 1]]
            aes = sum(bool(AES_ANY.match(b.split()[0])) for b in loop)
            clmul = sum(bool(CLMUL.match(b.split()[0])) for b in loop)
            if aes >= 40 and clmul >= 10 and len(loop) < 700:
                out.setdefault(name, []).append((len(loop), sum("rsp" in b for b in loop)))
    return out


def reach(funcs, root):
    """(instructions, aes, clmul, functions) over `root` and what it calls."""
    seen, todo = set(), [root]
    while todo:
        f = todo.pop()
        if f in seen or f not in funcs:
            continue
        seen.add(f)
        todo.extend(funcs[f][3])
    return (
        sum(funcs[f][0] for f in seen),
        sum(funcs[f][1] for f in seen),
        sum(funcs[f][2] for f in seen),
        len(seen),
    )


def entry_points(funcs):
    """name -> the entry points ct_check.py requires, as found in `funcs`."""
    found = {}
    for pattern, why in REQUIRED:
        for name in funcs:
            if name.startswith(CRATE) and re.search(pattern, name):
                found[name] = why
    return found


def main():
    args = sys.argv[1:]
    tolerance = 0.03
    if "--tolerance" in args:
        i = args.index("--tolerance")
        tolerance = float(args[i + 1])
        del args[i : i + 2]
    before, after = functions(args[0]), functions(args[1])
    names = sorted(set(entry_points(before)) | set(entry_points(after)))
    bad = 0
    print(f"{'entry point':<72} {'insns before':>12} {'after':>7} {'ratio':>6}  aes b/a   clmul b/a")
    for name in names:
        short = name[len(CRATE):]
        if name not in before or name not in after:
            print(f"{short:<72} missing from the {'before' if name not in before else 'after'} build")
            bad += 1
            continue
        b, a = reach(before, name), reach(after, name)
        ratio = a[0] / b[0]
        flag = ""
        if b[1] != a[1] or b[2] != a[2] or abs(ratio - 1) > tolerance:
            flag = "  <-- changed"
            bad += 1
        print(f"{short:<72} {b[0]:>12} {a[0]:>7} {ratio:>6.3f}  {b[1]:>3}/{a[1]:<3}  {b[2]:>3}/{a[2]:<3}{flag}")
    total_b = sum(reach(before, n)[0] for n in names if n in before)
    total_a = sum(reach(after, n)[0] for n in names if n in after)
    print(f"{'all entry points (a function reached from two counts twice)':<72} {total_b:>12} {total_a:>7} {total_a / max(total_b, 1):>6.3f}")
    loops_b, loops_a = stitched_loops(args[0]), stitched_loops(args[1])
    print("\nstitched group loops: instructions/stack accesses, before -> after")
    for name in sorted(set(loops_b) | set(loops_a)):
        if not name.startswith(CRATE):
            continue
        fmt = lambda loops: " ".join(f"{n}/{s}" for n, s in loops) or "none"  # noqa: E731
        print(f"  {name[len(CRATE):]:<70} {fmt(loops_b.get(name, []))} -> {fmt(loops_a.get(name, []))}")
    if bad:
        print(f"kernel-counts: {bad} entry point(s) changed beyond ±{tolerance:.0%} or in their AES/multiply count")
        sys.exit(1)
    print(f"kernel-counts: every entry point within ±{tolerance:.0%}, AES and multiply counts unchanged")


if __name__ == "__main__":
    main()
