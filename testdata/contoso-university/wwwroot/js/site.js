// Contoso University: small enhancements on top of the server-rendered pages.

// Ask before a delete form is submitted.
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (form.classList.contains("confirm-delete") && !window.confirm("Delete this record?")) {
    event.preventDefault();
  }
});

// Put the cursor in the first field the server rejected.
document.addEventListener("DOMContentLoaded", function () {
  var invalid = document.querySelector(".input-validation-error");
  if (invalid) {
    invalid.focus();
  }
});
