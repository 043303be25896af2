/**
 * @license
 * Unobtrusive validation support library for jQuery and jQuery Validate
 * Copyright (c) .NET Foundation. All rights reserved.
 * Licensed under the MIT License. See License.txt in the project root for license information.
 * @version v4.0.0
 */

/*global document: false, jQuery: false */

(function (factory) {
    if (typeof define === "function" && define.amd) {
        define("jquery.validate.unobtrusive", ["jquery-validation"], factory);
    } else if (typeof module === "object" && module.exports) {
        module.exports = factory(require("jquery-validation"));
    } else {
        jQuery.validator.unobtrusive = factory(jQuery);
    }
}(function ($) {
    "use strict";

    // The server renders each rule of a field as data-val-<rule>="message",
    // with the rule's parameters as data-val-<rule>-<param>="value". An
    // adapter turns one such rule into a jQuery Validate rule and message.

    var validator = $.validator,
        formDataKey = "unobtrusiveValidation",
        resetting = "unobtrusiveValidationResetting";

    function quoteForSelector(name) {
        return name.replace(/[^\w-]/g, function (c) { return "\\" + c; });
    }

    function messageSpans(form, name) {
        return $(form).find("[data-valmsg-for='" + quoteForSelector(name) + "']");
    }

    // "*.Password" names a sibling field of the same model: "Student.Password"
    function resolveSibling(fieldName, other) {
        var prefix = fieldName.slice(0, fieldName.lastIndexOf(".") + 1);
        return other.indexOf("*.") === 0 ? prefix + other.slice(2) : other;
    }

    function setRule(options, rule, value) {
        options.rules[rule] = value;
        if (options.message) {
            options.messages[rule] = options.message;
        }
    }

    // errorPlacement: put the error label inside the field's message span
    // (data-valmsg-replace="true") or leave the span's own text showing
    function placeError(error, input) {
        var span = messageSpans(input.form, input.name),
            replace = span.attr("data-valmsg-replace") !== "false";

        span.removeClass("field-validation-valid").addClass("field-validation-error");
        error.data("messageSpan", span);
        if (replace) {
            span[0].textContent = "";
            error.removeClass("input-validation-error").appendTo(span);
        } else {
            error.hide();
        }
    }

    // success: the field passed, clear its message span
    function clearError(error) {
        var span = error.data("messageSpan");
        if (!span) {
            return;
        }
        span.addClass("field-validation-valid").removeClass("field-validation-error");
        if (span.attr("data-valmsg-replace") !== "false") {
            span[0].textContent = "";
        }
        error.removeData("messageSpan");
    }

    // invalidHandler: list every error in the form's validation summary
    function fillSummary(event, formValidator) {
        var summary = $(this).find("[data-valmsg-summary=true]"),
            list = summary.find("ul")[0];

        if (!list || !formValidator.errorList.length) {
            return;
        }
        summary.addClass("validation-summary-errors").removeClass("validation-summary-valid");
        list.innerHTML = "";
        formValidator.errorList.forEach(function (error) {
            var item = document.createElement("li");
            item.textContent = error.message;
            list.appendChild(item);
        });
    }

    function resetForm() {
        var $form = $(this);
        if ($form.data(resetting)) {
            return;
        }
        $form.data(resetting, true);
        try {
            $form.data("validator").resetForm();
        } finally {
            $form.removeData(resetting);
        }
        $form.find(".validation-summary-errors").addClass("validation-summary-valid").removeClass("validation-summary-errors");
        $form.find(".field-validation-error").addClass("field-validation-valid").removeClass("field-validation-error");
    }

    // The validate() options of a form, kept on the form so that the rules
    // of fields parsed later join those already there
    function formState(form) {
        var $form = $(form),
            state = $form.data(formDataKey),
            user = validator.unobtrusive.options || {};

        function chain(own, name) {
            return function () {
                own.apply(form, arguments);
                if (typeof user[name] === "function") {
                    user[name].apply(form, arguments);
                }
            };
        }

        if (state) {
            return state;
        }
        state = {
            options: {
                errorClass: user.errorClass || "input-validation-error",
                errorElement: user.errorElement || "span",
                errorPlacement: chain(placeError, "errorPlacement"),
                invalidHandler: chain(fillSummary, "invalidHandler"),
                success: chain(clearError, "success"),
                rules: {},
                messages: {}
            },
            attach: function () {
                $form.off("reset." + formDataKey).on("reset." + formDataKey, resetForm);
                $form.validate(this.options);
            }
        };
        $form.data(formDataKey, state);
        return state;
    }

    var adapters = [];

    adapters.add = function (name, params, adapt) {
        if (!adapt) {
            adapt = params;
            params = [];
        }
        this.push({ name: name, params: params, adapt: adapt });
        return this;
    };

    // A rule without parameters: data-val-email="..."
    adapters.addBool = function (name, rule) {
        return this.add(name, function (options) {
            setRule(options, rule || name, true);
        });
    };

    // A rule with one parameter: data-val-regex-pattern="^\d+$"
    adapters.addSingleVal = function (name, param, rule) {
        return this.add(name, [param || "val"], function (options) {
            setRule(options, rule || name, options.params[param || "val"]);
        });
    };

    // A bound below, above or both: data-val-range-min, data-val-range-max
    adapters.addMinMax = function (name, minRule, maxRule, bothRule, minParam, maxParam) {
        minParam = minParam || "min";
        maxParam = maxParam || "max";
        return this.add(name, [minParam, maxParam], function (options) {
            var min = options.params[minParam], max = options.params[maxParam];
            if (min && max) {
                setRule(options, bothRule, [min, max]);
            } else if (min) {
                setRule(options, minRule, min);
            } else if (max) {
                setRule(options, maxRule, max);
            }
        });
    };

    validator.addMethod("regex", function (value, element, pattern) {
        if (this.optional(element)) {
            return true;
        }
        return new RegExp("^(?:" + pattern + ")$").test(value);
    });

    adapters.addSingleVal("regex", "pattern");
    adapters.addSingleVal("extension", "extension");
    adapters.addBool("email").addBool("url").addBool("number").addBool("date").addBool("creditcard");
    adapters.addMinMax("length", "minlength", "maxlength", "rangelength");
    adapters.addMinMax("range", "min", "max", "range");
    adapters.add("equalto", ["other"], function (options) {
        var name = resolveSibling(options.element.name, options.params.other);
        setRule(options, "equalTo", $(options.form).find("[name='" + quoteForSelector(name) + "']")[0]);
    });

    // A required checkbox is a different thing (it must be ticked); the
    // server sends data-val-required for every non-nullable bool, so skip it
    adapters.add("required", function (options) {
        if (options.element.type !== "checkbox") {
            setRule(options, "required", true);
        }
    });

    validator.unobtrusive = {
        adapters: adapters,

        // Collect the rules of one field into its form's options
        parseElement: function (element, deferAttach) {
            var form = element.form, state, rules, messages;
            if (!form) {
                return;
            }
            state = formState(form);
            rules = state.options.rules[element.name] = {};
            messages = state.options.messages[element.name] = {};

            adapters.forEach(function (adapter) {
                var attr = "data-val-" + adapter.name,
                    message = element.getAttribute(attr),
                    params = {};

                // An empty message is allowed: the rule then uses the default one
                if (message === null) {
                    return;
                }
                adapter.params.forEach(function (param) {
                    params[param] = element.getAttribute(attr + "-" + param);
                });
                adapter.adapt({ element: element, form: form, message: message, params: params, rules: rules, messages: messages });
            });

            if (!deferAttach) {
                state.attach();
            }
        },

        // Parse every field marked data-val="true" under the given root (the
        // document on load, or the markup of a partial update)
        parse: function (root) {
            var forms = [];
            $(root).find("[data-val=true]").each(function () {
                validator.unobtrusive.parseElement(this, true);
                if (this.form && forms.indexOf(this.form) < 0) {
                    forms.push(this.form);
                }
            });
            forms.forEach(function (form) {
                formState(form).attach();
            });
        }
    };

    $(function () {
        validator.unobtrusive.parse(document);
    });

    return validator.unobtrusive;
}));
