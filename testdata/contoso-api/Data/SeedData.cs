using ContosoApi.Domain;

namespace ContosoApi.Data;

public static class SeedData
{
    public static void Initialize(SchoolDbContext db)
    {
        if (db.Students.Any())
        {
            return;
        }

        var courses = new[]
        {
            new Course { Id = 1050, Title = "Chemistry", Credits = 3, Department = "Engineering" },
            new Course { Id = 1045, Title = "Calculus", Credits = 4, Department = "Mathematics" },
            new Course { Id = 2021, Title = "Composition", Credits = 3, Department = "English" },
            new Course { Id = 4022, Title = "Microeconomics", Credits = 3, Department = "Economics" },
        };
        db.Courses.AddRange(courses);

        var students = new[]
        {
            new Student { FirstMidName = "Amara", LastName = "Okafor", EnrollmentDate = new DateTime(2021, 9, 1), Email = "amara.okafor@contoso.edu" },
            new Student { FirstMidName = "Lukas", LastName = "Brandt", EnrollmentDate = new DateTime(2020, 9, 1) },
            new Student { FirstMidName = "Mei", LastName = "Tanaka", EnrollmentDate = new DateTime(2022, 9, 1), Email = "mei.tanaka@contoso.edu" },
            new Student { FirstMidName = "Diego", LastName = "Herrera", EnrollmentDate = new DateTime(2023, 1, 16) },
            new Student { FirstMidName = "Sofia", LastName = "Moretti", EnrollmentDate = new DateTime(2024, 1, 15) },
        };
        db.Students.AddRange(students);
        db.SaveChanges();

        db.Enrollments.AddRange(
            new Enrollment { StudentId = students[0].Id, CourseId = 1050, Grade = Grade.A },
            new Enrollment { StudentId = students[0].Id, CourseId = 4022, Grade = Grade.C },
            new Enrollment { StudentId = students[1].Id, CourseId = 1045, Grade = Grade.B },
            new Enrollment { StudentId = students[2].Id, CourseId = 1050 },
            new Enrollment { StudentId = students[3].Id, CourseId = 2021, Grade = Grade.B },
            new Enrollment { StudentId = students[4].Id, CourseId = 1045 });
        db.SaveChanges();
    }
}
