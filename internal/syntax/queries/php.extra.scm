(namespace_use_clause) @import.php
(include_expression [(string) (encapsed_string)] @import.string)
(include_once_expression [(string) (encapsed_string)] @import.string)
(require_expression [(string) (encapsed_string)] @import.string)
(require_once_expression [(string) (encapsed_string)] @import.string)
(enum_declaration name: (name) @name) @definition.class
(const_element (name) @name) @definition.constant
(object_creation_expression (name) @name) @reference.class
(function_call_expression function: (name) @name) @reference.call
(base_clause [(name) (qualified_name)] @name) @reference.class
