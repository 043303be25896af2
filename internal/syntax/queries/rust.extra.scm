(use_declaration argument: (_) @import.rust)
(extern_crate_declaration name: (identifier) @import.text)
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant
(impl_item type: (_) @name) @container
(call_expression function: (scoped_identifier name: (identifier) @name)) @reference.call
