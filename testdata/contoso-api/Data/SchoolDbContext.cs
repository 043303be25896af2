using ContosoApi.Domain;
using Microsoft.EntityFrameworkCore;

namespace ContosoApi.Data;

public class SchoolDbContext : DbContext
{
    public SchoolDbContext(DbContextOptions<SchoolDbContext> options)
        : base(options)
    {
    }

    public DbSet<Student> Students => Set<Student>();

    public DbSet<Course> Courses => Set<Course>();

    public DbSet<Enrollment> Enrollments => Set<Enrollment>();

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        modelBuilder.Entity<Student>(student =>
        {
            student.Property(s => s.LastName).HasMaxLength(50).IsRequired();
            student.Property(s => s.FirstMidName).HasMaxLength(50).IsRequired();
            student.Property(s => s.Email).HasMaxLength(254);
            student.Property(s => s.EnrollmentDate).HasColumnType("date");
            student.Ignore(s => s.FullName);
        });

        modelBuilder.Entity<Course>(course =>
        {
            course.Property(c => c.Id).ValueGeneratedNever();
            course.Property(c => c.Title).HasMaxLength(50).IsRequired();
            course.Property(c => c.Department).HasMaxLength(50);
        });

        modelBuilder.Entity<Enrollment>(enrollment =>
        {
            enrollment.HasOne(e => e.Student).WithMany(s => s.Enrollments).HasForeignKey(e => e.StudentId);
            enrollment.HasOne(e => e.Course).WithMany(c => c.Enrollments).HasForeignKey(e => e.CourseId);
            enrollment.Property(e => e.Grade).HasConversion<string>().HasMaxLength(1);
        });
    }
}
