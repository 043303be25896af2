(import_spec path: (_) @import.string)
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
