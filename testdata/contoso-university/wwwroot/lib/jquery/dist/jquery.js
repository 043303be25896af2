/*!
 * jQuery JavaScript Library v3.7.1
 * https://jquery.com/
 *
 * Copyright OpenJS Foundation and other contributors
 * Released under the MIT license
 * https://jquery.org/license
 *
 * Date: 2023-08-28T13:37Z
 */
( function( global, factory ) {

	"use strict";

	if ( typeof module === "object" && typeof module.exports === "object" ) {

		// Module loaders: build jQuery now when a document exists, otherwise
		// hand back a factory that takes the window to bind to.
		module.exports = global.document ?
			factory( global, true ) :
			function( w ) {
				if ( !w.document ) {
					throw new Error( "jQuery requires a window with a document" );
				}
				return factory( w );
			};
	} else {
		factory( global );
	}

// Outside a browser, `this` stands in for the global object
} )( typeof window !== "undefined" ? window : this, function( window, noGlobal ) {

"use strict";

var arr = [],
	document = window.document,
	slice = arr.slice,
	push = arr.push,
	indexOf = arr.indexOf,
	class2type = {},
	toString = class2type.toString,
	hasOwn = class2type.hasOwnProperty,
	rnothtmlwhite = /[^\x20\t\r\n\f]+/g,
	rtrim = /^[\s\uFEFF\xA0]+|[\s\uFEFF\xA0]+$/g,
	booleans = "checked|disabled|hidden|multiple|open|readonly|required|selected",
	rboolean = new RegExp( "^(?:" + booleans + ")$", "i" ),
	version = "3.7.1";

var jQuery = function( selector, context ) {

	// Every call builds a new wrapped set through fn.init
	return new jQuery.fn.init( selector, context );
};

jQuery.fn = jQuery.prototype = {

	jquery: version,

	constructor: jQuery,

	length: 0,

	toArray: function() {
		return slice.call( this );
	},

	get: function( num ) {
		if ( num == null ) {
			return slice.call( this );
		}
		return num < 0 ? this[ num + this.length ] : this[ num ];
	},

	pushStack: function( elems ) {
		var ret = jQuery.merge( this.constructor(), elems );
		ret.prevObject = this;
		return ret;
	},

	each: function( callback ) {
		return jQuery.each( this, callback );
	},

	map: function( callback ) {
		return this.pushStack( jQuery.map( this, function( elem, i ) {
			return callback.call( elem, i, elem );
		} ) );
	},

	eq: function( i ) {
		var len = this.length,
			j = +i + ( i < 0 ? len : 0 );
		return this.pushStack( j >= 0 && j < len ? [ this[ j ] ] : [] );
	},

	first: function() {
		return this.eq( 0 );
	},

	// Determine the position of an element within the set, or of the first
	// element among its siblings when no argument is given
	index: function( elem ) {
		if ( !elem ) {
			return ( this[ 0 ] && this[ 0 ].parentNode ) ?
				indexOf.call( this[ 0 ].parentNode.children, this[ 0 ] ) : -1;
		}
		if ( typeof elem === "string" ) {
			return indexOf.call( jQuery( elem ), this[ 0 ] );
		}
		return indexOf.call( this, elem.jquery ? elem[ 0 ] : elem );
	}
};

jQuery.extend = jQuery.fn.extend = function() {
	var options, name, src, copy,
		target = arguments[ 0 ] || {},
		i = 1,
		length = arguments.length,
		deep = false;

	// A leading boolean asks for a recursive merge
	if ( typeof target === "boolean" ) {
		deep = target;
		target = arguments[ i ] || {};
		i++;
	}

	// With a single object, copy its members onto jQuery (or jQuery.fn)
	if ( i === length ) {
		target = this;
		i--;
	}

	for ( ; i < length; i++ ) {
		if ( ( options = arguments[ i ] ) != null ) {
			for ( name in options ) {
				copy = options[ name ];

				// Skip __proto__ and self references
				if ( name === "__proto__" || target === copy ) {
					continue;
				}
				src = target[ name ];
				if ( deep && copy && jQuery.isPlainObject( copy ) ) {
					target[ name ] = jQuery.extend( deep, jQuery.isPlainObject( src ) ? src : {}, copy );
				} else if ( copy !== undefined ) {
					target[ name ] = copy;
				}
			}
		}
	}
	return target;
};

jQuery.extend( {

	expando: "jQuery" + ( version + Math.random() ).replace( /\D/g, "" ),

	isReady: false,

	error: function( msg ) {
		throw new Error( msg );
	},

	noop: function() {},

	now: Date.now,

	isPlainObject: function( obj ) {
		var proto;
		if ( !obj || toString.call( obj ) !== "[object Object]" ) {
			return false;
		}
		proto = Object.getPrototypeOf( obj );
		return !proto || hasOwn.call( proto, "constructor" ) && proto.constructor === Object;
	},

	isEmptyObject: function( obj ) {
		var name;
		for ( name in obj ) {
			return false;
		}
		return true;
	},

	each: function( obj, callback ) {
		var i = 0, key;
		if ( obj.length !== undefined ) {
			for ( ; i < obj.length; i++ ) {
				if ( callback.call( obj[ i ], i, obj[ i ] ) === false ) {
					break;
				}
			}
		} else {
			for ( key in obj ) {
				if ( callback.call( obj[ key ], key, obj[ key ] ) === false ) {
					break;
				}
			}
		}
		return obj;
	},

	map: function( elems, callback ) {
		var i, value, ret = [];
		for ( i = 0; i < elems.length; i++ ) {
			value = callback( elems[ i ], i );
			if ( value != null ) {
				ret.push( value );
			}
		}
		return ret;
	},

	merge: function( first, second ) {
		var len = +second.length, j = 0, i = first.length;
		for ( ; j < len; j++ ) {
			first[ i++ ] = second[ j ];
		}
		first.length = i;
		return first;
	},

	trim: function( text ) {
		return text == null ? "" : ( text + "" ).replace( rtrim, "" );
	}
} );

var init = jQuery.fn.init = function( selector, context ) {
	var elems;

	// Nothing to wrap: an empty set
	if ( !selector ) {
		return this;
	}

	if ( typeof selector === "string" ) {
		elems = ( context && context.querySelectorAll ? context : document ).querySelectorAll( selector );
		return jQuery.merge( this, elems );
	}

	// A single node
	if ( selector.nodeType ) {
		this[ 0 ] = selector;
		this.length = 1;
		return this;
	}

	// A function runs once the document is ready
	if ( typeof selector === "function" ) {
		return jQuery.ready.then( selector );
	}

	return jQuery.merge( this, selector );
};

init.prototype = jQuery.fn;

// Data: values stored on elements under the expando, plus data-* attributes
function dataStore( elem ) {
	return elem[ jQuery.expando ] || ( elem[ jQuery.expando ] = {} );
}

function camelCase( string ) {
	return string.replace( /-([a-z])/g, function( all, letter ) {
		return letter.toUpperCase();
	} );
}

jQuery.fn.extend( {
	data: function( key, value ) {
		var elem = this[ 0 ], store, attr;
		if ( !elem ) {
			return undefined;
		}
		store = dataStore( elem );
		if ( value === undefined ) {
			key = camelCase( key );
			if ( key in store ) {
				return store[ key ];
			}
			attr = elem.getAttribute( "data-" + key.replace( /[A-Z]/g, "-$&" ).toLowerCase() );
			return attr === null ? undefined : attr;
		}
		return this.each( function() {
			dataStore( this )[ camelCase( key ) ] = value;
		} );
	},

	attr: function( name, value ) {
		if ( value === undefined ) {
			var elem = this[ 0 ];
			if ( !elem ) {
				return undefined;
			}
			if ( rboolean.test( name ) ) {
				return elem.hasAttribute( name ) ? name.toLowerCase() : undefined;
			}
			var ret = elem.getAttribute( name );
			return ret == null ? undefined : ret;
		}
		return this.each( function() {
			this.setAttribute( name, value );
		} );
	},

	val: function() {
		var elem = this[ 0 ];
		return elem ? elem.value : undefined;
	},

	addClass: function( value ) {
		var classes = ( value || "" ).match( rnothtmlwhite ) || [];
		return this.each( function() {
			this.classList.add.apply( this.classList, classes );
		} );
	},

	removeClass: function( value ) {
		var classes = ( value || "" ).match( rnothtmlwhite ) || [];
		return this.each( function() {
			this.classList.remove.apply( this.classList, classes );
		} );
	}
} );

// Events
jQuery.event = {

	// The properties copied from a native event onto the wrapped one
	props: "altKey bubbles ctrlKey currentTarget key metaKey pageX pageY " +
		"relatedTarget shiftKey target timeStamp type which",

	// Copy the props a handler reads from the native event onto a writable
	// event object. Work around a Safari bug: the target can be a text node.
	fix: function( originalEvent ) {
		var event = { originalEvent: originalEvent, isDefaultPrevented: false };
		jQuery.each( jQuery.event.props.split( " " ), function( i, prop ) {
			event[ prop ] = originalEvent[ prop ];
		} );
		if ( event.target && event.target.nodeType === 3 ) {
			event.target = event.target.parentNode;
		}
		event.preventDefault = function() {
			event.isDefaultPrevented = true;
			originalEvent.preventDefault();
		};
		return event;
	}
};

jQuery.fn.extend( {
	on: function( types, handler ) {
		return this.each( function() {
			var elem = this;
			jQuery.each( types.split( " " ), function( i, type ) {
				elem.addEventListener( type.split( "." )[ 0 ], function( e ) {
					return handler.call( elem, jQuery.event.fix( e ) );
				} );
			} );
		} );
	},

	trigger: function( type ) {
		return this.each( function() {
			this.dispatchEvent( new window.Event( type, { bubbles: true, cancelable: true } ) );
		} );
	}
} );

// Resolved once, when the DOM is ready
jQuery.ready = new Promise( function( resolve ) {
	if ( document.readyState !== "loading" ) {
		window.setTimeout( resolve );
	} else {
		document.addEventListener( "DOMContentLoaded", function() {
			jQuery.isReady = true;
			resolve( jQuery );
		} );
	}
} );

if ( typeof noGlobal === "undefined" ) {
	window.jQuery = window.$ = jQuery;
}

return jQuery;
} );
