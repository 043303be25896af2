namespace ContosoApi.Requests;

/// <summary>POST /api/students. Checked by CreateStudentRequestValidator.</summary>
public class CreateStudentRequest
{
    public string LastName { get; set; } = string.Empty;

    public string FirstMidName { get; set; } = string.Empty;

    public string? Email { get; set; }

    public DateTime EnrollmentDate { get; set; }
}
