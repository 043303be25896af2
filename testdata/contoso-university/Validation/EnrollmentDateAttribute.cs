using System.ComponentModel.DataAnnotations;

namespace ContosoUniversity.Validation;

/// <summary>
/// Validates an enrollment date: it may not lie in the future (a student may
/// enroll today) nor before the year the university was founded. A missing
/// value is left to [Required].
/// </summary>
[AttributeUsage(AttributeTargets.Property | AttributeTargets.Field | AttributeTargets.Parameter)]
public sealed class EnrollmentDateAttribute : ValidationAttribute
{
    /// <summary>The university admitted its first students in 1925.</summary>
    public const int FoundingYear = 1925;

    public EnrollmentDateAttribute()
        : base("{0} must be a date between " + FoundingYear + " and today.")
    {
    }

    /// <summary>The first year a student may have enrolled in.</summary>
    public int MinimumYear { get; set; } = FoundingYear;

    protected override ValidationResult? IsValid(object? value, ValidationContext validationContext)
    {
        if (value is null)
        {
            return ValidationResult.Success;
        }

        var members = validationContext.MemberName is { } name ? new[] { name } : null;
        if (value is not DateTime date)
        {
            return new ValidationResult(FormatErrorMessage(validationContext.DisplayName), members);
        }

        var today = DateTime.Today;
        if (date >= today)
        {
            return new ValidationResult($"{validationContext.DisplayName} cannot be in the future.", members);
        }

        if (date.Year < MinimumYear)
        {
            return new ValidationResult($"{validationContext.DisplayName} cannot be before {MinimumYear}.", members);
        }

        return ValidationResult.Success;
    }
}
