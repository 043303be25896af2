using ContosoApi.Domain;

namespace ContosoApi.Requests;

/// <summary>POST /api/enrollments: enroll a student in a course.</summary>
public class EnrollmentRequest
{
    public int StudentId { get; set; }

    public int CourseId { get; set; }

    public Grade? Grade { get; set; }
}
