#!/usr/bin/env python3
"""Turns the output of `cargo bench -p hardware-aead-bench --bench aes_gcm` (or `aes_gcm_siv`) into
markdown tables, one per algorithm and direction, the form of the tables under
docs/measurements/ (e.g. 2026-11-22-zen5/tables.md).

Usage: cargo bench -p hardware-aead-bench --bench aes_gcm 2>&1 | python3 bench/tools/bench_table.py

For each (algorithm, direction) it prints one row per size with every entry's
median time (or throughput from 1 KiB up) and the ratio of the best
hardware-aead tier to the named peer (ring for GCM, aes-gcm-siv for GCM-SIV).
"""
import re
import sys

UNITS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
LINE = re.compile(
    r"^(?P<group>[A-Z0-9-]+/(?:seal|open)/\d+)/(?P<entry>\S+)\s*\n?\s*time:\s+\[\S+ \S+ (?P<t>\S+) (?P<u>\S+) \S+ \S+\]",
    re.M,
)


def main() -> None:
    text = sys.stdin.read()
    results: dict[str, dict[str, float]] = {}
    for m in LINE.finditer(text):
        results.setdefault(m["group"], {})[m["entry"]] = float(m["t"]) * UNITS[m["u"]]
    tables: dict[str, list[tuple[int, dict[str, float]]]] = {}
    for group, entries in results.items():
        alg, direction, size = group.split("/")
        tables.setdefault(f"{alg} {direction}", []).append((int(size), entries))
    for name, rows in tables.items():
        rows.sort()
        entries = []
        for _, e in rows:
            entries += [k for k in e if k not in entries]
        peer = next((p for p in ("ring", "ring+copy", "aes-gcm-siv", "aes-gcm-siv+copy") if p in entries), None)
        print(f"\n### {name}\n")
        head = "| size | " + " | ".join(entries) + (f" | best tier vs {peer} |" if peer else " |")
        print(head)
        print("|---:" * (len(entries) + 1 + (1 if peer else 0)) + "|")
        for size, e in rows:
            cells = []
            for k in entries:
                if k not in e:
                    cells.append("–")
                elif size >= 1024:
                    cells.append(f"{size / e[k]:.2f} GB/s")
                else:
                    cells.append(f"{e[k]:.1f} ns")
            line = f"| {fmt_size(size)} | " + " | ".join(cells)
            if peer:
                ours = [v for k, v in e.items() if k.startswith("hardware-aead/")]
                line += f" | {e[peer] / min(ours):.2f}× |" if ours and peer in e else " – |"
            else:
                line += " |"
            print(line)


def fmt_size(n: int) -> str:
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n >> 10} KiB"
    return f"{n} B"


if __name__ == "__main__":
    main()
