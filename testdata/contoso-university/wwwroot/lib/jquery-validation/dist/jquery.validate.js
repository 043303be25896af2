/*!
 * jQuery Validation Plugin v1.19.5
 *
 * https://jqueryvalidation.org/
 *
 * Copyright (c) 2022 Jörn Zaefferer
 * Released under the MIT license
 */
(function( factory ) {
	if ( typeof define === "function" && define.amd ) {
		define( [ "jquery" ], factory );
	} else if ( typeof module === "object" && module.exports ) {
		module.exports = factory( require( "jquery" ) );
	} else {
		factory( jQuery );
	}
}(function( $ ) {

$.extend( $.fn, {

	// Validate the selected form: returns the form's validator, creating it
	// on first use. Nothing is selected: nothing to validate.
	validate: function( options ) {
		if ( !this.length ) {
			if ( options && options.debug && window.console ) {
				console.warn( "validate(): the selection is empty, there is no form to validate." );
			}
			return;
		}

		var validator = $.data( this[ 0 ], "validator" );
		if ( validator ) {
			return validator;
		}

		validator = new $.validator( options, this[ 0 ] );
		$.data( this[ 0 ], "validator", validator );

		if ( validator.settings.onsubmit ) {
			this.on( "submit.validate", function( event ) {
				if ( validator.settings.debug ) {
					event.preventDefault();
				}
				if ( !validator.form() ) {
					validator.focusInvalid();
					event.preventDefault();
					return false;
				}
				return validator.settings.submitHandler ?
					validator.settings.submitHandler.call( validator, validator.currentForm, event ) : true;
			} );
		}
		return validator;
	},

	// The rules of an element: data-rule-* attributes and the rules set on the form
	rules: function() {
		var element = this[ 0 ], rules = {}, validator = $.data( element.form, "validator" );
		$.each( $.validator.methods, function( method ) {
			var value = $( element ).data( "rule" + method.charAt( 0 ).toUpperCase() + method.substring( 1 ).toLowerCase() );
			if ( value !== undefined ) {
				rules[ method ] = value === "" ? true : value;
			}
		} );
		return $.extend( rules, validator && validator.settings.rules[ element.name ] );
	}
} );

// Constructor for the validator of one form
$.validator = function( options, form ) {
	this.settings = $.extend( true, {}, $.validator.defaults, options );
	this.currentForm = form;
	this.init();
};

// Fill "{0}", "{1}" ... in a message template; given the template alone,
// return a function that fills it in later
$.validator.format = function( template ) {
	var args = Array.prototype.slice.call( arguments, 1 );
	if ( !args.length ) {
		return function() {
			return $.validator.format.apply( this, [ template ].concat( Array.prototype.slice.call( arguments ) ) );
		};
	}
	if ( args.length === 1 && Array.isArray( args[ 0 ] ) ) {
		args = args[ 0 ];
	}
	return template.replace( /\{(\d+)\}/g, function( all, n ) {
		return n < args.length ? args[ n ] : all;
	} );
};

$.extend( $.validator, {

	defaults: {
		messages: {},
		rules: {},
		errorClass: "error",
		validClass: "valid",
		errorElement: "label",
		focusInvalid: true,
		errorContainer: $( [] ),
		errorLabelContainer: $( [] ),
		onsubmit: true,
		ignore: ":hidden",
		// Check a field as it loses focus, once it holds a value or the
		// form has been submitted
		onfocusout: function( element ) {
			if ( this.checkable( element ) ) {
				return;
			}
			if ( this.submitted[ element.name ] !== undefined || this.elementValue( element ) !== "" ) {
				this.element( element );
			}
		},
		highlight: function( element, errorClass, validClass ) {
			$( element ).addClass( errorClass ).removeClass( validClass );
		},
		unhighlight: function( element, errorClass, validClass ) {
			$( element ).removeClass( errorClass ).addClass( validClass );
		}
	},

	setDefaults: function( settings ) {
		$.extend( $.validator.defaults, settings );
	},

	messages: {
		required: "This field is required.",
		email: "This is not an email address.",
		date: "This is not a date.",
		dateISO: "Enter the date as YYYY-MM-DD.",
		number: "This is not a number.",
		equalTo: "The two values differ.",
		maxlength: $.validator.format( "At most {0} characters." ),
		minlength: $.validator.format( "At least {0} characters." ),
		rangelength: $.validator.format( "Between {0} and {1} characters." ),
		range: $.validator.format( "A value from {0} to {1}." ),
		max: $.validator.format( "At most {0}." ),
		min: $.validator.format( "At least {0}." )
	},

	autoCreateRanges: false,

	prototype: {

		init: function() {
			this.submitted = {};
			this.invalid = {};
			this.pending = {};
			this.errorList = [];
			this.successList = [];
			this.reset();
		},

		// Validate every field of the form; show the errors; true if none failed
		form: function() {
			this.checkForm();
			$.extend( this.submitted, this.errorMap );
			this.invalid = $.extend( {}, this.errorMap );
			if ( !this.valid() ) {
				$( this.currentForm ).trigger( "invalid-form" );
			}
			this.showErrors();
			return this.valid();
		},

		checkForm: function() {
			this.prepareForm();
			for ( var i = 0, elements = ( this.currentElements = this.elements() ); elements[ i ]; i++ ) {
				this.check( elements[ i ] );
			}
			return this.valid();
		},

		// Validate one field, on focusout or keyup
		element: function( element ) {
			var result;
			this.prepareElement( element );
			this.currentElements = $( element );
			result = this.check( element ) !== false;
			if ( result ) {
				delete this.invalid[ element.name ];
			} else {
				this.invalid[ element.name ] = true;
			}
			this.showErrors();
			return result;
		},

		showErrors: function( errors ) {
			if ( errors ) {
				var validator = this;
				$.extend( this.errorMap, errors );
				this.errorList = $.map( this.errorMap, function( message, name ) {
					return { message: message, element: validator.findByName( name )[ 0 ] };
				} );
			}
			if ( this.settings.showErrors ) {
				this.settings.showErrors.call( this, this.errorMap, this.errorList );
			} else {
				this.defaultShowErrors();
			}
		},

		resetForm: function() {
			this.invalid = {};
			this.submitted = {};
			this.prepareForm();
			this.hideErrors();
			$( this.currentForm ).find( "input, select, textarea" ).removeClass( this.settings.errorClass );
		},

		numberOfInvalids: function() {
			var count = 0, i;
			for ( i in this.invalid ) {
				if ( this.invalid[ i ] ) {
					count++;
				}
			}
			return count;
		},

		valid: function() {
			return this.errorList.length === 0;
		},

		focusInvalid: function() {
			if ( this.settings.focusInvalid && this.errorList.length ) {
				try {
					this.errorList[ 0 ].element.focus();
				} catch ( e ) {

					// A field hidden since it was checked cannot take focus
				}
			}
		},

		elements: function() {
			var rulesCache = {};
			return $( this.currentForm ).find( "input, select, textarea, [contenteditable]" )
				.not( ":submit, :reset, :image, :disabled" )
				.not( this.settings.ignore )
				.filter( function() {
					var name = this.name || $( this ).attr( "name" );
					if ( !name || name in rulesCache ) {
						return false;
					}
					rulesCache[ name ] = true;
					return true;
				} );
		},

		reset: function() {
			this.successList = [];
			this.errorList = [];
			this.errorMap = {};
		},

		prepareForm: function() {
			this.reset();
		},

		prepareElement: function( element ) {
			this.reset();
		},

		elementValue: function( element ) {
			var val = $( element ).val();
			return typeof val === "string" ? val.replace( /\r/g, "" ) : val;
		},

		// Run every rule of an element; record the first that fails
		check: function( element ) {
			var rules = $( element ).rules(),
				val = this.elementValue( element ),
				method, result;

			for ( method in rules ) {
				result = $.validator.methods[ method ].call( this, val, element, rules[ method ] );
				if ( result === "skip-empty" ) {
					continue;
				}
				if ( !result ) {
					this.formatAndAdd( element, { method: method, parameters: rules[ method ] } );
					return false;
				}
			}
			this.successList.push( element );
			return true;
		},

		formatAndAdd: function( element, rule ) {
			var message = $( element ).data( "msg-" + rule.method.toLowerCase() ) ||
				$.validator.messages[ rule.method ];
			if ( typeof message === "function" ) {
				message = message.call( this, rule.parameters, element );
			}
			this.errorList.push( { message: message, element: element, method: rule.method } );
			this.errorMap[ element.name ] = message;
		},

		defaultShowErrors: function() {
			var i, error;
			for ( i = 0; this.errorList[ i ]; i++ ) {
				error = this.errorList[ i ];
				this.settings.highlight.call( this, error.element, this.settings.errorClass, this.settings.validClass );
				this.showLabel( error.element, error.message );
			}
			for ( i = 0; this.successList[ i ]; i++ ) {
				this.settings.unhighlight.call( this, this.successList[ i ], this.settings.errorClass, this.settings.validClass );
			}
		},

		optional: function( element ) {
			var val = this.elementValue( element );
			return !$.validator.methods.required.call( this, val, element ) && "skip-empty";
		},

		showLabel: function( element, message ) {
			var label = $( this.currentForm ).find( this.settings.errorElement + "[for='" + element.id + "']" );
			if ( !label.length ) {
				label = $( document.createElement( this.settings.errorElement ) );
				label.attr( "for", element.id ).addClass( this.settings.errorClass );
				element.parentNode.insertBefore( label[ 0 ], element.nextSibling );
			}
			label[ 0 ].textContent = message || "";
		},

		hideErrors: function() {
			$( this.currentForm ).find( this.settings.errorElement + "." + this.settings.errorClass ).each( function() {
				this.textContent = "";
			} );
		},

		findByName: function( name ) {
			return $( this.currentForm ).find( "[name='" + name + "']" );
		},

		checkable: function( element ) {
			return ( /radio|checkbox/i ).test( element.type );
		}
	},

	// Add a validation method: a name, a function( value, element, param )
	// returning true when the value is valid, and the default error message
	addMethod: function( name, method, message ) {
		$.validator.methods[ name ] = method;
		$.validator.messages[ name ] = message !== undefined ? message : $.validator.messages[ name ];
	},

	methods: {

		required: function( value, element, param ) {
			if ( element.nodeName.toLowerCase() === "select" ) {
				var val = $( element ).val();
				return val && val.length > 0;
			}
			if ( this.checkable( element ) ) {
				return element.checked;
			}
			return value !== undefined && value !== null && value.length > 0;
		},

		email: function( value, element ) {
			return this.optional( element ) || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test( value );
		},

		// Any date the browser's Date parser accepts; lenient by design, so
		// a form that needs one format uses dateISO instead
		date: function( value, element ) {
			return this.optional( element ) || !isNaN( new Date( value ).getTime() );
		},

		dateISO: function( value, element ) {
			var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec( value );
			return this.optional( element ) || !!m && +m[ 2 ] >= 1 && +m[ 2 ] <= 12 && +m[ 3 ] >= 1 && +m[ 3 ] <= 31;
		},

		number: function( value, element ) {
			return this.optional( element ) || value.trim() !== "" && isFinite( +value );
		},

		minlength: function( value, element, param ) {
			return this.optional( element ) || value.length >= param;
		},

		maxlength: function( value, element, param ) {
			return this.optional( element ) || value.length <= param;
		},

		range: function( value, element, param ) {
			return this.optional( element ) || ( value >= param[ 0 ] && value <= param[ 1 ] );
		},

		min: function( value, element, param ) {
			return this.optional( element ) || value >= param;
		},

		max: function( value, element, param ) {
			return this.optional( element ) || value <= param;
		},

		equalTo: function( value, element, param ) {
			return value === $( param ).val();
		}
	}
} );

return $;
}));
