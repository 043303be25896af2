using ContosoApi.Domain;

namespace ContosoApi.Responses;

public record CourseResponse(int Id, string Title, int Credits, string Department)
{
    public static CourseResponse From(Course c) => new(c.Id, c.Title, c.Credits, c.Department);
}
