// A file with no operations: MLIR prints an implicit module whose single
// block is empty, so the entry block label is printed: `({\n^bb0:\n})`.
