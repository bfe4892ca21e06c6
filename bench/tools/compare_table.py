#!/usr/bin/env python3
"""Turns the output of `bench/examples/compare.rs` into a markdown table of
times with ratios, the form of the per-CPU tables under docs/measurements/
(e.g. 2026-11-23-zen4/tables.md, 2026-11-24-zen1/tables.md).

Usage: cargo run --release -p hardware-aead-bench --example compare -- all 41 | python3 bench/tools/compare_table.py

One row per (algorithm, operation): for each size, the median time of
`hw/new` (the tier `new` picks) and, in brackets, its ratio to the fastest peer
in the same run (below 1: faster than every peer). Key setup gets a row of its
own per algorithm. XAES-256-GCM's sections are left out (its ratios are to
this crate's AES-256-GCM and to RustCrypto; docs/benchmarks.md, "XAES-256-GCM
on Zen 4", has them).
"""
import re
import sys

HEAD = re.compile(r"^(?P<alg>X?AES-\d+-GCM(?:-SIV)?) (?:(?P<op>seal|open) (?P<size>\d+) B|key setup)")
ENTRY = re.compile(r"^\s+(?P<name>\S+)\s+(?P<ns>[\d.]+) ns")


def fmt_size(n: int) -> str:
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n} B"


def main() -> None:
    rows: dict[tuple[str, str], dict[int, str]] = {}
    setup: dict[str, str] = {}
    current = None
    entries: dict[str, float] = {}

    def flush() -> None:
        if current is None or not entries:
            return
        alg, op, size = current
        if alg.startswith("X"):
            return  # XAES-256-GCM: its own table (docs/benchmarks.md, "XAES-256-GCM on Zen 4")
        ours = next((v for k, v in entries.items() if k.startswith("hw/new")), None)
        peers = {k: v for k, v in entries.items() if not k.startswith("hw/")}
        if ours is None or not peers:
            return
        best_name, best = min(peers.items(), key=lambda kv: kv[1])
        cell = f"{ours:.0f} ns ({ours / best:.2f}× {best_name})"
        if op == "setup":
            setup[alg] = cell
        else:
            rows.setdefault((alg, op), {})[size] = cell

    for line in sys.stdin:
        m = HEAD.match(line)
        if m:
            flush()
            entries = {}
            op = m["op"] or "setup"
            current = (m["alg"], op, int(m["size"] or 0))
            continue
        e = ENTRY.match(line)
        if e and current:
            entries[e["name"]] = float(e["ns"])
    flush()

    sizes = sorted({s for r in rows.values() for s in r})
    print("| algorithm | " + " | ".join(fmt_size(s) for s in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    for (alg, op), r in rows.items():
        print(f"| {alg} {op} | " + " | ".join(r.get(s, "–") for s in sizes) + " |")
    if setup:
        print()
        print("| key setup (`new` + drop) | time (ratio to the fastest peer) |")
        print("|---|---:|")
        for alg, cell in setup.items():
            print(f"| {alg} | {cell} |")


if __name__ == "__main__":
    main()
