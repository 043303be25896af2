(preproc_include path: (_) @import.string)
(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name) @definition.macro
(namespace_definition name: (namespace_identifier) @name) @definition.module
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call
(call_expression function: (qualified_identifier name: (identifier) @name)) @reference.call
(base_class_clause (type_identifier) @name @reference.class)
(function_declarator declarator: (qualified_identifier scope: (template_type name: (type_identifier) @local.scope) name: (identifier) @name)) @definition.method
(function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: (namespace_identifier) @local.scope name: (identifier) @name))) @definition.method
(function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: (template_type name: (type_identifier) @local.scope) name: (identifier) @name))) @definition.method
(function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier scope: (namespace_identifier) @local.scope name: (identifier) @name)))) @definition.method
