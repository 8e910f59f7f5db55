#!/usr/bin/env python3
"""Lists the `crate::` edges between the files of the IR core (ir/src) and checks them against
the layering written in docs/guide/ir-core.md: a file may use files of its own layer or of
layers below, never above. Prints every edge with its layers, then the edges that go up and
the import cycles (strongly connected groups of files). Exit status 1 when an edge goes up.

    python3 scripts/ir-layers.py [--edges]
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ir", "src")

# Bottom first. A module folder (syntax/, rewrite/) is one unit.
LAYERS = [
    ("values", ["types", "attrs", "float", "diag", "context", "typedef", "opdef", "format_check", "mutation"]),
    ("syntax", ["format", "syntax", "registry"]),
    ("tools", ["rewrite", "cfg", "dominance", "verify", "source", "builder", "handle", "cli", "lib"]),
]
LAYER_OF = {m: i for i, (_, ms) in enumerate(LAYERS) for m in ms}


def unit(path):
    rel = os.path.relpath(path, ROOT)
    first = rel.split(os.sep)[0]
    return first[:-3] if first.endswith(".rs") else first


def edges():
    out = set()
    for dirpath, _, files in os.walk(ROOT):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(dirpath, f)
            src = unit(path)
            text = open(path, encoding="utf-8").read()
            # Code only: drop line comments (doc links name modules without using them).
            code = "\n".join(l.split("//")[0] for l in text.splitlines())
            for m in re.finditer(r"crate::([a-z_]+)", code):
                dst = m.group(1)
                if dst in LAYER_OF and dst != src:
                    out.add((src, dst))
    return sorted(out)


def cycles(es):
    graph = {}
    for a, b in es:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on, comps, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return comps


def main():
    es = edges()
    unknown = sorted({a for a, _ in es} - set(LAYER_OF))
    if unknown:
        print(f"files with no layer in LAYERS: {unknown}")
        return 1
    if "--edges" in sys.argv:
        for a, b in es:
            print(f"{a} ({LAYERS[LAYER_OF[a]][0]}) -> {b} ({LAYERS[LAYER_OF[b]][0]})")
    up = [(a, b) for a, b in es if LAYER_OF[b] > LAYER_OF[a]]
    for a, b in up:
        print(f"upward edge: {a} ({LAYERS[LAYER_OF[a]][0]}) uses {b} ({LAYERS[LAYER_OF[b]][0]})")
    for c in cycles(es):
        print(f"import cycle: {' '.join(c)}")
    print(f"{len(es)} edges, {len(up)} upward")
    return 1 if up else 0


if __name__ == "__main__":
    sys.exit(main())
