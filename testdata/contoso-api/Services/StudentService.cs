using ContosoApi.Data;
using ContosoApi.Domain;
using ContosoApi.Requests;
using ContosoApi.Responses;
using Microsoft.EntityFrameworkCore;

namespace ContosoApi.Services;

/// <summary>The student operations behind /api/students. Requests reach it validated.</summary>
public class StudentService
{
    private readonly SchoolDbContext _db;
    private readonly ILogger<StudentService> _logger;

    public StudentService(SchoolDbContext db, ILogger<StudentService> logger)
    {
        _db = db;
        _logger = logger;
    }

    public Task<PagedResponse<StudentResponse>> ListAsync(PageRequest page, string? search, CancellationToken ct)
    {
        var students = _db.Students.AsNoTracking();
        if (!string.IsNullOrWhiteSpace(search))
        {
            var term = search.Trim();
            students = students.Where(s => s.LastName.Contains(term) || s.FirstMidName.Contains(term));
        }

        var rows = students
            .OrderBy(s => s.LastName).ThenBy(s => s.FirstMidName).ThenBy(s => s.Id)
            .Select(s => new StudentResponse(
                s.Id, s.LastName, s.FirstMidName, s.FirstMidName + " " + s.LastName,
                s.Email, s.EnrollmentDate, s.Enrollments.Count));
        return PagedResponse<StudentResponse>.CreateAsync(rows, page, ct);
    }

    public async Task<StudentResponse?> FindAsync(int id, CancellationToken ct)
    {
        var student = await _db.Students
            .Include(s => s.Enrollments)
            .AsNoTracking()
            .FirstOrDefaultAsync(s => s.Id == id, ct);
        return student is null ? null : StudentResponse.From(student);
    }

    public async Task<StudentResponse> CreateAsync(CreateStudentRequest request, CancellationToken ct)
    {
        var student = new Student
        {
            LastName = request.LastName.Trim(),
            FirstMidName = request.FirstMidName.Trim(),
            Email = string.IsNullOrWhiteSpace(request.Email) ? null : request.Email.Trim(),
            EnrollmentDate = request.EnrollmentDate,
        };
        _db.Students.Add(student);
        await _db.SaveChangesAsync(ct);
        _logger.LogInformation("Created student {Id}", student.Id);
        return StudentResponse.From(student);
    }

    public async Task<StudentResponse?> UpdateAsync(int id, UpdateStudentRequest request, CancellationToken ct)
    {
        var student = await _db.Students
            .Include(s => s.Enrollments)
            .FirstOrDefaultAsync(s => s.Id == id, ct);
        if (student is null)
        {
            return null;
        }

        student.LastName = request.LastName?.Trim() ?? student.LastName;
        student.FirstMidName = request.FirstMidName?.Trim() ?? student.FirstMidName;
        student.Email = request.Email is null ? student.Email : request.Email.Trim();
        student.EnrollmentDate = request.EnrollmentDate.GetValueOrDefault();

        await _db.SaveChangesAsync(ct);
        return StudentResponse.From(student);
    }

    public async Task<bool> DeleteAsync(int id, CancellationToken ct)
    {
        var student = await _db.Students.FindAsync(new object[] { id }, ct);
        if (student is null)
        {
            return false;
        }
        _db.Students.Remove(student);
        await _db.SaveChangesAsync(ct);
        return true;
    }
}
