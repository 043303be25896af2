using ContosoApi.Requests;
using FluentValidation;

namespace ContosoApi.Validators;

public class EnrollmentRequestValidator : AbstractValidator<EnrollmentRequest>
{
    public EnrollmentRequestValidator()
    {
        RuleFor(x => x.StudentId).GreaterThan(0);
        RuleFor(x => x.CourseId).GreaterThan(0);
        RuleFor(x => x.Grade).IsInEnum().When(x => x.Grade.HasValue);
    }
}
