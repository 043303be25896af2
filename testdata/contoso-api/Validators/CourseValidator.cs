using ContosoApi.Requests;
using FluentValidation;

namespace ContosoApi.Validators;

public class CourseValidator : AbstractValidator<CourseRequest>
{
    public static readonly string[] Departments = { "Economics", "Engineering", "English", "Mathematics" };

    public CourseValidator()
    {
        RuleFor(x => x.Id)
            .InclusiveBetween(1000, 9999)
            .WithMessage("The course number has four digits.");

        RuleFor(x => x.Title).NotEmpty().Length(3, 50);

        RuleFor(x => x.Credits).InclusiveBetween(0, 5);

        RuleFor(x => x.Department)
            .NotEmpty()
            .Must(d => Departments.Contains(d))
            .WithMessage(x => $"'{x.Department}' is not a department.");
    }
}
