using System.ComponentModel.DataAnnotations;
using CampusPortal.Rules;

namespace CampusPortal.Models;

public class Learner
{
    public int Id { get; set; }

    [Required, StringLength(60)]
    public string FamilyName { get; set; } = "";

    [Required, StringLength(60)]
    public string GivenName { get; set; } = "";

    [DataType(DataType.Date)]
    [NotInFuture]
    public DateTime EnrollmentDate { get; set; }

    public List<Enrollment> Enrollments { get; set; } = new();
}
