namespace ContosoApi.Requests;

/// <summary>
/// PATCH /api/students/{id}: only the fields that are present change.
/// Checked by UpdateStudentRequestValidator.
/// </summary>
public class UpdateStudentRequest
{
    public string? LastName { get; set; }

    public string? FirstMidName { get; set; }

    public string? Email { get; set; }

    public DateTime? EnrollmentDate { get; set; }
}
