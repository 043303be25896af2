(import_statement source: (string) @import.string)
(export_statement source: (string) @import.string)
(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string) @import.string)
  (#eq? @_require "require"))
(call_expression
  function: (import)
  arguments: (arguments . (string) @import.string))
(class_heritage (identifier) @name @reference.class)
(class_heritage (member_expression property: (property_identifier) @name) @reference.class)
