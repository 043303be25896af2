using ContosoApi.Requests;
using FluentValidation;

namespace ContosoApi.Validators;

public class UpdateStudentRequestValidator : AbstractValidator<UpdateStudentRequest>
{
    public UpdateStudentRequestValidator()
    {
        RuleFor(x => x)
            .Must(x => x.LastName != null || x.FirstMidName != null || x.Email != null || x.EnrollmentDate != null)
            .WithName("Request")
            .WithMessage("Nothing to update.");

        RuleFor(x => x.LastName).NotEmpty().MaximumLength(50).When(x => x.LastName != null);

        RuleFor(x => x.FirstMidName).NotEmpty().MaximumLength(50).WithName("First name").When(x => x.FirstMidName != null);

        RuleFor(x => x.Email).EmailAddress().MaximumLength(254).When(x => !string.IsNullOrEmpty(x.Email));

        RuleFor(x => x.EnrollmentDate).MustBeAValidEnrollmentDate();
    }
}
