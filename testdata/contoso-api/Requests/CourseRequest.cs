namespace ContosoApi.Requests;

/// <summary>POST /api/courses and PUT /api/courses/{id}. Checked by CourseValidator.</summary>
public class CourseRequest
{
    public int Id { get; set; }

    public string Title { get; set; } = string.Empty;

    public int Credits { get; set; }

    public string Department { get; set; } = string.Empty;
}
