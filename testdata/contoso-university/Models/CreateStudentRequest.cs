using System.ComponentModel.DataAnnotations;
using ContosoUniversity.Validation;

namespace ContosoUniversity.Models;

/// <summary>
/// The fields of the Create Student form. The controller validates them and
/// copies them onto a new <see cref="Student"/>.
/// </summary>
public class CreateStudentRequest
{
    [Required(ErrorMessage = "Last name is required.")]
    [StringLength(50)]
    [Display(Name = "Last Name")]
    public string LastName { get; set; } = string.Empty;

    [Required(ErrorMessage = "First name is required.")]
    [StringLength(50)]
    [Display(Name = "First Name")]
    public string FirstMidName { get; set; } = string.Empty;

    [Required(ErrorMessage = "Enrollment date is required.")]
    [DataType(DataType.Date)]
    [Display(Name = "Enrollment Date")]
    [EnrollmentDate]
    public DateTime? EnrollmentDate { get; set; }

    public Student ToStudent() => new()
    {
        LastName = LastName.Trim(),
        FirstMidName = FirstMidName.Trim(),
        EnrollmentDate = EnrollmentDate!.Value.Date,
    };
}
