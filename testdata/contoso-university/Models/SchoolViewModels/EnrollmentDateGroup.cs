using System.ComponentModel.DataAnnotations;

namespace ContosoUniversity.Models.SchoolViewModels;

/// <summary>How many students enrolled on a given day (the About page).</summary>
public class EnrollmentDateGroup
{
    [DataType(DataType.Date)]
    [Display(Name = "Enrollment Date")]
    public DateTime? EnrollmentDate { get; set; }

    [Display(Name = "Students")]
    public int StudentCount { get; set; }
}
