using ContosoApi.Requests;
using FluentValidation;

namespace ContosoApi.Validators;

public class PageRequestValidator : AbstractValidator<PageRequest>
{
    public const int MaxPageSize = 100;

    public PageRequestValidator()
    {
        RuleFor(x => x.Page).GreaterThanOrEqualTo(0);

        RuleFor(x => x.PageSize)
            .InclusiveBetween(1, MaxPageSize)
            .WithMessage($"'{{PropertyName}}' must be between 1 and {MaxPageSize}.");
    }
}
