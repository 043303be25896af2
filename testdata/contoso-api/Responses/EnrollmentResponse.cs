using ContosoApi.Domain;

namespace ContosoApi.Responses;

public record EnrollmentResponse(int Id, int StudentId, string StudentName, int CourseId, string CourseTitle, string? Grade)
{
    public static EnrollmentResponse From(Enrollment e) =>
        new(e.Id, e.StudentId, e.Student.FullName, e.CourseId, e.Course.Title, e.Grade?.ToString());
}
