namespace ContosoUniversity.Models;

/// <summary>An instructor teaching a course (the join of Instructor and Course).</summary>
public class CourseAssignment
{
    public int InstructorID { get; set; }

    public int CourseID { get; set; }

    public Instructor Instructor { get; set; } = null!;

    public Course Course { get; set; } = null!;
}
