using FluentValidation;

namespace ContosoApi.Validators;

/// <summary>Rules shared by the validators of requests that carry dates.</summary>
public static class DateRules
{
    /// <summary>The university admitted its first students on 1 September 1925.</summary>
    public static readonly DateTime FoundingDate = new(1925, 9, 1);

    /// <summary>
    /// An enrollment date lies between the founding date and today, both
    /// included, and has no time of day.
    /// </summary>
    public static IRuleBuilderOptions<T, DateTime> MustBeAValidEnrollmentDate<T>(this IRuleBuilder<T, DateTime> rule)
    {
        return rule
            .NotEmpty().WithMessage("'{PropertyName}' is required.")
            .Must(date => date.TimeOfDay == TimeSpan.Zero).WithMessage("'{PropertyName}' must be a date without a time.")
            .GreaterThanOrEqualTo(FoundingDate).WithMessage($"'{{PropertyName}}' cannot be before {FoundingDate:yyyy-MM-dd}.")
            .LessThanOrEqualTo(DateTime.Today).WithMessage("'{PropertyName}' cannot be in the future.");
    }

    /// <summary>The same rules for an optional date; a missing value passes.</summary>
    public static IRuleBuilderOptions<T, DateTime?> MustBeAValidEnrollmentDate<T>(this IRuleBuilder<T, DateTime?> rule)
    {
        return rule
            .Must(date => date is null || date.Value.TimeOfDay == TimeSpan.Zero).WithMessage("'{PropertyName}' must be a date without a time.")
            .GreaterThanOrEqualTo(FoundingDate).WithMessage($"'{{PropertyName}}' cannot be before {FoundingDate:yyyy-MM-dd}.")
            .LessThanOrEqualTo(DateTime.Today).WithMessage("'{PropertyName}' cannot be in the future.");
    }
}
