using ContosoUniversity.Models;

namespace ContosoUniversity.Data;

/// <summary>Seeds an empty database with a term's worth of sample data.</summary>
public static class DbInitializer
{
    public static void Initialize(SchoolContext context)
    {
        context.Database.EnsureCreated();

        if (context.Students.Any())
        {
            return;
        }

        var students = new[]
        {
            new Student { FirstMidName = "Amara",   LastName = "Okafor",    EnrollmentDate = new DateTime(2021, 9, 1) },
            new Student { FirstMidName = "Lukas",   LastName = "Brandt",    EnrollmentDate = new DateTime(2020, 9, 1) },
            new Student { FirstMidName = "Mei",     LastName = "Tanaka",    EnrollmentDate = new DateTime(2022, 9, 1) },
            new Student { FirstMidName = "Diego",   LastName = "Herrera",   EnrollmentDate = new DateTime(2021, 9, 1) },
            new Student { FirstMidName = "Priya",   LastName = "Raman",     EnrollmentDate = new DateTime(2023, 1, 16) },
            new Student { FirstMidName = "Jonas",   LastName = "Lindqvist", EnrollmentDate = new DateTime(2022, 9, 1) },
            new Student { FirstMidName = "Fatima",  LastName = "Haddad",    EnrollmentDate = new DateTime(2023, 9, 4) },
            new Student { FirstMidName = "Connor",  LastName = "Walsh",     EnrollmentDate = new DateTime(2019, 9, 2) },
            new Student { FirstMidName = "Sofia",   LastName = "Moretti",   EnrollmentDate = new DateTime(2024, 1, 15) },
        };
        context.Students.AddRange(students);
        context.SaveChanges();

        var instructors = new[]
        {
            new Instructor { FirstMidName = "Helen",  LastName = "Achterberg", HireDate = new DateTime(2004, 8, 16) },
            new Instructor { FirstMidName = "Samuel", LastName = "Osei",       HireDate = new DateTime(2011, 1, 10) },
            new Instructor { FirstMidName = "Ingrid", LastName = "Novak",      HireDate = new DateTime(2015, 8, 24) },
            new Instructor { FirstMidName = "Rafael", LastName = "Quintero",   HireDate = new DateTime(2009, 9, 1) },
            new Instructor { FirstMidName = "Grace",  LastName = "Whitfield",  HireDate = new DateTime(2018, 1, 8) },
        };
        context.Instructors.AddRange(instructors);
        context.SaveChanges();

        var departments = new[]
        {
            new Department { Name = "English",     Budget = 350000, StartDate = new DateTime(1925, 9, 1), InstructorID = instructors[0].ID },
            new Department { Name = "Mathematics", Budget = 420000, StartDate = new DateTime(1925, 9, 1), InstructorID = instructors[1].ID },
            new Department { Name = "Engineering", Budget = 610000, StartDate = new DateTime(1958, 9, 1), InstructorID = instructors[2].ID },
            new Department { Name = "Economics",   Budget = 280000, StartDate = new DateTime(1971, 9, 1), InstructorID = instructors[3].ID },
        };
        context.Departments.AddRange(departments);
        context.SaveChanges();

        var courses = new[]
        {
            new Course { CourseID = 1050, Title = "Chemistry",         Credits = 3, DepartmentID = departments[2].DepartmentID },
            new Course { CourseID = 4022, Title = "Microeconomics",    Credits = 3, DepartmentID = departments[3].DepartmentID },
            new Course { CourseID = 4041, Title = "Macroeconomics",    Credits = 3, DepartmentID = departments[3].DepartmentID },
            new Course { CourseID = 1045, Title = "Calculus",          Credits = 4, DepartmentID = departments[1].DepartmentID },
            new Course { CourseID = 3141, Title = "Trigonometry",      Credits = 4, DepartmentID = departments[1].DepartmentID },
            new Course { CourseID = 2021, Title = "Composition",       Credits = 3, DepartmentID = departments[0].DepartmentID },
            new Course { CourseID = 2042, Title = "Modern Literature", Credits = 4, DepartmentID = departments[0].DepartmentID },
        };
        context.Courses.AddRange(courses);
        context.SaveChanges();

        context.OfficeAssignments.AddRange(
            new OfficeAssignment { InstructorID = instructors[1].ID, Location = "Hollis 17" },
            new OfficeAssignment { InstructorID = instructors[2].ID, Location = "Gower 27" },
            new OfficeAssignment { InstructorID = instructors[3].ID, Location = "Thornton 304" });

        context.CourseAssignments.AddRange(
            new CourseAssignment { CourseID = 1050, InstructorID = instructors[2].ID },
            new CourseAssignment { CourseID = 1050, InstructorID = instructors[4].ID },
            new CourseAssignment { CourseID = 4022, InstructorID = instructors[3].ID },
            new CourseAssignment { CourseID = 4041, InstructorID = instructors[3].ID },
            new CourseAssignment { CourseID = 1045, InstructorID = instructors[1].ID },
            new CourseAssignment { CourseID = 3141, InstructorID = instructors[1].ID },
            new CourseAssignment { CourseID = 2021, InstructorID = instructors[0].ID },
            new CourseAssignment { CourseID = 2042, InstructorID = instructors[0].ID });
        context.SaveChanges();

        context.Enrollments.AddRange(
            new Enrollment { StudentID = students[0].ID, CourseID = 1050, Grade = Grade.A },
            new Enrollment { StudentID = students[0].ID, CourseID = 4022, Grade = Grade.C },
            new Enrollment { StudentID = students[0].ID, CourseID = 4041, Grade = Grade.B },
            new Enrollment { StudentID = students[1].ID, CourseID = 1045, Grade = Grade.B },
            new Enrollment { StudentID = students[1].ID, CourseID = 3141, Grade = Grade.F },
            new Enrollment { StudentID = students[1].ID, CourseID = 2021, Grade = Grade.F },
            new Enrollment { StudentID = students[2].ID, CourseID = 1050 },
            new Enrollment { StudentID = students[3].ID, CourseID = 1050 },
            new Enrollment { StudentID = students[3].ID, CourseID = 4022, Grade = Grade.F },
            new Enrollment { StudentID = students[4].ID, CourseID = 4041, Grade = Grade.C },
            new Enrollment { StudentID = students[5].ID, CourseID = 1045 },
            new Enrollment { StudentID = students[6].ID, CourseID = 3141, Grade = Grade.A },
            new Enrollment { StudentID = students[7].ID, CourseID = 2042, Grade = Grade.B });
        context.SaveChanges();
    }
}
