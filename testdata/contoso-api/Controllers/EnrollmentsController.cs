using ContosoApi.Data;
using ContosoApi.Domain;
using ContosoApi.Requests;
using ContosoApi.Responses;
using FluentValidation;
using FluentValidation.AspNetCore;
using Microsoft.AspNetCore.Mvc;
using Microsoft.EntityFrameworkCore;

namespace ContosoApi.Controllers;

[ApiController]
[Route("api/enrollments")]
public class EnrollmentsController : ControllerBase
{
    private readonly SchoolDbContext _db;
    private readonly IValidator<EnrollmentRequest> _validator;

    public EnrollmentsController(SchoolDbContext db, IValidator<EnrollmentRequest> validator)
    {
        _db = db;
        _validator = validator;
    }

    // GET api/enrollments?studentId=3
    [HttpGet]
    public async Task<IEnumerable<EnrollmentResponse>> List([FromQuery] int? studentId, [FromQuery] int? courseId, CancellationToken ct)
    {
        var enrollments = _db.Enrollments
            .Include(e => e.Student)
            .Include(e => e.Course)
            .AsNoTracking();
        if (studentId is not null)
        {
            enrollments = enrollments.Where(e => e.StudentId == studentId);
        }
        if (courseId is not null)
        {
            enrollments = enrollments.Where(e => e.CourseId == courseId);
        }

        var rows = await enrollments.OrderBy(e => e.Id).ToListAsync(ct);
        return rows.Select(EnrollmentResponse.From);
    }

    // GET api/enrollments/12
    [HttpGet("{id:int}")]
    public async Task<ActionResult<EnrollmentResponse>> Get(int id, CancellationToken ct)
    {
        var enrollment = await _db.Enrollments
            .Include(e => e.Student)
            .Include(e => e.Course)
            .AsNoTracking()
            .FirstOrDefaultAsync(e => e.Id == id, ct);
        return enrollment is null ? NotFound() : EnrollmentResponse.From(enrollment);
    }

    // POST api/enrollments
    [HttpPost]
    public async Task<ActionResult<EnrollmentResponse>> Create(EnrollmentRequest request, CancellationToken ct)
    {
        var validation = await _validator.ValidateAsync(request, ct);
        if (!validation.IsValid)
        {
            validation.AddToModelState(ModelState);
            return ValidationProblem(ModelState);
        }

        var student = await _db.Students.FindAsync(new object[] { request.StudentId }, ct);
        var course = await _db.Courses.FindAsync(new object[] { request.CourseId }, ct);
        if (student is null || course is null)
        {
            return NotFound(new ProblemDetails { Title = "No such student or course." });
        }

        var enrollment = new Enrollment { Student = student, Course = course, Grade = request.Grade };
        _db.Enrollments.Add(enrollment);
        await _db.SaveChangesAsync(ct);
        return CreatedAtAction(nameof(Get), new { id = enrollment.Id }, EnrollmentResponse.From(enrollment));
    }

    // DELETE api/enrollments/12
    [HttpDelete("{id:int}")]
    public async Task<IActionResult> Delete(int id, CancellationToken ct)
    {
        var enrollment = await _db.Enrollments.FindAsync(new object[] { id }, ct);
        if (enrollment is null)
        {
            return NotFound();
        }
        _db.Enrollments.Remove(enrollment);
        await _db.SaveChangesAsync(ct);
        return NoContent();
    }
}
