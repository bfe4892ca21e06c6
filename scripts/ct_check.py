#!/usr/bin/env python3
"""Constant-time check of hardware-aead's emitted x86_64 code.

Reads `objdump -d -l --no-show-raw-insn -C` output of a release binary built
with v0 symbol mangling (scripts/ct-check.sh makes one), picks out the hot
functions, and runs a small taint analysis over each one's control-flow graph:

* Every vector register loaded from memory holds secret data (keys, H powers,
  plaintext, keystream, tags): SECRET. Loads from RIP-relative addresses are
  compile-time constants: PUBLIC.
* General-purpose registers start PUBLIC (arguments: pointers, lengths, the
  J0 / nonce / length blocks, which are public). A 64-bit load from memory
  into one is LOADED: a pointer or a length field (or 8 bytes of data being
  copied); a narrower load is NARROW (a byte of data being copied). LOADED
  may steer branches and addresses; NARROW may steer neither; both become
  SECRET as soon as they enter a vector register.
* Taint flows through every instruction to its destination, through stack
  spills and reloads (tracked byte by byte, flow-sensitively; the low byte of
  a general register on its own), and through the flags.

It then fails on:

* a conditional branch whose flags are SECRET or NARROW; in each key type's
  `open_core`, where the tag compare is inlined (the decision policy: what a
  call returns, in registers or in the frame, is SECRET, and loads from
  memory are pointers, lengths and the key's tier), any number of SECRET
  branches other than exactly one, the accept/reject decision;
* a memory access whose base or index register is SECRET or NARROW (a table
  lookup);
* a gather, a division by SECRET data, an indirect jump or call through a
  SECRET register, a `rep` string operation with a SECRET count;
* a `pshufb`/`vpshufb` whose mask is not a compile-time constant;
* a permute whose index operand (`vpermb`, `vpermt2*`, `vpermi2*`, ...) is
  not a compile-time constant (the test of a `pshufb` mask), which the
  analysis does not model: it is refused so that a reviewer looks at it;
* a hot function that is missing from the binary.

It lists every conditional branch with its level and source line, and every
final AES round separated from its rounds by a (public) branch.

Limits (also in docs/constant-time.md): it is a heuristic over one compiled
binary, not a proof. Memory other than the stack is not modelled (a value
stored to the heap and reloaded takes the load policy); a 64-bit load into a
general register is assumed to be a pointer or a length unless it reaches a
vector register; stack memory reached through a register that does not
visibly point into the frame is not tracked; the instructions' timing is the
CPU vendor's promise (AES-NI, PCLMULQDQ, VAES and VPCLMULQDQ are documented
as data-independent), not something this script can check.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass

# Levels of the analysis, in increasing order:
# PUBLIC  constants, arguments, and arithmetic on them;
# LOADED  a 64-bit general-register load from memory: a pointer or a length
#         (or 8 bytes of a tail copy); may steer branches and addresses;
# NARROW  a narrower general-register load from memory: a byte of data being
#         copied; may steer a branch only as far as LOADED may (see the docs),
#         never an address;
# MEM     (frame bytes only) written by a callee: reloads take the load policy;
# SECRET  anything that came out of a vector register.
PUBLIC, LOADED, NARROW, MEM, SECRET = 0, 1, 2, 3, 4
LEVEL_NAME = {PUBLIC: "public", LOADED: "loaded", NARROW: "narrow", MEM: "memory",
              SECRET: "SECRET"}

# ---------------------------------------------------------------------------
# Which functions are hot, and which must be present.
# ---------------------------------------------------------------------------

KERNEL_PREFIX = "hardware_aead::backend::x86_64::"
# Each key type's `Core::open_core`: the kernel's call, then the tag
# compare (`tags_match_or_wipe`, inlined) and its one decision.
DECISION = re.compile(r"^<hardware_aead::[\w:]+(<\d+>)? as hardware_aead::aead::sealed::Core>::open_core$")

# (pattern, why): each must match at least one function in the binary.
REQUIRED = [
    (r"::aes::expand::<11, 16>$", "AES-128 key schedule"),
    (r"::aes::expand::<15, 32>$", "AES-256 key schedule"),
    (r"::aesni::gcm::init_key::<11, 16>$", "AES-128 schedule and GHASH key powers"),
    (r"::aesni::gcm::init_key::<15, 32>$", "AES-256 schedule and GHASH key powers"),
    (r"::ctr::hash_padded::<true>$", "GHASH over the AAD"),
    (r"::ctr::hash_input::<false>$", "POLYVAL over the plaintext"),
    (r"::xaes::cmac_subkey$", "XAES-256-GCM: CMAC subkey K1 at key setup"),
    (r"::xaes::derive_key::<false>$", "XAES-256-GCM: per-message KDF, key schedule and GHASH powers"),
    (r"::xaes::derive_key::<true>$", "KC-XAES-256-GCM: the same with the key commitment"),
    (r"::xaes::gcm_short::<true, false>$", "XAES-256-GCM: short-message seal, derived key in registers"),
    (r"::xaes::gcm_short::<false, false>$", "XAES-256-GCM: short-message open, derived key in registers"),
    (r"::xaes::gcm_short::<true, true>$", "KC-XAES-256-GCM: short-message seal with the commitment"),
    (r"::xaes::gcm_short::<false, true>$", "KC-XAES-256-GCM: short-message open with the commitment"),
]
# The decisions: every key type's `open_core` (kept out of line by
# `#[inline(never)]` so that each can be checked on its own), tags of 16,
# 32 and 48 bytes.
KEY_TYPES = ["aes_gcm::Aes128Gcm", "aes_gcm::Aes256Gcm", "aes_gcm_siv::Aes128GcmSiv",
             "aes_gcm_siv::Aes256GcmSiv", "xaes_gcm::Xaes256Gcm", "xaes_gcm::KcXaes256Gcm"]
for _v in ("128L", "256", "128X2", "128X4", "256X2", "256X4"):
    for _t in ("16", "32"):
        KEY_TYPES.append(f"aegis::Aegis{_v}<{_t}>")
DECISION_INSTANCES = [f"<hardware_aead::{t} as hardware_aead::aead::sealed::Core>::open_core"
                      for t in KEY_TYPES]
# AEGIS: each tier's kernel, seal and open (generic over the variant; at
# least one instance of each).
for _tier in ("x86_64::aegis", "vaes::avx2", "vaes::avx512"):
    for _seal in ("true", "false"):
        REQUIRED.append((rf"::{_tier}::aegis::<{_seal}, ", f"AEGIS seal={_seal}, {_tier}"))
for _nk in ("11", "15"):
    for _f in ("seal", "open"):
        REQUIRED.append((rf"::aesni::gcm::{_f}::<{_nk}>$", f"AES-GCM {_f}, AES-NI tier"))
        REQUIRED.append((rf"::siv::{_f}::<{_nk}>$", f"AES-GCM-SIV {_f}, AES-NI tier"))
        for _tier in ("vaes::avx2", "vaes::avx512"):
            REQUIRED.append((rf"::{_tier}::siv_{_f}::<{_nk}>$", f"AES-GCM-SIV {_f}, {_tier}"))
        REQUIRED.append((rf"::vaes::avx2::{_f}::<{_nk}>$", f"AES-GCM {_f}, vaes::avx2"))
        # AVX-512: the entry points are inlined shims; a short message runs the
        # leaf `xmm_seal` or `xmm_open` (one instance for up to 16 bytes of
        # AAD, one for 17 to 32), any other `gcm_wide`.
        _seal = 'true' if _f == 'seal' else 'false'
        REQUIRED.append((rf"::vaes::avx512::gcm_wide::<{_nk}, {_seal}>$", f"AES-GCM {_f}, vaes::avx512"))
        for _long in ("false", "true"):
            REQUIRED.append((rf"::vaes::avx512::xmm_{_f}::<{_nk}, {_long}>$",
                             f"AES-GCM short {_f} (long AAD: {_long}), vaes::avx512"))

# ---------------------------------------------------------------------------
# Registers and operands.
# ---------------------------------------------------------------------------

_GPR_FAMILY = {}
for _r in ("a", "b", "c", "d"):
    for _name, _w in ((f"r{_r}x", 8), (f"e{_r}x", 4), (f"{_r}x", 2), (f"{_r}l", 1), (f"{_r}h", 1)):
        _GPR_FAMILY[_name] = (f"r{_r}x", _w)
for _r in ("si", "di", "bp", "sp"):
    for _name, _w in ((f"r{_r}", 8), (f"e{_r}", 4), (_r, 2), (f"{_r}l", 1)):
        _GPR_FAMILY[_name] = (f"r{_r}", _w)
for _n in range(8, 16):
    for _name, _w in ((f"r{_n}", 8), (f"r{_n}d", 4), (f"r{_n}w", 2), (f"r{_n}b", 1)):
        _GPR_FAMILY[_name] = (f"r{_n}", _w)

# How far past a frame address passed to a callee the callee is assumed to
# write (the largest object the kernels pass by reference is 400 bytes).
CALLEE_WRITE_SPAN = 512

CALLER_SAVED = ["rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11"]
VEC_RE = re.compile(r"^([xyz])mm(\d+)$")
VEC_WIDTH = {"x": 16, "y": 32, "z": 64}


@dataclass
class Reg:
    family: str  # "rax", "v3" (xmm3/ymm3/zmm3), "k1"
    width: int  # bytes
    vector: bool  # vector or mask register
    high_byte: bool = False  # ah, bh, ch, dh

    def __str__(self) -> str:
        return self.family


@dataclass
class Mem:
    text: str
    seg: str | None
    disp: int
    base: str | None  # register family or "rip"
    index: str | None
    broadcast: bool = False


def parse_reg(name: str) -> Reg | None:
    if name in _GPR_FAMILY:
        fam, w = _GPR_FAMILY[name]
        return Reg(fam, w, False, name in ("ah", "bh", "ch", "dh"))
    m = VEC_RE.match(name)
    if m:
        return Reg("v" + m.group(2), VEC_WIDTH[m.group(1)], True)
    if re.match(r"^k[0-7]$", name):
        return Reg(name, 8, True)
    if name == "rip":
        return Reg("rip", 8, False)
    return None


MEM_RE = re.compile(
    r"^(?:%(?P<seg>[cdefgs]s):)?(?P<disp>-?(?:0x[0-9a-f]+|\d+))?"
    r"(?:\((?P<base>%\w+)?(?:,(?P<index>%\w+)(?:,(?P<scale>\d))?)?\))?$"
)


def split_operands(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


@dataclass
class Operand:
    kind: str  # "reg", "mem", "imm", "target"
    reg: Reg | None = None
    mem: Mem | None = None
    mask: str | None = None  # AVX-512 write/read mask family ("k1")
    zeroing: bool = False
    text: str = ""


def parse_operand(text: str) -> Operand:
    raw = text
    mask, zeroing, broadcast = None, False, False
    for deco in re.findall(r"\{([^}]*)\}", text):
        if deco.startswith("%k"):
            mask = deco[1:]
        elif deco == "z":
            zeroing = True
        elif deco.startswith("1to"):
            broadcast = True
    text = re.sub(r"\{[^}]*\}", "", text).strip()
    if text.startswith("$"):
        return Operand("imm", text=raw)
    if text.startswith("*"):
        inner = parse_operand(text[1:])
        inner.kind = "indirect-" + inner.kind
        inner.text = raw
        return inner
    if text.startswith("%") and "(" not in text and ":" not in text:
        r = parse_reg(text[1:])
        if r is None:
            return Operand("other", text=raw)
        return Operand("reg", reg=r, mask=mask, zeroing=zeroing, text=raw)
    m = MEM_RE.match(text)
    if m and (m.group("base") or m.group("index") or m.group("seg") or "(" in text):
        base = parse_reg(m.group("base")[1:]).family if m.group("base") else None
        index = parse_reg(m.group("index")[1:]).family if m.group("index") else None
        disp = int(m.group("disp"), 0) if m.group("disp") else 0
        return Operand(
            "mem",
            mem=Mem(raw, m.group("seg"), disp, base, index, broadcast),
            mask=mask,
            zeroing=zeroing,
            text=raw,
        )
    # Direct branch/call target: "38d20 <name+0x10>" or a bare address.
    return Operand("target", text=raw)


# ---------------------------------------------------------------------------
# Instructions.
# ---------------------------------------------------------------------------

PREFIXES = {"rep", "repz", "repe", "repnz", "repne", "lock", "notrack", "bnd", "data16", "addr32",
            "cs", "ds", "es", "ss", "fs", "gs", "rex", "rex.W", "rex.B", "rex.X", "rex.R"}


@dataclass
class Insn:
    addr: int
    mnemonic: str
    operands: list[Operand]
    text: str
    location: str
    rep: bool = False
    target: int | None = None  # direct branch target address
    callee: str | None = None  # name of a called function, when known


def parse_insn(addr: int, body: str, location: str) -> Insn:
    comment_addr = None
    if "#" in body:
        body, comment = body.split("#", 1)
        m = re.match(r"\s*([0-9a-f]+)\b", comment)
        if m:
            comment_addr = int(m.group(1), 16)
        body = body.strip()
    tokens = body.split(None, 1)
    rep = False
    while tokens and tokens[0] in PREFIXES:
        if tokens[0].startswith("rep"):
            rep = True
        tokens = tokens[1].split(None, 1) if len(tokens) > 1 else []
    if not tokens:
        return Insn(addr, "nop", [], body, location)
    mnemonic = tokens[0]
    ops_text = tokens[1] if len(tokens) > 1 else ""
    target = None
    if mnemonic.startswith("j") or mnemonic.startswith("call") or mnemonic.startswith("loop"):
        m = re.match(r"^([0-9a-f]+)\s+<", ops_text)
        if m:
            target = int(m.group(1), 16)
            insn = Insn(addr, mnemonic, [Operand("target", text=ops_text)], body, location, rep,
                        target)
            name = re.search(r"<(.*)>", ops_text)
            if mnemonic.startswith("call") and name:
                insn.callee = re.sub(r"\+0x[0-9a-f]+$", "", name.group(1))
            return insn
    operands = [parse_operand(t) for t in split_operands(ops_text)] if ops_text else []
    insn = Insn(addr, mnemonic, operands, body, location, rep, target)
    if mnemonic.startswith("call") and comment_addr is not None:
        insn.target = comment_addr  # the GOT slot of an indirect call; resolved later
        insn.callee = "@got"
    return insn


def strip_suffix(m: str, bases: set[str]) -> str | None:
    if m in bases:
        return m
    if m[-1:] in "bwlq" and m[:-1] in bases:
        return m[:-1]
    return None


FLAG_SETTERS = {
    "add", "sub", "adc", "sbb", "and", "or", "xor", "cmp", "test", "inc", "dec", "neg",
    "shl", "shr", "sal", "sar", "rol", "ror", "rcl", "rcr", "shld", "shrd", "imul", "mul",
    "div", "idiv", "bt", "bts", "btr", "btc", "bsf", "bsr", "lzcnt", "tzcnt", "popcnt",
    "andn", "bextr", "blsi", "blsr", "blsmsk", "bzhi", "cmpxchg", "xadd", "ptest", "vptest",
    "vtestps", "vtestpd", "ucomiss", "ucomisd", "comiss", "comisd", "vucomiss", "vucomisd",
    "vcomiss", "vcomisd", "kortestb", "kortestw", "kortestd", "kortestq", "ktestb", "ktestw",
    "ktestd", "ktestq", "cmps", "scas",
}
READS_FLAGS = {"adc", "sbb", "rcl", "rcr"}
NO_DEST = {
    "cmp", "test", "bt", "ptest", "vptest", "vtestps", "vtestpd", "ucomiss", "ucomisd",
    "comiss", "comisd", "vucomiss", "vucomisd", "vcomiss", "vcomisd", "kortestb", "kortestw",
    "kortestd", "kortestq", "ktestb", "ktestw", "ktestd", "ktestq", "prefetcht0", "prefetcht1",
    "prefetcht2", "prefetchnta", "prefetchw", "clflush",
}
# Legacy (non-VEX) instructions that write their last operand without reading it.
PURE_WRITE = {
    "mov", "movabs", "lea", "movd", "movq", "movdqa", "movdqu", "movaps", "movups", "movapd",
    "movupd", "movntdq", "movntdqa", "lddqu", "pshufd", "pshufhw", "pshuflw", "pextrb", "pextrw",
    "pextrd", "pextrq", "extractps", "movmskps", "movmskpd", "pmovmskb", "aeskeygenassist",
    "aesimc", "popcnt", "lzcnt", "tzcnt", "shlx", "shrx", "sarx", "rorx", "andn", "bzhi",
    "bextr", "pdep", "pext", "blsi", "blsr", "blsmsk", "movbe", "movsbw", "movsbl", "movsbq",
    "movswl", "movswq", "movslq", "movzbw", "movzbl", "movzbq", "movzwl", "movzwq", "movsx",
    "movzx", "movsxd", "cvtsi2sd", "cvtsi2ss", "cvttsd2si", "cvttss2si", "pmovzxbw", "pmovzxbd",
    "pmovzxbq", "pmovzxwd", "pmovzxwq", "pmovzxdq", "pmovsxbw", "pmovsxbd", "pmovsxbq",
    "pmovsxwd", "pmovsxwq", "pmovsxdq", "bswap_never",
}
# VEX/EVEX instructions that read their destination.
VEX_READS_DEST = re.compile(
    r"^(vpternlog[dq]|vpermi2\w+|vpermt2\w+|vpdpbusds?|vpdpwssds?|vpshldv\w|vpshrdv\w|"
    r"vpmadd52\w+|vfn?m(add|sub)\w+|vpinsr\w|vinsert\w+|vmovss|vmovsd|vmovlps|vmovhps|"
    r"vmovlpd|vmovhpd)$"
)
ZERO_IDIOM = re.compile(
    r"^(xor|xorl|xorq|sub|subl|subq|pxor|xorps|xorpd|vpxor|vpxord|vpxorq|vxorps|vxorpd|"
    r"psub[bwdq]|vpsub[bwdq]|pcmpgt[bwdq]|vpcmpgt[bwdq])$"
)
ONES_IDIOM = re.compile(r"^(pcmpeq[bwdq]|vpcmpeq[bwdq])$")
VAR_PERMUTE = re.compile(r"^(vpermb|vpermw|vpermd|vpermps|vpermi2\w+|vpermt2\w+|vpermilps|vpermilpd|"
                         r"vpshufbitqmb|vpmultishiftqb)$")


def permute_index(m: str, ops: list):
    """The operand of a variable permute (AT&T order) that holds its index,
    or None where the instruction has none to check (`vpshufbitqmb`,
    `vpmultishiftqb`): `vpermt2*` index, table, table-and-destination;
    `vpermi2*` table, table, index-and-destination; `vpermb`/`w`/`d`/`ps`
    table, index, destination; `vpermilps`/`pd` control first."""
    if m.startswith("vpermi2") and len(ops) >= 3:
        return ops[2]
    if m in ("vpermilps", "vpermilpd") and ops:
        return ops[0]
    if (m.startswith("vpermt2") or m in ("vpermb", "vpermw", "vpermd", "vpermps")) and len(ops) >= 3:
        return ops[1]
    return None


GATHER = re.compile(r"^(v?p?gather\w+|vpscatter\w+|vscatter\w+)$")
AES_ROUND = re.compile(r"^v?aesenc$")
AES_LAST = re.compile(r"^v?aesenclast$")
AES_ANY = re.compile(r"^v?aes(enc|enclast|dec|declast|imc|keygenassist)$")
CLMUL = re.compile(r"^v?pclmul\w*qdq$")
PSHUFB = re.compile(r"^v?pshufb$")
NOPS = re.compile(r"^(nop\w*|int3|ud2|endbr64|hlt|xchg\s*%ax,%ax|pause|lfence|mfence|sfence|"
                  r"vzeroupper|vzeroall)$")


NORETURN = re.compile(
    r"^(core::panicking::|std::panicking::|core::slice::index::|core::option::unwrap_failed|"
    r"core::option::expect_failed|core::result::unwrap_failed|alloc::raw_vec::handle_error|"
    r"alloc::alloc::handle_alloc_error|std::process::abort|std::rt::|_Unwind_Resume|abort$)"
)


def is_noreturn_call(insn: "Insn") -> bool:
    return insn.mnemonic.startswith("call") and bool(insn.callee) and bool(
        NORETURN.match(insn.callee))


def is_cond_jump(m: str) -> bool:
    return (m.startswith("j") and m not in ("jmp", "jmpq")) or m.startswith("loop")


def mem_width(insn: Insn) -> int:
    """Bytes read or written by the memory operand (an over-estimate when unsure)."""
    m = insn.mnemonic
    regs = [o.reg for o in insn.operands if o.kind == "reg" and o.reg is not None]
    fixed = {
        "movd": 4, "vmovd": 4, "movq": 8, "vmovq": 8, "movss": 4, "vmovss": 4, "movsd": 8,
        "vmovsd": 8, "pinsrb": 1, "vpinsrb": 1, "pinsrw": 2, "vpinsrw": 2, "pinsrd": 4,
        "vpinsrd": 4, "pinsrq": 8, "vpinsrq": 8, "pextrb": 1, "vpextrb": 1, "pextrw": 2,
        "vpextrw": 2, "pextrd": 4, "vpextrd": 4, "pextrq": 8, "vpextrq": 8,
        "vpbroadcastb": 1, "vpbroadcastw": 2, "vpbroadcastd": 4, "vpbroadcastq": 8,
        "vbroadcastss": 4, "vbroadcastsd": 8, "vbroadcasti128": 16, "vbroadcastf128": 16,
        "vbroadcasti32x4": 16, "vbroadcasti64x2": 16, "vbroadcasti32x8": 32,
        "vbroadcasti64x4": 32, "movlps": 8, "movhps": 8, "movlpd": 8, "movhpd": 8,
        "vmovlps": 8, "vmovhps": 8, "vmovlpd": 8, "vmovhpd": 8, "movzbl": 1, "movzbw": 1,
        "movzbq": 1, "movsbl": 1, "movsbw": 1, "movsbq": 1, "movzwl": 2, "movzwq": 2,
        "movswl": 2, "movswq": 2, "movslq": 4, "vextracti128": 16, "vextracti32x4": 16,
        "vextracti64x2": 16, "vextracti64x4": 32, "vextracti32x8": 32, "vinserti128": 16,
        "vinserti32x4": 16, "vinserti64x2": 16, "vinserti64x4": 32,
    }
    if m in fixed:
        return fixed[m]
    if regs:
        # Vector ops take their width from the widest vector register; GPR ops
        # from the register (movl %eax,(%rdi) is 4 bytes).
        vec = [r.width for r in regs if r.vector and not r.family.startswith("k")]
        if vec:
            return max(vec)
        return max(r.width for r in regs)
    suffix = m[-1:]
    return {"b": 1, "w": 2, "l": 4, "q": 8}.get(suffix, 8)


# ---------------------------------------------------------------------------
# Abstract state.
# ---------------------------------------------------------------------------


@dataclass
class State:
    regs: dict  # family -> level
    flags: int
    stack: dict  # (base, byte offset) -> level, for bytes differing from `stack_default`
    stack_default: int
    const_regs: frozenset  # vector families holding compile-time constants
    const_stack: frozenset  # (base, byte offset) holding constant bytes
    stack_ptr: dict  # GPR family -> (base, offset): registers pointing into the frame

    def copy(self) -> "State":
        return State(dict(self.regs), self.flags, dict(self.stack), self.stack_default,
                     self.const_regs, self.const_stack, dict(self.stack_ptr))

    def key(self):
        return (tuple(sorted(self.regs.items())), self.flags, tuple(sorted(self.stack.items())),
                self.stack_default, self.const_regs, self.const_stack,
                tuple(sorted(self.stack_ptr.items())))


def join(a: State | None, b: State) -> State:
    if a is None:
        return b.copy()
    def get(st, k):
        if k.endswith(".lo"):
            return st.regs.get(k, st.regs.get(k[:-3], PUBLIC))
        return st.regs.get(k, SECRET if k[0] in "vk" else PUBLIC)

    regs = {k: max(get(a, k), get(b, k)) for k in set(a.regs) | set(b.regs)}
    default = max(a.stack_default, b.stack_default)
    stack = {}
    for k in set(a.stack) | set(b.stack):
        v = max(a.stack.get(k, a.stack_default), b.stack.get(k, b.stack_default))
        if v != default:
            stack[k] = v
    ptr = {k: v for k, v in a.stack_ptr.items() if b.stack_ptr.get(k) == v}
    return State(regs, max(a.flags, b.flags), stack, default, a.const_regs & b.const_regs,
                 a.const_stack & b.const_stack, ptr)


def gpr(st: "State", family: str) -> int:
    """The level of a whole general register (its low byte included)."""
    whole = st.regs.get(family, PUBLIC)
    return max(whole, st.regs.get(family + ".lo", whole))


def set_gpr(st: "State", family: str, level: int):
    st.regs[family] = level
    st.regs.pop(family + ".lo", None)
    st.stack_ptr.pop(family, None)


@dataclass
class Finding:
    kind: str
    insn: Insn
    detail: str


@dataclass
class Policy:
    name: str
    # Level of a load from non-stack, non-RIP memory, by destination kind.
    vector_load: int
    gpr64_load: int
    gpr_narrow_load: int
    # What a call returns (rax, rdx) and what a reload of frame bytes a
    # callee wrote gives: None for the arguments' level and the load policy.
    call_result: int | None = None
    callee_frame: int | None = None
    # Exactly one branch on SECRET data allowed (the decision), not none.
    one_decision: bool = False


KERNEL = Policy("kernel", SECRET, LOADED, NARROW)
# A key type's `open_core`: the computed tag comes back from the kernel's
# call (in rax:rdx or through the frame); the loads are the key's tier and
# live mark, the lengths, the pointers, and the received tag, which is
# public (and XORed with the computed one before any test).
DECIDE = Policy("decision", SECRET, LOADED, LOADED, call_result=SECRET,
                callee_frame=SECRET, one_decision=True)


class Analyzer:
    def __init__(self, name: str, insns: list[Insn], policy: Policy, frame_pointer: bool):
        self.name = name
        self.insns = insns
        self.policy = policy
        self.frame_pointer = frame_pointer
        self.findings: list[Finding] = []
        self.branches: list[tuple[Insn, int]] = []
        self.recording = False
        self.trace = False

    def stack_bases(self):
        return ("rsp", "rbp") if self.frame_pointer else ("rsp",)

    # -- helpers ----------------------------------------------------------
    def find(self, kind: str, insn: Insn, detail: str):
        if self.recording:
            self.findings.append(Finding(kind, insn, detail))

    def reg_level(self, st: State, r: Reg) -> int:
        """The level of a register operand. The low byte of a general register is
        tracked on its own (`setcc` writes only it), as family + ".lo"."""
        if r.family in ("rsp", "rip"):
            return PUBLIC
        if r.family == "rbp" and self.frame_pointer:
            return PUBLIC
        whole = st.regs.get(r.family, SECRET if r.vector else PUBLIC)
        if r.vector:
            return whole
        low = st.regs.get(r.family + ".lo", whole)
        if r.width == 1 and not r.high_byte:
            return low
        return max(low, whole)

    def stack_slot(self, st: State, mem: Mem):
        """(base, offset) if the memory operand addresses the frame at a known offset;
        "unknown" if it addresses the frame at an unknown offset; None otherwise."""
        if mem.seg:
            return None
        if mem.base in self.stack_bases():
            return (mem.base, mem.disp) if mem.index is None else "unknown"
        if mem.base in st.stack_ptr:
            base, off = st.stack_ptr[mem.base]
            return (base, off + mem.disp) if mem.index is None else "unknown"
        return None

    def check_address(self, st: State, insn: Insn, mem: Mem):
        for r in (mem.base, mem.index):
            if r is None or r in ("rip", "rsp"):
                continue
            if r == "rbp" and self.frame_pointer:
                continue
            if gpr(st, r) >= NARROW:
                what = "secret data" if gpr(st, r) >= SECRET else "a byte loaded from memory"
                self.find("secret-address", insn, f"address register %{r} holds {what} "
                          "(a table lookup)")

    def load(self, st: State, insn: Insn, op: Operand, dest_vector: bool, dest_width: int):
        mem = op.mem
        if mem.base == "rip" and mem.index is None:
            return PUBLIC, True
        slot = self.stack_slot(st, mem)
        w = mem_width(insn)
        if slot is None:
            if dest_vector:
                return self.policy.vector_load, False
            return (self.policy.gpr64_load if w >= 8 and dest_width >= 8
                    else self.policy.gpr_narrow_load), False
        if slot == "unknown":
            lvl = max([st.stack_default] + list(st.stack.values()))
            const = False
        else:
            base, off = slot
            lvl = max(st.stack.get((base, off + i), st.stack_default) for i in range(w))
            const = all((base, off + i) in st.const_stack for i in range(w))
        if lvl == MEM:
            if self.policy.callee_frame is not None:
                return self.policy.callee_frame, False
            if dest_vector:
                return self.policy.vector_load, False
            return (self.policy.gpr64_load if w >= 8 else self.policy.gpr_narrow_load), False
        if dest_vector and lvl in (LOADED, NARROW):
            lvl = SECRET
        return lvl, const

    def store(self, st: State, insn: Insn, op: Operand, level: int, const: bool,
              low_level: int | None = None):
        """Records a store into the frame. `low_level`, if given, is the level of
        the first byte (a general register's low byte, tracked on its own)."""
        slot = self.stack_slot(st, op.mem)
        if slot is None:
            return
        if slot == "unknown":
            # An indexed store into the frame writes a local buffer (compilers
            # spill at fixed offsets): its bytes are data, not spilled secrets
            # of general registers. Raise every byte to "loaded" (a vector that
            # reloads them is then secret), but no further.
            level = min(level, LOADED)
            st.stack_default = max(st.stack_default, level)
            for k in list(st.stack):
                st.stack[k] = max(st.stack[k], level)
            st.const_stack = frozenset()
            return
        base, off = slot
        w = mem_width(insn)
        weak = op.mask is not None
        cs = set(st.const_stack)
        for i in range(w):
            k = (base, off + i)
            lv = low_level if (i == 0 and low_level is not None) else level
            v = max(lv, st.stack.get(k, st.stack_default)) if weak else lv
            if v == st.stack_default:
                st.stack.pop(k, None)
            else:
                st.stack[k] = v
            if const and not weak:
                cs.add(k)
            else:
                cs.discard(k)
        st.const_stack = frozenset(cs)

    def operand_level(self, st: State, insn: Insn, op: Operand, dest_vector: bool, dest_width: int):
        """Level and constness of a source operand (loads checked for addressing)."""
        if op.kind == "imm":
            return PUBLIC, True
        if op.kind == "reg":
            lvl = self.reg_level(st, op.reg)
            return lvl, op.reg.family in st.const_regs
        if op.kind == "mem":
            return self.load(st, insn, op, dest_vector, dest_width)
        return PUBLIC, False

    def set_reg(self, st: State, r: Reg, level: int, const: bool):
        if r.family in ("rsp", "rip"):
            return
        if not r.vector and r.width < 4:
            # Writes to al/ax leave bits 8..63 (resp. 16..63) alone.
            lo = r.family + ".lo"
            whole = st.regs.get(r.family, PUBLIC)
            if r.high_byte:
                st.regs[lo] = st.regs.get(lo, whole)
                st.regs[r.family] = max(whole, level)
            else:
                if lo not in st.regs:
                    st.regs[lo] = whole
                st.regs[lo] = level
                if r.width == 2:
                    st.regs[r.family] = max(whole, level)
            st.stack_ptr.pop(r.family, None)
            st.const_regs = st.const_regs - {r.family}
            return
        st.regs.pop(r.family + ".lo", None)
        st.regs[r.family] = level
        cr = set(st.const_regs)
        if const:
            cr.add(r.family)
        else:
            cr.discard(r.family)
        st.const_regs = frozenset(cr)
        st.stack_ptr.pop(r.family, None)

    def constant_operand(self, st: State, insn: Insn, op: Operand) -> bool:
        """Whether a shuffle's control operand holds a compile-time constant:
        a register loaded with one, read-only data, or stack bytes stored
        from one."""
        if op.kind == "reg":
            return op.reg.family in st.const_regs
        if op.kind == "mem":
            if op.mem.base == "rip":
                return True
            slot = self.stack_slot(st, op.mem)
            w = mem_width(insn)
            return isinstance(slot, tuple) and all(
                (slot[0], slot[1] + i) in st.const_stack for i in range(w))
        return False

    # -- the transfer function --------------------------------------------
    def step(self, st: State, insn: Insn):
        m = insn.mnemonic
        ops = insn.operands
        if NOPS.match(m) or insn.text.startswith("xchg   %ax,%ax") or m == "nop":
            return
        if AES_LAST.match(m) and self.recording and ops:
            key = ops[0]
            if ((key.kind == "reg" and key.reg.family in st.const_regs)
                    or (key.kind == "mem" and key.mem.base == "rip")):
                # AESENCLAST with a constant "round key" (Rcon or zero): the
                # key schedule's SubWord step, not the last round of a block.
                self.key_schedule_steps.add(insn.addr)
        if GATHER.match(m):
            self.find("gather", insn, "gather/scatter: memory indexed by vector data")
        # `vpermilps`/`vpermilpd` with an immediate control is a fixed lane
        # shuffle (LLVM emits it for `pshufd` in AVX code); only the form whose
        # control is a register is a variable permute.
        if VAR_PERMUTE.match(m) and not (m in ("vpermilps", "vpermilpd") and ops and ops[0].kind == "imm"):
            index = permute_index(m, ops)
            if index is not None and self.constant_operand(st, insn, index):
                # A compile-time constant index: a fixed shuffle (LLVM merges
                # constant lane shuffles into `vpermt2q` and the like).
                if self.recording:
                    self.const_shuffles += 1
            else:
                self.find("variable-permute", insn,
                          "variable-index permute: not modelled, needs a reviewer")
        for op in ops:
            if op.kind in ("mem", "indirect-mem") and not m.startswith("lea") and not m.startswith("nop"):
                self.check_address(st, insn, op.mem)

        if is_cond_jump(m):
            lvl = st.flags
            if m in ("jrcxz", "jecxz") or m.startswith("loop"):
                lvl = max(lvl, gpr(st, "rcx"))
            if self.recording:
                self.branches.append((insn, lvl))
            return
        if m in ("jmp", "jmpq"):
            if ops and ops[0].kind.startswith("indirect"):
                op = ops[0]
                lvl = (self.reg_level(st, op.reg) if op.kind == "indirect-reg"
                       else max([PUBLIC] + [gpr(st, r) for r in (op.mem.base, op.mem.index)
                                            if r and r not in ("rip", "rsp")]))
                if lvl >= NARROW:
                    self.find("secret-indirect-jump", insn, "indirect jump on secret data")
            return
        if m.startswith("call"):
            if ops and ops[0].kind == "indirect-reg" and self.reg_level(st, ops[0].reg) >= NARROW:
                self.find("secret-indirect-jump", insn, "indirect call on secret data")
            args = max(gpr(st, r) for r in ("rdi", "rsi", "rdx", "rcx", "r8", "r9"))
            pointer_args = [st.stack_ptr[r] for r in ("rdi", "rsi", "rdx", "rcx", "r8", "r9")
                            if r in st.stack_ptr]
            for r in CALLER_SAVED:
                set_gpr(st, r, SECRET)
            # The return value: as secret as the arguments (black_box), and
            # secret whenever any vector register carries data.
            result = args if self.policy.call_result is None else max(args, self.policy.call_result)
            set_gpr(st, "rax", result)
            set_gpr(st, "rdx", result)
            for fam in list(st.regs):
                if fam.startswith("v") or fam.startswith("k"):
                    st.regs[fam] = SECRET
            st.const_regs = frozenset()
            st.flags = SECRET
            # The callee may have written the frame through a pointer it was
            # given in an argument register: what it wrote is ordinary memory.
            cs = set(st.const_stack)
            for base, off in pointer_args:
                for i in range(CALLEE_WRITE_SPAN):
                    k = (base, off + i)
                    st.stack[k] = max(st.stack.get(k, st.stack_default), MEM)
                    cs.discard(k)
            st.const_stack = frozenset(cs)
            return
        if m.startswith("ret"):
            return
        if m in ("push", "pushq"):
            return
        if m in ("pop", "popq"):
            if ops and ops[0].kind == "reg":
                self.set_reg(st, ops[0].reg, PUBLIC, False)
            return
        if m in ("cltq", "cwtl", "cbtw"):
            return
        if m in ("cqto", "cltd", "cqo", "cdq"):
            set_gpr(st, "rdx", gpr(st, "rax"))
            return
        if insn.rep or re.match(r"^(movs|stos|lods|cmps|scas)[bwlq]?$", m):
            lvl = max(gpr(st, r) for r in ("rcx", "rsi", "rdi"))
            if lvl >= NARROW:
                self.find("secret-rep", insn, "string operation with a secret count or address")
            if m.startswith("stos") or m.startswith("movs"):
                # Destination unknown: treat as an unknown store into the frame
                # if rdi may point there.
                if "rdi" in st.stack_ptr:
                    src = gpr(st, "rax") if m.startswith("stos") else MEM
                    st.stack_default = max(st.stack_default, src)
            set_gpr(st, "rcx", PUBLIC)
            return
        if m.startswith("set"):
            self.write_dest(st, insn, ops[-1], st.flags, False)
            return
        if m.startswith("cmov"):
            src_lvl, _ = self.operand_level(st, insn, ops[0], False, 8)
            dst = ops[-1].reg
            lvl = max(src_lvl, st.flags, self.reg_level(st, dst))
            self.set_reg(st, dst, lvl, False)
            return
        base_alu = strip_suffix(m, {"div", "idiv", "mul", "imul"})
        if base_alu in ("div", "idiv"):
            lvl = max(self.operand_level(st, insn, ops[0], False, 8)[0],
                      gpr(st, "rax"), gpr(st, "rdx"))
            if lvl >= NARROW:
                self.find("secret-division", insn, "division on secret data (variable time)")
            set_gpr(st, "rax", lvl)
            set_gpr(st, "rdx", lvl)
            st.flags = lvl
            return
        if base_alu in ("mul", "imul") and len(ops) == 1:
            lvl = max(self.operand_level(st, insn, ops[0], False, 8)[0], gpr(st, "rax"))
            set_gpr(st, "rax", lvl)
            set_gpr(st, "rdx", lvl)
            st.flags = lvl
            return
        if m in ("xchg",) and len(ops) == 2 and all(o.kind == "reg" for o in ops):
            a, b = ops[0].reg, ops[1].reg
            la, lb = self.reg_level(st, a), self.reg_level(st, b)
            self.set_reg(st, a, lb, False)
            self.set_reg(st, b, la, False)
            return
        if PSHUFB.match(m) and ops:
            mask = ops[0]
            ok = self.constant_operand(st, insn, mask)
            if not ok:
                self.find("pshufb-variable-mask", insn,
                          f"shuffle mask {mask.text} is not a compile-time constant")
            elif self.recording:
                self.const_shuffles += 1

        # Generic instruction: sources -> destination, maybe flags.
        if not ops:
            return
        if m.startswith("lea") and len(ops) == 2 and ops[0].kind == "mem" and ops[1].kind == "reg":
            mem, dst = ops[0].mem, ops[1].reg
            lvl = max([PUBLIC] + [gpr(st, r) for r in (mem.base, mem.index)
                                  if r and r not in ("rip", "rsp")])
            ptr = None
            if mem.index is None and mem.base in self.stack_bases():
                ptr, lvl = (mem.base, mem.disp), PUBLIC
            elif mem.index is None and mem.base in st.stack_ptr:
                b, o = st.stack_ptr[mem.base]
                ptr, lvl = (b, o + mem.disp), PUBLIC
            self.set_reg(st, dst, lvl, False)
            if ptr is not None:
                st.stack_ptr[dst.family] = ptr
            return
        if (strip_suffix(m, {"add", "sub"}) and len(ops) == 2 and ops[0].kind == "imm"
                and ops[1].kind == "reg" and ops[1].reg.family in st.stack_ptr):
            b, o = st.stack_ptr[ops[1].reg.family]
            delta = int(ops[0].text.lstrip("$"), 0)
            st.stack_ptr[ops[1].reg.family] = (b, o + (delta if m.startswith("add") else -delta))
            st.flags = PUBLIC
            return
        flag_base = strip_suffix(m, FLAG_SETTERS)
        no_dest = strip_suffix(m, NO_DEST) is not None or m in NO_DEST
        dest = None if no_dest else ops[-1]
        srcs = ops if no_dest else ops[:-1]
        vex = m.startswith("v") or m.startswith("k")
        if dest is not None and dest.kind in ("reg", "mem"):
            if vex:
                reads_dest = bool(VEX_READS_DEST.match(m)) or (dest.mask is not None and not dest.zeroing)
                if len([o for o in ops if o.kind != "imm"]) <= 1:
                    reads_dest = True
                # The load form of vmovss/vmovsd (two operands, memory source)
                # writes the whole register, zeroing the rest (SDM vol. 2B,
                # MOVSS: "VEX.128 encoded version ... load ... bits (MAXVL-1:32)
                # of the destination are zeroed"); only the three-register
                # form merges.
                if m in ("vmovss", "vmovsd") and len(ops) == 2 and ops[0].kind == "mem":
                    reads_dest = False
            else:
                pure = strip_suffix(m, PURE_WRITE) is not None or m in PURE_WRITE
                if m in ("movss", "movsd") and srcs and srcs[0].kind == "mem":
                    pure = True
                reads_dest = not pure
        else:
            reads_dest = False

        dest_vector = dest is not None and dest.kind == "reg" and dest.reg.vector
        dest_width = dest.reg.width if dest is not None and dest.kind == "reg" else 8

        # Zero / all-ones idioms on one register.
        regs_used = [o.reg.family for o in ops if o.kind == "reg"]
        if (dest is not None and dest.kind == "reg" and len(srcs) >= 1 and len(regs_used) == len(ops)
                and len(set(regs_used)) == 1 and (ZERO_IDIOM.match(m) or ONES_IDIOM.match(m))):
            self.set_reg(st, dest.reg, PUBLIC, True)
            if flag_base:
                st.flags = PUBLIC
            return
        if (m.startswith("vpternlog") and dest is not None and dest.kind == "reg"
                and ops[0].text in ("$0xff", "$0x0") and len(set(regs_used)) == 1):
            self.set_reg(st, dest.reg, PUBLIC, True)
            return

        # A general register copied to another: the low byte keeps its own level.
        if (dest is not None and dest.kind == "reg" and not dest.reg.vector and len(srcs) == 1
                and srcs[0].kind == "reg" and not srcs[0].reg.vector and dest.reg.width >= 4
                and srcs[0].reg.family not in ("rsp", "rbp", "rip")
                and (strip_suffix(m, {"mov"}) or m in ("movzbl", "movzbq", "movzwl", "movzwq"))):
            src = srcs[0].reg
            whole = st.regs.get(src.family, PUBLIC)
            low = st.regs.get(src.family + ".lo", whole)
            if src.high_byte:
                low = max(low, whole)
            if m.startswith("movzb"):
                rest = PUBLIC
            elif m.startswith("movzw"):
                rest = max(whole, low)
            else:
                rest = whole
            self.set_reg(st, dest.reg, rest, src.family in st.const_regs)
            st.regs[dest.reg.family + ".lo"] = low
            if src.family in st.stack_ptr and dest.reg.width == 8:
                st.stack_ptr[dest.reg.family] = st.stack_ptr[src.family]
            return
        # A plain load of a general register from the frame: its low byte takes
        # the level of the first byte loaded (bools are often kept in the low
        # byte of a register whose upper bytes hold stale data).
        if (dest is not None and dest.kind == "reg" and not dest.reg.vector and len(srcs) == 1
                and srcs[0].kind == "mem" and dest.reg.width >= 4
                and (strip_suffix(m, {"mov"}) or m.startswith("movz"))):
            slot = self.stack_slot(st, srcs[0].mem)
            if isinstance(slot, tuple):
                base, off = slot
                w = mem_width(insn)

                def byte_level(i):
                    v = st.stack.get((base, off + i), st.stack_default)
                    if v != MEM:
                        return v
                    if self.policy.callee_frame is not None:
                        return self.policy.callee_frame
                    return LOADED if w >= 8 else NARROW

                low = byte_level(0)
                rest = max([PUBLIC] + [byte_level(i) for i in range(1, w)])
                self.set_reg(st, dest.reg, rest, False)
                st.regs[dest.reg.family + ".lo"] = low
                return
        lvl = PUBLIC
        const = True
        for op in srcs:
            ol, oc = self.operand_level(st, insn, op, dest_vector, dest_width)
            lvl = max(lvl, ol)
            const = const and oc
            if op.mask:
                lvl = max(lvl, st.regs.get(op.mask, SECRET))
        if dest is not None and dest.mask:
            lvl = max(lvl, st.regs.get(dest.mask, SECRET))
            const = False
        if reads_dest and dest is not None:
            if dest.kind == "reg":
                lvl = max(lvl, self.reg_level(st, dest.reg))
                const = const and dest.reg.family in st.const_regs
            elif dest.kind == "mem":
                dl, dc = self.load(st, insn, dest, False, 8)
                lvl = max(lvl, dl)
                const = const and dc
        if flag_base in READS_FLAGS:
            lvl = max(lvl, st.flags)
        # A vector register takes no public value from a general register that
        # held loaded data: the analysis does not know what those 8 bytes were.
        if dest_vector and dest.reg.family.startswith("v") and lvl in (LOADED, NARROW):
            lvl = SECRET
        if flag_base:
            st.flags = lvl
        if dest is None:
            return
        if dest.kind == "reg":
            self.set_reg(st, dest.reg, lvl, const)
            # Track registers that point into the frame.
            if (m in ("mov", "movq") and srcs and srcs[0].kind == "reg"
                    and not srcs[0].reg.vector):
                s = srcs[0].reg.family
                if s in self.stack_bases():
                    st.stack_ptr[dest.reg.family] = (s, 0)
                    st.regs[dest.reg.family] = PUBLIC
                elif s in st.stack_ptr:
                    st.stack_ptr[dest.reg.family] = st.stack_ptr[s]
        elif dest.kind == "mem":
            low = None
            if (strip_suffix(m, {"mov"}) and len(srcs) == 1 and srcs[0].kind == "reg"
                    and not srcs[0].reg.vector):
                r = srcs[0].reg
                whole = st.regs.get(r.family, PUBLIC)
                low = st.regs.get(r.family + ".lo", whole)
                if r.width > 1:
                    lvl = whole if r.width > 2 else max(whole, low)
                    lvl = max(lvl, low) if r.width == 2 else lvl
            self.store(st, insn, dest, lvl, const, low_level=low)

    def write_dest(self, st, insn, op, lvl, const):
        if op.kind == "reg":
            self.set_reg(st, op.reg, lvl, const)
        elif op.kind == "mem":
            self.check_address(st, insn, op.mem)
            self.store(st, insn, op, lvl, const)

    # -- the fixed point ----------------------------------------------------
    def run(self):
        insns = self.insns
        if not insns:
            return
        addrs = {i.addr: n for n, i in enumerate(insns)}
        leaders = {0}
        for n, i in enumerate(insns):
            m = i.mnemonic
            if (is_cond_jump(m) or m in ("jmp", "jmpq") or m.startswith("ret") or m in ("ud2",)
                    or is_noreturn_call(i)):
                if n + 1 < len(insns):
                    leaders.add(n + 1)
            if i.target is not None and i.target in addrs and not m.startswith("call"):
                leaders.add(addrs[i.target])
        leaders = sorted(leaders)
        blocks = []
        for k, start in enumerate(leaders):
            end = leaders[k + 1] if k + 1 < len(leaders) else len(insns)
            blocks.append((start, end))
        block_of = {start: k for k, (start, _) in enumerate(blocks)}
        succs = []
        for start, end in blocks:
            last = insns[end - 1]
            m = last.mnemonic
            s = []
            if is_cond_jump(m):
                if last.target in addrs:
                    s.append(block_of[addrs[last.target]])
                if end < len(insns):
                    s.append(block_of[end])
            elif m in ("jmp", "jmpq"):
                if last.target is not None:
                    if last.target in addrs:
                        s.append(block_of[addrs[last.target]])
                else:
                    s.extend(range(len(blocks)))  # indirect: anywhere (conservative)
            elif m.startswith("ret") or m in ("ud2", "int3", "hlt") or is_noreturn_call(last):
                pass
            elif end < len(insns):
                s.append(block_of[end])
            succs.append(s)
        self.blocks, self.succs = blocks, succs

        entry = State({}, PUBLIC, {}, PUBLIC, frozenset(), frozenset(), {})
        ins_state: list[State | None] = [None] * len(blocks)
        ins_state[0] = entry
        work = [0]
        seen_keys: list = [None] * len(blocks)
        iterations = 0
        while work:
            iterations += 1
            if iterations > 200000:
                raise RuntimeError(f"{self.name}: no fixed point")
            b = work.pop()
            st = ins_state[b].copy()
            start, end = blocks[b]
            for i in insns[start:end]:
                self.step(st, i)
            for s in succs[b]:
                new = join(ins_state[s], st)
                k = new.key()
                if k != seen_keys[s]:
                    seen_keys[s] = k
                    ins_state[s] = new
                    if s not in work:
                        work.append(s)
        self.ins_state = ins_state
        # Final pass: record findings with the fixed-point states.
        self.recording = True
        self.const_shuffles = 0
        self.key_schedule_steps = set()
        self.reachable = 0
        for b, (start, end) in enumerate(blocks):
            if ins_state[b] is None:
                continue
            self.reachable += 1
            st = ins_state[b].copy()
            for i in insns[start:end]:
                if self.trace:
                    gprs = " ".join(f"{k}={LEVEL_NAME[v][0]}" for k, v in sorted(st.regs.items())
                                    if not k.startswith(("v", "k")) and v != PUBLIC)
                    vecs = " ".join(k for k, v in sorted(st.regs.items())
                                    if k.startswith(("v", "k")) and v == PUBLIC)
                    print(f"{i.addr:#x} {i.text:50} | flags={LEVEL_NAME[st.flags][0]} {gprs}"
                          f" | public vec: {vecs}")
                self.step(st, i)

    def aes_split_blocks(self) -> list[Insn]:
        """Final-round aesenclast instructions with fewer than nine aesenc before
        them in their basic block: a round sequence split by a branch. (An
        aesenclast whose round key is a constant is a key-schedule SubWord step.)"""
        bad = []
        for start, end in self.blocks:
            count = 0
            for i in self.insns[start:end]:
                if AES_ROUND.match(i.mnemonic):
                    count += 1
                elif AES_LAST.match(i.mnemonic) and i.addr not in self.key_schedule_steps:
                    if count < 9:
                        bad.append(i)
        return bad


# ---------------------------------------------------------------------------
# Reading objdump output.
# ---------------------------------------------------------------------------

FUNC_RE = re.compile(r"^([0-9a-f]+) <(.*)>:$")
INSN_RE = re.compile(r"^\s+([0-9a-f]+):\t(.*)$")
LOC_RE = re.compile(r"^(/.*?):(\d+)(?: \(discriminator \d+\))?$")


def short_location(path: str, line: str) -> str:
    for marker in ("/src/", "/library/"):
        if marker in path:
            tail = path.split(marker)[-1]
            crate = path.split(marker)[0].rstrip("/").split("/")[-1]
            if "/main" in path and marker == "/src/" and "registry" not in path:
                return f"src/{tail}:{line}"
            return f"{crate}/{tail}:{line}"
    return f"{path}:{line}"


def read_functions(path: str) -> dict[tuple[int, str], list[Insn]]:
    funcs: dict[tuple[int, str], list[Insn]] = {}
    cur = None
    loc = "?"
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = FUNC_RE.match(line)
            if m:
                cur = (int(m.group(1), 16), m.group(2))
                funcs[cur] = []
                loc = "?"
                continue
            if cur is None:
                continue
            m = LOC_RE.match(line)
            if m:
                loc = short_location(m.group(1), m.group(2))
                continue
            m = INSN_RE.match(line)
            if m:
                body = m.group(2).strip()
                if body.startswith("(bad)") or body == "":
                    continue
                funcs[cur].append(parse_insn(int(m.group(1), 16), body, loc))
    return funcs


def resolve_got_calls(funcs, relocs_path: str | None, symbols_path: str | None):
    """Names the targets of `call *slot(%rip)`: the GOT slot's RELATIVE relocation
    gives the address, the symbol table its name."""
    got = {}
    if relocs_path:
        with open(relocs_path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"^([0-9a-f]+)\s+R_X86_64_(?:RELATIVE|GLOB_DAT|JUMP_SLOT)\s+(.*)$",
                             line.strip())
                if m:
                    val = m.group(2).strip()
                    a = re.match(r"^\*ABS\*\+0x([0-9a-f]+)$", val)
                    got[int(m.group(1), 16)] = int(a.group(1), 16) if a else val
    names = {addr: name for (addr, name) in funcs}
    if symbols_path:
        with open(symbols_path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"^([0-9a-f]+) [TtWw] (.*)$", line.strip())
                if m:
                    names.setdefault(int(m.group(1), 16), m.group(2))
    for insns in funcs.values():
        for i in insns:
            if i.callee == "@got":
                tgt = got.get(i.target)
                if isinstance(tgt, int):
                    i.callee = names.get(tgt, f"{tgt:#x}")
                elif isinstance(tgt, str):
                    i.callee = re.sub(r"(@.*|\+0x0+)$", "", tgt)
                else:
                    i.callee = None
                i.target = None


def crypto_counts(insns: list[Insn]) -> dict[str, int]:
    c = {"aes": 0, "clmul": 0, "pshufb": 0}
    for i in insns:
        if AES_ANY.match(i.mnemonic):
            c["aes"] += 1
        elif CLMUL.match(i.mnemonic):
            c["clmul"] += 1
        elif PSHUFB.match(i.mnemonic):
            c["pshufb"] += 1
    return c


def analyze(selected, trace=None):
    """Runs the analysis on (addr, name, insns, policy) tuples. Returns the per-function
    summary lines, the branch listing, {name@addr: [problems]} and the totals."""
    out_lines: list[str] = []
    summary: list[str] = []
    problems_by_fn: dict[str, list[tuple[str, str]]] = {}
    totals = {"functions": 0, "branches": 0, "public": 0, "loaded": 0, "data": 0, "secret": 0,
              "aes": 0, "clmul": 0, "pshufb": 0, "aes_split": 0}
    for addr, name, insns, policy in selected:
        fp = any(i.mnemonic == "mov" and i.operands and len(i.operands) == 2
                 and i.operands[0].kind == "reg" and i.operands[0].reg.family == "rsp"
                 and i.operands[1].kind == "reg" and i.operands[1].reg.family == "rbp"
                 for i in insns[:12])
        an = Analyzer(name, insns, policy, fp)
        an.trace = bool(trace) and trace in name
        if an.trace:
            print(f"== trace of {name} @{addr:#x}")
        an.run()
        counts = crypto_counts(insns)
        by = {PUBLIC: 0, LOADED: 0, NARROW: 0, SECRET: 0}
        for _, lvl in an.branches:
            by[SECRET if lvl >= MEM else lvl] += 1
        totals["functions"] += 1
        totals["branches"] += len(an.branches)
        totals["public"] += by[PUBLIC]
        totals["loaded"] += by[LOADED]
        totals["secret"] += by[SECRET]
        totals["data"] += by[NARROW]
        for k in ("aes", "clmul", "pshufb"):
            totals[k] += counts[k]

        problems: list[tuple[str, str]] = []
        for f in an.findings:
            problems.append((f.kind, f"{f.kind} at {f.insn.addr:#x} ({f.insn.location}): "
                             f"`{f.insn.text}`: {f.detail}"))
        secret_branches = [(i, lvl) for i, lvl in an.branches if lvl >= SECRET]
        for i, lvl in an.branches:
            if lvl == NARROW:
                problems.append(("secret-branch", f"secret-branch at {i.addr:#x} ({i.location}): "
                                 f"`{i.text}`: the branch condition depends on a byte loaded "
                                 "from memory (data)"))
        if policy.one_decision:
            if len(secret_branches) != 1:
                problems.append(("tag-compare", f"tag compare has {len(secret_branches)} "
                                 "branches on tag data, expected exactly one (the "
                                 "accept/reject decision)"))
        else:
            for i, _ in secret_branches:
                problems.append(("secret-branch", f"secret-branch at {i.addr:#x} ({i.location}): "
                                 f"`{i.text}`: the branch condition depends on secret data"))
        # A final AES round separated from its rounds by a branch is not a leak
        # when the branch is public (the taint analysis has classified every
        # branch already); list it for the reviewer.
        splits = an.aes_split_blocks()
        totals["aes_split"] += len(splits)

        status = "FAIL" if problems else "ok"
        summary.append(
            f"  {status:4} {name} @{addr:#x} [{policy.name}]: {len(insns)} insns, "
            f"{an.reachable}/{len(an.blocks)} blocks, cond branches {len(an.branches)} "
            f"(public {by[PUBLIC]}, length/pointer {by[LOADED]}, copied byte {by[NARROW]}, "
            f"secret {by[SECRET]}), "
            f"aes {counts['aes']}, clmul {counts['clmul']}, pshufb {counts['pshufb']} "
            f"(constant masks {an.const_shuffles})"
            + (f", {len(splits)} AES round sequence(s) split by a public branch" if splits else ""))
        out_lines.append(f"== {name} @{addr:#x} [{policy.name}]")
        for i, lvl in an.branches:
            tag = {PUBLIC: "public", LOADED: "length/pointer", NARROW: "copied byte",
                   SECRET: "SECRET"}.get(lvl, "SECRET")
            if policy.one_decision and lvl >= SECRET:
                tag = "SECRET: the accept/reject decision"
            out_lines.append(f"   {i.addr:#8x}  {i.mnemonic:6} {tag:38} {i.location}")
        for i in splits:
            out_lines.append(f"   {i.addr:#8x}  {i.mnemonic:6} {'final round after a public branch':38} "
                             f"{i.location}")
        for _, p in problems:
            out_lines.append(f"   !! {p}")
        problems_by_fn[f"{name} @{addr:#x}"] = problems
    return summary, out_lines, problems_by_fn, totals


def selftest(funcs) -> int:
    """Every `bad_<kind>` function of scripts/ct_selftest.rs must be flagged with
    <kind>; every `good_*` one must pass."""
    selected = []
    for (addr, name), insns in sorted(funcs.items(), key=lambda kv: kv[0][1]):
        m = re.match(r"^ct_selftest::(bad|good)_(\w+)$", name)
        if m:
            selected.append((addr, name, insns, DECIDE if "compare" in name else KERNEL))
    expected = {
        "secret_branch": "secret-branch",
        "secret_branch_byte": "secret-branch",
        "secret_address": "secret-address",
        "secret_address_byte": "secret-address",
        "pshufb_variable_mask": "pshufb-variable-mask",
        "aes_split_secret": "secret-branch",
        "compare_early_exit": "tag-compare",
        "permute_variable_index": "variable-permute",
    }
    summary, _, problems, _ = analyze(selected)
    errors = []
    seen = set()
    for (addr, name, _, _) in selected:
        kind, what = re.match(r"^ct_selftest::(bad|good)_(\w+)$", name).groups()
        got = {k for k, _ in problems[f"{name} @{addr:#x}"]}
        seen.add(what)
        if kind == "good" and got:
            errors.append(f"{name}: expected no finding, got {sorted(got)}")
        if kind == "bad" and expected[what] not in got:
            errors.append(f"{name}: expected a {expected[what]} finding, got {sorted(got) or 'none'}")
    for what in expected:
        if what not in seen:
            errors.append(f"ct_selftest::bad_{what} not found in the binary")
    print("\n".join(summary))
    if errors:
        print("ct-check self-test: FAILED")
        for e in errors:
            print(f"  - {e}")
        return 1
    print(f"ct-check self-test: passed ({len(selected)} functions: every known-bad pattern "
          "flagged, the good ones clean)")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("disassembly", help="objdump -d -l --no-show-raw-insn -C output")
    ap.add_argument("--report", help="write the full branch listing here")
    ap.add_argument("--relocs", help="objdump -R output (names the targets of GOT calls)")
    ap.add_argument("--symbols", help="nm -C output (names the targets of GOT calls)")
    ap.add_argument("--list", action="store_true", help="print every branch to stdout too")
    ap.add_argument("--trace", help="print the analysis state at each instruction of the "
                    "functions whose name contains this")
    ap.add_argument("--selftest", action="store_true",
                    help="check scripts/ct_selftest.rs's known-bad and known-good functions")
    args = ap.parse_args()

    funcs = read_functions(args.disassembly)
    resolve_got_calls(funcs, args.relocs, args.symbols)
    if args.selftest:
        return selftest(funcs)
    selected = []
    for (addr, name), insns in sorted(funcs.items(), key=lambda kv: kv[0][1]):
        if DECISION.match(name):
            selected.append((addr, name, insns, DECIDE))
        elif name.startswith(KERNEL_PREFIX):
            selected.append((addr, name, insns, KERNEL))
        elif "hardware_aead" in name and any(
                AES_ANY.match(i.mnemonic) or CLMUL.match(i.mnemonic) for i in insns):
            selected.append((addr, name, insns, KERNEL))

    failures: list[str] = []
    names = [s[1] for s in selected]
    for pattern, why in REQUIRED:
        if not any(re.search(pattern, n) for n in names):
            failures.append(f"missing hot function /{pattern}/ ({why}): renamed or inlined? "
                            "update scripts/ct_check.py")
    for instance in DECISION_INSTANCES:
        if instance not in names:
            failures.append(f"missing {instance}: the decision was inlined or renamed")

    summary, out_lines, problems, totals = analyze(selected, args.trace)
    for fn, ps in problems.items():
        failures.extend(f"{fn}: {p}" for _, p in ps)

    header = (f"ct-check: {totals['functions']} functions, {totals['branches']} conditional "
              f"branches (public {totals['public']}, on lengths/pointers {totals['loaded']}, "
              f"on copied bytes {totals['data']}, "
              f"on secret data {totals['secret']}), {totals['aes']} AES, {totals['clmul']} "
              f"carry-less multiplies, {totals['pshufb']} byte shuffles; "
              f"{totals['aes_split']} AES round sequences split by a public branch (listed)")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(header + "\n\n" + "\n".join(summary) + "\n\n" + "\n".join(out_lines) + "\n")
    print("\n".join(summary))
    if args.list:
        print("\n".join(out_lines))
    else:
        # The decisions are short: always show their branches.
        show = False
        for line in out_lines:
            if line.startswith("== "):
                show = "[decision]" in line
            if show:
                print(line)
    print()
    print(header)
    if failures:
        print(f"ct-check: FAILED, {len(failures)} problem(s):")
        for f in failures:
            print(f"  - {f}")
        return 1
    print("ct-check: passed (no branch or memory address depends on secret data; every "
          "byte shuffle uses a constant mask; each open has one decision on tag data)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
