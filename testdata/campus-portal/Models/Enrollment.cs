namespace CampusPortal.Models;

public enum Grade { A, B, C, D, F }

public class Enrollment
{
    public int Id { get; set; }
    public int LearnerId { get; set; }
    public int CourseId { get; set; }
    public Grade? Grade { get; set; }
    public Learner? Learner { get; set; }
    public Course? Course { get; set; }
}
