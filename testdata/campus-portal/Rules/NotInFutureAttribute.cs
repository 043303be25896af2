using System.ComponentModel.DataAnnotations;

namespace CampusPortal.Rules;

/// <summary>
/// Rejects a moment that lies after the present one. Applied to properties
/// recording when something happened, which cannot be later than now.
/// </summary>
[AttributeUsage(AttributeTargets.Property)]
public sealed class NotInFutureAttribute : ValidationAttribute
{
    protected override ValidationResult? IsValid(object? value, ValidationContext context)
    {
        if (value is DateTime when && when >= DateTime.Today)
        {
            return new ValidationResult($"{context.DisplayName} cannot be later than today.");
        }
        return ValidationResult.Success;
    }
}
