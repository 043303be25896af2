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
[Route("api/courses")]
public class CoursesController : ControllerBase
{
    private readonly SchoolDbContext _db;
    private readonly IValidator<CourseRequest> _validator;

    public CoursesController(SchoolDbContext db, IValidator<CourseRequest> validator)
    {
        _db = db;
        _validator = validator;
    }

    // GET api/courses?department=Mathematics
    [HttpGet]
    public async Task<IEnumerable<CourseResponse>> List([FromQuery] string? department, CancellationToken ct)
    {
        var courses = _db.Courses.AsNoTracking();
        if (!string.IsNullOrEmpty(department))
        {
            courses = courses.Where(c => c.Department == department);
        }
        return await courses
            .OrderBy(c => c.Id)
            .Select(c => new CourseResponse(c.Id, c.Title, c.Credits, c.Department))
            .ToListAsync(ct);
    }

    // GET api/courses/1050
    [HttpGet("{id:int}")]
    public async Task<ActionResult<CourseResponse>> Get(int id, CancellationToken ct)
    {
        var course = await _db.Courses.FindAsync(new object[] { id }, ct);
        return course is null ? NotFound() : CourseResponse.From(course);
    }

    // POST api/courses
    [HttpPost]
    public async Task<ActionResult<CourseResponse>> Create(CourseRequest request, CancellationToken ct)
    {
        var validation = await _validator.ValidateAsync(request, ct);
        if (!validation.IsValid)
        {
            validation.AddToModelState(ModelState);
            return ValidationProblem(ModelState);
        }
        if (await _db.Courses.AnyAsync(c => c.Id == request.Id, ct))
        {
            return Conflict(new ProblemDetails { Title = $"Course {request.Id} already exists." });
        }

        var course = new Course
        {
            Id = request.Id,
            Title = request.Title.Trim(),
            Credits = request.Credits,
            Department = request.Department,
        };
        _db.Courses.Add(course);
        await _db.SaveChangesAsync(ct);
        return CreatedAtAction(nameof(Get), new { id = course.Id }, CourseResponse.From(course));
    }

    // PUT api/courses/1050
    [HttpPut("{id:int}")]
    public async Task<ActionResult<CourseResponse>> Update(int id, CourseRequest request, CancellationToken ct)
    {
        if (request.Id != id)
        {
            ModelState.AddModelError(nameof(CourseRequest.Id), "The course number cannot change.");
            return ValidationProblem(ModelState);
        }
        var validation = await _validator.ValidateAsync(request, ct);
        if (!validation.IsValid)
        {
            validation.AddToModelState(ModelState);
            return ValidationProblem(ModelState);
        }

        var course = await _db.Courses.FindAsync(new object[] { id }, ct);
        if (course is null)
        {
            return NotFound();
        }
        course.Title = request.Title.Trim();
        course.Credits = request.Credits;
        course.Department = request.Department;
        await _db.SaveChangesAsync(ct);
        return CourseResponse.From(course);
    }
}
