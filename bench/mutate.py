#!/usr/bin/env python3
"""Hostile-input smoke run: random mutations of test files through tilus-opt and tilus-run.

Each of 400 rounds takes one of the given files, drops its RUN lines, applies 1-3 mutations to
IR lines (delete a line, duplicate it elsewhere, swap two tokens of it, replace its first
number by 0, 1, 2, 3, 7, 64, 65536, 2^31 or -1), then runs `tilus-opt FILE --tilus-to-ptx` and
`tilus-run FILE --max-steps 2000000` (binaries on PATH, 20 s each). A run is bad when it exits
with anything but 0, 1 or 2 (a usage error, such as a scalar argument the mutated kernel now
needs), prints a panic, or times out; bad inputs are kept in /tmp/mut/.
Prints "runs N bad M". Seeded (7, or $SEED): the same files and seed give the same mutations.

    PATH=target/release:$PATH python3 bench/mutate.py test/run-cli/scf-while.mlir ...
"""
import os
import random
import re
import subprocess
import sys

os.makedirs("/tmp/mut", exist_ok=True)
files = sys.argv[1:]
random.seed(int(os.environ.get("SEED", "7")))
bad = 0
n = 0
for it in range(400):
    f = random.choice(files)
    lines = open(f).read().splitlines()
    body = [i for i, l in enumerate(lines) if not l.startswith("//") and l.strip()]
    if not body:
        continue
    m = list(lines)
    k = random.randint(1, 3)
    for _ in range(k):
        i = random.choice(body)
        r = random.random()
        if r < 0.25:
            m[i] = ""
        elif r < 0.45:
            j = random.choice(body); m.insert(j, m[i])
        elif r < 0.7:
            toks = m[i].split(" ")
            if len(toks) > 2:
                a, b = random.sample(range(len(toks)), 2); toks[a], toks[b] = toks[b], toks[a]
            m[i] = " ".join(toks)
        else:
            m[i] = re.sub(r"\d+", lambda mo: str(random.choice([0, 1, 2, 3, 7, 64, 65536, 2**31, -1])), m[i], count=1)
    src = "\n".join(l for l in m if not l.startswith("// RUN") )
    p = "/tmp/mut/in.mlir"
    open(p, "w").write(src)
    for cmd in (["tilus-opt", p, "--tilus-to-ptx", "-o", "/dev/null"], ["tilus-run", p, "--max-steps", "2000000"]):
        n += 1
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
        except subprocess.TimeoutExpired:
            bad += 1; open(f"/tmp/mut/timeout{it}.mlir","w").write(src); print("TIMEOUT", cmd[0], it); continue
        # 0: ran; 1: an error in the input, reported; 2: a usage error (tilus-run: an argument
        # the mutated kernel now needs and the command line does not give), reported.
        if r.returncode not in (0, 1, 2) or "panicked" in r.stderr:
            bad += 1; open(f"/tmp/mut/crash{it}.mlir","w").write(src); print("CRASH", cmd[0], it, r.returncode, r.stderr[-300:])
print("runs", n, "bad", bad)
