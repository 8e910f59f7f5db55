// Aliases used inside a dialect attribute's or type's body. Bodies are kept as
// text, so each use of an alias this file defines is replaced by what it stands
// for; the output then needs no alias definitions, and mlir-opt (which knows
// the `llvm` dialect and resolves the aliases while parsing) reads it back to
// the same attributes. Strings that merely look like aliases stay as written.

#alias_scope_domain = #llvm.alias_scope_domain<id = distinct[0]<>, description = "The domain">
#alias_scope = #llvm.alias_scope<id = distinct[1]<>, domain = #alias_scope_domain, description = "The first scope">
#alias_scope1 = #llvm.alias_scope<id = distinct[2]<>, domain = #alias_scope_domain>
!elem = i32
"test.scopes"() {alias_scopes = [#alias_scope, #alias_scope1], domain = #alias_scope_domain, note = "#alias_scope"} : () -> ()
%0 = "test.ptr"() {elem = !llvm.array<4 x !elem>} : () -> !llvm.struct<(!elem, f32)>
