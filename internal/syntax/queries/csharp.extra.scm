(using_directive [(identifier) (qualified_name)] @import.text)
(namespace_declaration name: (qualified_name) @name) @definition.module
(file_scoped_namespace_declaration name: (_) @name) @definition.module
(struct_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.type
(constructor_declaration name: (identifier) @name) @definition.method
(invocation_expression function: (identifier) @name) @reference.call
(attribute name: (identifier) @name) @reference.attribute
