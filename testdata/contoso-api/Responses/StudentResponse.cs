using ContosoApi.Domain;

namespace ContosoApi.Responses;

public record StudentResponse(
    int Id,
    string LastName,
    string FirstMidName,
    string FullName,
    string? Email,
    DateTime EnrollmentDate,
    int CourseCount)
{
    public static StudentResponse From(Student s) =>
        new(s.Id, s.LastName, s.FirstMidName, s.FullName, s.Email, s.EnrollmentDate, s.Enrollments.Count);
}
