using ContosoApi.Requests;
using FluentValidation;

namespace ContosoApi.Validators;

public class CreateStudentRequestValidator : AbstractValidator<CreateStudentRequest>
{
    public CreateStudentRequestValidator()
    {
        RuleFor(x => x.LastName).NotEmpty().MaximumLength(50);

        RuleFor(x => x.FirstMidName).NotEmpty().MaximumLength(50).WithName("First name");

        RuleFor(x => x.Email)
            .EmailAddress()
            .MaximumLength(254)
            .When(x => !string.IsNullOrEmpty(x.Email));

        RuleFor(x => x.EnrollmentDate).MustBeAValidEnrollmentDate();
    }
}
