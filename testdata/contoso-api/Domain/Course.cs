namespace ContosoApi.Domain;

public class Course
{
    /// <summary>The course number, e.g. 1050; assigned by the registrar, not generated.</summary>
    public int Id { get; set; }

    public string Title { get; set; } = string.Empty;

    public int Credits { get; set; }

    public string Department { get; set; } = string.Empty;

    public List<Enrollment> Enrollments { get; set; } = new();
}
