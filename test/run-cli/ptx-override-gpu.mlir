// --ptx-override on a GPU: a file that does not define the entry the lowering names is refused
// before the launch, naming the entry (test/run-cli/ptx-override.mlir has the checks that need
// no GPU).
// REQUIRES: cuda
// RUN: printf '.version 8.4\n.target sm_90a\n.address_size 64\n.visible .entry other()\n{\n\tret;\n}\n' > %t.ptx
// RUN: not tilus-run %s --ptx-override %t.ptx 2>&1 | FileCheck %s
// CHECK: × --ptx-override file '{{.*}}.ptx' has no `.entry empty`
// CHECK: help: the file must define the kernel the lowering names (see --dump-ptx)

tilus.kernel @empty() warps(1) blocks(affine_map<() -> (1)>) {
}
