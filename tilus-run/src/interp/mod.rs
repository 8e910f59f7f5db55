//! Being written (see docs/design/interpreter.md).
