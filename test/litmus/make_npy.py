#!/usr/bin/env python3
"""Writes the .npy files the litmus kernels read (tilus.inputs) and are checked against
(// EXPECT:). Standard library only: `python3 test/litmus/make_npy.py` in the repository."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def save(name, descr, shape, values):
    fmt = {"<f4": "f", "<i4": "i"}[descr]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr,
        "".join("%d, " % s for s in shape) if len(shape) != 1 else "%d," % shape[0],
    )
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


save("ones32.npy", "<f4", [32], [1.0] * 32)
save("ones256.npy", "<f4", [256], [1.0] * 256)
save("iota128_i32.npy", "<i4", [128], list(range(128)))
save("quarter512_i32.npy", "<i4", [512], [i // 4 for i in range(512)])
save("even_lanes64.npy", "<f4", [64], [float(i // 2) if i % 2 == 0 else 0.0 for i in range(64)])
save("iota64.npy", "<f4", [64], [float(i) for i in range(64)])
save("double32.npy", "<f4", [32], [2.0 * i for i in range(32)])
save("iota64x32.npy", "<f4", [64, 32], [float(i) for i in range(64 * 32)])
save("pair_sum32x32.npy", "<f4", [32, 32],
     [float((32 * i + j) + (32 * (i + 32) + j)) for i in range(32) for j in range(32)])
save("ones_twos64x32.npy", "<f4", [64, 32], [1.0] * (32 * 32) + [2.0] * (32 * 32))
save("iota32x32.npy", "<f4", [32, 32], [float(i) for i in range(32 * 32)])
# For tilus-run/tests/litmus.rs (an interpreter-only kernel: 2 x (ones | twos)).
save("twos_fours32.npy", "<f4", [32], [2.0] * 16 + [4.0] * 16)
