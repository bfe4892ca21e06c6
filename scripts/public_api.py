#!/usr/bin/env python3
"""The crate's public items, one per line, from rustdoc's JSON output.

Usage: public_api.py JSON            print the list
       public_api.py JSON --check F  fail (with a diff) if it differs from F
       public_api.py JSON --write F  write F

JSON is `target/doc/hardware_aead.json` as `scripts/public-api.sh` builds it
(every feature on). Each line is a kind and a path: the modules, types,
traits, functions, constants, statics and re-exports reachable from the crate
root, each public field and enum variant, the methods and associated items of
inherent impls and of traits, and `impl Trait for Type` for every trait
implementation written in this crate (not the compiler's auto-trait and
blanket ones). Signatures are not listed: a renamed, added or removed item
is what this catches, so that each is a deliberate change of the committed
list.

Both modes also fail if a listed item's rustdoc has no example (a fenced
code block): every module, type, trait, function, method, constant, static
and associated item of the crate's trait. Fields, enum variants and the
members of trait implementations are exempt (the type's, or the trait's,
documentation covers them).
"""
import difflib
import json
import sys


def kind_of(item):
    return next(iter(item["inner"]))


def main():
    doc = json.load(open(sys.argv[1]))
    index, paths = doc["index"], doc["paths"]
    get = lambda i: index.get(str(i))
    lines, seen = set(), set()
    # Listed items whose rustdoc has no example.
    no_example = set()

    def need_example(item, path):
        if "```" not in (item.get("docs") or ""):
            no_example.add(path)

    def add_impls(owner_path, impl_ids):
        for impl_id in impl_ids:
            impl = get(impl_id)
            if impl is None:
                continue
            body = impl["inner"]["impl"]
            if body.get("is_synthetic") or body.get("blanket_impl") is not None:
                continue
            trait = body.get("trait")
            if trait is not None:
                tname = trait.get("path") or trait.get("name")
                if trait.get("id") is not None and str(trait["id"]) in paths:
                    tname = "::".join(paths[str(trait["id"])]["path"])
                # A compiler-internal marker that `derive(PartialEq)` adds.
                if not tname.endswith("StructuralPartialEq"):
                    lines.add(f"impl {tname} for {owner_path}")
                continue
            for member in body["items"]:
                m = get(member)
                if m is not None and m.get("visibility") == "public" and m.get("name"):
                    lines.add(f"{kind_of(m)} {owner_path}::{m['name']}")
                    need_example(m, f"{owner_path}::{m['name']}")

    def walk(item_id, prefix, rename=None):
        item = get(item_id)
        if item is None or item.get("visibility") != "public" and item_id != doc["root"]:
            return
        kind = kind_of(item)
        body = item["inner"][kind]
        if kind == "use":
            target = body.get("id")
            name = body["name"]
            if body.get("is_glob"):
                if target is not None and get(target) is not None:
                    for child in get(target)["inner"]["module"]["items"]:
                        walk(child, prefix)
                return
            if target is not None and get(target) is not None:
                # A re-export of this crate's own item: listed where users
                # name it, with its members.
                walk(target, prefix, rename=name)
            else:
                lines.add(f"use {prefix}::{name} = {body['source']}")
            return
        name = rename or item.get("name") or ""
        path = f"{prefix}::{name}" if prefix else name
        if (item_id, path) in seen:
            return
        seen.add((item_id, path))
        lines.add(f"{kind} {path}")
        need_example(item, path)
        if kind == "module":
            for child in body["items"]:
                walk(child, path)
        elif kind in ("struct", "enum", "trait"):
            if kind == "struct":
                shape = body.get("kind", {})
                members = shape.get("plain", {}).get("fields", []) if isinstance(shape, dict) else []
            else:
                members = body.get("variants" if kind == "enum" else "items", [])
            for member in members:
                m = get(member)
                if m is None or kind == "struct" and m.get("visibility") != "public":
                    continue
                label = {"struct": "field", "enum": "variant"}.get(kind, kind_of(m))
                lines.add(f"{label} {path}::{m['name']}")
                if kind == "trait":
                    need_example(m, f"{path}::{m['name']}")
            if kind != "trait":
                add_impls(path, body.get("impls", []))

    walk(doc["root"], "")
    out = "\n".join(sorted(lines)) + "\n"
    if no_example:
        sys.stderr.write(
            "public-api: these public items have no example in their rustdoc:\n"
            + "".join(f"  {p}\n" for p in sorted(no_example))
        )
    args = sys.argv[2:]
    if args and args[0] == "--write":
        open(args[1], "w").write(out)
        print(f"public-api: {len(lines)} items written to {args[1]}")
        if no_example:
            sys.exit(1)
    elif args and args[0] == "--check":
        want = open(args[1]).read()
        if want != out:
            sys.stdout.writelines(
                difflib.unified_diff(want.splitlines(True), out.splitlines(True), args[1], "this build")
            )
            sys.exit(
                "public-api: the public items differ from the committed list; if the change is "
                "deliberate, run `bash scripts/public-api.sh --write` and commit the list"
            )
        if no_example:
            sys.exit("public-api: every public item needs an example")
        print(f"public-api: {len(lines)} items, as {args[1]} lists, each with an example")
    else:
        sys.stdout.write(out)


if __name__ == "__main__":
    main()
