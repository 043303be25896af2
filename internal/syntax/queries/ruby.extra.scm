(call
  method: (identifier) @_require
  arguments: (argument_list . (string) @import.string)
  (#any-of? @_require "require" "load"))
(call
  method: (identifier) @_require
  arguments: (argument_list . (string) @import.relative)
  (#eq? @_require "require_relative"))
(assignment left: (constant) @name) @definition.constant
