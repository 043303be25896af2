namespace ContosoUniversity.Models.SchoolViewModels;

/// <summary>
/// The Instructors page: every instructor, and for the selected one the
/// courses they teach and, for the selected course, its enrollments.
/// </summary>
public class InstructorIndexData
{
    public IEnumerable<Instructor> Instructors { get; set; } = Enumerable.Empty<Instructor>();

    public IEnumerable<Course> Courses { get; set; } = Enumerable.Empty<Course>();

    public IEnumerable<Enrollment> Enrollments { get; set; } = Enumerable.Empty<Enrollment>();
}
