#!/usr/bin/env python3
"""Summarises alternated `bench/examples/compare` runs of several builds.

Usage: python3 bench/tools/ab_table.py DIR PREFIX BUILD...
       python3 bench/tools/ab_table.py --change DIR PREFIX BEFORE AFTER

Reads DIR/PREFIX_<BUILD>_<n>.txt (one file per run of one build, the builds
run alternately), and prints one row per case (`AES-128-GCM seal 1024 B`,
`... key setup`, ...): for each build, this crate's median time over the
runs (`hw/new`, the tier `new` picks) divided by the fastest peer's median
time over the same runs, then the two medians in ns, then the range of the
per-run ratios. The ratio of medians is what the tables of docs/benchmarks.md
give; the per-run range shows how much the host drifted.

With --change, one row per case for two builds: the median over the runs
of each run's ratio (this crate's time over the fastest peer's in the same
process) for BEFORE and for AFTER, and AFTER's over BEFORE's: how much the
change moved the case, with the host's drift between runs divided out.
The slowest and fastest cases close the list.
"""
import glob
import re
import statistics
import sys

TIME = re.compile(r"^\s+(?P<name>\S+)\s+(?P<ns>[\d.]+) ns")


def change(folder: str, prefix: str, before: str, after: str) -> None:
    """The --change table (see the module's docs)."""
    runs = {b: per_run_ratios(folder, prefix, b) for b in (before, after)}
    moved = []
    for title, ratios in runs[before].items():
        if title not in runs[after]:
            continue
        b, a = statistics.median(ratios), statistics.median(runs[after][title])
        moved.append((a / b, title))
        print(f"{title:38s} {before}: {b:.3f}  {after}: {a:.3f}  change {a / b:.3f}")
    print(f"slowest after: {max(moved)[0]:.3f} ({max(moved)[1]})")
    print(f"fastest after: {min(moved)[0]:.3f} ({min(moved)[1]})")


def runs(folder: str, prefix: str, build: str):
    """Each run of `build` in order (its file's cases, in the order they
    first appear), as (case, ours, peers): `hw/new`'s time and the peers'
    times by name, in ns. Cases without both are left out."""
    for path in sorted(glob.glob(f"{folder}/{prefix}_{build}_*.txt")):
        title = None
        run: dict[str, dict[str, float]] = {}
        for line in open(path, encoding="utf-8"):
            if not line.startswith(" "):
                title = None if line.startswith("CPU") else line.strip()
                continue
            m = TIME.match(line)
            if title is not None and m is not None:
                run.setdefault(title, {})[m["name"]] = float(m["ns"])
        cases = []
        for title, entries in run.items():
            mine = [ns for name, ns in entries.items() if name.startswith("hw/new")]
            others = {n: ns for n, ns in entries.items() if not n.startswith("hw/")}
            if mine and others:
                cases.append((title, mine[0], others))
        yield cases


def per_run_ratios(folder: str, prefix: str, build: str) -> dict[str, list[float]]:
    """Case -> each run's ratio of `hw/new`'s time to the fastest peer's."""
    out: dict[str, list[float]] = {}
    for cases in runs(folder, prefix, build):
        for title, mine, others in cases:
            out.setdefault(title, []).append(mine / min(others.values()))
    return out


def main() -> None:
    if sys.argv[1] == "--change":
        change(*sys.argv[2:6])
        return
    folder, prefix, builds = sys.argv[1], sys.argv[2], sys.argv[3:]
    ours: dict[tuple[str, str], list[float]] = {}
    peers: dict[tuple[str, str, str], list[float]] = {}
    ratios: dict[tuple[str, str], list[float]] = {}
    order: list[str] = []
    for build in builds:
        for cases in runs(folder, prefix, build):
            for title, mine, others in cases:
                if title not in order:
                    order.append(title)
                ours.setdefault((title, build), []).append(mine)
                for name, ns in others.items():
                    peers.setdefault((title, build, name), []).append(ns)
                ratios.setdefault((title, build), []).append(mine / min(others.values()))
    for title in order:
        cells = []
        for build in builds:
            mine = ours.get((title, build))
            if not mine:
                continue
            peer = min(
                statistics.median(v) for (t, b, _), v in peers.items() if t == title and b == build
            )
            r = sorted(ratios[(title, build)])
            cells.append(
                f"{build}: {statistics.median(mine) / peer:.2f} "
                f"({statistics.median(mine):.0f} / {peer:.0f} ns; runs {r[0]:.2f}-{r[-1]:.2f})"
            )
        print(f"{title:38s} " + " | ".join(cells))


if __name__ == "__main__":
    main()
