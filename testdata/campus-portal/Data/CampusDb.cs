using CampusPortal.Models;
using Microsoft.EntityFrameworkCore;

namespace CampusPortal.Data;

public class CampusDb : DbContext
{
    public CampusDb(DbContextOptions<CampusDb> options) : base(options) { }

    public DbSet<Learner> Learners => Set<Learner>();
    public DbSet<Course> Courses => Set<Course>();
    public DbSet<Enrollment> Enrollments => Set<Enrollment>();
}
