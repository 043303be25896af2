namespace ContosoApi.Domain;

public class Student
{
    public int Id { get; set; }

    public string LastName { get; set; } = string.Empty;

    public string FirstMidName { get; set; } = string.Empty;

    public string? Email { get; set; }

    public DateTime EnrollmentDate { get; set; }

    public List<Enrollment> Enrollments { get; set; } = new();

    public string FullName => $"{FirstMidName} {LastName}";
}
