using ContosoApi.Requests;
using ContosoApi.Responses;
using ContosoApi.Services;
using FluentValidation;
using FluentValidation.AspNetCore;
using Microsoft.AspNetCore.Mvc;

namespace ContosoApi.Controllers;

[ApiController]
[Route("api/students")]
public class StudentsController : ControllerBase
{
    private readonly StudentService _students;
    private readonly IValidator<CreateStudentRequest> _createValidator;
    private readonly IValidator<UpdateStudentRequest> _updateValidator;
    private readonly IValidator<PageRequest> _pageValidator;

    public StudentsController(
        StudentService students,
        IValidator<CreateStudentRequest> createValidator,
        IValidator<UpdateStudentRequest> updateValidator,
        IValidator<PageRequest> pageValidator)
    {
        _students = students;
        _createValidator = createValidator;
        _updateValidator = updateValidator;
        _pageValidator = pageValidator;
    }

    // GET api/students?page=1&pageSize=20&search=tan
    [HttpGet]
    public async Task<ActionResult<PagedResponse<StudentResponse>>> List(
        [FromQuery] PageRequest page, [FromQuery] string? search, CancellationToken ct)
    {
        var validation = await _pageValidator.ValidateAsync(page, ct);
        if (!validation.IsValid)
        {
            validation.AddToModelState(ModelState);
            return ValidationProblem(ModelState);
        }
        return await _students.ListAsync(page, search, ct);
    }

    // GET api/students/5
    [HttpGet("{id:int}")]
    public async Task<ActionResult<StudentResponse>> Get(int id, CancellationToken ct)
    {
        var student = await _students.FindAsync(id, ct);
        return student is null ? NotFound() : student;
    }

    // POST api/students
    [HttpPost]
    public async Task<ActionResult<StudentResponse>> Create(CreateStudentRequest request, CancellationToken ct)
    {
        var validation = await _createValidator.ValidateAsync(request, ct);
        if (!validation.IsValid)
        {
            validation.AddToModelState(ModelState);
            return ValidationProblem(ModelState);
        }

        var student = await _students.CreateAsync(request, ct);
        return CreatedAtAction(nameof(Get), new { id = student.Id }, student);
    }

    // PATCH api/students/5
    [HttpPatch("{id:int}")]
    public async Task<ActionResult<StudentResponse>> Update(int id, UpdateStudentRequest request, CancellationToken ct)
    {
        var validation = await _updateValidator.ValidateAsync(request, ct);
        if (!validation.IsValid)
        {
            validation.AddToModelState(ModelState);
            return ValidationProblem(ModelState);
        }

        var student = await _students.UpdateAsync(id, request, ct);
        return student is null ? NotFound() : student;
    }

    // DELETE api/students/5
    [HttpDelete("{id:int}")]
    public async Task<IActionResult> Delete(int id, CancellationToken ct)
    {
        return await _students.DeleteAsync(id, ct) ? NoContent() : NotFound();
    }
}
