(import_statement source: (string) @import.string)
(export_statement source: (string) @import.string)
(import_require_clause source: (string) @import.string)
(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string) @import.string)
  (#eq? @_require "require"))
(call_expression
  function: (import)
  arguments: (arguments . (string) @import.string))
(class_declaration name: (type_identifier) @name) @definition.class
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.type
(extends_clause value: (identifier) @name @reference.class)
(implements_clause (type_identifier) @name @reference.implementation)
(extends_type_clause (type_identifier) @name @reference.implementation)
