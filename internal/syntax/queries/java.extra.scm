(import_declaration [(scoped_identifier) (identifier)] @import.text)
(enum_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(annotation_type_declaration name: (identifier) @name) @definition.interface
(constructor_declaration name: (identifier) @name) @definition.method
(annotation name: (identifier) @name) @reference.type
(marker_annotation name: (identifier) @name) @reference.type
