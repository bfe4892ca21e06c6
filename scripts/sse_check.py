#!/usr/bin/env python3
"""Finds legacy-SSE instructions that run after wide (ymm/zmm) code.

Reads `objdump -d -M intel --no-show-raw-insn -C` output and, in every
function, follows the upper-state of the vector registers along the control
flow: an instruction that names a ymm or zmm register leaves it dirty,
`vzeroupper` and `vzeroall` clean it, and every function starts clean (the
calling convention LLVM keeps: it cleans the state before each call and
return). A finding is

  - a non-VEX instruction with an xmm operand (SSE, AES-NI, PCLMULQDQ in
    their legacy encodings) that can execute while the state is dirty: on
    Intel cores and on Zen 3 each one then pays a merge or a state
    transition, microseconds per call for a run of them;
  - a `call`, or a jump out of the function (a tail call), that can execute
    while the state is dirty (the callee may be legacy-SSE code; LLVM itself
    never emits one).

The walk is a data-flow over the function's instructions: direct jumps and
branches go to their targets, an indirect jump to every instruction of the
function (a conservative guess at its jump table) as well as out of it,
`ret`, `ud2` and a jump out of the function end their path. Exit status 1 if anything is found, 0 otherwise.

    sse_check.py DISASSEMBLY [--only SUBSTRING] [--require SUBSTRING ...]
    sse_check.py --selftest

`--only` limits the report to functions whose demangled name contains the
substring (all functions are walked); `--require` fails unless some walked
function's name contains it, so that a build which lost the wide code cannot
pass by having nothing to check.
"""

import argparse
import re
import sys

FUNC_RE = re.compile(r"^([0-9a-f]+) <(.*)>:$")
INSN_RE = re.compile(r"^\s*([0-9a-f]+):\s+(.*)$")
WIDE_RE = re.compile(r"\b[yz]mm\d+\b")
XMM_RE = re.compile(r"\bxmm\d+\b")
TARGET_RE = re.compile(r"^([0-9a-f]+)\b")
PREFIXES = {"rep", "repz", "repe", "repnz", "repne", "lock", "notrack", "bnd", "data16", "cs", "ds"}


def parse(lines):
    """Yields (name, [(address, mnemonic, operands, text)]) per function."""
    name, insns = None, []
    for line in lines:
        line = line.rstrip("\n")
        m = FUNC_RE.match(line)
        if m:
            if name is not None:
                yield name, insns
            name, insns = m.group(2), []
            continue
        m = INSN_RE.match(line)
        if not m or name is None:
            continue
        text = m.group(2).split("#")[0].strip()
        words = text.split(None, 1)
        # Prefixes, and objdump's encoding marks ({evex}, {vex}: not legacy).
        while words and (words[0] in PREFIXES or words[0].startswith("{")):
            words = words[1].split(None, 1) if len(words) > 1 else []
        if not words:
            continue
        mnemonic = words[0]
        operands = words[1] if len(words) > 1 else ""
        insns.append((int(m.group(1), 16), mnemonic, operands, text))
    if name is not None:
        yield name, insns


def is_legacy_sse(mnemonic, operands):
    return not mnemonic.startswith("v") and XMM_RE.search(operands) is not None


def walk(insns):
    """The findings of one function: (address, text, why). The state is None
    when clean, else the address of a wide instruction that dirtied it."""
    if not insns:
        return []
    index = {addr: i for i, (addr, _, _, _) in enumerate(insns)}
    n = len(insns)
    dirty_in = [None] * n
    seen = [False] * n
    leaves = [False] * n
    work = [(0, None)]
    while work:
        i, dirty = work.pop()
        if seen[i] and (dirty_in[i] is not None or dirty is None):
            continue
        seen[i] = True
        if dirty_in[i] is None:
            dirty_in[i] = dirty
        addr, mnemonic, operands, _ = insns[i]
        out = dirty_in[i]
        if mnemonic in ("vzeroupper", "vzeroall"):
            out = None
        elif WIDE_RE.search(operands):
            out = addr
        succ = []
        leaves[i] = False
        if mnemonic.startswith("ret") or mnemonic == "ud2":
            pass
        elif mnemonic.startswith("j"):
            t = TARGET_RE.match(operands)
            if t and int(t.group(1), 16) in index:
                succ.append(index[int(t.group(1), 16)])
            elif t:
                leaves[i] = True  # a tail call
            else:
                leaves[i] = True  # indirect: anywhere in the function, or out
                succ.extend(range(n))
            if mnemonic != "jmp" and i + 1 < n:
                succ.append(i + 1)
        elif i + 1 < n:
            succ.append(i + 1)
        for s in succ:
            if not seen[s] or (out is not None and dirty_in[s] is None):
                work.append((s, out))
    found = []
    for i, (addr, mnemonic, operands, text) in enumerate(insns):
        since = dirty_in[i]
        if since is None:
            continue
        if is_legacy_sse(mnemonic, operands):
            found.append((addr, text, f"legacy SSE after wide code at {since:x}"))
        elif mnemonic.startswith("call") or leaves[i]:
            found.append((addr, text, f"call or tail jump with the upper state dirty since {since:x}"))
    return found


def check(lines, only=None, require=()):
    """Prints the findings; returns (findings, functions walked, wide functions)."""
    total, walked, wide = 0, 0, []
    for name, insns in parse(lines):
        walked += 1
        where = f"{name} at {insns[0][0]:x}" if insns else name
        if any(WIDE_RE.search(op) for _, _, op, _ in insns):
            wide.append(name)
        found = walk(insns)
        if not found or (only and only not in name):
            continue
        total += len(found)
        print(f"{where}: {len(found)} finding(s)")
        for addr, text, why in found[:8]:
            print(f"    {addr:x}: {text}    ({why})")
        if len(found) > 8:
            print(f"    ... {len(found) - 8} more")
    missing = [r for r in require if not any(r in w for w in wide)]
    return total, walked, wide, missing


SELFTEST = """
0000000000001000 <bad_after_ymm>:
    1000:	vpxor  ymm0,ymm0,ymm1
    1004:	aesenc xmm2,xmm3
    1008:	ret
0000000000002000 <good_after_vzeroupper>:
    2000:	vpxor  ymm0,ymm0,ymm1
    2004:	vzeroupper
    2007:	aesenc xmm2,xmm3
    200b:	ret
0000000000003000 <bad_through_branch>:
    3000:	test   eax,eax
    3002:	je     3010 <bad_through_branch+0x10>
    3004:	vmovdqu ymm0,YMMWORD PTR [rdi]
    3008:	jmp    3014 <bad_through_branch+0x14>
    3010:	vzeroupper
    3013:	nop
    3014:	pclmulqdq xmm0,xmm1,0x0
    301a:	ret
0000000000004000 <good_vex_xmm>:
    4000:	vmovdqu ymm0,YMMWORD PTR [rdi]
    4004:	vaesenc xmm0,xmm0,xmm1
    4008:	vzeroupper
    400b:	ret
0000000000005000 <bad_call_dirty>:
    5000:	vmovdqu zmm0,ZMMWORD PTR [rdi]
    5006:	call   6000 <callee>
    500b:	ret
0000000000007000 <bad_backward_loop>:
    7000:	movdqu xmm0,XMMWORD PTR [rdi]
    7004:	vmovdqu ymm1,YMMWORD PTR [rsi]
    7008:	dec    ecx
    700a:	jne    7000 <bad_backward_loop>
    700c:	vzeroupper
    700f:	ret
0000000000009000 <bad_tail_jump_dirty>:
    9000:	vmovdqu ymm0,YMMWORD PTR [rdi]
    9004:	jmp    6000 <callee>
0000000000008000 <good_legacy_only>:
    8000:	movdqu xmm0,XMMWORD PTR [rdi]
    8004:	aesenc xmm0,xmm1
    8008:	ret
"""


def selftest():
    bad = {"bad_after_ymm", "bad_through_branch", "bad_call_dirty", "bad_backward_loop",
           "bad_tail_jump_dirty"}
    flagged = {name for name, insns in parse(SELFTEST.splitlines()) if walk(insns)}
    if flagged != bad:
        print(f"sse-check self-test FAILED: flagged {sorted(flagged)}, expected {sorted(bad)}")
        return 1
    print(f"sse-check self-test: the {len(bad)} bad functions flagged, the 3 good ones not")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("disassembly", nargs="?")
    ap.add_argument("--only")
    ap.add_argument("--require", action="append", default=[])
    ap.add_argument("--selftest", action="store_true")
    args = ap.parse_args()
    if args.selftest:
        return selftest()
    with open(args.disassembly) as f:
        total, walked, wide, missing = check(f, args.only, args.require)
    print(f"{walked} functions walked, {len(wide)} with ymm/zmm code, {total} finding(s)")
    if missing:
        print(f"no wide code found in a function named like: {', '.join(missing)}")
        return 1
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
