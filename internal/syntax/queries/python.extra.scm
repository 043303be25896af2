(import_statement) @import.python
(import_from_statement) @import.python

; class attributes (Django model fields, enum members, settings)
(class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @name) @definition.constant)))

; base classes
(class_definition
  superclasses: (argument_list
    [(identifier) @name
     (attribute attribute: (identifier) @name)] @reference.class))
